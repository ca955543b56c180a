"""Python conventions (issue 18, Build item 4): every class the module exports pickles and its repr reads
back, parameter names are the TOML keys.

The classes are enumerated from the module, so a new class fails test_every_class_is_accounted_for until
it has a sample here (and pickles) or is listed in NOT_PICKLED with the reason.
"""

import inspect
import pickle
import warnings

import numpy as np
import pytest

import bristle
from bristle import _bristle, papers
from bristle import directional as d
from bristle import patch as bp
from bristle import structures as st

SUBMODULES = ("laws", "rheology", "contact", "integrate", "transport", "io", "parallel", "directional",
              "structures", "patch")


def exported_classes():
    """Every class of the compiled module (top level and submodules), exceptions and enums apart."""
    seen = {}
    for mod in [_bristle] + [getattr(_bristle, s) for s in SUBMODULES]:
        for name, value in vars(mod).items():
            if inspect.isclass(value) and value.__module__.startswith("bristle") and \
                    not issubclass(value, BaseException) and not hasattr(value, "__members__"):
                seen[f"{value.__module__.split('.')[-1]}.{name}"] = value
    return seen


def exported_enums():
    out = []
    for mod in [getattr(_bristle, s) for s in SUBMODULES]:
        out += [v for v in vars(mod).values() if inspect.isclass(v) and hasattr(v, "__members__")]
    return out


def _with(obj, **attributes):
    for k, v in attributes.items():
        setattr(obj, k, v)
    return obj


# Samples with non-default values (a default-constructed copy would not pass for the original).
SAMPLES = {
    "StribeckParams": lambda: bristle.StribeckParams(mu_s=0.9, mu_d=0.4, v_s=0.02, delta_s=1.5, mu_v=0.01),
    "LawParams": lambda: bristle.LawParams(type="lugre", mu_s=1.2, mu_d=0.8, v_s=0.01, sigma1=0.5,
                                           sigma2=[[0.1, 0.0], [0.0, 0.2]], sigma0=3.0, eps=1e-6),
    "CoulombStribeckParams": lambda: bristle.CoulombStribeckParams(mu_s=0.8, mu_d=0.25, v_s=0.05, delta_s=1.0,
                                                                   mu_v=0.02),
    "TextbookParams": lambda: bristle.TextbookParams(Fc_N=1.0, Fs_N=1.5, vs_mps=1e-3, sigma0_N_per_m=1e5,
                                                     sigma1_Ns_per_m=316.2, sigma2_Ns_per_m=0.4, delta=1.0),
    "FrictionCoefficient": lambda: bristle.FrictionCoefficient(axis1=bristle.StribeckParams(mu_s=2.0),
                                                               axis2=bristle.StribeckParams(mu_d=0.3),
                                                               anisotropic=True, angle_rad=0.25),
    "Branch": lambda: bristle.Branch(k=[[2.0, 0.1], [0.1, 3.0]], c=0.5),
    "RheologyParams": lambda: bristle.gkv(240.0, c=[100.0, 50.0], tau=[0.1, 0.3]),
    "Signal": lambda: bristle.Signal.sine(amplitude=0.3, omega=5.0, offset=0.2),
    "BenchParams": lambda: bristle.BenchParams(drive="spring", mass_kg=2.0, spring_N_per_m=3.0, input=0.1,
                                               belt_y=bristle.Signal.table([0.0, 1.0], [0.0, 0.5]),
                                               normal_load=bristle.Signal.ramp(1.0, 2.0), x0_m=[0.1, 0.2]),
    "IntegratorOptions": lambda: bristle.IntegratorOptions(method="sdirk2", dt_s=1e-3, max_steps=1000,
                                                           atol_per_component=[1e-3, 1e-4]),
    "LineContactParams": lambda: bristle.LineContactParams(L_m=0.15, normal_load_N=7.5, cells=64),
    "PressureParams": lambda: bristle.PressureParams(kind="parabolic"),
    "ConvexParams": lambda: d.ConvexParams(k=2.0, c4=0.5),
    "CrawlerParams": lambda: _with(d.CrawlerParams(), feet=3, stroke_m=0.3),
    "DriveParams": lambda: d.DriveParams(k_h_N_per_m=3.0, rest_length_m=0.2),
    "EpsilonParams": lambda: d.EpsilonParams(epsilon=1e-3, gamma=2.0),
    "MechanismParams": lambda: d.MechanismParams(kind="slanted", k=2.0, height_m=1.0, rest_length_m=1.5,
                                                 theta_rad=0.5),
    "ProfileParams": lambda: d.ProfileParams(kind="sine", amplitude=0.1),
    "SlidingOptions": lambda: d.SlidingOptions(k_h_N_per_m=3.0, speed_mps=0.5),
    "BeamParams": lambda: st.BeamParams(bending_stiffness_N_m2=2.0),
    "BeltParams": lambda: st.BeltParams(belt_speed_m_per_s=0.3, normal_load_N=2.0),
    "JumpDetectionOptions": lambda: _with(st.JumpDetectionOptions(), modes=64, consistency=0.2),
    "KernelOptions": lambda: _with(st.KernelOptions(), max_modes=33),
    "ReducedModelOptions": lambda: _with(st.ReducedModelOptions(), window_steps=17,
                                         kernel=_with(st.KernelOptions(), max_modes=33)),
    "StickSlipOptions": lambda: st.StickSlipOptions(t_end_s=5.0, output_every=7),
    "TautStringParams": lambda: st.TautStringParams(length_m=2.0),
    "BodyMotion": lambda: _with(bp.BodyMotion(), V0_mps=[1.0, 2.0], omega_radps=3.0),
    "PatchKinematics": lambda: bp.rolling(V_r=16.0, v_x=0.6, v_y=0.4, spin_radps=6.0),
    "PatchParams": lambda: bp.PatchParams(shape="ellipse", nx=30, ny=12),
    "PatchTransientParams": lambda: bp.PatchTransientParams(patch=bp.PatchParams(nx=30, ny=12), size_exponent=0.5),
    "TimeGrid": lambda: _with(bristle.io.TimeGrid(), t_end_s=2.0, output_dt_s=0.01),
}

# Samples of results (computed: fast).
def _patch_results():
    model = papers.rolling_model(0.4, 0)
    params = bp.PatchParams(nx=12, ny=6)
    steady = bp.PatchSolver(model, params).solve(bp.rolling(V_r=16.0, v_x=0.1, slip_angle_deg=1.0))
    tr = bp.PatchTransient(model, bp.PatchTransientParams(patch=params), bp.rolling(V_r=16.0, v_x=0.1), 3000.0)
    tr.advance_to(2e-3)
    return steady, tr.snapshot()


