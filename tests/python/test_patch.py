"""bristle.patch (paper 1, §4: the two-dimensional contact patch) through Python.

(1) bit for bit against the C++ library (python/reference/bristle_pyref.cpp, mode `patch`: the same
inputs, repeated here); (2) physics against independent values: the uniform patch without spin is the
line contact, so F_x equals eq. 62 (closed form, computed here from the Stribeck curve of Table 2) and
transport.steady_state to 1e-3 (as tests/patch/patch_steady_test.cpp); (3) bad input raises
ValueError / TypeError.
"""

import math
import subprocess

import numpy as np
import pytest

import bristle
from bristle import papers
from bristle import patch as bp

K01 = 240.0  # 1/m, Table 2


def reference(pyref, mode):
    out = subprocess.run([str(pyref), mode], check=True, capture_output=True, text=True).stdout
    return [line.split() for line in out.splitlines() if line.strip()]


STEADY_CASES = [(16.0, 0.6, 0.4, 6.0), (16.0, 1.0, 0.0, 0.0), (16.0, -0.5, 0.3, -4.0)]


def test_steady_patch_equals_cpp(pyref):
    ref = [r for r in reference(pyref, "patch") if r[0] == "steady"]
    assert len(ref) == len(STEADY_CASES)
    solver = bp.PatchSolver(papers.rolling_model(0.4, 1), bp.PatchParams(nx=30, ny=12))
    for r, (V_r, v_x, v_y, spin) in zip(ref, STEADY_CASES):
        st = solver.solve(bp.rolling(V_r=V_r, v_x=v_x, v_y=v_y, spin_radps=spin))
        got = [st.force_N[0], st.force_N[1], st.Mz_Nm, st.Mz_no_phi_Nm, st.stored_energy_J]
        assert got == [float(v) for v in r[2:7]], (r, got)
        assert st.sweeps == int(r[7])


def test_transient_patch_equals_cpp(pyref):
    ref = np.array([[float(v) for v in r[1:]] for r in reference(pyref, "patch") if r[0] == "transient"])
    assert ref.shape == (9, 6)
    params = bp.PatchTransientParams(patch=bp.PatchParams(nx=20, ny=8))
    tr = bp.PatchTransient(papers.rolling_model(0.4, 1), params,
                           bp.rolling(V_r=16.0, v_x=0.6, v_y=0.4, spin_radps=6.0), 3000.0)
    run = tr.run([0.0005 * k for k in range(9)])
    got = np.column_stack([run["t_s"], run["force_N"][:, 0], run["force_N"][:, 1], run["Mz_Nm"],
                           run["stored_energy_J"], run["supplied_energy_J"]])
    assert np.array_equal(got, ref)
    assert np.any(got[:, 1] != 0.0)  # the run does something


def test_transient_with_python_histories_equals_constant_inputs():
    """Callables (GIL re-taken inside the released solve) give the same doubles as constants."""
    model = papers.rolling_model(0.4, 1)
    params = bp.PatchTransientParams(patch=bp.PatchParams(nx=12, ny=4))
    kin = bp.rolling(V_r=16.0, v_x=0.6, v_y=0.4, spin_radps=6.0)
    a = bp.PatchTransient(model, params, kin, 3000.0)
    b = bp.PatchTransient(model, params, lambda t: kin, lambda t: 3000.0)
    a.advance_to(0.002)
    b.advance_to(0.002)
    assert np.array_equal(a.state, b.state)
    assert a.state.shape == (12, 4, 6)
    assert a.snapshot().force_N[0] == b.snapshot().force_N[0] != 0.0


def eq62_force(s, L, Fz, V_r, v_x):
    """Eq. 62 (eps = 0, uniform pressure, elastic pair): F_x (N), mu from Table 2's Stribeck curve."""
    mu_s, mu_d, v_s, delta = 1.2, 0.7, 3.49, 0.6
    mu = mu_d + (mu_s - mu_d) * math.exp(-(abs(v_x) / v_s) ** delta)
    a = (1.0 - s) * K01 * abs(v_x) * L / ((V_r + s * v_x) * mu)
    return -math.copysign(1.0, v_x) * mu * Fz * (a + math.expm1(-a)) / a


