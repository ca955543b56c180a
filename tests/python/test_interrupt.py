"""Ctrl-C interrupts the library's long loops that take no progress callback (core/interrupt.hpp): the
step loops of LineContact.advance_to and PatchTransient.advance_to, the grid of check_eq84, the mode sums of
truncated_kernel. Each call below would run for minutes to days; SIGINT (a real signal, from a timer
thread, while the call runs with the GIL released) raises KeyboardInterrupt within a fraction of a second
and leaves the object usable at the step reached. The size limits of the same functions come with them."""
import os
import signal
import threading
import time

import numpy as np
import pytest

import bristle
from bristle import papers
from bristle import patch as bp
from bristle import structures as st


def interrupted(call, after_s=0.3):
    """Runs call() with a SIGINT sent `after_s` later; returns the seconds it took to raise KeyboardInterrupt."""
    timer = threading.Timer(after_s, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()
    return time.monotonic() - start


def line_contact():
    return bristle.LineContact(papers.sliding_model(0.4, 1),
                               bristle.LineContactParams(L_m=0.2, normal_load_N=10.0, cells=20, V2=0.3))


def test_line_contact_advance_to_is_interrupted_at_a_step():
    lc = line_contact()
    # ~3e10 steps uninterrupted (within LineContact's 1e12 cell updates per call)
    assert interrupted(lambda: lc.advance_to(1e9)) < 3.0
    t = lc.time
    assert 0.0 < t < 1e9 and lc.steps_taken > 0
    lc.advance_to(t + 0.01)  # usable: goes on from the step reached
    assert lc.time == t + 0.01
    assert np.all(np.isfinite(lc.state))


def test_line_contact_sample_is_interrupted():
    lc = line_contact()
    assert interrupted(lambda: bristle.run_line(lc, [0.0, 1e9])) < 3.0  # progress only at output times


def test_patch_transient_advance_to_is_interrupted():
    params = bp.PatchTransientParams(patch=bp.PatchParams(nx=12, ny=4))
    tr = bp.PatchTransient(papers.rolling_model(0.4, 1), params,
                           bp.rolling(V_r=16.0, v_x=0.6, v_y=0.4, spin_radps=6.0), 3000.0)
    assert interrupted(lambda: tr.advance_to(1e5)) < 3.0  # ~1e9 steps (within 1e12 cell updates per call)
    assert np.all(np.isfinite(tr.state))


def geometry():
    return bp.PatchGeometry(bp.PatchParams(shape="ellipse", length_m=0.1, width_m=0.05, pressure="hertzian",
                                           normal_load_N=3000.0))


def test_check_eq84_is_interrupted_and_bounded():
    kin = bp.rolling(V_r=16.0, v_x=0.6)
    start = time.monotonic()
    bp.check_eq84(geometry(), kin, samples=10000)  # 1e8 points, ~1 s here
    whole = time.monotonic() - start
    # Without the poll the KeyboardInterrupt would come when the call returns, after the whole grid.
    assert interrupted(lambda: bp.check_eq84(geometry(), kin, samples=10000), after_s=0.1 * whole) < 0.6 * whole
    with pytest.raises(bristle.InvalidInput, match=r"^samples = 10001: at most 10000 per axis \(samples\^2 points\)$"):
        bp.check_eq84(geometry(), kin, samples=10001)
    with pytest.raises(bristle.InvalidInput, match=r"^samples = 1: must be >= 2$"):
        bp.check_eq84(geometry(), kin, samples=1)


def test_classify_edges_is_bounded():
    r = bp.riemann(papers.rolling_model(0.4, 1).pair)
    kin = bp.rolling(V_r=16.0, v_x=0.6)
    with pytest.raises(bristle.InvalidInput, match=r"^samples = 1073741824: at most 1000000 boundary samples$"):
        bp.classify_edges(geometry(), r, kin, samples=2**30)  # was a 50 GB allocation (MemoryError)
    with pytest.raises(bristle.InvalidInput, match=r"^samples = 3: must be >= 4$"):
        bp.classify_edges(geometry(), r, kin, samples=3)
    with pytest.raises(bristle.InvalidInput, match=r"^tol = 1: must be in \[0, 1\)$"):
        bp.classify_edges(geometry(), r, kin, tol=1.0)
    assert bp.classify_edges(geometry(), r, kin, samples=1000000).points.shape == (1000000, 2)


def test_truncated_kernel_is_interrupted_and_bounded():
    s = st.Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3])
    taus = np.linspace(0.01, 1.0, 200)
    assert interrupted(lambda: st.truncated_kernel(s, 2**24, st.KernelQuantity.displacement, taus)) < 3.0
    with pytest.raises(bristle.InvalidInput, match=r"^modes = 100000000: at most 16777216 modes at once$"):
        st.truncated_kernel(s, 10**8, st.KernelQuantity.displacement, [0.2])  # was 6.3 GB
    beam = st.Structure.cantilever(contact_positions_m=[0.3])
    options = st.KernelOptions(max_modes=2**26, relative_tolerance=1e-300)
    with pytest.raises(bristle.InvalidInput,
                       match=r"^max_modes = 67108864: the tail bound asks for 67108864 modes; at most 16777216 at once$"):
        st.displacement_kernel(beam, [0.01], options=options)  # was a 2 GB table of modes