def _bench_run():
    law = bristle.LawParams(type="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3, sigma1=316.2, sigma2=0.4)
    bench = bristle.Bench(bristle.ContactModel(law, bristle.elastic(1e5)),
                          bristle.BenchParams(drive="spring", spring_N_per_m=2.0, input=0.1, normal_load_N=1.0))
    return bristle.contact.run(bench, np.linspace(0.0, 8.0, 801))


def _line():
    return bristle.LineContact(papers.sliding_model(0.4, 1), bristle.LineContactParams(cells=10, V2=0.3))


def _mechanism():
    w = d.Profile(d.ProfileParams(kind="sine", amplitude=0.5 / (2 * np.pi)))
    return d.Mechanism(d.MechanismParams(kind="slanted", k=1.0, height_m=1.0, rest_length_m=1.5, theta_rad=0.5), w)


SAMPLES["SteadyPatch"] = lambda: _patch_results()[0]
SAMPLES["PatchSnapshot"] = lambda: _patch_results()[1]
SAMPLES["TimeSeries"] = lambda: _bench_run().series
SAMPLES["BenchRun"] = _bench_run
SAMPLES["Stats"] = lambda: _bench_run().stats
SAMPLES["StickSlipCycle"] = lambda: bristle.stick_slip_cycle(_bench_run().series)
SAMPLES["SteadyLine"] = lambda: bristle.transport.steady_state(papers.sliding_model(0.4, 1),
                                                               bristle.LineContactParams(L_m=0.2, normal_load_N=10.0),
                                                               V1=0.0, V2=1.0, field_points=5)
SAMPLES["LineRun"] = lambda: bristle.transport.run(_line(), np.linspace(0.0, 0.05, 3), field_times=[0.05])
SAMPLES["LimitCoefficients"] = lambda: _mechanism().limit
SAMPLES["SlidingForce"] = lambda: d.measure_sliding_force(_mechanism(), d.EpsilonParams(epsilon=0.05), 1)
SAMPLES["LimitCycle"] = lambda: st.run_stick_slip(
    st.make_reduced_model(st.Structure.taut_string(density_kg_per_m=1.0, length_m=1.0, wave_speed_m_per_s=1.0,
                                                   damping_ratio=0.1, contact_positions_m=[0.3]), 1e-3),
    st.BeltParams(normal_load_N=1.0, belt_speed_m_per_s=0.1), bristle.StribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1),
    st.StickSlipOptions(t_end_s=10.0, output_every=50)).cycle


def _lugre_model():
    law = bristle.LawParams(type="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3, sigma1=316.2, sigma2=0.4)
    return bristle.ContactModel(law, bristle.gkv(1e5, c=[50.0], tau=[0.01]), bristle.elastic(2e5))


def _stepped_contact():
    c = bristle.Contact.lugre(Fc_N=1.0, Fs_N=1.5, vs_mps=1e-3, sigma0_N_per_m=1e5, sigma1_Ns_per_m=316.2,
                              sigma2_Ns_per_m=0.4)
    for _ in range(20):
        c.step(1e-3, [1e-3, 2e-4])
    c.energy_tracking = False
    return c


def _stepped_line():
    lc = _line()
    lc.advance_to(0.01)
    return lc


def _stick_slip():
    s = st.Structure.taut_string(density_kg_per_m=1.0, length_m=1.0, wave_speed_m_per_s=1.0, damping_ratio=0.1,
                                 contact_positions_m=[0.3])
    return st.run_stick_slip(st.make_reduced_model(s, 1e-3), st.BeltParams(normal_load_N=1.0, belt_speed_m_per_s=0.1),
                             bristle.StribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1),
                             st.StickSlipOptions(t_end_s=10.0, output_every=50))


def _lumped_run():
    import pathlib
    path = pathlib.Path(__file__).resolve().parents[2] / "examples" / "lugre_breakaway.toml"
    study = bristle.load_scenario(str(path))
    c = study.cases[0]
    c.time.t_end_s = 0.01
    return bristle.io.LumpedStudy([c]), c


# Models and solvers pickle by their parameters (docs/python.md, "Pickling"): __reduce__ gives the class (or
# its factory) and the arguments that rebuild them; Contact and LineContact also carry their state.
SAMPLES["FrictionLaw"] = lambda: bristle.FrictionLaw(bristle.LawParams(type="frbd", mu_s=0.9, v_s=2.0), [[240.0, 1.0],
                                                                                                      [1.0, 300.0]])
SAMPLES["Realisation"] = lambda: bristle.realise(bristle.gm(10.0, k=[4.0, 2.0], tau=[0.5, 0.1]))
SAMPLES["ContactPair"] = lambda: bristle.rheology.ContactPair(bristle.gkv(240.0, c=[100.0], tau=[0.1]),
                                                              bristle.gm(300.0, k=[50.0], tau=[0.2]))
SAMPLES["ContactModel"] = _lugre_model
SAMPLES["Bench"] = lambda: bristle.Bench(_lugre_model(), bristle.BenchParams(drive="spring", spring_N_per_m=2.0,
                                                                             input=0.1, normal_load_N=3.0))
SAMPLES["Contact"] = _stepped_contact
SAMPLES["ContactArray"] = lambda: bristle.ContactArray([_stepped_contact(), bristle.Contact.dahl(2.0, 1e4)])
SAMPLES["LineContact"] = _stepped_line
SAMPLES["ModeResponse"] = lambda: st.ModeResponse(3.0, 0.2)
MODELS = ("FrictionLaw", "Realisation", "ContactPair", "ContactModel", "Bench", "Contact", "ContactArray",
          "LineContact", "ModeResponse")

# Results and scenario parts pickled by their fields.
SAMPLES["WigglyRun"] = lambda: d.WigglySystem(d.WigglyPotential(_mechanism(), 0.05), d.ConvexEnergy(k=1.0),
                                              d.Loading.ramp(0.0, 1.0), 1.0).run(0.0, 0.0, [0.0, 0.1, 0.2])
SAMPLES["Loop"] = lambda: d.limit_loop(_mechanism(), d.DriveParams(), d.Loading.triangle(0.0, 0.8, 2.0, 1.0),
                                       [0.1 * k for k in range(11)])
SAMPLES["CrawlerRun"] = lambda: d.crawl_limit(d.Mechanism(d.MechanismParams(kind="angular"),
                                                          d.Profile(d.ProfileParams(kind="sine",
                                                                                    amplitude=0.5 / (2 * np.pi)))),
                                              d.CrawlerParams(), 3, 50)
SAMPLES["PotentialPoint"] = lambda: d.WigglyPotential(_mechanism(), 0.01).at(-0.2)
SAMPLES["StickSlipResult"] = _stick_slip
SAMPLES["StickSlipInterval"] = lambda: _stick_slip().intervals[0]
SAMPLES["EnergyAccount"] = lambda: _stick_slip().energy
SAMPLES["KernelSamples"] = lambda: st.displacement_kernel(st.Structure.taut_string(st.TautStringParams(
    damping_ratio=0.1)), [0.1, 0.2])
SAMPLES["KernelJump"] = lambda: st.kernel_jumps(st.Structure.taut_string(st.TautStringParams(
    contact_positions_m=[0.3])), 2.7)[1]
SAMPLES["KeyInfo"] = lambda: bristle.key_info(_lumped_run()[1], "law.mu_s")
SAMPLES["CaseResult"] = lambda: _lumped_run()[0].run().cases[0]
SAMPLES["Sweep"] = lambda: _lumped_run()[1].sweep
SAMPLES["OutputOptions"] = lambda: _lumped_run()[1].output
SAMPLES["InitialCondition"] = lambda: _with(_lumped_run()[1].initial, f=[0.2, -0.1])
SAMPLES["NapEffect"] = lambda: d.geometric_nap_effect(d.Mechanism(d.MechanismParams(kind="angular"),
                                                                  d.Profile(d.ProfileParams(kind="sine",
                                                                                            amplitude=0.08))))
