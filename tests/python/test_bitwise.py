"""Results through Python equal the C++ results bit for bit on the same inputs.

The C++ side is (a) the reference executable bristle_pyref (python/reference/bristle_pyref.cpp),
which prints every number with 17 significant digits, and (b) the bristle CLI, whose CSV files hold
the shortest representation that reads back to the same double. Both read back exactly, so the
comparisons are `==` on doubles (np.array_equal), never a tolerance.
"""

import csv
import subprocess

import numpy as np
import pytest

import bristle
from bristle import papers

TABLE1_LINE = dict(L_m=0.2, normal_load_N=10.0)
TABLE2_LINE = dict(L_m=0.1, normal_load_N=3000.0)
S_VALUES = [0.2, 0.4, 0.6, 0.8]


def reference(pyref, mode):
    out = subprocess.run([str(pyref), mode], check=True, capture_output=True, text=True).stdout
    return [line.split() for line in out.splitlines() if line.strip()]


def lugre_law():
    return bristle.LawParams(kind="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3, delta_s=2.0, sigma1=316.2, sigma2=0.4)


def steady_cases():
    """The models and velocities of `bristle_pyref steady_line`, in its order."""
    cases = []
    V = [0.01, 0.1, 1.0, 3.0, 10.0, 30.0]
    j = 0
    for s in S_VALUES:
        for n in range(3):
            cases.append(("sliding", j, papers.sliding_model(s, n, n1=n), bristle.LineContactParams(**TABLE1_LINE),
                          [0.0] * len(V), V))
            j += 1
    vx = [-3.2, -0.5, 0.5, 3.2]
    j = 0
    for s in S_VALUES:
        for n in range(3):
            cases.append(("rolling", j, papers.rolling_model(s, n), bristle.LineContactParams(**TABLE2_LINE),
                          [16.0] * len(vx), [16.0 + v for v in vx]))
            j += 1
    bw = bristle.LawParams(kind="bouc_wen", A=1.0, beta1=2.0e4, beta2=0.0, gamma=1.0e4)
    model = bristle.ContactModel(bw, bristle.elastic(240.0), bristle.elastic(240.0))
    line = bristle.LineContactParams(pressure=bristle.PressureParams(kind="parabolic"), **TABLE1_LINE)
    cases.append(("bouc_wen", 0, model, line, [0.0] * 3, [0.05, 0.5, 2.0]))
    return cases


def test_steady_line_equals_cpp(pyref):
    ref = {(r[0], int(r[1]), int(r[2])): (float(r[3]), float(r[4]), r[5] == "1") for r in reference(pyref, "steady_line")}
    count = 0
    for label, j, model, line, V1, V2 in steady_cases():
        for i, (v1, v2) in enumerate(zip(V1, V2)):
            st = bristle.transport.steady_state(model, line, v1, v2)
            fx, fy, exact = ref[(label, j, i)]
            assert st.force_N[0] == fx and st.force_N[1] == fy, (label, j, i, st.force_N, fx, fy)
            assert st.exact == exact
            count += 1
    assert count == len(ref) == 12 * 6 + 12 * 4 + 3


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_parallel_sweep_equals_cpp(pyref, threads):
    ref = {(r[0], int(r[1]), int(r[2])): (float(r[3]), float(r[4])) for r in reference(pyref, "steady_line")}
    for label in ("sliding", "rolling", "bouc_wen"):
        cases = [c for c in steady_cases() if c[0] == label]
        items = [(c[2], c[3]) for c in cases]
        r = bristle.sweep_steady_line(items, V1=cases[0][4], V2=cases[0][5], threads=threads, progress=None)
        expected = np.array([[ref[(label, c[1], i)] for i in range(len(c[5]))] for c in cases])
        assert np.array_equal(r.force_N, expected), label


def test_lumped_steady_equals_cpp(pyref):
    models = [papers.sliding_model(0.4, 2), bristle.ContactModel(lugre_law(), bristle.elastic(1e5), bristle.rigid())]
    v = np.array([[1e-4, 0.0], [2e-3, 0.0], [-0.3, 0.1], [1.0, -2.0]])
    expected = np.array([[float(r[2]), float(r[3])] for r in reference(pyref, "lumped_steady")]).reshape(2, 4, 2)
    direct = np.array([[3.0 * m.friction(m.steady_state(vi), vi) for vi in v] for m in models])
    assert np.array_equal(direct, expected)
    for threads in (1, 2):
        r = bristle.sweep_steady_lumped(models, v=v, normal_load_N=3.0, threads=threads, progress=None)
        assert np.array_equal(r.force_N, expected)


def test_bench_run_equals_cpp(pyref):
    model = bristle.ContactModel(lugre_law(), bristle.gkv(1e5, [50.0], [0.01]), bristle.rigid())
    params = bristle.BenchParams(drive="velocity", input_x=bristle.Signal.sine(amplitude=2e-3, omega=20.0, offset=1e-3),
                                 normal_load=2.0)
    bench = bristle.Bench(model, params)
    times = [0.01 * k for k in range(51)]
    run = bristle.contact.run(bench, times, bristle.IntegratorOptions(rtol=1e-9, atol=1e-14))
    expected = np.array([[float(x) for x in r] for r in reference(pyref, "bench")])
    got = np.column_stack([run.series[c] for c in ("t_s", "x_m", "v_mps", "F_N", "z_m")])
    assert got.shape == expected.shape
    assert np.array_equal(got, expected)


def test_line_transient_equals_cpp(pyref):
    model = papers.sliding_model(0.4, 2)
    lc = bristle.LineContact(model, bristle.LineContactParams(cells=40, V2=0.3, **TABLE1_LINE))
    run = bristle.transport.run(lc, [0.05 * k for k in range(21)])
    expected = np.array([[float(x) for x in r] for r in reference(pyref, "line_transient")])
    got = np.column_stack([run.series[c] for c in ("t_s", "Fx_N", "W_J")])
    assert np.array_equal(got, expected)


# ---- Scenario runs against the CLI's CSV ---------------------------------------------------------------

def cli_csv(cli, scenario, tmp_path):
    subprocess.run([str(cli), "run", str(scenario), "--out", str(tmp_path), "--no-plot", "--quiet"], check=True)
    with open(tmp_path / (scenario.stem + ".csv"), newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], np.array([[float(x) for x in r] for r in rows[1:]])
    return {name: body[:, k] for k, name in enumerate(header)}


@pytest.mark.parametrize("stem", ["lugre_stick_slip", "lugre_breakaway", "lugre_frictional_lag", "lugre_presliding"])
def test_lumped_scenario_equals_cli(cli, examples, tmp_path, stem):
    path = examples / f"{stem}.toml"
    expected = cli_csv(cli, path, tmp_path)
    result = bristle.load_scenario(str(path)).run()
    for name in result.cases[0].series.names:
        got = np.concatenate([np.asarray(c.series[name]) for c in result.cases])
        assert np.array_equal(got, expected[name]), name
    assert result.csv_text() == (tmp_path / f"{stem}.csv").read_text()


def test_steady_scenario_and_parallel_sweep_equal_cli(cli, examples, tmp_path, gallery_context):
    """fig5: the CLI (serial C++ scenario runner) and the gallery's parallel sweep give the same doubles."""
    expected = cli_csv(cli, examples / "fig5_sliding_steady.toml", tmp_path)
    study = gallery_context.steady_study("fig5_sliding_steady")
    assert np.array_equal(study.Fx.ravel(), expected["Fx_N"])
    assert np.array_equal(study.mu.ravel(), expected["mu"])
    assert np.array_equal(study.Fx_norm.ravel(), expected["Fx_norm"])
    result = study.scenario.run()
    assert np.array_equal(np.concatenate([c.series["Fx_N"] for c in result.cases]), expected["Fx_N"])


def test_transient_scenario_equals_parallel_runs(examples, gallery_context):
    """fig9: the scenario runner (serial) and the gallery's parallel runs give the same doubles."""
    study = gallery_context.transient_study("fig9_rolling_transient")
    result = study.scenario.run()
    for case, run in zip(result.cases, study.runs):
        assert np.array_equal(case.series["Fx_N"], run.series["Fx_N"])
        assert np.array_equal(case.series["t_s"], run.series["t_s"])


@pytest.mark.parametrize("stem", ["fig4_slanted_spring", "fig6_angular_spring", "string_kernel",
                                  "structures_string_stick_slip"])
def test_paper2_paper3_scenarios_equal_cli(cli, examples, tmp_path, stem):
    """The directional_* and structure_* kinds through Python give the CLI's doubles (its CSV holds the
    shortest round-trip form of every number)."""
    path = examples / f"{stem}.toml"
    expected = cli_csv(cli, path, tmp_path)
    result = bristle.load_scenario(str(path)).run()
    series = result.cases[0].series
    for name in series.names:
        assert np.array_equal(np.asarray(series[name]), expected[name]), name
    assert result.csv_text() == (tmp_path / f"{stem}.csv").read_text()