@pytest.mark.parametrize("s", [0.2, 0.8])
def test_uniform_patch_without_spin_reproduces_eq62_and_line_contact(s):
    model = bristle.ContactModel(papers.table2_law(), bristle.elastic(K01),
                                 bristle.elastic(bristle.substrate_stiffness_from_s(s, K01)))
    solver = bp.PatchSolver(model, bp.PatchParams(length_m=0.1, width_m=0.05, normal_load_N=3000.0))
    line = bristle.LineContactParams(L_m=0.1, normal_load_N=3000.0)
    for v_x in (-3.2, 0.02, 1.0, 3.2):
        st = solver.solve(bp.rolling(V_r=16.0, v_x=v_x))
        closed = eq62_force(s, 0.1, 3000.0, 16.0, v_x)
        ls = bristle.transport.steady_state(model, line, 16.0, 16.0 + v_x)
        assert abs(st.force_N[0] - closed) <= 1e-3 * abs(closed), (s, v_x, st.force_N[0], closed)
        assert abs(st.force_N[0] - ls.force_N[0]) <= 1e-3 * abs(ls.force_N[0]), (s, v_x)
        assert abs(st.force_N[1]) <= 1e-9 * abs(closed)
        assert abs(st.Mz_Nm) <= 1e-9 * abs(closed)
    # The grid carries the load exactly (cell loads sum to F_z).
    assert solver.load_weights.shape == (100, 20)
    assert math.isclose(solver.load_weights.sum(), 3000.0, rel_tol=1e-12)


def test_geometry_closed_forms_and_eq84():
    """Ellipse area pi a b; Hertzian peak pressure p0 = 3 F_z / (2 pi a b); p = 0 outside; eq. 84 holds
    for uniform pressure (grad p = 0) and fails for a Hertzian one under rolling (material entering at
    x = +a moves towards rising pressure: grad p . V1 > 0 for x > 0)."""
    g = bp.PatchGeometry(bp.PatchParams(shape="ellipse", length_m=0.1, width_m=0.05, pressure="hertzian",
                                        normal_load_N=3000.0))
    a, b = 0.05, 0.025
    assert (g.a, g.b) == (a, b)
    assert math.isclose(g.area(), math.pi * a * b, rel_tol=1e-14)
    assert math.isclose(g.peak_pressure, 3.0 * 3000.0 / (2.0 * math.pi * a * b), rel_tol=1e-14)
    p = g.pressure(np.array([[0.0, 0.0], [0.5 * a, 0.0], [0.06, 0.0]]))
    assert p.shape == (3,)
    assert math.isclose(p[1], g.peak_pressure * math.sqrt(0.75), rel_tol=1e-14) and p[2] == 0.0
    assert g.pressure_gradient([0.5 * a, 0.0])[0] < 0.0
    x, n = g.boundary(64)
    assert x.shape == n.shape == (64, 2)
    assert np.allclose((x[:, 0] / a) ** 2 + (x[:, 1] / b) ** 2, 1.0)
    assert np.allclose(np.linalg.norm(n, axis=1), 1.0)
    kin = bp.rolling(V_r=16.0, v_x=0.6)
    assert bp.check_eq84(bp.PatchGeometry(bp.PatchParams()), kin).satisfied()
    assert not bp.check_eq84(g, kin).satisfied()
    # Isotropic pair: R = I; zeta1 is carried by V1 = (-V_r, 0), so its leading edge is x = +a.
    model = papers.rolling_model(0.4, 1)
    r = bp.riemann(model.pair)
    assert r.theta == 0.0 and np.array_equal(r.R, np.eye(2))
    edges = bp.classify_edges(g, r, kin, samples=16)
    lead = edges.edges(bp.Family.zeta1) == int(bp.Edge.leading)
    assert np.all(edges.points[lead, 0] > 0.0) and np.all(edges.points[~lead, 0] <= 1e-12)
    assert np.array_equal(bp.family_velocity(r, kin, bp.Family.zeta1, [0.01, 0.0]), [-16.0, 0.0])


@pytest.mark.parametrize("kwargs", [
    dict(length_m=-0.1), dict(width_m=0.0), dict(length_m=float("nan")), dict(normal_load_N=-1.0),
    dict(normal_load_N=float("inf")), dict(nx=2), dict(ny=1), dict(tolerance=0.0), dict(max_sweeps=0),
    dict(shape="square"), dict(pressure="cubic"), dict(peak_pressure_Pa=1.0),
])
def test_bad_patch_params_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        bp.PatchParams(**kwargs)