SAMPLES["LimitState"] = lambda: d.LimitSystem(d.ConvexEnergy(k=1.0), d.Loading.ramp(0.0, 1.0), 0.3, -0.2).start(0.5,
                                                                                                              0.4)


def _progress():
    seen = []
    _lumped_run()[0].run(progress=seen.append)
    return seen[-1]


SAMPLES["Progress"] = _progress
RESULTS = ("SteadyPatch", "PatchSnapshot", "TimeSeries", "BenchRun", "Stats", "StickSlipCycle", "SteadyLine",
           "LineRun", "LimitCoefficients", "SlidingForce", "LimitCycle", "WigglyRun", "Loop", "CrawlerRun",
           "PotentialPoint", "StickSlipResult", "StickSlipInterval", "EnergyAccount", "KernelSamples", "KernelJump",
           "KeyInfo", "CaseResult", "Sweep", "OutputOptions", "InitialCondition", "NapEffect", "LimitState",
           "Progress") + MODELS

# Parameter, analysis and model classes that pickle by their constructor arguments or fields (2026-12-04, pickle
# branch): the library keeps what rebuilds them (Profile.recipe(), Loading.recipe(), the accessors beside the members).
EXAMPLES = __import__("pathlib").Path(__file__).resolve().parents[2] / "examples"


def _geometry():
    return bp.PatchGeometry(bp.PatchParams(shape="ellipse", length_m=0.1, width_m=0.05, pressure="hertzian",
                                           normal_load_N=3000.0))


def _riemann():
    return bp.riemann(papers.rolling_model(0.4, 1).pair)


def _string():
    return st.Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3])


# The law, bodies and line of the two tiny line scenarios below.
TINY_LINE = """
[law]
type = "frbd"
mu_s = 1.0
mu_d = 0.7
v_s = 6.0
[body1]
type = "gkv"
k0 = 240.0
c = [100.0]
tau = [0.1]
[body2]
type = "gkv"
c = "eq58"
tau = [0.1]
[pair]
s = 0.4
[line]
L_m = 0.2
normal_load_N = 10.0
"""

# A transient line scenario small enough to run in milliseconds, with a field output (its ExtraFile).
LINE_TRANSIENT_TOML = """
name = "tiny_line_transient"
kind = "line_transient"
""" + TINY_LINE + """cells = 10
[kinematics]
mode = "sliding"
Vx = 0.1
[time]
t_end_s = 0.01
output_dt_s = 0.005
field_times_s = [0.01]
"""


def _line_transient_run():
    return bristle.io.parse_scenario_string(LINE_TRANSIENT_TOML).run()


# A steady line scenario: two cases (a sweep of s) of three velocities.
LINE_STEADY_TOML = """
name = "tiny_line_steady"
kind = "line_steady"
""" + TINY_LINE + """[kinematics]
mode = "sliding"
V_mps = { from = 0.01, to = 1.0, points = 3, spacing = "log" }
[sweep]
s = [0.4, 0.6]
"""


SAMPLES["CoulombStribeck"] = lambda: bristle.laws.CoulombStribeck(
    bristle.CoulombStribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1), admittance=0.01, normal_load_N=10.0)
SAMPLES["Pressure"] = lambda: bristle.transport.Pressure(bristle.PressureParams(kind="parabolic"), 0.2, 10.0)
SAMPLES["PatchGeometry"] = _geometry
SAMPLES["PatchSolver"] = lambda: bp.PatchSolver(papers.rolling_model(0.4, 0), bp.PatchParams(nx=12, ny=6))
SAMPLES["PatchTransient"] = lambda: bp.PatchTransient(papers.rolling_model(0.4, 0), bp.PatchTransientParams(
    patch=bp.PatchParams(nx=12, ny=6), size_exponent=0.5), bp.rolling(V_r=16.0, v_x=0.1), 3000.0)
SAMPLES["Profile"] = lambda: d.Profile(d.ProfileParams(kind="ratchet", amplitude=0.08, asymmetry=0.2))
SAMPLES["Mechanism"] = _mechanism
SAMPLES["PerceivedProfile"] = lambda: d.PerceivedProfile(d.Profile(d.ProfileParams(kind="sine", amplitude=0.08)), 1.0)
SAMPLES["WigglyPotential"] = lambda: d.WigglyPotential(_mechanism(), 0.05)
SAMPLES["ConvexEnergy"] = lambda: d.ConvexEnergy(k=2.0, c4=0.5)
SAMPLES["Loading"] = lambda: d.Loading.triangle(0.0, 0.8, 2.0, 1.0).affine(2.0, 1.0)
SAMPLES["WigglySystem"] = lambda: d.WigglySystem(d.WigglyPotential(_mechanism(), 0.05), d.ConvexEnergy(k=1.0),
                                                 d.Loading.sine(0.1, 1.0, 2.0, 0.25), 1.5)
SAMPLES["LimitSystem"] = lambda: d.LimitSystem(d.ConvexEnergy(k=1.0), d.Loading.ramp(0.0, 1.0), 0.3, -0.2)
SAMPLES["Structure"] = _string
SAMPLES["GenericModalParams"] = lambda: st.GenericModalParams(frequencies_rad_per_s=[1.0, 3.0],
                                                              damping_ratios=[0.1, 0.2], mode_values=[[1.0], [0.5]])
SAMPLES["ModeTable"] = lambda: _string().modes(3)
# Steppers before their first advance() (an advanced one raises TypeError: test_pickle.py).
SAMPLES["ModalModel"] = lambda: st.ModalModel(_string(), 20, 1e-3, track_energy=True)
SAMPLES["ReducedModel"] = lambda: st.ReducedModel(_string(), 1e-3, st.ReducedModelOptions(window_steps=17))
SAMPLES["StringDelayModel"] = lambda: st.StringDelayModel(st.Structure.taut_string(contact_positions_m=[0.3, 0.7]),
                                                          0.25)
SAMPLES["Riemann"] = _riemann
SAMPLES["EdgeMap"] = lambda: bp.classify_edges(_geometry(), _riemann(), bp.rolling(V_r=16.0, v_x=0.6), samples=8)
SAMPLES["Eq84Check"] = lambda: bp.check_eq84(_geometry(), bp.rolling(V_r=16.0, v_x=0.6), samples=21)
SAMPLES["RunResult"] = _line_transient_run
SAMPLES["ExtraFile"] = lambda: _line_transient_run().extra_files[0]
# Scenarios: every field of the parsed case, the ones Python does not show included (source, table files, the
# input form of the key paths, the textbook block); the studies by their cases.
SAMPLES["LumpedScenario"] = lambda: _with(_lumped_run()[1], pair_s=0.3)
SAMPLES["LumpedStudy"] = lambda: _lumped_run()[0]
SAMPLES["LineSteadyScenario"] = lambda: bristle.io.parse_scenario_string(LINE_STEADY_TOML).cases[1]
SAMPLES["LineSteadyStudy"] = lambda: bristle.io.parse_scenario_string(LINE_STEADY_TOML)
SAMPLES["LineTransientScenario"] = lambda: bristle.io.parse_scenario_string(LINE_TRANSIENT_TOML).cases[0]
SAMPLES["LineTransientStudy"] = lambda: bristle.io.parse_scenario_string(LINE_TRANSIENT_TOML)
# A kind without its own Python class: by the TOML text it was parsed from.
SAMPLES["Scenario"] = lambda: bristle.load_scenario(str(EXAMPLES / "patch_slip_spin_map.toml"))
MORE_MODELS = ("CoulombStribeck", "Pressure", "PatchGeometry", "PatchSolver", "PatchTransient", "Profile", "Mechanism",
               "PerceivedProfile", "WigglyPotential", "ConvexEnergy", "Loading", "WigglySystem", "LimitSystem",
               "Structure", "ModalModel", "ReducedModel", "StringDelayModel")