def test_patch_transient_run_is_interrupted_between_output_times():
    params = bp.PatchTransientParams(patch=bp.PatchParams(nx=12, ny=4))
    tr = bp.PatchTransient(papers.rolling_model(0.4, 1), params,
                           bp.rolling(V_r=16.0, v_x=0.6, v_y=0.4, spin_radps=6.0), 3000.0)
    assert interrupted(lambda: tr.run([0.0, 1e5])) < 3.0  # one output interval of ~1e9 steps


def test_a_beam_kernel_mode_sum_is_interrupted():
    beam = st.Structure.cantilever(contact_positions_m=[0.3])
    options = st.KernelOptions(max_modes=2**24, relative_tolerance=1e-300)  # every sample sums 2^24 modes
    assert interrupted(lambda: st.displacement_kernel(beam, np.linspace(1e-4, 0.01, 2000), options=options)) < 3.0


def test_an_adaptive_integration_is_interrupted():
    # The Rosenbrock and CVODE step loops poll too: steady_line's adaptive path (LuGre with sigma1) at
    # V2 = 1e-12 m/s ran for more than 30 s without reacting to SIGINT (helper-37).
    law = bristle.LawParams(type="lugre", mu_s=1.0, mu_d=0.7, v_s=6.0, sigma1=1.0)
    model = bristle.ContactModel(law, bristle.gkv(240.0, c=[100.0], tau=[0.1]), bristle.elastic(600.0))
    line = bristle.LineContactParams(L_m=0.2, normal_load_N=10.0)
    assert interrupted(lambda: bristle.steady_line(model, line, V1=0.0, V2=1e-12)) < 3.0


def test_a_fixed_step_integration_is_interrupted():
    # helper-43: rk4, implicit_euler and sdirk2 ran their 5e7-step budget (18 s, 49 s; max_steps=1e12: days)
    # without reacting to SIGINT.
    m = bristle.ContactModel(bristle.LawParams(type="dahl"), bristle.elastic(1e3))
    bench = bristle.Bench(m, bristle.BenchParams(input=bristle.Signal.sine(amplitude=0.1, omega=5.0)))
    for method in ("rk4", "implicit_euler", "sdirk2"):
        options = bristle.IntegratorOptions(method=method, dt_s=1e-9, max_steps=10**12)
        assert interrupted(lambda: bristle.contact.run(bench, [0.0, 1e3], options)) < 3.0, method


def test_turning_points_are_interrupted_and_bounded():
    # helper-43: a NaN end looped for ever (SIGINT ignored), an infinite one filled memory, and a custom loading's
    # rate was sampled 1e12 times (Python callbacks: days).
    import math
    from bristle import directional as d
    sine = d.Loading.sine(0.0, 1.0, 1.0)
    for t0, t1 in ((float("nan"), 1.0), (0.0, float("nan")), (0.0, float("inf"))):
        with pytest.raises(bristle.InvalidInput, match=r"^turning_points\.t[01] = (nan|inf): must be finite$"):
            sine.turning_points(t0, t1)
    with pytest.raises(bristle.InvalidInput, match=r"^turning_points: \(0, 1000000000000\) s holds 2000000000000 extrema of "
                                                   r"the sine \(period 1 s\); at most 10000000$"):
        sine.turning_points(0.0, 1e12)
    custom = d.Loading.custom(math.sin, math.cos, 1e-6)
    with pytest.raises(bristle.InvalidInput, match=r"takes 1000000000000 samples of the rate; at most 100000000"):
        custom.turning_points(0.0, 1e6)
    # The call holds the GIL (its rate is a builtin: no bytecode runs), so a timer thread could not send the signal:
    # the kernel does (SIGALRM, whose handler raises KeyboardInterrupt as SIGINT's does).
    def alarm(signum, frame):
        raise KeyboardInterrupt
    previous = signal.signal(signal.SIGALRM, alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            custom.turning_points(0.0, 99.0)  # 9.9e7 calls of math.cos: ~12 s uninterrupted
        assert time.monotonic() - start < 3.0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0.0)
        signal.signal(signal.SIGALRM, previous)
    with pytest.raises(bristle.InvalidInput, match=r"^loading\.scale = nan: must be finite$"):
        sine.affine(float("nan"), 0.0)