def test_bad_inputs_raise_value_error():
    model = papers.rolling_model(0.4, 1)
    solver = bp.PatchSolver(model, bp.PatchParams(nx=8, ny=4))
    with pytest.raises(ValueError):
        bp.rolling(V_r=float("nan"))
    with pytest.raises(ValueError):
        bp.BodyMotion(V0_mps=[1.0, 2.0, 3.0])  # wrong shape
    with pytest.raises(ValueError):
        bp.PatchKinematics(body1=bp.BodyMotion(V0_mps=[float("nan"), 0.0]))
    kin = bp.rolling(V_r=16.0, v_x=0.1)
    kin.body2.omega_radps = float("inf")  # bypasses the constructor: caught by the solve
    with pytest.raises(ValueError):
        solver.solve(kin)
    with pytest.raises(ValueError):
        bp.PatchTransientParams(cfl=0.8)
    with pytest.raises(ValueError):
        bp.PatchTransientParams(size_exponent=-0.5)
    params = bp.PatchTransientParams(patch=bp.PatchParams(nx=8, ny=4))
    with pytest.raises(ValueError):
        bp.PatchTransient(model, params, bp.rolling(V_r=16.0, v_x=0.1), -3000.0)
    tr = bp.PatchTransient(model, params, bp.rolling(V_r=16.0, v_x=0.1), lambda t: 3000.0 if t < 1e-3 else -1.0)
    with pytest.raises(ValueError):
        tr.advance_to(2e-3)
    with pytest.raises(ValueError):  # the load history is evaluated from t = 0
        bp.PatchTransient(model, params, bp.rolling(V_r=16.0, v_x=0.1), lambda t: float("nan")).advance_to(1e-3)
    tr3 = bp.PatchTransient(model, params, bp.rolling(V_r=16.0, v_x=0.1), 3000.0)
    with pytest.raises(ValueError):
        tr3.step(-1e-4)
    with pytest.raises(ValueError):
        tr3.run([1e-3, 5e-4])  # decreasing output times
    for bad_time in (lambda: tr3.run([float("nan")]), lambda: tr3.advance_to(float("inf")),
                     lambda: tr3.reset(float("nan")), lambda: tr3.stable_dt(float("nan")),
                     lambda: tr3.run(np.zeros((2, 2)))):
        with pytest.raises(ValueError):
            bad_time()
    g = bp.PatchGeometry(bp.PatchParams())
    with pytest.raises(ValueError):
        g.pressure(np.zeros((3, 3)))
    with pytest.raises(ValueError):
        g.pressure([[0.0, float("nan")]])
    with pytest.raises(ValueError):
        g.boundary(0)
    with pytest.raises(ValueError):
        bp.relative_velocity(model, bp.rolling(V_r=16.0), [0.0, 0.0], [0.0, 0.0])  # state has 6 entries


def test_wrong_types_raise_type_error():
    model = papers.rolling_model(0.4, 1)
    with pytest.raises(TypeError):
        bp.PatchParams(length_m="0.1")
    with pytest.raises(TypeError):
        bp.PatchParams(nx=10.5)
    with pytest.raises(TypeError):
        bp.PatchParams(shape=3)
    with pytest.raises(TypeError):
        bp.PatchGeometry(bp.PatchParams()).pressure("centre")
    with pytest.raises(TypeError):
        bp.BodyMotion(V0_mps="fast")
    with pytest.raises(TypeError):
        bp.PatchSolver(model, dict(nx=10))
    solver = bp.PatchSolver(model, bp.PatchParams(nx=8, ny=4))
    with pytest.raises(TypeError):
        solver.solve((16.0, 0.1))
    params = bp.PatchTransientParams(patch=bp.PatchParams(nx=8, ny=4))
    with pytest.raises(TypeError):
        bp.PatchTransient(model, params, "rolling", 3000.0)
    with pytest.raises(TypeError):
        bp.PatchTransient(model, params, bp.rolling(V_r=16.0), "3000")
    with pytest.raises(TypeError):  # the callable returns the wrong type
        bp.PatchTransient(model, params, lambda t: 16.0, 3000.0).advance_to(1e-3)
    with pytest.raises(TypeError):
        bp.PatchTransient(model, params, bp.rolling(V_r=16.0, v_x=0.1), lambda t: "heavy").advance_to(1e-3)