MODELS += MORE_MODELS
RESULTS += MORE_MODELS + ("ModeTable", "Riemann", "EdgeMap", "Eq84Check", "RunResult", "ExtraFile", "LumpedScenario",
                           "LumpedStudy", "LineSteadyScenario", "LineSteadyStudy", "LineTransientScenario",
                           "LineTransientStudy", "Scenario")

# Classes that do not pickle yet, with the reason (docs/python.md, "Pickling": not done).
NOT_PICKLED = {
    # The abstract base class of the steppers: no object is of this class itself (its three subclasses pickle).
    "ContactStepper",
}

# Repr round trip: eval(repr(x)) == x with the names of `from bristle import *` and of the class's submodule.
NAMESPACE = {"float": float, "nan": float("nan"), "inf": float("inf")}
NAMESPACE.update({k: v for k, v in vars(bristle).items() if not k.startswith("_")})
for _s in ("directional", "structures", "patch", "transport", "io"):
    NAMESPACE.update({k: v for k, v in vars(getattr(_bristle, _s)).items() if not k.startswith("_")})


def test_every_class_is_accounted_for():
    classes = exported_classes()
    names = {k.split(".")[-1] for k in classes}
    missing = sorted(n for n in names if n not in SAMPLES and n not in NOT_PICKLED)
    assert not missing, f"classes without a pickling sample (add one to SAMPLES or to NOT_PICKLED): {missing}"
    assert not (set(SAMPLES) - names), "SAMPLES lists classes the module does not export"
    assert not (NOT_PICKLED - names), "NOT_PICKLED lists classes the module does not export"


def _same(a, b):
    if hasattr(type(a), "__eq__") and type(a).__eq__ is not object.__eq__:
        return a == b
    return pickle.dumps(a) == pickle.dumps(b)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_pickle_round_trip(name):
    x = SAMPLES[name]()
    back = pickle.loads(pickle.dumps(x))
    assert type(back) is type(x)
    assert _same(back, x)
    assert pickle.dumps(back) == pickle.dumps(x)


@pytest.mark.parametrize("name", sorted(n for n in SAMPLES if n not in RESULTS))
def test_samples_differ_from_the_default(name):
    x = SAMPLES[name]()
    assert x != type(x)(), "the sample must not be the default value (the round trip would prove nothing)"


@pytest.mark.parametrize("name", sorted(n for n in SAMPLES if n not in RESULTS))
def test_repr_round_trip(name):
    x = SAMPLES[name]()
    text = repr(x)
    assert " object at 0x" not in text
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the repr uses the current names, never a deprecated alias
        back = eval(text, dict(NAMESPACE))  # noqa: S307 -- the module's own repr
    assert type(back) is type(x)
    assert back == x, text


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_class_prints_readably(name):
    # Parameter classes: the round trip above. Results, models and solvers: Class(attribute=value, ...) over
    # their properties (bristle/_conventions.py), never "<... object at 0x...>", each value cut at 160 characters.
    x = SAMPLES[name]()
    text = repr(x)
    assert " object at 0x" not in text, text
    # Class(...) from the schema or the properties, or a description of its own (<bristle.Contact lugre, ...>).
    assert text.startswith(type(x).__name__ + "(") or text.startswith("<bristle."), text
    assert len(text) < 160 * (len(bristle._conventions.properties(type(x))) + 1) + 100, text


def test_a_state_refuses_integers_beyond_their_storage():
    # helper-50: 2**32 + 64 became 64 in an int field (samples_per_wiggle, cells), and a float beyond a long's range
    # was cast with undefined behaviour; as the reader says it, naming the key.
    for value in (2**32 + 64, 1e20, -2**63 - 1):
        state = d.SlidingOptions().__getstate__()
        state["samples_per_wiggle"] = value
        with pytest.raises(bristle.InvalidInput, match=r"sliding.samples_per_wiggle = .*: must be in "
                                                        r"\[-2147483648, 2147483647\]"):
            d.SlidingOptions.__new__(d.SlidingOptions).__setstate__(state)
    with pytest.raises(bristle.InvalidInput, match="must be an integer"):
        state = d.SlidingOptions().__getstate__()
        state["samples_per_wiggle"] = 64.5
        d.SlidingOptions.__new__(d.SlidingOptions).__setstate__(state)


def test_key_info_pickled_before_integer_and_numerics_loads():
    case = bristle.io.parse_lumped_file(str(EXAMPLES / "lugre_stick_slip.toml"))[0]
    info = bristle.key_info(case, "integrator.rtol")
    assert pickle.loads(pickle.dumps(info)).numerics is True
    old = bristle.io.KeyInfo.__new__(bristle.io.KeyInfo)
    old.__setstate__(info.__getstate__()[:9])  # the 9 fields of a pickle made before 2026-12-06
    assert (old.key, old.integer, old.numerics) == ("integrator.rtol", False, False)


def test_results_pickle_their_values():
    run = _bench_run()
    back = pickle.loads(pickle.dumps(run))
    assert back.series.names == run.series.names and back.series.rows == run.series.rows
    assert np.array_equal(back.series["F_N"], run.series["F_N"]) and np.any(run.series["F_N"] != 0)
    assert (back.stats.steps, back.stats.method_used) == (run.stats.steps, run.stats.method_used) and run.stats.steps > 0
    line = SAMPLES["SteadyLine"]()
    back = pickle.loads(pickle.dumps(line))
    assert np.array_equal(back.force_N, line.force_N) and back.exact == line.exact and line.force_N[0] < 0
    assert np.array_equal(back.field["f_x"], line.field["f_x"])
    limit = _mechanism().limit
    back = pickle.loads(pickle.dumps(limit))
    assert (back.rho_plus, back.rho_minus, back.alpha) == (limit.rho_plus, limit.rho_minus, limit.alpha) != (0, 0, 0)


def test_schema_constructors_document_units_and_an_example():
    for cls in (bristle.LawParams, bristle.RheologyParams, bristle.Signal, bristle.BenchParams,
                bristle.IntegratorOptions):
        doc = cls.__init__.__doc__
        assert "Example" in doc and "unit" in doc, cls.__name__
        for key in cls.keys():
            if key not in ("G_inverse", "G", "atol_per_component"):
                assert key in doc, f"{cls.__name__}: key {key} not documented"


def test_enums_pickle():
    for enum in exported_enums():
        for member in enum.__members__.values():
            assert pickle.loads(pickle.dumps(member)) == member


