"""help() of every public callable ends in an Example section (issue 18, Build item 4), and every Example
section runs (test_example_runs, below). A public callable without one fails
test_every_public_callable_has_an_example; `PYTHONPATH=build/release/python /usr/bin/python3
tests/python/test_help_examples.py` lists those that lack one.
"""

import doctest
import inspect
import math
import pathlib
import re
import sys

import numpy
import pytest

import bristle
from bristle import _bristle



def public_callables():
    """(qualified name, docstring) of every public function, class and method of the compiled module."""
    mods = [_bristle] + sorted((getattr(_bristle, s) for s in dir(_bristle) if inspect.ismodule(getattr(_bristle, s))),
                               key=lambda m: m.__name__)
    out = {}
    for m in mods:
        for name, v in sorted(vars(m).items()):
            if name.startswith("_"):
                continue
            if inspect.isclass(v):
                if issubclass(v, BaseException):
                    continue
                out[f"{m.__name__}.{name}"] = v.__doc__ or ""
                for attr, a in sorted(vars(v).items()):
                    if attr.startswith("_") or not callable(a) or hasattr(v, "__members__") and attr in v.__members__:
                        continue
                    # The docstring help() shows: through the class, so that a static method gives its own
                    # docstring (the staticmethod descriptor's __doc__ is the generic one of `staticmethod`).
                    out[f"{m.__name__}.{name}.{attr}"] = getattr(getattr(v, attr), "__doc__", "") or ""
            elif callable(v):
                out[f"{m.__name__}.{name}"] = v.__doc__ or ""
    return out


def without_example():
    return sorted(q for q, doc in public_callables().items() if "Example" not in doc)


def test_every_public_callable_has_an_example():
    missing = without_example()
    assert not missing, f"public callables without an Example section in their docstring: {missing}"


def test_the_walk_sees_the_module():
    names = public_callables()
    assert "bristle._bristle.contact.Contact.step" in names or any(q.endswith("Contact.step") for q in names)
    assert "Example" in bristle.Contact.set_energy_tracking.__doc__
    assert len(names) > 300


# --- The examples run -----------------------------------------------------------------------------------
# Every Example section of the compiled module is executed, as those of bristle.papers are (in
# test_conventions.py): a doctest block (">>> " lines, their printed output compared, with ELLIPSIS and
# NORMALIZE_WHITESPACE) or, in the short form "Example: ``expression``", each ``...`` after "Example" in turn.
# Each docstring runs in a fresh namespace holding what an example may assume (docs/python.md, section 16):
# `import math, numpy, numpy as np, bristle`, the names of `from bristle import *`, and the submodules
# `papers`, `patch`, `directional`, `structures`, `transport`, `io`, `laws`, `rheology`, `contact`; the current
# directory is the source tree (examples/*.toml). An example that does not run is a failure, so help() never
# shows one that would not work.


_INLINE = re.compile(r"``(.+?)``", re.S)


def example_namespace():
    from bristle import papers
    ns = {"math": math, "numpy": numpy, "np": numpy, "bristle": bristle, "papers": papers}
    ns.update({k: getattr(bristle, k) for k in bristle.__all__})
    for s in ("patch", "directional", "structures", "transport", "io", "laws", "rheology", "contact", "integrate",
              "parallel"):
        ns[s] = getattr(_bristle, s)
    return ns


def examples_of(doc):
    """('doctest', text) or ('inline', [code, ...]) of a docstring's Example section, or None."""
    at = doc.find("Example")
    if at < 0:
        return None
    if ">>>" in doc[at:]:
        return "doctest", doc
    return "inline", _INLINE.findall(doc[at:])


def _with_examples():
    return sorted((q, d) for q, d in public_callables().items() if "Example" in d)


@pytest.mark.parametrize("qualname", [q for q, _ in _with_examples()])
def test_example_runs(qualname, monkeypatch):
    monkeypatch.chdir(pathlib.Path(__file__).resolve().parents[2])
    doc = public_callables()[qualname]
    kind, body = examples_of(doc)
    if kind == "doctest":
        test = doctest.DocTestParser().get_doctest(body, example_namespace(), qualname, qualname, 0)
        assert test.examples, f"{qualname}: an Example section without >>> lines"
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        out = []
        runner.run(test, out=out.append)
        assert runner.failures == 0, f"{qualname}: the example fails:\n" + "".join(out)
    else:
        assert body, f"{qualname}: 'Example' without a ``...`` or >>> example"
        ns = example_namespace()
        for code in body:
            if code.strip() in ("...",):
                continue
            exec(compile(code, qualname, "exec"), ns)  # noqa: S102 -- the module's own documentation


if __name__ == "__main__":
    q = public_callables()
    missing = without_example()
    print(f"{len(q)} public callables, {len(missing)} without an Example", file=sys.stderr)
    print("\n".join(missing))
