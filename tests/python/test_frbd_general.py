"""The FrBD general form h0 = -G^-1(v) f - v with a Python G^-1 (LawParams(G_inverse=...)): bit for bit
against the same function in C++ (bristle_pyref frbd_general), the GIL-safe trampoline in solvers and
sweeps, and bad callables."""

import math
import subprocess
import threading

import numpy as np
import pytest

import bristle


def G_inverse(v):
    # the same doubles as bristle_pyref's lambda: g = 0.5 + sqrt(vx vx + vy vy), g [[1, 0.1], [0.1, 2]]
    g = 0.5 + math.sqrt(v[0] * v[0] + v[1] * v[1])
    return [[g * 1.0, g * 0.1], [g * 0.1, g * 2.0]]


def model(G=G_inverse):
    law = bristle.LawParams(kind="frbd", mu_s=1.0, mu_d=0.7, v_s=6.0, delta_s=2.0, G_inverse=G)
    return bristle.ContactModel(law, bristle.gkv(240.0, c=[100.0], tau=[0.1]), bristle.elastic(600.0))


def reference(pyref):
    out = subprocess.run([str(pyref), "frbd_general"], check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        tag, *values = line.split()
        rows.setdefault(tag, []).append([float(x) for x in values])
    return rows


V = np.array([[0.01, 0.0], [0.3, -0.2], [-2.0, 1.0]])


def test_general_form_equals_cpp(pyref):
    ref = reference(pyref)
    m = model()
    steady = [list(2.0 * m.friction(m.steady_state(v), v)) for v in V]
    assert steady == ref["steady"]
    bench = bristle.Bench(m, bristle.BenchParams(drive="velocity", normal_load=1.0,
                                                 input_x=bristle.Signal.sine(amplitude=0.3, omega=5.0, offset=0.2)))
    run = bristle.contact.run(bench, [0.05 * k for k in range(21)], bristle.IntegratorOptions(rtol=1e-9, atol=1e-12))
    got = np.column_stack([run.series[c] for c in ("t_s", "x_m", "F_N")])
    assert np.array_equal(got, np.array(ref["bench"]))


def test_steady_force_is_minus_G_v():
    m = model()
    for v in V:
        f = m.law.steady_force(v)
        G = np.linalg.inv(np.array(G_inverse(v)))
        assert np.allclose(f, -G @ v, rtol=1e-13, atol=0)


def test_sweeps_with_a_python_G_run_on_one_thread_with_the_same_results(pyref):
    ref = np.array(reference(pyref)["steady"]).reshape(1, 3, 2)
    for threads in (1, 2, 4):
        r = bristle.sweep_steady_lumped([model(), model()], v=V, normal_load_N=2.0, threads=threads, progress=None)
        assert r.threads == 1
        assert np.array_equal(r.force_N[0:1], ref) and np.array_equal(r.force_N[1:2], ref)
    assert bristle.parallel.calls_python([model()])
    assert not bristle.parallel.calls_python([bristle.ContactModel(bristle.LawParams(), bristle.elastic(1.0))])


def test_python_threads_keep_running_during_a_run_with_a_python_G():
    m = model()
    bench = bristle.Bench(m, bristle.BenchParams(drive="velocity", input_x=0.3, normal_load=1.0))
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            stop.wait(0.001)
    t = threading.Thread(target=tick)
    t.start()
    try:
        bristle.contact.run(bench, np.linspace(0.0, 2.0, 201))
    finally:
        stop.set()
        t.join()
    assert ticks


def test_property_round_trip():
    law = bristle.LawParams(kind="frbd", G_inverse=G_inverse)
    assert law.G_inverse is G_inverse
    assert "G_inverse=<function G_inverse" in repr(law)
    assert law.copy().G_inverse is G_inverse
    law.G_inverse = None
    assert law.G_inverse is None
    assert bristle.LawParams().G_inverse is None


def test_bad_callables():
    with pytest.raises(TypeError, match="law.G_inverse: expected a callable"):
        bristle.LawParams(kind="frbd", G_inverse=3.0)
    for bad, message in [(lambda v: [[1.0, 0.0], [0.0, -1.0]], "positive definite"),
                         (lambda v: [[1.0, 0.5], [0.0, 1.0]], "symmetric|positive definite"),
                         (lambda v: float("nan"), "finite"),
                         (lambda v: [1.0, 2.0, 3.0], "2x2"),
                         (lambda v: "x", "")]:
        with pytest.raises((ValueError, TypeError), match=message):
            model(bad).steady_state(V[1])
    def boom(v):
        raise ZeroDivisionError("inside G^-1")
    m = model(boom)
    with pytest.raises(ZeroDivisionError, match="inside G"):
        bristle.contact.run(bristle.Bench(m, bristle.BenchParams(drive="velocity", input_x=0.3)), [0.0, 0.1])
    with pytest.raises(ZeroDivisionError, match="inside G"):
        bristle.sweep_steady_lumped([m], v=V, threads=2, progress=None)


def test_general_form_given_by_G_equals_the_inverse_given_by_G_inverse():
    def G(v):
        return np.linalg.inv(np.array(G_inverse(v)))
    law = bristle.LawParams(kind="frbd", mu_s=1.0, mu_d=0.7, v_s=6.0, delta_s=2.0, G=G)
    assert law.G is G and law.G_inverse is None and "G=<function" in repr(law)
    by_G = bristle.ContactModel(law, bristle.gkv(240.0, c=[100.0], tau=[0.1]), bristle.elastic(600.0))
    by_inv = model()
    for v in V:
        assert np.allclose(by_G.law.steady_force(v), by_inv.law.steady_force(v), rtol=1e-13, atol=0)
        assert np.allclose(by_G.law.steady_force(v), -G(v) @ v, rtol=1e-13, atol=0)
    with pytest.raises(ValueError, match="not both"):
        bristle.LawParams(kind="frbd", G=G, G_inverse=G_inverse)
    with pytest.raises(ValueError, match="law.G"):
        bristle.ContactModel(bristle.LawParams(kind="frbd", G=lambda v: -np.eye(2)),
                             bristle.elastic(600.0)).steady_state(V[1])