def test_schema_states_are_keyed_by_the_toml_keys():
    keys = bristle.LawParams.keys()
    assert keys[0] == "type"  # the schema's walk order (law.type, law.eps, law.sigma0, then the Stribeck keys)
    stribeck = ["mu_s", "mu_d", "v_s", "delta_s", "mu_v"]
    assert [k for k in keys if k in stribeck] == stribeck
    assert "normal_load_N" in bristle.BenchParams().__getstate__()
    assert {"input", "belt", "x0_m", "v0_mps", "spring_end0_m"} <= set(bristle.BenchParams.keys())
    assert {"dt_s", "max_dt_s", "initial_dt_s"} <= set(bristle.IntegratorOptions.keys())
    assert {"type", "k0", "k_inf", "c", "k"} <= set(bristle.RheologyParams.keys())
    law = bristle.LawParams(type="dahl", mu_s=0.5, mu_d=0.5)
    assert law.type == "dahl" and law.kind == bristle.LawKind.dahl and law.mu_s == 0.5
    law.type = "lugre"
    assert law.kind == bristle.LawKind.lugre
    o = bristle.IntegratorOptions(max_dt_s=0.01)
    assert o.max_dt == 0.01 and o.max_dt_s == 0.01


def test_deprecated_aliases_warn_and_mean_the_same():
    pairs = [
        (lambda: bristle.LawParams(kind="lugre", mu_s=1.5), lambda: bristle.LawParams(type="lugre", mu_s=1.5)),
        (lambda: bristle.BenchParams(input_x=0.1, belt_x=0.2, normal_load=3.0, x0=[1, 2], v0=[3, 4],
                                     spring_end0=[5, 6]),
         lambda: bristle.BenchParams(input=0.1, belt=0.2, normal_load_N=3.0, x0_m=[1, 2], v0_mps=[3, 4],
                                     spring_end0_m=[5, 6])),
        (lambda: bristle.IntegratorOptions(dt=1e-3, max_dt=0.1, initial_dt=1e-6),
         lambda: bristle.IntegratorOptions(dt_s=1e-3, max_dt_s=0.1, initial_dt_s=1e-6)),
        (lambda: bristle.RheologyParams(kind="gkv", k_elastic=5.0, branches=[bristle.Branch(k=2.0, c=0.5)]),
         lambda: bristle.RheologyParams(type="gkv", k0=5.0, k=[2.0], c=[0.5])),
        (lambda: bristle.Signal(kind="step", t0=1.0, after=2.0), lambda: bristle.Signal(type="step", t0=1.0, after=2.0)),
    ]
    for old, new in pairs:
        with pytest.warns(DeprecationWarning, match="the TOML key|deprecated"):
            a = old()
        assert a == new()


def test_rheology_branches_from_tau_as_in_toml():
    a = bristle.RheologyParams(type="gkv", k0=240.0, c=[100.0], tau=[0.1])
    assert a == bristle.gkv(240.0, c=[100.0], tau=[0.1])
    b = bristle.RheologyParams(type="gm", k_inf=10.0, k=[4.0], tau=[0.5])
    assert np.allclose(b.branches[0].c, 2.0 * np.eye(2))
    with pytest.raises(bristle.InvalidInput, match=r"body.tau: 2 entries, but the other branch list has 1"):
        bristle.RheologyParams(type="gkv", k0=1.0, c=[1.0], tau=[0.1, 0.2])


def test_bad_keywords_name_the_key_path():
    with pytest.raises(TypeError, match=r"law: unknown key 'mu_z'"):
        bristle.LawParams(mu_z=1.0)
    with pytest.raises(TypeError, match=r"law.mu_s: expected a number, got str"):
        bristle.LawParams(mu_s="x")
    with pytest.raises(bristle.InvalidInput, match=r'law.type = "lugree": unknown friction law.*did you mean "lugre"\?'):
        bristle.LawParams(type="lugree")
    with pytest.raises(TypeError, match=r"bench.input: expected a number, a Signal or a dict, got str"):
        bristle.BenchParams(input="fast")
    with pytest.raises(TypeError, match="not both"):
        bristle.BenchParams(normal_load_N=1.0, normal_load=bristle.Signal.ramp(1.0, 1.0))


def _python_callables():
    from bristle import sweeps
    for mod in (sweeps, papers):
        names = getattr(mod, "__all__", None) or [n for n in vars(mod) if not n.startswith("_")]
        for n in names:
            v = getattr(mod, n)
            if (inspect.isfunction(v) or inspect.isclass(v)) and v.__module__ == mod.__name__:
                yield mod, n, v


def test_python_callables_document_units_and_an_example():
    import re
    for mod, name, v in _python_callables():
        doc = inspect.getdoc(v) or ""
        assert "Example" in doc, f"{mod.__name__}.{name}: no Example in its docstring"
        assert "Units:" in doc, f"{mod.__name__}.{name}: no units in its docstring"
        if mod is papers:  # self-contained examples: they run
            example = re.search(r"Example: ``(.+?)``", doc).group(1)
            eval(example, {"papers": papers, "np": np, "bristle": bristle})  # noqa: S307


def test_models_pickle_by_their_parameters_and_compute_the_same():
    """A model rebuilt from its pickle gives bit-identical results (not only an equal pickle)."""
    v = np.geomspace(1e-4, 1.0, 7)
    m = _lugre_model()
    back = pickle.loads(pickle.dumps(m))
    assert np.array_equal(back.steady_force(v), m.steady_force(v))
    assert np.array_equal(back.steady_state(v), m.steady_state(v))
    c = _stepped_contact()
    back = pickle.loads(pickle.dumps(c))
    assert np.array_equal(back.state, c.state) and np.any(c.state != 0)
    assert back.energy_tracking is False and back.time_s == 0.0  # the state moves over, the clock restarts
    assert np.array_equal(back.step(1e-3, [1e-3, 2e-4]), c.step(1e-3, [1e-3, 2e-4]))
    a = SAMPLES["ContactArray"]()
    back = pickle.loads(pickle.dumps(a))
    assert len(back) == 2 and np.array_equal(back[0].state, a[0].state)
    lc = _stepped_line()
    back = pickle.loads(pickle.dumps(lc))
    assert back.time == lc.time > 0 and np.array_equal(back.state, lc.state)
    back.advance_to(0.02)
    lc.advance_to(0.02)
    assert np.array_equal(back.total_force(), lc.total_force())
    b = SAMPLES["Bench"]()
    back = pickle.loads(pickle.dumps(b))
    times = np.linspace(0.0, 0.5, 11)
    assert np.array_equal(bristle.contact.run(back, times).series["F_N"], bristle.contact.run(b, times).series["F_N"])
    p = SAMPLES["ContactPair"]()
    assert np.array_equal(pickle.loads(pickle.dumps(p)).S0, p.S0)