def test_steady_map_equals_the_serial_loop_and_closes_the_budget():
    """solve_steady_map = PatchSolver.solve with warm starts per chain, bit for bit, any thread count;
    the budget terms P_supplied = D + outflow - compression + residual hold row by row."""
    model = papers.rolling_model(0.4, 0)
    params = bp.PatchParams(nx=30, ny=12)
    points = [bp.rolling(V_r=16.0, v_x=0.3, v_y=v_y, spin_radps=spin)
              for spin in (-5.0, 0.0, 5.0) for v_y in (-0.4, 0.0, 0.4)]
    solver = bp.PatchSolver(model, params)
    serial = [solver.solve(k, warm=i % 3 != 0) for i, k in enumerate(points)]
    for threads in (1, 2):
        got = bp.solve_steady_map(model, params, points, chain_length=3, threads=threads)
        assert [list(g.force_N) + [g.Mz_Nm] for g in got] == [list(s.force_N) + [s.Mz_Nm] for s in serial]
    for s in serial:
        assert s.dissipated_power_W >= 0.0 and s.outflow_power_W >= 0.0
        assert s.supplied_power_W - s.dissipated_power_W - s.outflow_power_W + s.compression_power_W == \
            pytest.approx(s.budget_residual_W, abs=1e-9 * s.supplied_power_W)
        assert abs(s.budget_residual_W) < 5e-3 * s.supplied_power_W
    with pytest.raises(ValueError):
        bp.solve_steady_map(model, params, points, threads=-1)


def test_transient_with_a_python_G_inverse_takes_the_sdirk2_source_step():
    """A law that is not affine in the state (FrBD with a Python G^-1) goes through the SDIRK2 source step
    and settles on the steady solver's forces; the exponential step is refused for it."""
    def G_inverse(v):
        speed = math.hypot(v[0], v[1])
        g = (speed + 0.1) / (0.7 + 0.5 * math.exp(-speed / 3.49))  # |v| / mu(|v|), regular at rest
        return [[g, 0.0], [0.0, g]]

    law = bristle.LawParams(kind="frbd", mu_s=1.2, mu_d=0.7, v_s=3.49, delta_s=0.6, G_inverse=G_inverse)
    model = bristle.ContactModel(law, bristle.elastic(K01), bristle.elastic(K01 * 0.6 / 0.4))
    kin = bp.rolling(V_r=16.0, v_x=0.6, v_y=0.4, spin_radps=6.0)
    grid = bp.PatchParams(nx=8, ny=4)
    tr = bp.PatchTransient(model, bp.PatchTransientParams(patch=grid), kin, 3000.0)
    assert not tr.exponential_source
    tr.advance_to(0.03)
    st = bp.PatchSolver(model, grid).solve(kin)
    F = tr.snapshot().force_N
    assert np.linalg.norm(st.force_N) > 1.0
    assert np.linalg.norm(F - st.force_N) < 2e-3 * np.linalg.norm(st.force_N), (F, st.force_N)
    exact = bp.PatchTransientParams(patch=grid, source_scheme=bristle.transport.SourceScheme.exponential)
    with pytest.raises(ValueError, match="needs a source affine in the state"):
        bp.PatchTransient(model, exact, kin, 3000.0)


