"""Bad input from Python raises a clear ValueError or TypeError carrying the library's message; it never
crashes the interpreter. (A crash would take the whole pytest process down, so every case here also
checks that.)"""

import math

import numpy as np
import pytest

import bristle
from bristle import papers


def model():
    return papers.sliding_model(0.4, 1)


# ---- The error classes ---------------------------------------------------------------------------

def test_error_classes():
    assert issubclass(bristle.InvalidInput, ValueError)
    assert issubclass(bristle.SolverError, RuntimeError)
    assert issubclass(bristle.OutputError, OSError)


# ---- Library validation: NaN, negative and out-of-range parameters ----------------------------------

@pytest.mark.parametrize("field, value, message", [
    ("mu_s", -1.0, "law.mu_s = -1: must be > 0"),
    ("mu_s", math.nan, "law.mu_s = nan: must be finite"),
    ("mu_d", 0.0, "law.mu_d = 0: must be > 0"),
    ("v_s", math.inf, "law.v_s = inf: must be finite"),
    ("delta_s", -2.0, "law.delta_s = -2: must be >= 0"),
    ("mu_v", -0.5, "law.mu_v = -0.5: must be >= 0"),
])
def test_stribeck_parameters_are_checked(field, value, message):
    law = bristle.LawParams(kind="frbd", **{field: value})
    with pytest.raises(bristle.InvalidInput) as e:
        bristle.ContactModel(law, bristle.elastic(100.0))
    assert str(e.value) == message
    with pytest.raises(ValueError, match="must be"):
        law.validate()


def test_law_parameters_are_checked():
    with pytest.raises(ValueError, match=r"^law.eps = -1: must be >= 0$"):
        bristle.ContactModel(bristle.LawParams(eps=-1.0), bristle.elastic(1.0))
    with pytest.raises(ValueError, match=r"^law.sigma1 = \[\[-1, 0\], \[0, -1\]\]: must be positive semidefinite$"):
        bristle.ContactModel(bristle.LawParams(kind="lugre", sigma1=-1.0), bristle.elastic(1.0))
    with pytest.raises(ValueError, match="the Dahl law has a constant friction coefficient"):
        bristle.ContactModel(bristle.LawParams(kind="dahl", mu_s=1.5, mu_d=1.0), bristle.elastic(1.0))
    with pytest.raises(ValueError, match=r"law.A = nan: must be finite"):
        bristle.ContactModel(bristle.LawParams(kind="bouc_wen", A=float("nan")), bristle.elastic(1.0))


def test_rheology_parameters_are_checked():
    with pytest.raises(ValueError, match=r"^k0 = -240: must be > 0$"):
        bristle.elastic(-240.0)
    with pytest.raises(ValueError, match=r"^c\[1\] = nan: must be finite$"):
        bristle.gkv(240.0, [1.0, float("nan")], [0.1, 0.1])
    with pytest.raises(ValueError, match="tau: 1 values for 2 damping values c"):
        bristle.gkv(240.0, [1.0, 2.0], [0.1])
    with pytest.raises(ValueError, match=r"^body1.k0 = \[\[-1, 0\], \[0, -1\]\]: must be positive definite$"):
        bristle.ContactModel(bristle.LawParams(), bristle.RheologyParams(kind="elastic", k_elastic=-1.0))
    with pytest.raises(ValueError, match=r"^pair.s = 1.5: must lie in \(0, 1\)"):
        bristle.rheology.substrate_stiffness_from_s(1.5, 240.0)


def test_unknown_names_suggest_the_nearest():
    with pytest.raises(ValueError, match=r'law.type = "lugree": unknown friction law .*did you mean "lugre"\?'):
        bristle.LawParams(kind="lugree")
    with pytest.raises(ValueError, match=r'body.type = "gvk": unknown rheology.*did you mean "gkv"\?'):
        bristle.RheologyParams(kind="gvk")
    with pytest.raises(ValueError, match=r'bench.drive = "sprung": unknown drive'):
        bristle.BenchParams(drive="sprung")
    with pytest.raises(ValueError, match=r'integrator.method = "rk5": unknown method'):
        bristle.IntegratorOptions(method="rk5")
    with pytest.raises(ValueError, match=r'integrator.method = "rodas5": unknown method .*did you mean "rodas5p"\?'):
        bristle.IntegratorOptions(method="rodas5")
    law = bristle.LawParams()
    with pytest.raises(ValueError, match="unknown friction law"):
        law.kind = "coulomb"
    law.kind = bristle.LawKind.lugre
    assert law.kind == bristle.LawKind.lugre