def test_keys_that_do_not_apply_are_set_with_the_readers_warning():
    # The reader refuses law.v_s in a Dahl [law]; Python set it silently, and its repr printed it as if it
    # mattered. Now: set, with a UserWarning carrying the reader's message (constructor, attribute, a dict for
    # a sub-table); pickling and copy() restore every key silently; == and repr see only the keys that apply.
    msg = ('key "law.v_s" does not apply to law.type = "dahl" (valid keys here: type, eps, mu, mu_s, mu_d, sigma0; '
           'the scenario reader refuses it)')
    with pytest.warns(UserWarning) as w:
        law = bristle.LawParams(type="dahl", v_s=0.3)
    assert [str(x.message) for x in w] == [msg]
    assert law.v_s == 0.3
    with pytest.warns(UserWarning) as w:
        law.v_s = 0.4  # the type is the object's, not "(the default)"
    assert [str(x.message) for x in w] == [msg]
    with pytest.warns(UserWarning) as w:
        bristle.LawParams(type="bouc_wen", mu_s=1.0, mu_d=0.7)
    assert [str(x.message) for x in w] == [
        'keys "law.mu_s", "law.mu_d" do not apply to law.type = "bouc_wen" (valid keys here: type, eps, A, beta1, '
        'beta2, gamma; the scenario reader refuses them)']
    with pytest.warns(UserWarning) as w:
        bristle.BenchParams(input={"type": "constant", "value": 0.1, "omega": 5.0})
    assert [str(x.message) for x in w] == [
        'key "bench.input.omega" does not apply to bench.input.type = "constant" (valid keys here: type, value; the '
        'scenario reader refuses it)']
    with pytest.warns(UserWarning, match=r'^key "integrator.dt_s" does not apply to integrator.method = "auto" '
                                         r'\(the default\) \(valid keys here'):
        bristle.IntegratorOptions(dt_s=1e-3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        back = pickle.loads(pickle.dumps(law))
        bench = bristle.BenchParams(drive="velocity", input=bristle.Signal.sine(amplitude=0.1, omega=2.0))
        bench.copy(), pickle.loads(pickle.dumps(bench))
        assert back.v_s == 0.4  # the whole state
        assert repr(law) == "LawParams(type='dahl')"
        assert law == bristle.LawParams(type="dahl")  # v_s is not read by a Dahl law
        assert eval(repr(law), dict(NAMESPACE)) == law  # noqa: S307
    assert bristle.LawParams(type="lugre", v_s=0.3) != bristle.LawParams(type="lugre")


def test_a_dahl_law_with_mu_v_is_refused_as_the_reader_refuses_it():
    # helper-38: mu_v does not apply to Dahl (schema, reader), but stribeck_mu added mu_v |v|: a Dahl law with
    # mu_v = 0.5 gave -1.5 N for -1 N, while == and repr (which see the applying keys) ignored it.
    with pytest.warns(UserWarning, match=r'^key "law.mu_v" does not apply to law.type = "dahl"'):
        law = bristle.LawParams(type="dahl", mu_v=0.5)
    with pytest.raises(bristle.InvalidInput, match=r'^law.mu_v = 0.5: the Dahl law has a constant friction coefficient, '
                                                   r'mu_v must be 0 \(use "lugre" or "frbd" for a viscous term\)$'):
        bristle.ContactModel(law, bristle.elastic(1000.0))


def test_keys_a_class_converts_itself_are_warned_of_too():
    # helper-40: keys that a class converts before its schema walk (a law's sigma0, a body's branch lists, a
    # bench's belt, a signal's table) passed silently where they do not apply, while the reader refuses them;
    # and the hand-written attributes (law.sigma1, bench.mass_kg, options.rtol) set them without the warning.
    cases = [
        (lambda: bristle.LawParams(type="frbd", sigma0=3.0), ['key "law.sigma0" does not apply to law.type = "frbd"']),
        (lambda: bristle.RheologyParams(type="elastic", k0=5.0, c=[1.0], k=[2.0]),
         ['keys "body.c", "body.k" do not apply to body.type = "elastic"']),
        (lambda: bristle.BenchParams(drive="velocity", input=1.0, belt=0.5),
         ['key "bench.belt" does not apply to bench.drive = "velocity"']),
        (lambda: bristle.Signal(type="constant", value=1.0, times=[0.0, 1.0], values=[1.0, 2.0]),
         ['keys "signal.times", "signal.values" do not apply to signal.type = "constant"']),
        (lambda: setattr(bristle.LawParams(type="frbd"), "sigma1", 2.0),
         ['key "law.sigma1" does not apply to law.type = "frbd"']),
        (lambda: setattr(bristle.BenchParams(drive="velocity", input=1.0), "mass_kg", 2.0),
         ['key "bench.mass_kg" does not apply to bench.drive = "velocity"']),
        (lambda: setattr(bristle.IntegratorOptions(method="rk4", dt_s=1e-3), "rtol", 1e-6),
         ['key "integrator.rtol" does not apply to integrator.method = "rk4"']),
        (lambda: bristle.LawParams(type="lugre", mu=0.5), ['key "law.mu" does not apply to law.type = "lugre"']),
    ]
    for make, expected in cases:
        with pytest.warns(UserWarning) as w:
            make()
        assert [str(x.message).split(" (valid keys")[0] for x in w] == expected
    with warnings.catch_warnings():  # where they apply: silent
        warnings.simplefilter("error")
        law = bristle.LawParams(type="lugre", sigma0=3.0)
        law.sigma1 = 2.0
        bristle.BenchParams(drive="spring", spring_N_per_m=2.0, input=0.1).mass_kg = 2.0


def test_dahl_mu_is_a_keyword_and_an_attribute_as_in_toml():
    # helper-40: TOML's [law] type = "dahl" takes mu (mu_s = mu_d = mu), also in [law.axis1] / [law.axis2], and the
    # strict warning listed it as valid; LawParams(type="dahl", mu=0.5) raised "unknown key 'mu'".
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        law = bristle.LawParams(type="dahl", mu=0.5)
        assert (law.mu_s, law.mu_d, law.mu) == (0.5, 0.5, 0.5)
        assert law == bristle.LawParams(type="dahl", mu_s=0.5, mu_d=0.5)
        law.mu = 0.25
        assert (law.mu_s, law.mu_d) == (0.25, 0.25)
        axes = {"axis1": {"mu": 1.0}, "axis2": {"mu": 0.5}}
        aniso = bristle.LawParams(type="dahl", **axes)
        assert axes == {"axis1": {"mu": 1.0}, "axis2": {"mu": 0.5}}  # the caller's dicts untouched
        assert (aniso.M.axis2.mu_s, aniso.M.axis2.mu_d, aniso.mu) == (0.5, 0.5, None)
    assert bristle.LawParams(type="lugre").mu is None
    with pytest.raises(bristle.InvalidInput, match=r'^key "law.mu_s" cannot be combined with law.mu; give either mu '
                                                   r'or mu_s and mu_d$'):
        bristle.LawParams(type="dahl", mu=0.5, mu_s=0.5)
    with pytest.raises(bristle.InvalidInput, match=r"^law.mu = -1: must be > 0$"):  # the key written, as the reader
        bristle.LawParams(type="dahl", mu=-1.0)
    with pytest.raises(bristle.InvalidInput, match=r"^law.axis2.mu = 0: must be > 0$"):
        bristle.LawParams(type="dahl", axis1={"mu": 1.0}, axis2={"mu": 0.0})
    with pytest.raises(TypeError):
        bristle.LineContactParams(interpolate_outputs="yes")


def test_a_branch_list_attribute_keeps_the_other_list():
    # helper-40: body.c = [...] on a gkv body always failed ("give two of c, k, tau"): the attribute passed one key.
    body = bristle.RheologyParams(type="gkv", k0=240.0, c=[100.0], k=[1000.0])
    body.c = [3.0]
    assert body == bristle.RheologyParams(type="gkv", k0=240.0, c=[3.0], k=[1000.0])
    body.k = [[[2000.0, 0.0], [0.0, 1000.0]]]
    assert body.k == [[[2000.0, 0.0], [0.0, 1000.0]]] and body.c == [3.0]  # an isotropic matrix reads as its number
    with pytest.raises(bristle.InvalidInput, match=r"^body.k: 2 entries, but the body has 1 branch; a new branch count "
                                                   r"needs both lists"):
        body.k = [3.0, 4.0]
    with pytest.raises(bristle.InvalidInput, match=r"^body: give two of c, k, tau"):
        bristle.RheologyParams(type="gkv", k0=240.0, c=[100.0])  # a constructor still needs two


def test_directional_profile_and_mechanism_are_schema_classes():
    # helper-40: MechanismParams(kind="vertical", theta_rad=0.3) and ProfileParams(kind="sine", asymmetry=0.3) were
    # accepted silently (hand-bound classes), while the reader refuses both keys.
    d = bristle.directional
    assert d.MechanismParams.keys() == ["kind", "k", "height_m", "rest_length_m", "theta_rad", "length_m",
                                        "theta_rest_rad"]
    assert d.ProfileParams.keys() == ["kind", "amplitude", "asymmetry", "cos", "sin", "x", "w"]
    with pytest.warns(UserWarning, match=r'^key "mechanism.theta_rad" does not apply to mechanism.kind = "vertical" '
                                         r'\(valid keys here: kind, k, height_m, rest_length_m; the scenario reader '
                                         r'refuses it\)$'):
        d.MechanismParams(kind="vertical", theta_rad=0.3)
    with pytest.warns(UserWarning, match=r'^key "profile.asymmetry" does not apply to profile.kind = "sine"'):
        d.ProfileParams(kind="sine", asymmetry=0.3)
    with pytest.raises(TypeError, match=r"^profile.file: a table file is read by the scenario reader; in Python give "
                                        r"x= and w="):
        d.ProfileParams(kind="table", file="w.csv")
    with pytest.raises(TypeError, match=r"^mechanism: unknown key 'theta'"):
        d.MechanismParams(theta=0.3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p = d.ProfileParams(kind="table", x=[0.0, 0.5, 1.0], w=[0.0, 0.1, 0.0])
        assert pickle.loads(pickle.dumps(p)) == p and p.copy() == p
        assert repr(p) == "ProfileParams(kind='table', x=[0.0, 0.5, 1.0], w=[0.0, 0.1, 0.0])"
        m = d.MechanismParams(kind="angular", length_m=1.3)
        assert m.kind == d.MechanismKind.angular and eval(repr(m), dict(NAMESPACE)) == m  # noqa: S307


def test_a_dict_given_for_a_sub_table_is_not_emptied():
    # The walk popped the keys it took from the caller's own dict: BenchParams(input=d) left d == {}.
    d = {"type": "sine", "amplitude": 0.1, "omega": 2.0}
    axis = {"mu_s": 1.2}
    bristle.BenchParams(input=d)
    bristle.LawParams(type="lugre", axis1=axis, axis2={"mu_s": 1.0})
    assert d == {"type": "sine", "amplitude": 0.1, "omega": 2.0} and axis == {"mu_s": 1.2}


def test_forms_of_the_reader_in_python():
    # helper-40: TOML's c = "eq58", a table file, the anisotropic law's form rules, and tau blamed for the branch
    # matrix it gives.
    body = bristle.RheologyParams(type="gkv", k0=240.0, c="eq58", tau=[0.1, 0.3])
    assert body == bristle.rheology.gkv_eq58(240.0, [0.1, 0.3]) and body.eq58_tau == [0.1, 0.3]
    with pytest.raises(bristle.InvalidInput, match=r'^missing key "body.tau" \(required: branch relaxation times'):
        bristle.RheologyParams(type="gkv", k0=240.0, c="eq58")
    with pytest.raises(bristle.InvalidInput, match=r"^body.tau\[0\] = \[\[1e-200, 0\], \[0, 1e-200\]\]: gives the branch "
                                                   r"stiffness k = c / tau = .*, above 1e\+150$"):
        bristle.RheologyParams(type="gkv", k0=240.0, c=[100.0], tau=[1e-200])
    assert bristle.RheologyParams(type="gkv", k0=240.0, c=[100.0], tau=[0.1]).k == [1000.0]  # as the reader: c / tau
    with pytest.raises(TypeError, match=r"^signal.file: a table file is read by the scenario reader"):
        bristle.Signal(type="table", file="u.csv")
    with pytest.raises(bristle.InvalidInput, match=r'^missing key "law.axis1" \(required: the Stribeck law along the '
                                                   r'first principal axis, with law.axis2\)$'):
        bristle.LawParams(type="lugre", axis2={"mu_s": 0.5})
    with pytest.raises(bristle.InvalidInput, match=r'^key "law.mu_s" cannot be combined with \[law.axis1\] and '
                                                   r'\[law.axis2\]; give it in each axis table$'):
        bristle.LawParams(type="lugre", axis1={"mu_s": 1.0}, axis2={"mu_s": 0.5}, mu_s=2.0)
    with pytest.raises(bristle.InvalidInput, match=r'^key "law.angle_rad" applies only with \[law.axis1\] and '
                                                   r'\[law.axis2\] \(anisotropic friction\)$'):
        bristle.LawParams(type="lugre", angle_rad=0.3)
    law = bristle.LawParams(type="lugre", axis1={}, axis2={"mu_s": 0.5})  # axis1 at its defaults is still written
    assert repr(law) == "LawParams(type='lugre', axis1=StribeckParams(), axis2=StribeckParams(mu_s=0.5))"
    assert eval(repr(law), dict(NAMESPACE)) == law  # noqa: S307


def test_review_of_the_schema_bindings():
    # helper-41's review of the Python changes above.
    # An eq58 body given lists keeps them (eq58_tau was kept, and ContactPair re-applied eq. 58 over them).
    body = bristle.RheologyParams(type="gkv", k0=240.0, c="eq58", tau=[0.1, 0.3])
    body.c = [1.0, 2.0]
    assert body.eq58_tau == [] and body.c == [1.0, 2.0]
    # A signal attribute warns once, as its constructor keyword does (it did not warn at all).
    bench = bristle.BenchParams(drive="velocity", input=0.1)
    with pytest.warns(UserWarning) as w:
        bench.belt = 0.5
    assert [str(x.message).split(" (valid")[0] for x in w] == [
        'key "bench.belt" does not apply to bench.drive = "velocity"']
    # A branch list of an elastic body does not apply: warned of (it raised "give two of c, k, tau").
    with pytest.warns(UserWarning, match=r'^key "body.c" does not apply to body.type = "elastic"'):
        bristle.RheologyParams(type="elastic", k0=240.0).c = [1.0]
    # ProfileParams' lists read as numpy arrays, as before its schema binding.
    p = bristle.directional.ProfileParams(kind="fourier", cos=[0.1])
    assert isinstance(p.cos, np.ndarray) and list(p.cos * 2) == [0.2]
    # A pickle made before the schema binding rebuilds by attributes, every one: silently.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        old = bristle._conventions._rebuild(bristle.directional.MechanismParams, {
            "kind": "vertical", "k": 2.0, "height_m": 1.0, "rest_length_m": 1.5, "theta_rad": 0.5, "length_m": 1.25,
            "theta_rest_rad": 0.0})
    assert old == bristle.directional.MechanismParams(kind="vertical", k=2.0)


