"""Readable reprs, and the rebuilding functions of pickles (issue 18).

Every parameter class gets its pickling, equality and repr from its ``serialize()`` in the compiled module
(python/src/schema_py.hpp). Until 2026-12-06 the classes without a schema were pickled here by their attributes;
``_rebuild`` stays so that those pickles still load. Every other class of the module that would print as
``<... object at 0x...>`` (results, models, solvers) gets a readable repr over its properties, and models whose
rebuilding function is compiled pickle through ``call_factory``.
"""

import reprlib
import warnings

import numpy as np

from . import _bristle


def properties(cls, settable_only: bool = False):
    """Public property names of a bound class and its bases, in definition order (only the assignable ones, its
    parameters, with settable_only)."""
    names = []
    for klass in reversed(cls.__mro__):
        for name, v in vars(klass).items():
            if (isinstance(v, property) and not name.startswith("_") and name not in names
                    and (v.fset is not None or not settable_only)):
                names.append(name)
    return names


def lacks_repr(cls) -> bool:
    """True when `cls` would print as <... object at 0x...>: no class of its own defines __repr__."""
    return all("__repr__" not in vars(k) for k in cls.__mro__ if k.__name__ not in ("object", "pybind11_object"))


def _rebuild(cls, state):
    # A pickle made before its class was bound from its schema (e.g. ProfileParams, LineContactParams): every
    # attribute, whether or not it applies to the object's type, restored without the does-not-apply warnings, as
    # unpickling is.
    obj = cls()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for name, value in state.items():
            setattr(obj, name, value)
    return obj


def _source(value) -> str:
    """Python source of an attribute value: enums as Class.member, the rest by repr."""
    members = getattr(type(value), "__members__", None)
    if members is not None and hasattr(value, "name"):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, float):
        return repr(value) if np.isfinite(value) else f"float({str(value)!r})"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_source(v) for v in value) + "]"
    return repr(value)


# Every class of the module that would print as <... object at 0x...> (results, models, solvers): a
# readable repr, Class(attribute=value, ...) over its properties, arrays summarised as numpy does. It shows what
# the object holds; it reads back only where the class's constructor takes those keywords (results have no
# Python constructor: they come from a run), so the repr round trip is tested on the parameter classes.
SUBMODULES = ("contact", "laws", "rheology", "integrate", "transport", "patch", "directional", "structures", "io",
              "parallel")
_FIELD_REPR_MAX = 160  # characters per attribute; longer values are cut with "..."


def _field_repr(value) -> str:
    if isinstance(value, np.ndarray):
        with np.printoptions(threshold=8, edgeitems=3, precision=6):
            text = repr(value)
    elif isinstance(value, (list, tuple)) and len(value) > 8:
        head = ", ".join(_field_repr(v) for v in value[:3])
        text = f"[{head}, ...] ({len(value)} items)"
    else:
        text = _source(value)
    text = " ".join(text.split())
    return text if len(text) <= _FIELD_REPR_MAX else text[:_FIELD_REPR_MAX - 3] + "..."


@reprlib.recursive_repr()
def _readable_repr(self):
    parts = []
    for n in properties(type(self)):
        try:
            value = getattr(self, n)
        except Exception:  # a property that does not apply to this object (e.g. a state not computed)
            continue
        parts.append(f"{n}={_field_repr(value)}")
    return f"{type(self).__name__}(" + ", ".join(parts) + ")"


def install_readable_reprs() -> None:
    for sub in SUBMODULES:
        mod = getattr(_bristle, sub, None)
        for cls in list(vars(mod).values()) if mod is not None else []:
            if isinstance(cls, type) and not hasattr(cls, "__members__") and lacks_repr(cls):
                cls.__repr__ = _readable_repr


install_readable_reprs()


def call_factory(path, *args):
    """Rebuilds a pickled object by calling the compiled module's function `path` (below bristle._bristle, e.g.
    "rheology.realise") with `args`: the __reduce__ of a model whose rebuilding function is compiled (pickle
    cannot refer to a compiled function itself)."""
    target = _bristle
    for part in path.split("."):
        target = getattr(target, part)
    return target(*args)


def call_factory_kw(path, kwargs, *args):
    """call_factory with keyword arguments: `path`(*args, **kwargs) (e.g. Profile.custom's keyword-only
    harmonics)."""
    target = _bristle
    for part in path.split("."):
        target = getattr(target, part)
    return target(*args, **kwargs)


def build_then_call(cls, args, method, method_args):
    """cls(*args), then its `method`(*method_args): the __reduce__ of an object rebuilt from its arguments and then
    put in its state by a public method (PatchTransient: reset(t0))."""
    obj = cls(*args)
    getattr(obj, method)(*method_args)
    return obj