def test_line_and_signal_parameters_are_checked():
    m = model()
    with pytest.raises(ValueError, match=r"^line.L_m = -0.2: must be > 0$"):
        bristle.transport.steady_state(m, bristle.LineContactParams(L_m=-0.2), 0.0, 1.0)
    with pytest.raises(ValueError, match=r"^line.V2 = nan: must be finite$"):
        bristle.transport.steady_state(m, bristle.LineContactParams(), 0.0, float("nan"))
    with pytest.raises(ValueError, match=r"^line.cells = 1: must be >= 2$"):
        bristle.LineContact(m, bristle.LineContactParams(cells=1))
    with pytest.raises(ValueError, match=r"line.cfl = 1.5: must lie in \(0, 1\]"):
        bristle.LineContact(m, bristle.LineContactParams(cfl=1.5))
    with pytest.raises(ValueError, match=r"line.V1.value = nan: must be finite"):
        bristle.LineContact(m, bristle.LineContactParams(V1=float("nan")))
    with pytest.raises(ValueError, match=r"signal.times: 1 times and 2 values"):
        bristle.Signal.table([0.0], [1.0, 2.0])
    s = bristle.Signal(kind="table")  # empty table: evaluating it is refused, not undefined
    with pytest.raises(ValueError, match="a table needs at least 2 points"):
        s(0.5)
    with pytest.raises(ValueError, match=r"bench.mass_kg = -1: must be > 0"):
        bristle.Bench(m, bristle.BenchParams(drive="force", mass_kg=-1.0))
    with pytest.raises(ValueError, match=r"bench.normal_load = -2 at t = 0 s: must be > 0"):
        bristle.Bench(m, bristle.BenchParams(normal_load=-2.0))
    with pytest.raises(ValueError, match=r"^integrator.rtol = -1e-08: must be > 0$"):
        bench = bristle.Bench(m, bristle.BenchParams(input_x=0.1))
        bristle.contact.run(bench, [0.0, 1.0], bristle.IntegratorOptions(rtol=-1e-8))


# ---- Wrong types: TypeError -----------------------------------------------------------------------

def test_wrong_types_raise_type_error():
    with pytest.raises(TypeError):
        bristle.StribeckParams(mu_s="high")
    with pytest.raises(TypeError):
        bristle.LawParams(kind=3.5)
    with pytest.raises(TypeError):
        bristle.LawParams(sigma1="0.5")
    with pytest.raises(TypeError):
        bristle.LawParams(sigma1=None)
    with pytest.raises(TypeError):
        bristle.ContactModel("frbd", bristle.elastic(1.0))
    with pytest.raises(TypeError):
        bristle.ContactModel(bristle.LawParams(), bristle.elastic(1.0), body2="rigid")
    with pytest.raises(TypeError):
        bristle.gkv(240.0, "abc", [0.1])
    with pytest.raises(TypeError):
        bristle.RheologyParams(kind="gkv", branches=[1, 2])
    with pytest.raises(TypeError):
        bristle.BenchParams(input_x="fast")
    with pytest.raises(TypeError):
        bristle.LineContactParams(V2=[0.1, 0.2])
    with pytest.raises(TypeError):
        bristle.transport.steady_state(model(), None, 0.0, 1.0)
    with pytest.raises(TypeError):
        bristle.transport.steady_state(model(), bristle.LineContactParams(), "0", 1.0)
    law = bristle.LawParams()
    with pytest.raises(TypeError):
        law.eps = "small"
    with pytest.raises(TypeError):
        bristle.TimeSeries.from_columns({"a": "xyz"})


# ---- Wrong shapes and sizes: ValueError (InvalidInput) naming what was expected --------------------