def test_second_review_of_the_schema_bindings():
    # helper-42: a pickled eq. 58 body lost eq58_tau (ContactPair then gave other dampings, == said equal); an elastic
    # body's branches were dropped by unpickling; body.branches = [...] kept eq58_tau.
    import copy
    rh = bristle.rheology
    b = rh.gkv_eq58(160.0, [0.1, 0.3])
    b.k0 = 200.0
    for other in (pickle.loads(pickle.dumps(b)), copy.deepcopy(b), eval(repr(b), dict(NAMESPACE))):  # noqa: S307
        assert other == b and other.eq58_tau == [0.1, 0.3]
        pair = rh.ContactPair(bristle.elastic(240.0), other)
        assert [float(np.asarray(x.c).flat[0]) for x in pair.body2.branches] == pytest.approx([20.0, 60.0])
    g = bristle.rheology.gkv(240.0, c=[100.0], tau=[0.1])
    g.type = "elastic"  # its branches stay in the state (a LawParams keeps its keys that do not apply likewise)
    back = pickle.loads(pickle.dumps(g))
    assert back.branch_count == 1 == g.branch_count
    e = rh.gkv_eq58(160.0, [0.1, 0.3])
    e.branches = [bristle.Branch(k=1000.0, c=100.0), bristle.Branch(k=500.0, c=50.0)]
    assert e.eq58_tau == []


