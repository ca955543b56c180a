"""The Python API itself: keyword constructors, readable attributes, numpy in and out, result tables."""

import copy
import math

import numpy as np
import pytest

import bristle
from bristle import papers


def test_import_and_submodules():
    import bristle.laws
    import bristle.transport
    assert bristle.laws.LawParams is bristle.LawParams
    assert bristle.transport.steady_state is bristle.steady_line
    assert bristle.__version__
    assert set(bristle.scenario_kinds()) >= {"lumped", "line_steady", "line_transient"}


def test_parameter_structs_have_keyword_constructors_and_attributes():
    law = bristle.LawParams(kind="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3, sigma1=316.0, sigma2=[[0.4, 0.0], [0.0, 0.5]])
    assert law.kind == bristle.LawKind.lugre
    assert law.M.axis1.mu_s == 1.5 and law.M.axis1.v_s == 1e-3
    assert np.array_equal(law.sigma1, 316.0 * np.eye(2))
    assert np.array_equal(law.sigma2, [[0.4, 0.0], [0.0, 0.5]])
    assert law.sigma0 is None
    law.sigma0 = 2e5
    assert np.array_equal(law.sigma0, 2e5 * np.eye(2))
    law.M.axis1.mu_s = 1.6  # nested structs are references, edits stick
    assert law.M.axis1.mu_s == 1.6
    with pytest.raises(TypeError):
        bristle.LawParams("lugre")  # keyword-only
    with pytest.raises(ValueError, match="either M or the Stribeck parameters"):
        bristle.LawParams(M=bristle.FrictionCoefficient(), mu_s=2.0)
    # repr reads back
    again = eval(repr(law), {**vars(bristle), "float": float})
    assert repr(again) == repr(law)
    c = copy.deepcopy(law)
    c.eps = 1.0
    assert law.eps == 0.0
    body = bristle.gkv(240.0, [100.0, 50.0], [0.1, 0.2])
    assert body.kind == bristle.RheologyKind.gkv and body.branch_count == 2
    assert body.branches[1].c[0, 0] == 50.0 and body.branches[1].k[0, 0] == 50.0 / 0.2
    assert "RheologyParams(type='gkv'" in repr(body)


def test_stribeck_curve_vectorised():
    p = bristle.StribeckParams(mu_s=1.0, mu_d=0.7, v_s=6.0, delta_s=2.0)
    v = np.linspace(0.0, 20.0, 7)
    mu = p.mu(v)
    assert mu.shape == v.shape
    assert np.array_equal(mu, [bristle.stribeck_mu(p, x) for x in v])
    assert p.mu(0.0) == 1.0
    assert isinstance(p.mu(1.0), float)
    assert bristle.stribeck_mu(p, np.zeros((2, 3))).shape == (2, 3)


def test_contact_model_numpy_in_and_out():
    m = papers.sliding_model(0.4, 2)
    assert m.state_size == 2 + 2 * (2 + 2)
    u = m.steady_state(1.0)
    assert isinstance(u, np.ndarray) and u.shape == (m.state_size,)
    h, zdot = m.source(u, [1.0, 0.0])
    assert np.max(np.abs(h)) < 1e-12  # a steady state: no source
    J = m.source_jacobian(u, 1.0)
    assert J.shape == (m.state_size, m.state_size)
    f = m.friction(u, 1.0)
    assert np.allclose(f, m.steady_force(1.0), rtol=1e-14)
    assert f[0] == pytest.approx(-papers.stribeck_mu(papers.TABLE1, 1.0), rel=1e-14)  # FrBD: -mu sgn v
    pair = m.pair
    assert pair.n1 == 2 and pair.n2 == 2
    assert np.allclose(pair.S1 + pair.S2, np.eye(2))
    assert pair.K0bar[0, 0] == pytest.approx((1 - 0.4) * 240.0)  # errata §5: k0bar = (1 - s) k01


def test_bench_run_names_its_path():
    # A Dahl contact on an elastic body driven along x with rodas4: the compiled 1-D kernel; with cvode_bdf
    # or a y input: the full system (docs/integrators.md).
    m = bristle.ContactModel(bristle.LawParams(kind="dahl"), bristle.elastic(1e3))
    along_x = bristle.Bench(m, bristle.BenchParams(input_x=bristle.Signal.sine(amplitude=0.1, omega=5.0)))
    rodas4 = bristle.IntegratorOptions(method="rodas4", rtol=1e-6, atol=1e-10)
    run = bristle.contact.run(along_x, np.linspace(0.0, 1.0, 11), rodas4)
    assert run.x_only and run.kernel
    # The default method, auto, is rodas5p here (rtol 1e-8): the kernel too (with cvode_bdf, the default before
    # issue 19, the full system).
    run = bristle.contact.run(along_x, np.linspace(0.0, 1.0, 11))
    assert run.x_only and run.kernel
    assert run.stats.method_used == bristle.Method.rodas5p
    run = bristle.contact.run(along_x, np.linspace(0.0, 1.0, 11), bristle.IntegratorOptions(method="cvode_bdf"))
    assert not run.x_only and not run.kernel
    assert run.stats.method_used == bristle.Method.cvode_bdf
    both = bristle.Bench(m, bristle.BenchParams(input_x=bristle.Signal.sine(amplitude=0.1, omega=5.0),
                                                input_y=bristle.Signal.constant(0.05)))
    run = bristle.contact.run(both, np.linspace(0.0, 1.0, 11), rodas4)
    assert not run.x_only and not run.kernel


def test_method_enum_lists_every_method_and_auto_is_the_default():
    names = set(bristle.Method.__members__)
    assert names == {"auto", "cvode_bdf", "rodas4", "rodas5p", "sdirk2", "implicit_euler", "rk4"}
    assert bristle.IntegratorOptions().method == bristle.Method.auto
    assert bristle.IntegratorOptions(method="rodas5p").method == bristle.Method.rodas5p
    assert bristle.IntegratorOptions(method=bristle.Method.rodas4).method == bristle.Method.rodas4


def test_time_series_views_and_dicts():
    m = bristle.ContactModel(bristle.LawParams(kind="dahl"), bristle.elastic(1e3))
    bench = bristle.Bench(m, bristle.BenchParams(input_x=bristle.Signal.sine(amplitude=0.1, omega=5.0)))
    run = bristle.contact.run(bench, np.linspace(0.0, 1.0, 101))
    ts = run.series
    assert len(ts) == 101 and ts.rows == 101
    assert ts.names[0] == "t_s" and "F_N" in ts and "nope" not in ts
    F = ts["F_N"]
    assert isinstance(F, np.ndarray) and F.shape == (101,) and not F.flags.writeable
    with pytest.raises(ValueError):
        F[0] = 1.0  # read-only view
    del run, ts
    assert np.isfinite(F).all()  # the view kept the series alive
    cols = bench_series = bristle.contact.run(bench, [0.0, 0.5]).series
    d = cols.to_dict()
    d["F_N"][0] = 5.0  # copies are writable
    assert bench_series["F_N"][0] == 0.0
    assert list(cols.columns) == cols.names
    assert cols.to_array().shape == (2, len(cols.names))
    assert list(iter(cols)) == cols.names
    ts2 = bristle.TimeSeries.from_columns({"t_s": [0.0, 1.0], "F_N": [0.0, 2.0]})
    assert bristle.peak_abs(ts2, "F_N") == (1.0, 2.0)
    assert repr(ts2) == "TimeSeries(rows=2, names=['t_s', 'F_N'])"


def test_signals():
    s = bristle.Signal.ramp(start=1.0, rate=2.0, t0=1.0, t_end=3.0)
    assert np.array_equal(s(np.array([0.0, 2.0, 5.0])), [1.0, 3.0, 5.0])
    t = bristle.Signal.table([0.0, 1.0, 3.0], [0.0, 1.0, -1.0])
    assert t(2.0) == 0.0 and list(t.breakpoints()) == [0.0, 1.0, 3.0]
    assert bristle.Signal.step(t0=1.0, before=0.0, after=2.0)(1.0) == 2.0
    assert bristle.Signal.sine(amplitude=2.0, omega=math.pi, phase=math.pi / 2)(0.0) == 2.0
    p = bristle.BenchParams(input_x=0.5)
    assert p.input_x.kind == bristle.SignalKind.constant and p.input_x.value == 0.5


def test_generic_integrate_with_python_rhs():
    times, states, stats = bristle.integrate.integrate(lambda t, x: -x, [1.0, 2.0], 0.0, [0.5, 1.0],
                                                      bristle.IntegratorOptions(rtol=1e-10, atol=1e-14))
    assert states.shape == (2, 2)
    assert np.allclose(states[-1], np.exp(-1.0) * np.array([1.0, 2.0]), rtol=1e-8)
    assert stats.steps > 0
    # with a Jacobian and a fixed-step method
    _, states, _ = bristle.integrate.integrate(lambda t, x: -x, [1.0], 0.0, [1.0],
                                               bristle.IntegratorOptions(method="sdirk2", dt=1e-3),
                                               jacobian=lambda t, x: -np.eye(1))
    assert states[-1, 0] == pytest.approx(math.exp(-1.0), rel=1e-6)


def test_line_contact_transient_and_fields():
    m = papers.sliding_model(0.8, 0)
    line = papers.line_params(papers.TABLE1, cells=50, V2=0.3)
    lc = bristle.LineContact(m, line)
    assert lc.cells == 50 and lc.state.shape == (50, m.state_size)
    run = bristle.transport.run(lc, np.linspace(0.0, 2.0, 5), field_times=[1.0, 2.0])
    assert list(run.field_times) == [1.0, 2.0]
    assert len(run.fields) == 2 and "f_x" in run.fields[1]
    assert run.fields[1]["xi_m"].shape == (50,)
    steady = bristle.transport.steady_state(m, line, 0.0, 0.3, field_points=11)
    assert steady.field["xi_m"].shape == (11,)
    assert abs(run.series["Fx_N"][-1] / steady.force_N[0] - 1.0) < 2e-3
    lc.state = np.zeros(m.state_size)  # one point for every cell
    assert np.array_equal(lc.state, np.zeros((50, m.state_size)))
    del m  # the LineContact keeps its model alive
    lc.advance_to(lc.time + 0.1)
    assert np.isfinite(lc.total_force()).all()


def test_scenarios_from_python(examples):
    study = bristle.load_scenario(str(examples / "lugre_breakaway.toml"))
    assert study.kind == "lumped" and study.case_count == 7
    cases = study.cases
    assert cases[0].sweep_value == 0.25 and cases[0].law.kind == bristle.LawKind.lugre
    # edit a case and run it alone
    case = cases[0]
    case.time.t_end_s = 1.0
    progress = []
    result = bristle.io.LumpedStudy([case]).run(progress=lambda p: progress.append((p.case_index, p.fraction)))
    assert result.cases[0].series["t_s"][-1] == 1.0
    assert progress and progress[-1] == (0, 1.0)
    report = result.report
    assert isinstance(report, dict) and "cases" in report
    steady = bristle.load_scenario(str(examples / "fig8_rolling_steady.toml"))
    assert steady.kind == "line_steady" and steady.case_count == 12
    c = steady.cases[0]
    V1, V2 = c.material_velocities()
    assert np.all(V1 == c.Vr_mps) and np.allclose(V2 - V1, c.velocities)
    ts = c.solve(c.model())
    assert ts.names == c.column_names()


def test_sweeps_release_the_gil():
    """A sweep in a worker thread does not block the interpreter (the GIL is released)."""
    import threading
    import time
    models = [papers.sliding_model(s, 2) for s in (0.2, 0.4, 0.6, 0.8)] * 10
    done = threading.Event()
    ticks = [0]

    def work():
        bristle.sweep_steady_line(models, V2=np.geomspace(0.01, 30.0, 300), threads=1, progress=None)
        done.set()

    t = threading.Thread(target=work)
    t.start()
    while not done.is_set():
        ticks[0] += 1
        time.sleep(0.001)
    t.join()
    assert ticks[0] > 5


@pytest.mark.parametrize("kind", ["dahl", "lugre", "frbd", "bouc_wen", "frictionless"])
def test_steady_states_at_rest_are_their_limits_not_nan(kind):
    # issue 17: with eps = 0, steady_force(0), steady_state(0) and sweep_steady_lumped at v = 0 were NaN.
    # At rest the steady state is u = 0 for every law (the limit eps -> 0+; h0 vanishes there).
    extra = dict(A=1.0, beta1=2.0e4, gamma=1.0e4) if kind == "bouc_wen" else {}
    mu = dict(mu_s=0.7, mu_d=0.7) if kind == "dahl" else dict(mu_s=1.0, mu_d=0.7)
    law = bristle.LawParams(kind=kind, eps=0.0, **mu, **extra)
    m = bristle.ContactModel(law, bristle.gkv(240.0, [100.0], [0.1]), bristle.elastic(360.0))
    assert np.array_equal(m.steady_force(0.0), [0.0, 0.0])
    assert np.array_equal(m.law.steady_force([0.0, 0.0]), [0.0, 0.0])
    u = m.steady_state(0.0)
    assert np.array_equal(u, np.zeros(m.state_size))
    h, _ = m.source(u, [0.0, 0.0])
    assert np.array_equal(h, np.zeros(m.state_size))  # at rest
    v = [0.0] if kind == "frictionless" else [-0.5, 0.0, 0.5]
    r = bristle.sweep_steady_lumped(m, v=v, normal_load_N=2.0, threads=1, progress=None)
    assert np.all(np.isfinite(r.force_N))
    i0 = v.index(0.0)
    assert np.array_equal(r.force_N[i0], [0.0, 0.0])
    if kind != "frictionless":
        assert r.force_N[0][0] > 0.0 > r.force_N[-1][0]  # opposes v on either side, odd
        assert r.force_N[0][0] == pytest.approx(-r.force_N[-1][0], rel=1e-14)


def test_steady_force_where_no_steady_state_exists_is_an_error():
    m = bristle.ContactModel(bristle.LawParams(kind="frictionless"), bristle.elastic(1e3))
    with pytest.raises(bristle.InvalidInput, match=r"frictionless law has no steady state at v != 0"):
        m.steady_force(0.5)
    with pytest.raises(bristle.InvalidInput, match=r"must be finite"):
        m.steady_force(float("nan"))


def test_stick_slip_cycle_is_detected_from_sticking():
    # issue 17: stuck 1.2 s, slipping 0.8 s, repeated: found, period 2.0 s; ringing that never sticks: not found.
    t = np.arange(0.0, 20.5, 1e-3)
    phase = np.mod(t, 2.0) - 1.2
    v = np.where(phase <= 0.0, 0.0, np.sin(np.pi * np.maximum(phase, 0.0) / 0.8))
    c = bristle.stick_slip_cycle(bristle.TimeSeries.from_columns({"t_s": t, "v_mps": v, "F_N": -v}))
    assert c.found and c.cycles_used == 4 == c.cycles
    assert c.period_s == pytest.approx(2.0, abs=1e-6)
    ringing = 1.0 + 0.9 * np.cos(2 * np.pi * t)
    n = bristle.stick_slip_cycle(bristle.TimeSeries.from_columns({"t_s": t, "v_mps": ringing, "F_N": -ringing}))
    assert not n.found and n.cycles_used == 0 and n.period_s == 0.0
    assert "found=False" in repr(n)