def test_transient_width_exponent():
    """width_exponent (gamma_y): None is size_exponent (the same doubles as setting it equal); set apart,
    the width keeps its scale while the length grows; bad values raise ValueError."""
    model = papers.rolling_model(0.4, 1)
    kin = bp.rolling(V_r=16.0, v_x=0.6, v_y=0.2)
    load = lambda t: 3000.0 if t < 1e-3 else 4500.0  # noqa: E731
    patch = bp.PatchParams(nx=12, ny=4)
    iso = bp.PatchTransientParams(patch=patch, size_exponent=0.5)
    assert iso.width_exponent is None
    same = bp.PatchTransientParams(patch=patch, size_exponent=0.5, width_exponent=0.5)
    flat = bp.PatchTransientParams(patch=patch, size_exponent=0.5, width_exponent=0.0)
    runs = []
    for p in (iso, same, flat):
        tr = bp.PatchTransient(model, p, kin, load)
        tr.advance_to(3e-3)
        runs.append(tr.snapshot())
    assert runs[0].scale_y == runs[0].scale == runs[1].scale_y
    assert np.array_equal(runs[0].force_N, runs[1].force_N)
    assert runs[2].scale == pytest.approx(math.sqrt(1.5), rel=1e-12)
    assert runs[2].scale_y == 1.0
    assert not np.array_equal(runs[2].force_N, runs[0].force_N)
    flat.width_exponent = None
    assert flat.width_exponent is None
    for bad in (-0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match="width_exponent"):
            bp.PatchTransientParams(width_exponent=bad)


def test_transient_run_returns_every_snapshot_field():
    """run() gives, per output time, every field of PatchSnapshot, bit for bit the snapshots that
    advance_to + snapshot() give on a twin; with a growing load and width_exponent 0 the length's scale
    grows while the width's stays 1."""
    model = papers.rolling_model(0.4, 1)
    kin = bp.rolling(V_r=16.0, v_x=0.6, v_y=0.2, spin_radps=4.0)
    load = lambda t: 3000.0 * (1.0 + 200.0 * t)  # noqa: E731
    params = bp.PatchTransientParams(patch=bp.PatchParams(nx=12, ny=4), size_exponent=0.5, width_exponent=0.0)
    times = [0.0005 * k for k in range(1, 6)]
    run = bp.PatchTransient(model, params, kin, load).run(times)
    twin = bp.PatchTransient(model, params, kin, load)
    snaps = []
    for t in times:
        twin.advance_to(t)
        snaps.append(twin.snapshot())
    fields = [name for name in dir(snaps[0]) if not name.startswith("_")]
    assert sorted(run) == sorted(fields)
    assert len(fields) == 19
    for name in fields:
        want = np.array([getattr(s, name) for s in snaps])
        assert run[name].shape == want.shape, name
        assert np.array_equal(run[name], want), name
    assert np.all(np.diff(run["scale"]) > 0.0)
    assert np.all(run["scale_y"] == 1.0)
    assert run["scale"][-1] == pytest.approx(math.sqrt(1.0 + 200.0 * times[-1]), rel=1e-12)


def test_transient_run_reports_progress_and_stops_on_an_exception():
    model = papers.rolling_model(0.4, 1)
    kin = bp.rolling(V_r=16.0, v_x=0.6, v_y=0.2, spin_radps=4.0)
    params = bp.PatchTransientParams(patch=bp.PatchParams(nx=12, ny=4))
    times = [0.0005 * k for k in range(1, 6)]
    seen = []
    run = bp.PatchTransient(model, params, kin, 3000.0).run(times, progress=seen.append)
    assert seen and seen[-1] == 1.0
    plain = bp.PatchTransient(model, params, kin, 3000.0).run(times)
    assert np.array_equal(run["Mz_Nm"], plain["Mz_Nm"])

    def stop(fraction):
        raise KeyboardInterrupt

    tr = bp.PatchTransient(model, params, kin, 3000.0)
    with pytest.raises(KeyboardInterrupt):
        tr.run(times, progress=stop)
    assert tr.time == pytest.approx(times[-1])  # the relay runs after each output time; stop() at the last


SWEEP_MAP = """kind = "patch_steady_map"
[law]
type = "frbd"
mu_s = 1.2
mu_d = 0.7
v_s = 3.49
delta_s = 0.6
[body1]
type = "elastic"
k0 = 240.0
[body2]
type = "gkv"
c = [0.5]
tau = [{tau}]
[pair]
s = {s}
[patch]
length_m = 0.1
width_m = 0.05
normal_load_N = 3000.0
nx = 24
ny = 6
[kinematics]
Vr_mps = 16.0
vx_mps = [-1.0, 0.5, 2.0]
vy_mps = 0.2
"""


