"""bristle.sweeps on a Dask cluster (issue 18, item 6): a two-worker LocalCluster (two processes, one
thread each) gives bit for bit the threaded sweep's numbers for every sweep, reports progress per
point, and cancels the outstanding tasks when the progress callable raises; the parameter structs that
cross to the workers pickle."""

import pickle
import sys
import time

import numpy as np
import pytest

import bristle
from bristle import directional as d
from bristle import papers
from bristle import structures as st

distributed = pytest.importorskip("distributed")
cloudpickle = pytest.importorskip("cloudpickle")

V = np.geomspace(0.01, 30.0, 25)
LINE = papers.line_params(papers.TABLE1, cells=100)


@pytest.fixture(scope="module")
def client():
    # The test module's functions travel by value (the workers cannot import this file).
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    cluster = distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def sliding(s, n2):
    return papers.sliding_model(s, n2)


def test_lumped_sweep_on_a_cluster_equals_the_threaded_one(client):
    grid = {"s": [0.2, 0.4, 0.8], "n2": [0, 2]}
    threaded = bristle.sweep_steady_lumped(sliding, grid=grid, v=V, normal_load_N=3.0, threads=2, progress=None)
    seen = []
    on_dask = bristle.sweep_steady_lumped(sliding, grid=grid, v=V, normal_load_N=3.0, client=client,
                                          progress=lambda done, total: seen.append((done, total)))
    assert on_dask.force_N.shape == (3, 2, 25, 2)
    assert np.array_equal(on_dask.force_N, threaded.force_N)
    assert seen == [(k, 6) for k in range(1, 7)]
    assert on_dask.threads == 2 and on_dask.axes["s"] == grid["s"]


def test_line_sweep_on_a_cluster_equals_the_threaded_one(client):
    def build(s, L):  # a per-point line beside the base one
        if L is None:
            return papers.sliding_model(s, 1)
        return papers.sliding_model(s, 1), bristle.LineContactParams(L_m=L, normal_load_N=2.0, cells=80)
    grid = {"s": [0.3, 0.6], "L": [None, 0.1]}
    threaded = bristle.sweep_steady_line(build, grid=grid, V2=V, line=LINE, progress=None)
    on_dask = bristle.sweep_steady_line(build, grid=grid, V2=V, line=LINE, client=client, progress=None)
    assert np.array_equal(on_dask.force_N, threaded.force_N)
    assert np.array_equal(on_dask.exact, threaded.exact)


def test_stick_slip_and_sliding_force_sweeps_on_a_cluster_equal_the_threaded_ones(client):
    friction = bristle.StribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1, delta_s=2.0)
    opts = st.StickSlipOptions(t_end_s=12.0, output_every=50)

    def belt(vb):
        return st.Structure.taut_string(st.TautStringParams(damping_ratio=0.1)), st.BeltParams(belt_speed_m_per_s=vb)
    kw = dict(grid={"vb": [0.05, 0.1, 0.2]}, dt=2e-3, friction=friction, options=opts, progress=None)
    threaded = bristle.sweep_stick_slip(belt, threads=2, **kw)
    on_dask = bristle.sweep_stick_slip(belt, client=client, **kw)
    assert set(on_dask.values) == set(threaded.values)
    for k in threaded.values:
        assert np.array_equal(on_dask.values[k], threaded.values[k]), k

    def mech(theta):
        return d.Mechanism(d.MechanismParams(kind="slanted", theta_rad=theta),
                           d.Profile(d.ProfileParams(kind="sine", amplitude=0.5 / (2.0 * np.pi))))
    kw = dict(grid={"theta": [0.2, 0.5]}, epsilon=[1e-3, 5e-4], directions=[1, -1], progress=None)
    threaded = bristle.sweep_sliding_force(mech, threads=2, **kw)
    on_dask = bristle.sweep_sliding_force(mech, client=client, **kw)
    for name in ("mean_N", "min_N", "max_N", "limit_N"):
        assert np.array_equal(getattr(on_dask, name), getattr(threaded, name)), name


def test_parameter_structs_that_cross_pickle():
    line = bristle.LineContactParams(L_m=0.15, normal_load_N=7.5, cells=64)
    line.V1 = bristle.Signal.sine(amplitude=0.3, omega=5.0, offset=0.2)
    line.limiter = bristle.transport.Limiter.minmod
    integrator = bristle.IntegratorOptions(rtol=1e-9, atol=1e-12)
    integrator.method = bristle.integrate.Method.sdirk2
    reduced = st.ReducedModelOptions()
    reduced.window_steps = 17
    reduced.kernel.max_modes = 33
    values = [
        line, integrator, reduced,
        bristle.StribeckParams(mu_s=0.9, mu_d=0.4, v_s=0.02, delta_s=1.5, mu_v=0.01),
        bristle.LawParams(kind="lugre", mu_s=1.2, mu_d=0.8, v_s=0.01, sigma1=0.5, sigma2=0.1),
        d.SlidingOptions(k_h_N_per_m=3.0, speed_mps=0.5),
        st.BeltParams(belt_speed_m_per_s=0.3),
        st.StickSlipOptions(t_end_s=5.0, output_every=7),
    ]
    for v in values:
        back = pickle.loads(pickle.dumps(v))
        assert type(back) is type(v)
        assert pickle.dumps(back) == pickle.dumps(v)  # the same state, field by field
    back = pickle.loads(pickle.dumps(line))
    assert (back.L_m, back.normal_load_N, back.cells, back.limiter) == (0.15, 7.5, 64, bristle.transport.Limiter.minmod)
    assert repr(back.V1) == repr(line.V1) and back.V1(0.7) == line.V1(0.7)
    back = pickle.loads(pickle.dumps(integrator))
    assert (back.method, back.rtol, back.atol) == (bristle.integrate.Method.sdirk2, 1e-9, 1e-12)
    back = pickle.loads(pickle.dumps(reduced))
    assert (back.window_steps, back.kernel.max_modes) == (17, 33)


def test_a_cluster_sweep_needs_the_grid_form(client):
    with pytest.raises(TypeError, match="client: a Dask sweep builds its cases on the workers"):
        bristle.sweep_steady_lumped(papers.sliding_model(0.4, 1), v=V, client=client, progress=None)


def test_an_exception_in_progress_cancels_the_outstanding_tasks(client):
    """Runs last: the points after the first sleep 20 s; the sweep must stop at once, cancelled."""
    def slow(k):
        if k > 0:
            time.sleep(20.0)
        return papers.sliding_model(0.4, 1)

    class Stop(Exception):
        pass

    def progress(done, total):
        raise Stop(f"{done}/{total}")

    start = time.perf_counter()
    with pytest.raises(Stop, match="^1/6$"):
        bristle.sweep_steady_lumped(slow, grid={"k": list(range(6))}, v=V, client=client, progress=progress)
    assert time.perf_counter() - start < 15.0

    def tasks(dask_scheduler):
        return len(dask_scheduler.tasks)
    deadline = time.time() + 10.0
    while client.run_on_scheduler(tasks) and time.time() < deadline:
        time.sleep(0.1)
    assert client.run_on_scheduler(tasks) == 0  # nothing left queued on the cluster

