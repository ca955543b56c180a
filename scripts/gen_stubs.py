#!/usr/bin/env python3
"""Writes the type stubs (.pyi) of the compiled module from the built extension (issue 18).

pybind11-stubgen is not packaged by Debian, so this is a small generator on inspect and the signatures
pybind11 writes at the top of every docstring ("name(arg: type = default) -> type"). One stub per submodule
(python/bristle/laws.pyi, ... as `import bristle.laws` resolves them) and python/bristle/_bristle.pyi for the
top level of the extension; python/bristle/py.typed marks the package as typed (PEP 561).

    PYTHONPATH=build/release/python /usr/bin/python3 scripts/gen_stubs.py [--out python/bristle] [--check]

--check compares with the committed stubs instead of writing them (exit 1 if they differ);
tests/python/test_stubs.py checks that every public name has a stub.
"""

import argparse
import inspect
import re
import sys
import warnings
from pathlib import Path

SUBMODULES = ("laws", "rheology", "contact", "integrate", "transport", "io", "parallel", "directional",
              "structures", "patch")


def clean_type(text: str, here: str) -> str:
    """A pybind11 type as stub source: own classes by name (qualified across submodules), numpy types as
    numpy.ndarray, and the untyped handle/object as Any."""
    while "numpy.ndarray[" in text:  # numpy.ndarray[numpy.float64[2, 1]] -> numpy.ndarray (brackets matched)
        start = text.index("numpy.ndarray[") + len("numpy.ndarray")
        depth, end = 0, start
        for end in range(start, len(text)):
            depth += {"[": 1, "]": -1}.get(text[end], 0)
            if depth == 0:
                break
        text = text[:start] + text[end + 1:]
    text = re.sub(r"\bbristle\._bristle\.(\w+)\.(\w+)", lambda m: m.group(2) if m.group(1) == here
                  else f"{m.group(1)}.{m.group(2)}", text)
    text = re.sub(r"\bbristle\._bristle\.(\w+)", r"\1", text)
    text = re.sub(r"\b(handle|object|capsule|args|kwargs)\b(?!\.)", "Any", text)
    text = text.replace("numpy.float64", "float")
    return text


def split_args(arglist: str):
    """Splits 'a: int, b: List[int] = [1, 2]' at the top-level commas."""
    out, depth, cur = [], 0, ""
    for ch in arglist:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def stub_args(arglist: str, here: str) -> str:
    parts = []
    for a in split_args(arglist):
        if a in ("*", "/") or a.startswith("*"):
            if a.startswith("**"):
                parts.append("**kwargs: Any")
            elif a.startswith("*") and a != "*":
                parts.append("*args: Any")
            else:
                parts.append(a)
            continue
        name, _, rest = a.partition(":")
        typ, eq, default = rest.partition("=")
        name = name.strip()
        typ = clean_type(typ.strip(), here) or "Any"
        parts.append(f"{name}: {typ}" + (" = ..." if eq else ""))
    return ", ".join(parts)


SIG = re.compile(r"^(\w+)\((.*)\)(?: -> (.+))?$")


def signatures(obj, name: str, here: str):
    """The (args, return) of every overload from a pybind11 docstring."""
    lines = (inspect.getdoc(obj) or "").splitlines()
    if lines and lines[0].strip() == "Overloaded function.":
        candidates = [re.sub(r"^\d+\. ", "", l.strip()) for l in lines if re.match(r"^\d+\. \w+\(", l.strip())]
    else:
        candidates = lines[:1]
    sigs = []
    for line in candidates:
        m = SIG.match(line.strip())
        if m and m.group(1) == name:
            sigs.append((stub_args(m.group(2), here), clean_type(m.group(3) or "None", here)))
    return sigs or [("*args: Any, **kwargs: Any", "Any")]


def function_stub(obj, name: str, here: str, indent: str = "", method: bool = False, static: bool = False):
    out = []
    sigs = signatures(obj, name, here)
    if method and name == "__init__" and sigs == [("*args: Any, **kwargs: Any", "Any")]:
        return []  # pybind11's default __init__ of a class without a constructor: nothing to declare
    for args, ret in sigs:
        if len(sigs) > 1:
            out.append(f"{indent}@overload")
        if static:
            out.append(f"{indent}@staticmethod")
            args = re.sub(r"^self(: [^,]*)?(, )?", "", args)
        args = re.sub(r"^self: Any\b", "self", args)  # enum methods take self as object
        if name == "__eq__":  # the data model's signature: any object in, a bool out
            args = "self, other: object" if args == "*args: Any, **kwargs: Any" else args
            args, ret = re.sub(r"(^|, )(\w+): Any$", r"\1\2: object", args), "bool"
        out.append(f"{indent}def {name}({args}) -> {ret}: ...")
    return out


