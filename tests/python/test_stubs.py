"""The type stubs shipped with the package (issue 18, item 4): generated from the built module by
scripts/gen_stubs.py, committed in python/bristle/*.pyi, installed with the package (py.typed)."""

import ast
import importlib.util
import inspect
import os
from pathlib import Path

import pytest

import bristle
from bristle import _bristle

SOURCE = Path(os.environ.get("BRISTLE_SOURCE_DIR", Path(__file__).resolve().parents[2]))
SUBMODULES = ("laws", "rheology", "contact", "integrate", "transport", "io", "parallel", "directional",
              "structures", "patch")


def _generator():
    spec = importlib.util.spec_from_file_location("gen_stubs", SOURCE / "scripts" / "gen_stubs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _definitions(path: Path):
    """{name: set of member names} of the top-level definitions of a stub."""
    tree = ast.parse(path.read_text())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    members.add(item.target.id)
            out[node.name] = members
        elif isinstance(node, ast.FunctionDef):
            out[node.name] = set()
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = set()
    return out


@pytest.mark.parametrize("sub", ("",) + SUBMODULES)
def test_every_public_name_has_a_stub(sub):
    module = getattr(_bristle, sub) if sub else _bristle
    stub = Path(bristle.__file__).parent / f"{sub or '_bristle'}.pyi"
    assert stub.exists(), f"{stub} is not installed with the package"
    defs = _definitions(stub)
    for name, value in vars(module).items():
        if name.startswith("_") or inspect.ismodule(value):
            continue
        assert name in defs, f"bristle.{sub}.{name} has no stub (run scripts/gen_stubs.py)"
        if inspect.isclass(value):
            for member, v in vars(value).items():
                if member.startswith("_") and member not in ("__init__", "__call__", "__getitem__", "__len__"):
                    continue
                if member == "__init__" and type(v).__name__ == "wrapper_descriptor":
                    continue  # pybind11's default __init__ of a class without a Python constructor: no stub
                if callable(v) or isinstance(v, property):
                    assert member in defs[name], f"bristle.{sub}.{name}.{member} has no stub"


def test_the_package_is_typed():
    assert (Path(bristle.__file__).parent / "py.typed").exists()


def test_the_committed_stubs_are_those_of_the_module():
    gen = _generator()
    committed = SOURCE / "python" / "bristle"
    assert gen.module_stub(_bristle, "", "bristle._bristle: the compiled core") == (committed / "_bristle.pyi").read_text()
    for sub in SUBMODULES:
        text = gen.module_stub(getattr(_bristle, sub), sub, f"bristle.{sub}")
        assert text == (committed / f"{sub}.pyi").read_text(), f"{sub}.pyi is out of date: run scripts/gen_stubs.py"


# Signatures whose arguments or result the stubs can only type as Any (a py::handle / py::object in the binding,
# shown as "handle" / "object" by help()). 222 of the 539 stub signatures on 2026-12-03 (98 of them outside the
# dunder methods); the named argument types of python/src/common.hpp (docs/python.md, "Real signatures") brought
# them to 112 of 575 on 2026-12-04, 6 outside the dunder methods (__eq__(other: object), the generic __init__ and
# __getstate__ of the pickling protocol); 0 since 2026-12-05 (the data model's __eq__(self, other: object) -> bool,
# no __init__ for a class without a constructor, typed patch point evaluations and Structure factories). A new
# untyped signature fails.
UNTYPED_CEILING = 0


def untyped_signatures():
    import re
    out = []
    for stub in sorted((SOURCE / "python" / "bristle").glob("*.pyi")):
        for line in stub.read_text().splitlines():
            text = line.strip()
            if not text.startswith("def "):
                continue
            rest = re.sub(r"\*\*kwargs: Any|\*args: Any|Callable\[\.\.\., Any\]", "", text)
            if re.search(r"\bAny\b", rest):
                out.append(f"{stub.name}: {text}")
    return out


def test_untyped_signatures_do_not_grow():
    untyped = untyped_signatures()
    assert len(untyped) <= UNTYPED_CEILING, "new untyped (handle/object) signatures:\n" + "\n".join(untyped)
