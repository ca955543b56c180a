"""bristle: dynamic friction models, from a single bristle to a rolling tyre.

The compiled core (``bristle._bristle``, pybind11) mirrors the C++ library's namespaces as
submodules, importable as ``bristle.laws``, ``bristle.rheology``, ``bristle.contact``,
``bristle.integrate``, ``bristle.transport``, ``bristle.patch`` (paper 1, §4: the 2-D contact patch),
``bristle.directional`` (paper 2), ``bristle.structures`` (paper 3) and ``bristle.io``; the common
classes and functions are also available at the top level (``bristle.ContactModel``, ``bristle.gkv``, ...), and
``bristle.get(scenario, "law.mu_s")`` / ``bristle.set(scenario, "body1.k0", 2e5)`` read and change one numeric
key of a parsed scenario by its TOML key path, with the reader's checks. Pure-Python parts:

- ``bristle.sweeps``   parameter sweeps on all cores (``sweep_steady_line``, ``sweep_steady_lumped``)
- ``bristle.papers``   parameter tables of the papers and their closed forms (eqs. 57, 62)
- ``bristle.gallery``  ``python3 -m bristle.gallery --out DIR`` regenerates every reproduced figure

Units are SI throughout and named in docstrings and column names (``t_s``, ``F_N``, ``v_mps``).
Errors: ``bristle.InvalidInput`` (a ``ValueError``) and ``bristle.SolverError`` (a ``RuntimeError``)
carry the library's messages.
"""

import sys as _sys

from . import _bristle
from ._bristle import InvalidInput, SolverError, TimeSeries, __version__
from ._bristle import format_value, regularised_abs, regularised_norm, regularised_sign, rotation
from ._bristle import fit
from ._bristle import contact, directional, integrate, io, laws, parallel, patch, rheology, structures, transport

# `import bristle.laws` etc. work like real submodules.
for _name in ("laws", "rheology", "contact", "integrate", "transport", "io", "parallel", "directional",
              "structures", "patch"):
    _sys.modules[__name__ + "." + _name] = getattr(_bristle, _name)

from .laws import (CoulombStribeck, CoulombStribeckParams, FrictionCoefficient, FrictionLaw,  # noqa: E402
                   LawKind, LawParams, StribeckParams, stribeck_mu)
from .rheology import (Branch, ContactPair, Realisation, RheologyKind, RheologyParams, compliance,  # noqa: E402
                       elastic, gkv, gm, gm_equivalent_of_gkv, realise, rigid, substrate_stiffness_from_s)
from .contact import (Bench, BenchParams, BenchRun, Contact, ContactArray, ContactModel, DriveKind,  # noqa: E402
                      Signal, SignalKind, StickSlipCycle, TextbookParams, breakaway, derived_quantities, peak_abs,
                      stick_slip_cycle, textbook_model)
from .integrate import IntegratorOptions, Method, Stats  # noqa: E402
from .transport import (LineContact, LineContactParams, LineRun, Limiter, Pressure, PressureKind,  # noqa: E402
                        PressureParams, SourceScheme, SteadyLine, characteristic_speeds)
from .io import (KeyInfo, OutputError, RunResult, Scenario, key_info, load_scenario,  # noqa: E402
                 numeric_keys, parse_scenario_string, scenario_kinds)
# Key paths on a parsed scenario: bristle.get(case, "law.mu_s"), bristle.set(case, "body1.k0", 2e5). Not in
# __all__: `from bristle import *` must not shadow the builtin set (get stays beside it).
from .io import get, set  # noqa: E402,A004

run_bench = contact.run
run_line = transport.run
steady_line = transport.steady_state

from . import _conventions  # noqa: E402,F401  (readable reprs; the rebuilding functions of pickles)
from . import papers  # noqa: E402
from .sweeps import (EpsilonSweepResult, StickSlipSweepResult, SweepResult, sweep_sliding_force,  # noqa: E402
                     sweep_steady_line, sweep_steady_lumped, sweep_stick_slip)

del _name

__all__ = [
    "InvalidInput", "SolverError", "OutputError", "TimeSeries", "__version__",
    "format_value", "regularised_abs", "regularised_norm", "regularised_sign", "rotation",
    "laws", "rheology", "contact", "integrate", "transport", "io", "parallel", "papers", "directional", "structures",
    "patch",
    "CoulombStribeck", "CoulombStribeckParams",
    "FrictionCoefficient", "FrictionLaw", "LawKind", "LawParams", "StribeckParams", "stribeck_mu",
    "Branch", "ContactPair", "Realisation", "RheologyKind", "RheologyParams", "compliance", "elastic", "gkv", "gm",
    "gm_equivalent_of_gkv", "realise", "rigid", "substrate_stiffness_from_s",
    "Bench", "BenchParams", "BenchRun", "ContactModel", "DriveKind", "Signal", "SignalKind", "StickSlipCycle",
    "breakaway", "derived_quantities", "peak_abs", "stick_slip_cycle", "run_bench", "TextbookParams", "textbook_model",
    "IntegratorOptions", "Method", "Stats",
    "LineContact", "LineContactParams", "LineRun", "Limiter", "Pressure", "PressureKind", "PressureParams",
    "SourceScheme", "SteadyLine", "characteristic_speeds", "run_line", "steady_line",
    "RunResult", "Scenario", "load_scenario", "parse_scenario_string", "scenario_kinds",
    "KeyInfo", "key_info", "numeric_keys",
    "SweepResult", "sweep_steady_line", "sweep_steady_lumped",
    "EpsilonSweepResult", "sweep_sliding_force", "StickSlipSweepResult", "sweep_stick_slip",
    "fit",
]