def test_law_axes_are_attributes_as_in_toml():
    # helper-40: law.axis1 / law.axis2 (TOML tables) were no attributes. Setting one makes the law anisotropic, the
    # other axis keeping the isotropic law's values; an isotropic law reads None.
    law = bristle.LawParams(type="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3)
    assert law.axis1 is None and law.axis2 is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        law.axis2 = {"mu_s": 0.5, "mu_d": 0.4, "v_s": 1e-3}
    assert law.M.anisotropic and law.axis1 == bristle.StribeckParams(mu_s=1.5, mu_d=1.0, v_s=1e-3)
    assert law == bristle.LawParams(type="lugre", axis1={"mu_s": 1.5, "mu_d": 1.0, "v_s": 1e-3},
                                    axis2={"mu_s": 0.5, "mu_d": 0.4, "v_s": 1e-3})
    with pytest.warns(UserWarning, match=r'^key "law.axis1" does not apply to law.type = "bouc_wen"') as w:
        bristle.LawParams(type="bouc_wen").axis1 = {"mu_s": 2.0}
    assert len(w) == 1
    with pytest.raises(TypeError, match=r"^law.axis1: expected a StribeckParams or a dict, got int$"):
        law.axis1 = 3


def test_line_contact_params_take_the_toml_pressure_form():
    # helper-40: LineContactParams took only pressure=PressureParams(kind=...), where TOML writes
    # pressure = "table" with [line.pressure_table] xi_m, values.
    p = bristle.LineContactParams(L_m=0.2, pressure="table", pressure_table={"xi_m": [0.0, 0.2], "values": [1.0, 3.0]})
    assert p.pressure == bristle.PressureParams(kind="table", xi_m=[0.0, 0.2], values=[1.0, 3.0])
    assert bristle.LineContactParams(pressure="parabolic").pressure.kind == bristle.PressureKind.parabolic
    with pytest.raises(bristle.InvalidInput, match=r'^line.pressure = "circle": unknown pressure distribution'):
        bristle.LineContactParams(pressure="circle")
    with pytest.raises(bristle.InvalidInput, match=r'^missing key "line.pressure_table.values"$'):
        bristle.LineContactParams(pressure="table", pressure_table={"xi_m": [0.0, 0.2]})
    with pytest.raises(bristle.InvalidInput, match=r'^line.pressure_table: applies with line.pressure = "table"'):
        bristle.LineContactParams(pressure="uniform", pressure_table={"xi_m": [0.0, 0.2], "values": [1.0, 1.0]})


@pytest.mark.parametrize("seed", range(4))
def test_random_parameter_objects_round_trip(seed):
    # Invariant on random inputs: for every class bound from its schema, any mix of keys (applying or not, warned
    # of) gives an object whose pickle, copy and eval(repr) are equal to it, and whose repr warns of nothing.
    rng = np.random.default_rng(seed)
    d = bristle.directional
    kinds = {
        bristle.LawParams: ("type", ["dahl", "lugre", "frbd", "bouc_wen", "frictionless"]),
        bristle.RheologyParams: ("type", ["elastic", "gkv", "gm", "rigid"]),
        bristle.BenchParams: ("drive", ["velocity", "force", "spring"]),
        bristle.IntegratorOptions: ("method", ["auto", "rodas4", "rodas5p", "cvode_bdf", "sdirk2", "rk4"]),
        d.ProfileParams: ("kind", ["sine", "ratchet", "fourier", "table"]),
        d.MechanismParams: ("kind", ["vertical", "slanted", "angular"]),
        bristle.Signal: ("type", ["constant", "step", "ramp", "sine"]),
        bristle.patch.PatchParams: (None, []),
        d.DriveParams: (None, []),
        d.CrawlerParams: (None, []),
    }
    for cls, (choice, names) in kinds.items():
        defaults = cls().__getstate__()
        made = 0
        for _ in range(25):
            kw = {choice: str(rng.choice(names))} if choice else {}
            for key, value in defaults.items():
                if key in (choice, "angle_rad") or rng.random() < 0.5:  # angle_rad alone: refused (a form rule)
                    continue
                if isinstance(value, float) and value > 0.0:
                    kw[key] = float(value * 10.0 ** rng.uniform(-0.5, 0.5))
                elif isinstance(value, float):
                    kw[key] = float(rng.uniform(0.1, 0.5))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    x = cls(**kw)
                except bristle.InvalidInput:  # a constructor that validates (PatchParams): a range broken
                    continue
            made += 1
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                assert pickle.loads(pickle.dumps(x)) == x, (cls, kw)
                assert x.copy() == x, (cls, kw)
                assert eval(repr(x), dict(NAMESPACE)) == x, (cls, kw, repr(x))  # noqa: S307
        assert made >= 10, cls


def test_structures_option_classes_have_the_toml_keys_of_their_tables(cli):
    # Their schemas sit beside the structs (structures/*.hpp); the scenario tables walk them, so the class keys are
    # the reader's keys of [contact], [run] (but dt_s, the model's dt), [model] (reduced) and [kernel].
    import json
    import subprocess

    def table_keys(kind, table):
        rows = json.loads(subprocess.run([str(cli), "keys", kind, "--format", "json"], check=True,
                                         capture_output=True, text=True).stdout)
        rows = rows["keys"] if isinstance(rows, dict) else rows
        return [r["key"].split(".", 1)[1] for r in rows
                if r["key"].startswith(table + ".") and r["key"].count(".") == 1]

    s = bristle.structures
    assert s.BeltParams.keys() == table_keys("structure_stick_slip", "contact")
    assert s.StickSlipOptions.keys() == [k for k in table_keys("structure_stick_slip", "run") if k != "dt_s"]
    assert s.ReducedModelOptions.keys() == [k for k in table_keys("structure_stick_slip", "model")
                                            if k in ("window_steps", "far_tolerance")] + ["kernel"]
    assert s.KernelOptions.keys() == table_keys("structure_kernel", "kernel")[-2:] == ["max_modes",
                                                                                      "relative_tolerance"]
    for obj in (s.BeltParams(normal_load_N=2.0, contact_index=1), s.StickSlipOptions(t_end_s=5.0, cycles=2),
                s.KernelOptions(max_modes=33), s.ReducedModelOptions(window_steps=17,
                                                                     kernel=s.KernelOptions(max_modes=7))):
        back = pickle.loads(pickle.dumps(obj))
        assert back == obj and repr(back) == repr(obj) and eval(repr(obj), {**vars(s)}) == obj