@pytest.mark.parametrize("parameter,column,values", [("pair.s", "s", [0.3, 0.6]), ("body2.tau", "tau", [0.001, 0.01])])
def test_patch_steady_map_sweeps_any_numeric_key_from_toml(parameter, column, values):
    # [sweep] of a patch_steady_map (issue 15): applied by key path to the parsed scenario; each case is what
    # the file with that value gives, and the swept value is the sweep column of the CSV.
    toml = SWEEP_MAP.format(tau=0.002, s=0.4) + f'[sweep]\nparameter = "{parameter}"\nvalues = {values}\n'
    study = bristle.io.parse_scenario_string(toml, "m")
    assert study.case_count == len(values)
    result = study.run()
    assert result.sweep_column == column
    csv = result.csv_text().splitlines()
    assert csv[0].split(",")[:2] == [column, "vx_mps"]
    for i, v in enumerate(values):
        assert result.cases[i].sweep_value == v
        one = bristle.io.parse_scenario_string(
            SWEEP_MAP.format(tau=v if parameter == "body2.tau" else 0.002, s=v if parameter == "pair.s" else 0.4), "m"
        ).run()
        assert np.array_equal(result.cases[i].series["Fx_N"], one.cases[0].series["Fx_N"])
    assert not np.array_equal(result.cases[0].series["Fx_N"], result.cases[1].series["Fx_N"])
    with pytest.raises(ValueError, match=r"sweep case 2 of 2 \(pair.s = 2\): pair.s = 2: must lie in \(0, 1\)"):
        bristle.io.parse_scenario_string(SWEEP_MAP.format(tau=0.002, s=0.4) + '[sweep]\nparameter = "pair.s"\nvalues = [0.3, 2]\n')


TRANSIENT = """kind = "patch_transient"
[law]
type = "frbd"
mu_s = 1.2
mu_d = 0.7
v_s = 3.49
delta_s = 0.6
[body1]
type = "elastic"
k0 = {k0}
[body2]
type = "elastic"
[pair]
s = 0.4
[patch]
length_m = 0.1
width_m = 0.05
normal_load_N = 3000.0
nx = 16
ny = 4
[kinematics]
Vr_mps = 16.0
vx_mps = 0.5
vy_mps = 0.3
[time]
t_end_s = 0.01
output_dt_s = 0.001
"""


def test_patch_transient_sweeps_any_numeric_key_from_toml():
    # [sweep] of a patch_transient (issue 15: one sweep syntax): each case is the file with that value (bitwise), the
    # swept value the first CSV column, each case's steps and energy budget in the report; set() refuses the key.
    values = [200.0, 300.0]
    study = bristle.io.parse_scenario_string(
        TRANSIENT.format(k0=240.0) + f'[sweep]\nparameter = "body1.k0"\nvalues = {values}\n', "t"
    )
    assert study.case_count == 2
    result = study.run()
    assert result.sweep_column == "k0"
    assert result.csv_text().splitlines()[0].split(",")[:3] == ["k0", "t_s", "Fz_N"]
    report = result.report
    assert report["sweep"] == {"parameter": "body1.k0", "column": "k0", "values": values}
    assert [c["k0"] for c in report["cases"]] == values and all(c["steps"] > 0 for c in report["cases"])
    assert "steps" not in report  # per case under a sweep
    for i, v in enumerate(values):
        assert result.cases[i].sweep_value == v
        one = bristle.io.parse_scenario_string(TRANSIENT.format(k0=v), "t").run()
        assert np.array_equal(result.cases[i].series["Fy_N"], one.cases[0].series["Fy_N"])
    assert not np.array_equal(result.cases[0].series["Fy_N"], result.cases[1].series["Fy_N"])
    with pytest.raises(ValueError, match=r'^body1.k0: is the parameter of the sweep \(sweep.parameter = "body1.k0"\)'):
        bristle.set(study, "body1.k0", 250.0)
    with pytest.raises(ValueError, match=r"^sweep case 2 of 2 \(body1.k0 = -1\): body1.k0 = -1: must be > 0"):
        bristle.io.parse_scenario_string(TRANSIENT.format(k0=240.0) + '[sweep]\nparameter = "body1.k0"\nvalues = [200, -1]\n')
    with pytest.raises(ValueError, match=r'^sweep.column = "Fy_N": clashes with an output column'):
        bristle.io.parse_scenario_string(
            TRANSIENT.format(k0=240.0) + '[sweep]\nparameter = "body1.k0"\nvalues = [200]\ncolumn = "Fy_N"\n'
        )