def test_wrong_shapes_raise_value_error():
    m = model()  # state_size 2 + 2 (n1 = 2... ) -> whatever it is, a wrong size is refused
    n = m.state_size
    with pytest.raises(ValueError, match=rf"^u: {n + 1} values; expected {n}$"):
        m.source(np.zeros(n + 1), 1.0)
    with pytest.raises(ValueError, match=r"^u: expected a 1-D array, got an array of shape \(2, 2\)$"):
        m.friction(np.zeros((2, 2)), 1.0)
    with pytest.raises(ValueError, match=r"^v_r: expected 2 values \(x, y\), got an array of shape \(3,\)$"):
        m.steady_force([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"^law.sigma1: expected a number or a 2x2 matrix, got an array of shape \(3,\)$"):
        bristle.LawParams(sigma1=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"^branch.k: expected a number or a 2x2 matrix, got an array of shape \(2, 3\)$"):
        bristle.Branch(k=np.ones((2, 3)))
    with pytest.raises(ValueError, match="bench.x0_m: expected 2 values"):
        bristle.BenchParams(x0_m=[1.0, 2.0, 3.0])
    lc = bristle.LineContact(m, bristle.LineContactParams(cells=10))
    with pytest.raises(ValueError, match=rf"^state: 7 values; expected {n} \(one point\) or {10 * n} \(every cell\)$"):
        lc.state = np.zeros(7)
    with pytest.raises(ValueError, match="initial state: 3 values"):
        lc.reset(0.0, np.zeros(3))
    with pytest.raises(ValueError, match="column \"b\": 2 values; the first column has 3"):
        bristle.TimeSeries.from_columns({"a": [1, 2, 3], "b": [1, 2]})
    with pytest.raises(ValueError, match="initial contact state: 1 values"):
        bristle.Bench(m, bristle.BenchParams()).initial_state([1.0])


def test_analysis_of_bad_series_is_refused():
    ts = bristle.TimeSeries.from_columns({"t_s": [0.0, 1.0], "F_N": [1.0, 2.0]})
    with pytest.raises(KeyError, match="no column named v_mps"):
        bristle.stick_slip_cycle(ts)
    with pytest.raises(ValueError, match="max_cycles = 0: must be >= 1"):
        bristle.stick_slip_cycle(bristle.TimeSeries.from_columns({"t_s": [0.0], "v_mps": [0.0], "F_N": [0.0]}), 0)
    with pytest.raises(KeyError, match='no column named "G_N"; did you mean "F_N"'):
        ts["G_N"]
    assert bristle.peak_abs(bristle.TimeSeries.from_columns({"t_s": [], "F_N": []}), "F_N") == (0.0, 0.0)


# A LuGre contact driven at 1 mm/s for 1 s; LAW_LINE is replaced to make it wrong.
LUGRE_SCENARIO = """
[law]
type = "lugre"
LAW_LINE
[body1]
type = "elastic"
k0 = 1e5
[bench]
drive = "velocity"
input = 1e-3
[time]
t_end_s = 1.0
"""


def test_scenario_errors_name_the_toml_key(tmp_path):
    with pytest.raises(ValueError, match='unknown key "law.mu_z"; did you mean "law.mu_s"'):
        bristle.parse_scenario_string(LUGRE_SCENARIO.replace("LAW_LINE", "mu_z = 1.0"))
    with pytest.raises(ValueError, match="cannot|No such|does not exist|unreadable|open"):
        bristle.load_scenario(str(tmp_path / "missing.toml"))


def test_a_progress_that_is_not_callable_is_refused_before_any_work():
    law = bristle.LawParams(kind="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3)
    bench = bristle.Bench(bristle.ContactModel(law, bristle.elastic(1e5)),
                          bristle.BenchParams(drive="velocity", input_x=1e-3))
    with pytest.raises(TypeError, match="progress: expected a callable.*got int"):
        bristle.contact.run(bench, [0.0, 1.0], progress=5)
    from bristle import structures as st
    with pytest.raises(TypeError, match="progress: expected a callable.*got str"):
        st.run_stick_slip(st.make_reduced_model(st.Structure.taut_string(st.TautStringParams(damping_ratio=0.1)), 2e-3),
                          st.BeltParams(), bristle.StribeckParams(), progress="yes")
    scenario = bristle.parse_scenario_string(LUGRE_SCENARIO.replace("LAW_LINE", "mu_s = 1.5\nmu_d = 1.0\nv_s = 1e-3"))
    with pytest.raises(TypeError, match="progress: expected a callable.*got float"):
        scenario.run(progress=0.5)


# ---- Solver failures and exceptions raised by Python callbacks ---------------------------------------

def test_python_exceptions_in_callbacks_propagate():
    def rhs(t, x):
        if t > 0.5:
            raise ZeroDivisionError("from rhs")
        return -x
    with pytest.raises(ZeroDivisionError, match="from rhs"):
        bristle.integrate.integrate(rhs, [1.0], 0.0, [1.0])
    with pytest.raises(ValueError, match="rhs: returned an array of 2 values; expected 1"):
        bristle.integrate.integrate(lambda t, x: [1.0, 2.0], [1.0], 0.0, [1.0])
    with pytest.raises(TypeError, match="rhs: must return an array of numbers"):
        bristle.integrate.integrate(lambda t, x: "x", [1.0], 0.0, [1.0])

    bench = bristle.Bench(model(), bristle.BenchParams(input_x=0.1))

    def progress(fraction):
        raise RuntimeError("stop here")
    with pytest.raises(RuntimeError, match="stop here"):
        bristle.contact.run(bench, np.linspace(0.0, 1.0, 11), progress=progress)


def test_solver_errors_are_runtime_errors():
    # A fixed dt that breaks the CFL condition: the library's SolverError.
    lc = bristle.LineContact(model(), bristle.LineContactParams(cells=50, V2=1.0, dt_s=0.1))
    with pytest.raises(bristle.SolverError, match="breaks the CFL condition"):
        lc.advance_to(1.0)
    with pytest.raises(RuntimeError):
        lc.advance_to(1.0)
    # A non-finite right-hand side with a fixed-step method.
    with pytest.raises(bristle.SolverError):
        bristle.integrate.integrate(lambda t, x: x * float("nan"), [1.0], 0.0, [1.0],
                                    bristle.IntegratorOptions(method="rk4", dt=0.1))


def test_sweep_input_is_checked():
    m = model()
    with pytest.raises(TypeError, match="expected a ContactModel"):
        bristle.sweep_steady_line("model", V2=[1.0])
    with pytest.raises(TypeError, match="callable needs a grid"):
        bristle.sweep_steady_line(lambda s: m, V2=[1.0])
    with pytest.raises(ValueError, match=r"^line.V2 = nan: must be finite$"):
        bristle.sweep_steady_line(m, V2=[1.0, float("nan")], progress=None)
    with pytest.raises(ValueError, match="V2: expected a number or a 1-D array"):
        bristle.sweep_steady_line(m, V2=np.ones((2, 2)), progress=None)
    with pytest.raises(ValueError, match="shape mismatch|broadcast"):
        bristle.sweep_steady_line(m, V1=[0.0, 0.0, 0.0], V2=[1.0, 2.0], progress=None)
    with pytest.raises(ValueError, match="threads = -1: must be >= 0"):
        bristle.sweep_steady_line(m, V2=[1.0], threads=-1, progress=None)
    with pytest.raises(ValueError, match=r"^line.L_m = 0: must be > 0$"):
        bristle.sweep_steady_line(m, V2=[1.0], line=bristle.LineContactParams(L_m=0.0), progress=None)
    with pytest.raises(ValueError, match="v: expected a 1-D array of v_x or an \\(N, 2\\) array"):
        bristle.sweep_steady_lumped(m, v=np.ones((3, 3)), progress=None)
    with pytest.raises(ValueError, match=r"^normal_load_N = -1: must be > 0$"):
        bristle.sweep_steady_lumped(m, v=[1.0], normal_load_N=-1.0, progress=None)
    with pytest.raises(TypeError, match="progress"):
        bristle.sweep_steady_line(m, V2=[1.0], progress=42)


def test_sizes_are_bounded_before_any_work():
    # helper-37 (2026-12-06): each of these reached the allocator (MemoryError, or vector::reserve's ValueError
    # naming no key) or looped until memory ran out; each is now an InvalidInput naming the argument and its limit.
    import numpy as np
    from bristle import directional as d
    from bristle import papers
    from bristle import structures as st
    from bristle import transport as tp

    contact = bristle.Contact(bristle.LawParams(type="lugre"), bristle.RheologyParams())
    with pytest.raises(bristle.InvalidInput, match=r"^n = 1000000000: at most 10000000 contacts in one array$"):
        bristle.ContactArray(contact, 10**9)
    # helper-43: ~1 KB a LuGre contact: 10^7 took 10 GB; the copies' memory is bounded by 4 GiB.
    with pytest.raises(bristle.InvalidInput, match=r"^n = 7000000: 7000000 contacts of state size 2 take about 7\.5 "
                                                   r"GiB; at most 4 GiB in one array \(n <= 3728270\)$"):
        bristle.ContactArray(contact, 7 * 10**6)
    line = bristle.LineContactParams(L_m=0.2, normal_load_N=10.0, cells=10**9, V2=0.3)
    with pytest.raises(bristle.InvalidInput, match=r"^line.cells = 1000000000: at most 1000000 cells$"):
        bristle.LineContact(papers.sliding_model(0.4, 1), line)
    with pytest.raises(bristle.InvalidInput, match=r"^field_points = 1000000000: at most 1000000$"):
        tp.steady_state(papers.sliding_model(0.4, 1), bristle.LineContactParams(L_m=0.2, normal_load_N=10.0),
                        V1=0.0, V2=0.3, field_points=10**9)
    with pytest.raises(bristle.InvalidInput, match=r"^loading.cycles = 10000000: at most 1000000$"):
        d.Loading.triangle(0, 0.8, period=1e-3, cycles=1e7)
    with pytest.raises(bristle.InvalidInput, match=r"^loading.cycles = 1e\+300: magnitude above 1e\+150"):
        d.Loading.triangle(0, 0.8, period=1e-3, cycles=1e300)
    mechanism = d.Mechanism(d.MechanismParams(kind="slanted", k=1.0, height_m=1.0, rest_length_m=1.5, theta_rad=0.5),
                            d.Profile(d.ProfileParams(kind="sine", amplitude=0.5 / (2 * np.pi))))
    with pytest.raises(bristle.InvalidInput, match=r"^sliding: transient_wiggles = 8, averaged_wiggles = 16, "
                                                   r"samples_per_wiggle = 1000000000: at most 100000 wiggles"):
        d.measure_sliding_force(mechanism, d.EpsilonParams(epsilon=1e-2), 1, d.SlidingOptions(samples_per_wiggle=10**9))
    beam = st.Structure.cantilever(damping_ratio=0.05, contact_positions_m=[1.0])
    with pytest.raises(bristle.InvalidInput, match=r"^model.window_steps = 1000000000: at most 10000000$"):
        st.ReducedModel(beam, 1e-3, st.ReducedModelOptions(window_steps=10**9))
    with pytest.raises(bristle.InvalidInput, match=r"^run.t_end_s = 1000000000 at a step of 0.0001 s and "
                                                   r"run.output_every = 1 give 1e\+13 output rows: at most 2e\+07"):
        st.run_stick_slip(st.make_reduced_model(beam, 1e-4),
                          st.BeltParams(normal_load_N=1.0, belt_speed_m_per_s=0.1),
                          bristle.StribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1), st.StickSlipOptions(t_end_s=1e9, output_every=1))


def test_parameters_follow_the_readers_number_rule():
    # helper-37: Python took magnitudes the scenario reader refuses, and the results were NaN or -inf.
    import numpy as np

    huge = r"magnitude above 1e\+150; no scenario quantity is that large"
    with pytest.raises(bristle.InvalidInput, match=r"^law.mu_s = 1e\+160: " + huge):
        bristle.ContactModel(bristle.LawParams(type="frbd", mu_s=1e160, mu_d=0.5), bristle.elastic(240.0))
    with pytest.raises(bristle.InvalidInput, match=r"^law.v_s = 5e-324: a subnormal number"):
        bristle.StribeckParams(v_s=5e-324).mu(0.0)  # was NaN
    with pytest.raises(bristle.InvalidInput, match=r"^rolling.body1.V0_mps = -1e\+160: " + huge):
        bristle.patch.rolling(V_r=1e160, v_x=0.1)  # was 'no leading edge' (max speed inf) at the solve
    with pytest.raises(bristle.InvalidInput, match=r"^v_mps = 1e\+160: " + huge):
        bristle.Contact(bristle.LawParams(type="lugre"), bristle.RheologyParams()).step(1e-3, 1e160)
    # an input may be subnormal (a controller's difference of two close velocities)
    F = bristle.Contact(bristle.LawParams(type="lugre"), bristle.RheologyParams()).step(1e-3, -4e-310)
    assert np.isfinite(F)


def test_a_subnormal_pressure_table_value_is_data():
    # helper-38: the number rule of a parameter refused the subnormal tail of a Gaussian pressure table.
    import numpy as np
    from bristle import transport as tp

    x = np.linspace(0.0, 0.2, 201)
    table = tp.PressureParams(kind="table", xi_m=list(x), values=list(np.exp(-((x - 0.1) / 0.0035) ** 2)))
    assert min(v for v in table.values if v > 0) < 2.2e-308  # subnormal entries
    F = tp.steady_state(papers.sliding_model(0.4, 0), bristle.LineContactParams(L_m=0.2, normal_load_N=10.0,
                                                                                 pressure=table), V1=0.0, V2=0.3)
    assert np.isfinite(F.force_N).all() and F.force_N[0] < 0


def test_a_step_too_small_for_the_span_is_refused_before_the_first_step():
    # helper-39: LineContactParams(dt_s=1e-200) or PatchTransientParams(cfl=1e-200) ran for ever in advance_to (the
    # CLI's check refuses them; the library did not).
    from bristle import papers
    law = bristle.LawParams(type="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3)
    m = bristle.ContactModel(law, bristle.elastic(1e5))
    lc = bristle.LineContact(m, bristle.LineContactParams(L_m=0.2, normal_load_N=10.0, V2=0.3, dt_s=1e-200))
    with pytest.raises(bristle.InvalidInput, match=r"^advance to t = 1 s from t = 0 s: 1e\+200 steps of 1e-200 s "
                                                   r"\(line.dt_s = 1e-200\) over 200 cells, 2e\+202 cell updates; at "
                                                   r"most 1e\+12 per call$"):
        lc.advance_to(1.0)
    assert lc.time == 0.0
    bp = bristle.patch
    pt = bp.PatchTransient(papers.rolling_model(0.4, 0), bp.PatchTransientParams(
        patch=bp.PatchParams(nx=12, ny=6), size_exponent=0.5, max_dt_s=1e-200), bp.rolling(V_r=16.0, v_x=0.1), 3000.0)
    with pytest.raises(bristle.InvalidInput, match=r"^patch transient: advance to t = 0.01 s from t = 0 s: 1e\+198 "
                                                   r"steps of 1e-200 s \(transient.max_dt_s = 1e-200\) over 12 x 6 "
                                                   r"cells, 7.2e\+199 cell updates; at most 1e\+12 per call$"):
        pt.advance_to(0.01)


def test_a_patch_tolerance_below_round_off_is_named():
    # helper-39: patch.tolerance = 1e-200 ran patch.max_sweeps sweeps and blamed closed streamlines, while the last
    # change was at the state's round-off.
    from pathlib import Path
    sc = bristle.load_scenario(str(Path(__file__).resolve().parents[2] / "examples" / "patch_slip_spin_map.toml"))
    bristle.set(sc, "patch.tolerance", 1e-200)
    with pytest.raises(bristle.SolverError, match=r"^patch.tolerance = 1e-200: below the round-off of a sweep \(the "
                                                  r"last change .* is at the precision of the state after "
                                                  r"patch.max_sweeps = 400 sweeps\); give at least 1e-13"):
        sc.run()


def test_a_reduced_model_beyond_the_mode_limit_names_its_cause():
    # helper-39: a string of wave speed 1e-200 m/s said only "modes = 2199023255552: at most 16777216 modes at once".
    st = bristle.structures
    s = st.Structure.taut_string(contact_positions_m=[0.5], wave_speed_m_per_s=1e-200, damping_ratio=0.05)
    with pytest.raises(bristle.InvalidInput, match=r"^reduced model: the far field keeps every mode not yet decayed "
                                                   r"after the window tau_w = .* s \(.* steps of dt = 0.001 s\), "
                                                   r"\d+ modes of a structure whose slowest mode is omega_1 = "
                                                   r"3.14\d*e-200 rad/s; at most 16777216 at once"):
        st.make_reduced_model(s, 1e-3)


def test_helper_43_inputs_that_gave_wrong_answers_are_refused():
    from bristle import directional as d
    from bristle import io
    from bristle import papers
    # A grid built by hand: output_dt_s = nan gave [t_start, t_end] and a 2-row run, exit 0.
    for kw, message in ((dict(t_end_s=1.0, output_dt_s=float("nan")), r"^time\.output_dt_s = nan: must be finite$"),
                        (dict(t_end_s=1.0, output_dt_s=-1.0), r"^time\.output_dt_s = -1: must be > 0$"),
                        (dict(t_start_s=1.0, t_end_s=0.0, output_dt_s=0.1),
                         r"^time\.t_end_s = 0: must be > time\.t_start_s = 1$"),
                        (dict(t_end_s=1e12, output_dt_s=1e-3),
                         r"^time\.output_dt_s = 0\.001: gives 1000000000000002 output times; at most 2000001")):
        with pytest.raises(bristle.InvalidInput, match=message):
            io.TimeGrid(**kw).times()
    # The crawlers' cycles x steps overflowed an int: 1e9 cycles gave 2 rows and an advance of 0.
    m = d.Mechanism(d.MechanismParams(kind="slanted", k=1.0, height_m=1.0, rest_length_m=1.5, theta_rad=0.5),
                    d.Profile(d.ProfileParams(kind="sine", amplitude=0.08)))
    with pytest.raises(bristle.InvalidInput, match=r"^cycles = 1000000000: at most 1000$"):
        d.crawl_limit(m, d.CrawlerParams(), 10**9)
    with pytest.raises(bristle.InvalidInput, match=r"^steps_per_cycle = 100000: cycles x steps_per_cycle = 100000000 "
                                                   r"rows; at most 10000000$"):
        d.crawl_limit(m, d.CrawlerParams(), 1000, 100000)
    # Speeds of 1e300 m/s gave NaN forces; NaN speeds NaN coefficients.
    model = bristle.ContactModel(bristle.LawParams(type="lugre"), bristle.elastic(1e5))
    with pytest.raises(bristle.InvalidInput, match=r"magnitude above 1e\+150$"):
        model.steady_force(1e300)
    with pytest.raises(ValueError, match=r"^speed\[1\] = nan: must be finite$"):
        bristle.StribeckParams().mu(np.array([0.1, float("nan")]))
    with pytest.raises(ValueError, match=r"^x = inf: must be finite$"):
        d.Profile(d.ProfileParams(kind="sine", amplitude=0.08)).w(float("inf"))
    # At t = 1e12 s the round-off slack (1 s) swallowed the steps: time moved, force 0 N.
    lc = bristle.LineContact(papers.sliding_model(0.4, 2), bristle.LineContactParams(L_m=0.2, normal_load_N=10.0,
                                                                                     V2=0.3))
    lc.reset(1e12)
    with pytest.raises(bristle.InvalidInput, match=r"the step of 0\.003\d* s is below 2e-12 of the time"):
        lc.advance_to(1e12 + 1.0)
    assert lc.time == 1e12 and lc.steps_taken == 0


def test_a_fourier_profile_has_at_most_1000_harmonics():
    # helper-43: 10^4 harmonics took 34 s (quadratic), deaf to Ctrl-C; the list limit of 10^5 about an hour.
    from bristle import directional as d
    d.Profile(d.ProfileParams(kind="fourier", cos=np.full(1000, 1e-6)))
    with pytest.raises(bristle.InvalidInput, match=r"^profile\.sin has 1001 coefficients; at most 1000 harmonics"):
        d.Profile(d.ProfileParams(kind="fourier", cos=[1e-3], sin=np.full(1001, 1e-6)))


def test_sizes_that_ended_in_a_bare_bad_alloc_are_refused_by_name():
    # helper-43: 1e8 output times of contact.run (11 s, then std::bad_alloc), PatchGeometry.boundary(1e8) (1.5 GB).
    from bristle import patch as bp
    m = bristle.ContactModel(bristle.LawParams(type="dahl"), bristle.elastic(1e3))
    bench = bristle.Bench(m, bristle.BenchParams(input=0.1))
    with pytest.raises(bristle.InvalidInput, match=r"^output times: 2000002; at most 2000001 in one run"):
        bristle.contact.run(bench, np.linspace(0.0, 1.0, 2_000_002))
    with pytest.raises(bristle.InvalidInput, match=r"^n = 100000000: boundary points must be in \[1, 1000000\]$"):
        bp.PatchGeometry(bp.PatchParams()).boundary(10**8)


def test_point_arguments_have_the_readers_magnitude_bound():
    # helper-43: steady_state, G_inverse, stored_energy at 1e300 gave NaN or inf; docs/python.md promised the 1e150
    # bound for velocities.
    m = bristle.ContactModel(bristle.LawParams(type="lugre"), bristle.elastic(1e5))
    with pytest.raises(ValueError, match=r"^v_r\[1\] = 1e\+200: magnitude above 1e\+150$"):
        m.steady_force(np.array([0.1, 1e200, 3.0]))
    with pytest.raises(ValueError, match=r"magnitude above 1e\+150$"):
        m.law.G_inverse(1e300)
    assert np.all(np.isfinite(m.steady_state(1e150)))


def test_patch_max_sweeps_has_the_readers_range():
    # helper-43: PatchParams(max_sweeps=10**9) was accepted; the reader allows [1, 100000].
    from bristle import patch as bp
    with pytest.raises(bristle.InvalidInput, match=r"^patch\.max_sweeps = 1000000000: must be in \[1, 100000\]$"):
        bp.PatchGeometry(bp.PatchParams(max_sweeps=10**9))


def test_helper_46_limits_only_the_scenarios_had_hold_for_direct_calls():
    # Each of these ran for minutes to days, or returned a wrong answer, through the library; the scenario reader
    # refused them. Each is now refused before any work.
    from bristle import directional as d
    st = bristle.structures
    # A stiff string at dt = 1 ms: the one-step admittance came out 26 orders of magnitude too small.
    stiff = st.Structure.taut_string(contact_positions_m=[0.3], wave_speed_m_per_s=1e8, damping_ratio=0.05)
    with pytest.raises(bristle.InvalidInput, match=r"^dt_s = 0\.001: the structure's slowest mode \(omega_1 = "
                                                   r"314159265\.\d+ rad/s\) turns omega_1 x dt_s = 314159\.\d+ rad per "
                                                   r"step; at most 1000"):
        st.make_reduced_model(stiff, 1e-3)
    with pytest.raises(bristle.InvalidInput, match=r"^structure\.damping_ratio = 1e-09: must be 0 or >= 1e-06"):
        st.make_reduced_model(st.Structure.taut_string(contact_positions_m=[0.3], damping_ratio=1e-9), 1e-3)
    # 1e12 stick-slip steps thinned to 1e4 rows.
    model = st.make_reduced_model(st.Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3]), 1e-3)
    with pytest.raises(bristle.InvalidInput, match=r"^run\.t_end_s = 1000000000: more than 1000000000 steps"):
        st.run_stick_slip(model, st.BeltParams(normal_load_N=1.0, belt_speed_m_per_s=0.1),
                          bristle.CoulombStribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1),
                          st.StickSlipOptions(t_end_s=1e9, output_every=100_000_000))
    # epsilon_loop at eps = 1e-6: 3.2e6 wiggles, about half an hour.
    m = d.Mechanism(d.MechanismParams(kind="slanted", k=1.0, height_m=1.0, rest_length_m=1.5, theta_rad=0.5),
                    d.Profile(d.ProfileParams(kind="sine", amplitude=0.08)))
    with pytest.raises(bristle.InvalidInput, match=r"^epsilon = 1e-06: the eps-system would resolve 3\.2e\+06 "
                                                   r"wiggles \(the driver's path q over the output times = 3\.2 m"):
        d.epsilon_loop(m, d.EpsilonParams(epsilon=1e-6), d.DriveParams(), d.Loading.triangle(0.0, 0.8, 2.0, 1.0),
                       np.linspace(0.0, 2.0, 21))
    # A bench sine of 1e8 rad/s over 1 s: 51 s, then the step budget.
    bench = bristle.Bench(bristle.ContactModel(bristle.LawParams(type="lugre"), bristle.elastic(1e5)),
                          bristle.BenchParams(drive="velocity", input=bristle.Signal.sine(0.1, 1e8)))
    with pytest.raises(bristle.InvalidInput, match=r"^bench\.input\.omega = 100000000: the run \(1 s\) spans "):
        bristle.contact.run(bench, np.linspace(0.0, 1.0, 3))
    # A field time between output times was moved to the next one.
    lc = bristle.LineContact(papers.sliding_model(0.4, 1), bristle.LineContactParams(L_m=0.2, normal_load_N=10.0,
                                                                                     V2=0.3, cells=20))
    with pytest.raises(bristle.InvalidInput, match=r"^field_times\[0\] = 0\.7 s: is not an output time"):
        bristle.transport.run(lc, np.linspace(0.0, 1.0, 3), field_times=[0.7])