def default_value_type(cls, name: str, here: str) -> str:
    """The type of attribute `name` of a default-constructed `cls` (Any when it has no default constructor or
    the value is None): the schema classes' properties carry their key's doc instead of a signature."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = getattr(cls(), name)
    except Exception:
        return "Any"
    t = type(value)
    if value is None:
        return "Any"
    if t in (float, int, bool, str, list, dict, tuple):
        return t.__name__
    if t.__module__ == "numpy":  # an array, or a numpy scalar by its kind
        if t.__name__ == "ndarray":
            return "numpy.ndarray"
        return "bool" if t.__name__ == "bool_" else "int" if "int" in t.__name__ else "float"
    return clean_type(f"{t.__module__}.{t.__qualname__}", here)


def class_stub(cls, here: str):
    members = cls.__members__ if hasattr(cls, "__members__") else None
    lines = [f"class {cls.__name__}:"]
    if members is not None:
        for m in members:
            lines.append(f"    {m}: {cls.__name__}")
    for name, v in vars(cls).items():
        if name.startswith("_") and name not in ("__init__", "__call__", "__getitem__", "__len__", "__iter__",
                                                 "__eq__", "__getstate__", "__setstate__"):
            continue
        if members is not None and name in members:
            continue
        if isinstance(v, property):
            ret = "Any"
            if v.fget is not None:  # pybind11 getter docs start "(self: X) -> type"
                doc = inspect.getdoc(v.fget) or ""
                m = re.match(r"^\((?:self|arg0): [^)]*\) -> (.+)$", doc.splitlines()[0] if doc else "")
                ret = clean_type(m.group(1), here) if m else "Any"
            if ret == "Any" and members is not None and name in ("name", "value"):
                ret = "str" if name == "name" else "int"  # an enum's name and value
            if ret == "Any":  # a property documented in words (the schema's doc): the type of its default
                ret = default_value_type(cls, name, here)
            lines.append(f"    {name}: {ret}")
        elif isinstance(v, staticmethod) or type(v).__name__ == "builtin_function_or_method":
            lines += function_stub(getattr(cls, name), name, here, "    ", static=True)
        elif callable(v):
            lines += function_stub(v, name, here, "    ", method=True)
    if len(lines) == 1:
        lines.append("    ...")
    return lines


def module_stub(mod, here: str, header: str):
    lines = [f'"""{header} (generated by scripts/gen_stubs.py from the built module; do not edit)."""',
             "from typing import Any, Callable, overload", "import numpy", ""]
    others = [s for s in SUBMODULES if s != here]
    lines.append("from . import " + ", ".join(others))
    lines.append("")
    for name, v in sorted(vars(mod).items()):
        if name.startswith("_") or inspect.ismodule(v):
            continue
        if inspect.isclass(v):
            lines += class_stub(v, here) + [""]
        elif callable(v):
            lines += function_stub(v, name, here) + [""]
        else:
            lines.append(f"{name}: {type(v).__name__}")
    return "\n".join(lines).rstrip() + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "python" / "bristle"))
    ap.add_argument("--check", action="store_true", help="compare with the committed stubs, write nothing")
    args = ap.parse_args()
    from bristle import _bristle
    stubs = {"_bristle.pyi": module_stub(_bristle, "", "bristle._bristle: the compiled core")}
    for s in SUBMODULES:
        stubs[f"{s}.pyi"] = module_stub(getattr(_bristle, s), s, f"bristle.{s}")
    out = Path(args.out)
    differ = []
    for name, text in stubs.items():
        path = out / name
        if args.check:
            if not path.exists() or path.read_text() != text:
                differ.append(name)
        else:
            path.write_text(text)
    if not args.check:
        (out / "py.typed").write_text("")
    if differ:
        print("stubs out of date (run scripts/gen_stubs.py):", ", ".join(differ), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
