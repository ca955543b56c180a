"""Parameter sweeps: grid shapes, identical results on any number of threads and equal to the serial
calls, progress reporting, errors."""

import io
import itertools

import numpy as np
import pytest

import bristle
from bristle import papers
from bristle.sweeps import StderrProgress

S = [0.2, 0.4, 0.6, 0.8]
N2 = [0, 1, 2]
V = np.geomspace(0.01, 30.0, 40)


def sliding(s, n2):
    return papers.sliding_model(s, n2)


LINE = papers.line_params(papers.TABLE1)


def test_grid_shape_and_serial_equality():
    r = bristle.sweep_steady_line(sliding, grid={"s": S, "n2": N2}, V2=V, line=LINE, progress=None)
    assert r.force_N.shape == (4, 3, 40, 2) and r.Fx.shape == (4, 3, 40) and r.exact.all()
    assert list(r.axes) == ["s", "n2", "V1", "V2", "v_y"] and r.points == 480
    for (a, s), (b, n2) in itertools.product(enumerate(S), enumerate(N2)):
        m = sliding(s, n2)
        for i in (0, 17, 39):
            assert np.array_equal(r.force_N[a, b, i], bristle.steady_line(m, LINE, 0.0, V[i]).force_N)


def test_results_do_not_depend_on_threads():
    results = [bristle.sweep_steady_line(sliding, grid={"s": S, "n2": N2}, V2=V, line=LINE, threads=t, progress=None)
               for t in (1, 2, 4, 7)]
    for r in results[1:]:
        assert np.array_equal(r.force_N, results[0].force_N)
        assert np.array_equal(r.exact, results[0].exact)


def test_rolling_grid_and_per_model_lines():
    vx = np.linspace(-5.0, 5.0, 21)
    def rolling(s, n, L):
        return papers.rolling_model(s, n), bristle.LineContactParams(L_m=L, normal_load_N=3000.0)
    r = bristle.sweep_steady_line(rolling, grid={"s": [0.4, 0.8], "n": [0, 2], "L": [0.05, 0.1]},
                                  V1=16.0, V2=16.0 + vx, progress=None)
    assert r.Fx.shape == (2, 2, 2, 21)
    line = bristle.LineContactParams(L_m=0.05, normal_load_N=3000.0)
    assert np.array_equal(r.force_N[1, 1, 0, 3], bristle.steady_line(papers.rolling_model(0.8, 2), line, 16.0,
                                                                      16.0 + vx[3]).force_N)
    # n = 0 is eq. 62 (eps = 1e-12 regularising ||M v||, as the library does)
    mu = papers.stribeck_mu(papers.TABLE2, vx)
    for a, s in enumerate([0.4, 0.8]):
        for c, L in enumerate([0.05, 0.1]):
            closed = 3000.0 * mu * papers.eq62(mu, s, L, vx, 16.0, eps=papers.TABLE2["eps"])
            assert np.allclose(r.Fx[a, 0, c], closed, rtol=1e-10, atol=1e-9)


def test_lumped_sweep():
    r = bristle.sweep_steady_lumped(sliding, grid={"s": S, "n2": N2}, v=V, normal_load_N=10.0, progress=None)
    assert r.force_N.shape == (4, 3, 40, 2) and r.exact is None
    mu = papers.stribeck_mu(papers.TABLE1, V)
    # the lumped steady force is the Stribeck curve for every rheology (FrBD: -mu sgn v)
    assert np.allclose(r.Fx, -10.0 * mu, rtol=1e-13, atol=0.0)
    r2 = bristle.sweep_steady_lumped([sliding(0.4, 1)], v=np.column_stack([V, V]), progress=None, threads=3)
    assert r2.force_N.shape == (1, 40, 2)


def test_progress_callback_and_stderr_line():
    calls = []
    bristle.sweep_steady_line(sliding, grid={"s": S, "n2": N2}, V2=np.geomspace(0.01, 30.0, 200), line=LINE,
                              progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (2400, 2400)
    assert all(0 <= d <= t == 2400 for d, t in calls)
    stream = io.StringIO()
    p = StderrProgress("demo", delay=0.0, interval=0.0, stream=stream)
    p(5, 10)
    p(10, 10)
    assert "demo: 5/10 points (50%)" in stream.getvalue() and "demo: 10/10 points (100%)" in stream.getvalue()
    quiet = io.StringIO()
    q = StderrProgress("short", delay=60.0, stream=quiet)
    q(10, 10)
    assert quiet.getvalue() == ""  # short sweeps print nothing


def test_exception_in_progress_stops_the_sweep():
    models = [sliding(0.8, 2)] * 200

    def progress(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        bristle.sweep_steady_line(models, V2=np.geomspace(0.01, 30.0, 400), line=LINE, threads=2, progress=progress)


def test_failing_point_reports_library_message_and_point():
    # Bouc-Wen (the nonlinear steady solver) sliding backwards: the force characteristic moves towards
    # the leading edge, which that solver refuses. The sweep raises the library's message, naming the point.
    bw = bristle.LawParams(kind="bouc_wen", A=1.0, beta1=2.0e4, gamma=1.0e4)
    m = bristle.ContactModel(bw, bristle.elastic(240.0), bristle.elastic(240.0))
    line = bristle.LineContactParams()
    with pytest.raises(bristle.InvalidInput) as serial:
        bristle.steady_line(m, line, 0.0, -1.0)
    assert "moves towards the leading edge" in str(serial.value)
    for threads in (1, 2):
        with pytest.raises(bristle.InvalidInput) as swept:
            bristle.sweep_steady_line([m, m], V2=[1.0, -1.0, 2.0], line=line, threads=threads, progress=None)
        assert str(swept.value) == str(serial.value) + " (sweep point: model 0, V1 = 0, V2 = -1, v_y = 0 m/s)"
