"""bristle.directional (paper 2): the bindings against the C++ library (bit for bit, bristle_pyref
directional), against independent closed forms (eqs. 3.5, 3.12, 3.14, 3.24, 2.17), and bad input."""

import math
import subprocess

import numpy as np
import pytest

import bristle
from bristle import directional as d

SINE_A = 0.5 / (2.0 * math.pi)  # omega_+- = +-0.5


def reference(pyref, mode):
    out = subprocess.run([str(pyref), mode], check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        tag, *values = line.split()
        rows.setdefault(tag, []).append([float(v) for v in values])
    return rows


def sine():
    return d.Profile(d.ProfileParams(kind="sine", amplitude=SINE_A))


def ratchet():
    return d.Profile(d.ProfileParams(kind="ratchet", amplitude=SINE_A, asymmetry=0.25))


def mechanism(kind, profile=None):
    return d.Mechanism(d.MechanismParams(kind=kind), profile if profile is not None else sine())


# ---- Bit for bit against the C++ library ------------------------------------------------------------

def test_directional_equals_cpp(pyref):
    ref = reference(pyref, "directional")
    profiles, limits = [], []
    for w in (sine(), ratchet()):
        profiles.append([w.omega_plus, w.omega_minus, w.w_max, w.w_min])
        for kind in ("vertical", "slanted", "angular"):
            m = d.Mechanism(d.MechanismParams(kind=kind), w)
            l = m.limit
            limits.append([l.alpha, l.a, l.mu_plus, l.mu_minus, l.rho_plus, l.rho_minus, m.gap, m.epsilon_max])
    assert profiles == ref["profile"]
    assert limits == ref["limit"]

    ms = mechanism("slanted")
    V = d.WigglyPotential(ms, 0.01)
    pts = [V.at(-0.3 + 0.1 * k) for k in range(7)]
    assert [[p.p, p.y, p.V, p.dV, p.d2V] for p in pts] == ref["potential"]

    q = d.Loading.triangle(0.0, 0.8, 2.0, 1.0)
    times = [0.1 * k for k in range(21)]
    eloop = d.epsilon_loop(ms, d.EpsilonParams(epsilon=0.05, gamma=1.0), d.DriveParams(), q, times)
    lloop = d.limit_loop(ms, d.DriveParams(), q, times)
    cols = ("t_s", "u_m", "F_N", "D_J")
    assert np.array_equal(np.column_stack([eloop.series[c] for c in cols]), np.array(ref["eloop"]))
    assert np.array_equal(np.column_stack([lloop.series[c] for c in cols]), np.array(ref["lloop"]))

    sliding = [d.measure_sliding_force(ms, d.EpsilonParams(epsilon=1e-3), direction) for direction in (1, -1)]
    assert [[f.mean_N, f.min_N, f.max_N, f.limit_N] for f in sliding] == ref["sliding"]

    crawl = d.crawl_limit(mechanism("angular"), d.CrawlerParams(), 3, 400)
    assert [[crawl.advance_per_cycle_m, crawl.series["center_m"][-1]]] == ref["crawl"]


def test_sliding_force_sweep_equals_serial_calls():
    mechs = [mechanism("vertical"), mechanism("slanted", ratchet())]
    eps = [1e-2, 1e-3]
    serial = np.array([[[d.measure_sliding_force(m, d.EpsilonParams(epsilon=e, gamma=1.0), s).mean_N
                         for s in (1, -1)] for e in eps] for m in mechs])
    for threads in (1, 2, 3):
        r = bristle.sweep_sliding_force(mechs, epsilon=eps, threads=threads, progress=None)
        assert r.mean_N.shape == (2, 2, 2)
        assert np.array_equal(r.mean_N, serial)
        assert np.array_equal(r.limit_N[:, 0, 0], [m.limit.rho_plus for m in mechs])
        assert np.array_equal(r.limit_N[:, 0, 1], [m.limit.rho_minus for m in mechs])


def test_sliding_force_sweep_over_a_grid():
    def build(theta):
        return d.Mechanism(d.MechanismParams(kind="slanted", theta_rad=theta), sine())
    r = bristle.sweep_sliding_force(build, grid={"theta": [0.2, 0.5]}, epsilon=[1e-3], directions=[1],
                                    threads=2, progress=None)
    assert r.mean_N.shape == (2, 1, 1)
    assert r.axes["theta"] == [0.2, 0.5]
    # within the validated error bound |err| < 1 N/m x eps (docs/directional.md)
    assert np.all(np.abs(r.error) < 1e-3)


# ---- Independent closed forms -------------------------------------------------------------------

def test_profile_slopes_closed_form():
    for A in (0.01, 0.1):
        w = d.Profile(d.ProfileParams(kind="sine", amplitude=A))
        assert w.omega_plus == pytest.approx(2 * math.pi * A, rel=1e-14)
        assert w.omega_minus == pytest.approx(-2 * math.pi * A, rel=1e-14)
    w = ratchet()  # eq. 3.5 for the ratchet: 2 pi A (+-1 + r)
    assert w.omega_plus == pytest.approx(2 * math.pi * SINE_A * 1.25, rel=1e-13)
    assert w.omega_minus == pytest.approx(2 * math.pi * SINE_A * (-0.75), rel=1e-13)
    x = np.linspace(0.0, 1.0, 11)
    assert np.allclose(sine().w(x), SINE_A * np.sin(2 * np.pi * x), rtol=0, atol=1e-16)


@pytest.mark.parametrize("kind", ["vertical", "slanted", "angular"])
def test_limit_coefficients_closed_forms(kind):
    """Lemma 3 / eqs. 3.11, 3.14, 3.23, 3.24 and eq. 2.17 written out independently."""
    p = d.MechanismParams(kind=kind)
    w = ratchet()
    op, om = w.omega_plus, w.omega_minus
    if kind == "vertical":
        alpha, a = p.k * (p.rest_length_m - p.height_m), 0.0
    elif kind == "slanted":
        c = math.cos(p.theta_rad)
        alpha, a = p.k / c * (p.rest_length_m - p.height_m / c), -math.tan(p.theta_rad)
    else:
        th = math.acos(p.height_m / p.length_m)
        alpha = p.k * (th - p.theta_rest_rad) / math.sqrt(p.length_m ** 2 - p.height_m ** 2)
        a = 1.0 / math.tan(th)
    mu_p, mu_m = op / (1 + a * op), om / (1 + a * om)
    l = d.Mechanism(p, w).limit
    assert l.alpha == pytest.approx(alpha, rel=1e-13)
    assert l.a == pytest.approx(a, rel=1e-13, abs=1e-15)
    assert l.mu_plus == pytest.approx(mu_p, rel=1e-12)
    assert l.mu_minus == pytest.approx(mu_m, rel=1e-12)
    assert l.rho_plus == pytest.approx(alpha * mu_p, rel=1e-12)
    assert l.rho_minus == pytest.approx(alpha * mu_m, rel=1e-12)


def test_limit_play_law_plateaus():
    """The limit loop's force is confined to [rho_-, rho_+] and sits on the thresholds while sliding."""
    m = mechanism("slanted")
    q = d.Loading.triangle(0.0, 0.8, 2.0, 1.0)
    loop = d.limit_loop(m, d.DriveParams(), q, np.linspace(0.0, 2.0, 401))
    F = np.asarray(loop.series["F_N"])
    assert F.max() == pytest.approx(m.limit.rho_plus, rel=1e-12)
    assert F.min() == pytest.approx(m.limit.rho_minus, rel=1e-12)


def test_two_foot_crawler_closed_form():
    m = mechanism("angular")
    l = m.limit
    c = d.CrawlerParams()
    closed = c.stroke_m - (min(l.rho_plus, -l.rho_minus) - max(l.rho_minus, -l.rho_plus)) / c.k_a_N_per_m
    assert d.two_foot_advance(l.rho_plus, l.rho_minus, c.k_a_N_per_m, c.stroke_m) == pytest.approx(closed, rel=1e-14)
    assert d.crawl_limit(m, c, 3, 2000).advance_per_cycle_m == pytest.approx(closed, abs=1e-9)


def test_energy_and_limit_system():
    phi = d.ConvexEnergy(k=2.0, c4=0.5)
    z = np.linspace(-1.0, 1.0, 9)
    assert np.allclose(phi.d1(z), 2.0 * z + 0.5 * z ** 3, rtol=1e-15, atol=1e-15)
    assert np.allclose(phi.d1_inverse(phi.d1(z)), z, rtol=1e-13, atol=1e-15)
    l = d.Loading.sine(0.0, 1.0, 2.0)
    assert l.value(0.5) == pytest.approx(1.0)
    assert np.allclose(l.turning_points(0.0, 4.0), [0.5, 1.5, 2.5, 3.5])
    sys_ = d.LimitSystem(d.ConvexEnergy(k=1.0), l, 0.3, -0.2)
    s = sys_.run(0.0, 0.0, np.linspace(0.0, 4.0, 81))
    F = np.asarray(s["F_N"])
    assert F.max() <= 0.3 + 1e-15 and F.min() >= -0.2 - 1e-15
    # energy balance E(t) + D(t) = E(0) + P(t) to round-off (eq. 4.5)
    E, D, P = (np.asarray(s[c]) for c in ("E_J", "D_J", "P_J"))
    assert np.max(np.abs(E + D - E[0] - P)) < 1e-13


def test_custom_profile_and_loading_callables_release_the_gil_safely():
    A = 0.05
    w = d.Profile.custom(lambda x: A * math.sin(2 * math.pi * x), lambda x: 2 * math.pi * A * math.cos(2 * math.pi * x),
                         lambda x: -(2 * math.pi) ** 2 * A * math.sin(2 * math.pi * x))
    ref = d.Profile(d.ProfileParams(kind="sine", amplitude=A))
    assert w.omega_plus == pytest.approx(ref.omega_plus, rel=1e-12)
    q = d.Loading.custom(lambda t: 0.5 * math.sin(math.pi * t), lambda t: 0.5 * math.pi * math.cos(math.pi * t), 0.01)
    m = d.Mechanism(d.MechanismParams(kind="vertical"), w)
    # solvers with Python callables run with the GIL released; each callback takes it (correct results)
    loop = d.epsilon_loop(m, d.EpsilonParams(epsilon=0.05), d.DriveParams(), q, np.linspace(0.0, 1.0, 11))
    loop_ref = d.epsilon_loop(d.Mechanism(d.MechanismParams(kind="vertical"), ref), d.EpsilonParams(epsilon=0.05),
                              d.DriveParams(), d.Loading.sine(0.0, 0.5, 2.0), np.linspace(0.0, 1.0, 11))
    assert np.allclose(loop.series["F_N"], loop_ref.series["F_N"], rtol=0, atol=1e-6)
    # and on several sweep threads at once
    r = bristle.sweep_sliding_force([m, m], epsilon=[1e-2], directions=[1], threads=2, progress=None)
    assert r.mean_N[0, 0, 0] == r.mean_N[1, 0, 0]


# ---- Bad input ---------------------------------------------------------------------------------------

def test_bad_parameters_raise_value_error():
    with pytest.raises(ValueError, match="profile.amplitude"):
        d.Profile(d.ProfileParams(kind="sine", amplitude=-1.0))
    with pytest.raises(ValueError, match="profile.amplitude = nan"):
        d.Profile(d.ProfileParams(kind="sine", amplitude=float("nan")))
    with pytest.raises(ValueError, match="sine"):
        d.ProfileParams(kind="sinus")
    with pytest.raises(ValueError, match="mechanism.k = -1"):
        d.Mechanism(d.MechanismParams(kind="vertical", k=-1.0), sine())
    with pytest.raises(ValueError, match="eq. 3.9"):
        d.Mechanism(d.MechanismParams(kind="slanted", theta_rad=1.5), sine())
    with pytest.raises(ValueError, match="epsilon"):
        d.WigglyPotential(mechanism("slanted"), -0.01)
    with pytest.raises(ValueError, match="rho"):
        d.LimitSystem(d.ConvexEnergy(), d.Loading.ramp(0.0, 1.0), -0.1, -0.2)
    with pytest.raises(ValueError, match="phi.k"):
        d.ConvexEnergy(k=0.0)
    with pytest.raises(ValueError, match="epsilon"):
        bristle.sweep_sliding_force(mechanism("vertical"), epsilon=[1e-3, float("nan")], progress=None)
    with pytest.raises(ValueError, match="directions"):
        bristle.sweep_sliding_force(mechanism("vertical"), epsilon=[1e-3], directions=[2], progress=None)
    with pytest.raises(ValueError, match="feet"):
        d.crawl_limit(mechanism("angular"), d.CrawlerParams(feet=5), 3)
    with pytest.raises(ValueError, match="times"):
        d.limit_loop(mechanism("slanted"), d.DriveParams(), d.Loading.ramp(0.0, 1.0), [[0.0, 1.0]])


def test_wrong_types_raise_type_error():
    with pytest.raises(TypeError):
        d.ProfileParams(kind="sine", amplitude="big")
    with pytest.raises(TypeError):
        d.Mechanism("slanted", sine())
    with pytest.raises(TypeError):
        d.Profile.custom(1.0, 2.0, 3.0)
    with pytest.raises(TypeError):
        d.measure_sliding_force(mechanism("vertical"), 1e-3, 1)
    with pytest.raises(TypeError):
        bristle.sweep_sliding_force("vertical", epsilon=[1e-3], progress=None)
    with pytest.raises(TypeError):
        d.Profile(d.ProfileParams(kind=3))
    w = d.Profile.custom(lambda x: 0.05 * math.sin(2 * math.pi * x), lambda x: 0.1 * math.pi * math.cos(2 * math.pi * x),
                         lambda x: -0.2 * math.pi ** 2 * math.sin(2 * math.pi * x))
    bad = d.Loading.custom(lambda t: "x", lambda t: 0.0, 0.1)
    with pytest.raises(TypeError, match="loading.value"):
        bad.value(0.0)
    assert w.omega_plus > 0


def test_python_exception_in_a_callback_reaches_python():
    def boom(t):
        raise ZeroDivisionError("from the loading")
    with pytest.raises(ZeroDivisionError, match="from the loading"):
        q = d.Loading.custom(lambda t: 0.1 * t, boom, 0.5)
        d.epsilon_loop(mechanism("vertical"), d.EpsilonParams(epsilon=0.05), d.DriveParams(), q, [0.0, 1.0])


def test_progress_and_ctrl_c_in_the_eps_solves():
    ms = mechanism("slanted")
    eps = d.EpsilonParams(epsilon=0.05, gamma=1.0)
    q = d.Loading.triangle(0.0, 0.8, 2.0, 1.0)
    times = [0.1 * k for k in range(21)]
    seen = []
    loop = d.epsilon_loop(ms, eps, d.DriveParams(), q, times, progress=seen.append)
    assert seen and seen[-1] == 1.0
    assert np.array_equal(loop.series["F_N"], d.epsilon_loop(ms, eps, d.DriveParams(), q, times).series["F_N"])

    # An exception from the callback reaches the caller (these runs are shorter than the relay's 0.1 s, so
    # stop() sees only the final call; stopping mid-run is what the SIGINT case below and the C++ tests show).
    def stop(fraction):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        d.epsilon_loop(ms, eps, d.DriveParams(), q, times, progress=stop)
    with pytest.raises(KeyboardInterrupt):
        d.measure_sliding_force(ms, d.EpsilonParams(epsilon=1e-2), 1, progress=stop)
    with pytest.raises(KeyboardInterrupt):
        d.crawl_epsilon(mechanism("angular"), d.CrawlerParams(), d.EpsilonParams(epsilon=0.1), 2, 20, progress=stop)
    system = d.WigglySystem(d.WigglyPotential(ms, 0.05), d.ConvexEnergy(k=1.0), d.Loading.ramp(0.0, 1.0), 1.0)
    with pytest.raises(KeyboardInterrupt):
        system.run(0.0, 0.0, [0.0, 0.5, 1.0], progress=stop)

    # A real Ctrl-C (SIGINT to this process) during an eps-loop of several seconds, without a callback.
    import os
    import signal
    import threading
    import time
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            d.epsilon_loop(ms, d.EpsilonParams(epsilon=1e-4, gamma=1.0), d.DriveParams(), q, np.linspace(0.0, 2.0, 2001))
    finally:
        timer.cancel()
    assert time.monotonic() - start < 5.0  # interrupted, not run to the end


# ---- Scenario files: key paths and the [sweep] of every kind (issue 15) -------------------------------------

COEFFICIENTS = """kind = "directional_coefficients"
[profile]
kind = "sine"
amplitude = {a}
[mechanism]
kind = "slanted"
[range]
points = 20
"""

LOOP = """kind = "directional_loop"
[profile]
kind = "sine"
amplitude = 0.07957747154594767
[mechanism]
kind = "slanted"
rest_length_m = 1.5
theta_rad = {theta}
[drive]
amplitude_m = 0.8
cycles = 1.0
[epsilon]
values_m = [0.1]
[time]
outputs = 200
[integrator]
rtol = 1e-8
"""

CRAWLER = """kind = "directional_crawler"
[profile]
kind = "sine"
amplitude = 0.07957747154594767
[mechanism]
kind = "angular"
length_m = 1.25
[crawler]
feet = 2
k_a_N_per_m = {ka}
stroke_m = 0.2
[epsilon]
values_m = [0.1]
[run]
cycles = 2
samples_per_cycle = 20
limit_steps_per_cycle = 200
"""


def sweep_table(parameter, values, column=None):
    text = f'[sweep]\nparameter = "{parameter}"\nvalues = {values}\n'
    return text + (f'column = "{column}"\n' if column else "")


@pytest.mark.parametrize(
    "template, field, parameter, values, column, first_columns, bad, clash",
    [
        (COEFFICIENTS, "a", "profile.amplitude", [0.01, 0.03], "A", ["A", "theta_rad", "mu_plus"],
         ("range.points", 1, r"range.points = 1: must be in \[2, 1000000\]"), "mu_plus"),
        (LOOP, "theta", "mechanism.theta_rad", [0.4, 0.5], None, ["theta_rad", "epsilon_m", "t_s"],
         ("mechanism.theta_rad", 2, r"mechanism.theta_rad = 2: must lie in \[0, 1.57"), "F_N"),
        (CRAWLER, "ka", "crawler.k_a_N_per_m", [5.0, 10.0], "ka", ["ka", "epsilon_m", "t_s"],
         ("crawler.k_a_N_per_m", -1, r"crawler.k_a_N_per_m = -1: must be > 0"), "center_m"),
    ],
    ids=["coefficients", "loop", "crawler"],
)
def test_directional_kinds_sweep_any_numeric_key_from_toml(
    template, field, parameter, values, column, first_columns, bad, clash, cli, tmp_path
):
    # [sweep] of the directional kinds (issue 15: one sweep syntax), applied by key path: each case is the file with
    # that value (bitwise: the swept CSV is the edited files' CSVs, each row after the value), the sweep column first
    # (then epsilon_m for the loop and crawler, whose every sweep case runs every eps and the limit), the sweep and
    # each case in the report; bristle.get/set work on the kind; set() refuses the swept key; a bad value names the
    # case and the key, and the CLI exits 2 without writing anything.
    base = template.format(**{field: values[0]})
    study = bristle.io.parse_scenario_string(base + sweep_table(parameter, values, column), "d")
    column = column or parameter.rsplit(".", 1)[1]
    one = [bristle.io.parse_scenario_string(template.format(**{field: v}), "d") for v in values]
    assert study.case_count == sum(o.case_count for o in one)
    result = study.run()
    assert result.sweep_column == column
    lines = result.csv_text().splitlines()
    assert lines[0].split(",")[:3] == first_columns
    expected = []
    for v, o in zip(values, one):
        expected += [f"{v:g},{line}" for line in o.run().csv_text().splitlines()[1:]]
    assert lines[1:] == expected  # bitwise: the same 17-digit text
    report = result.report
    assert report["sweep"] == {"parameter": parameter, "column": column, "values": values}
    assert report["columns"][:2] == first_columns[:2]
    assert [c[column] for c in report["cases"]] == [v for v, o in zip(values, one) for _ in range(o.case_count)]
    # key paths: set on the first file gives the second
    edited = bristle.io.parse_scenario_string(template.format(**{field: values[0]}), "d")
    assert bristle.get(edited, parameter) == values[0]
    bristle.set(edited, parameter, values[1])
    assert bristle.get(edited, parameter) == values[1]
    assert edited.run().csv_text() == one[1].run().csv_text()
    with pytest.raises(ValueError, match=rf'^{parameter}: is the parameter of the sweep \(sweep.parameter = "{parameter}"\)'):
        bristle.set(study, parameter, values[1])
    key, value, message = bad
    bad_text = base + sweep_table(key, [bristle.get(one[0], key), value])
    with pytest.raises(ValueError, match=rf"^sweep case 2 of 2 \({key} = {value}\): {message}"):
        bristle.io.parse_scenario_string(bad_text, "d")
    with pytest.raises(ValueError, match=rf'^sweep.column = "{clash}": clashes with an output column'):
        bristle.io.parse_scenario_string(base + sweep_table(parameter, values, clash), "d")
    (tmp_path / "bad.toml").write_text(bad_text)
    out = tmp_path / "out"
    done = subprocess.run([str(cli), "run", str(tmp_path / "bad.toml"), "--out", str(out)], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert f"sweep case 2 of 2 ({key} = {value})" in done.stderr
    assert not out.exists() or not any(out.iterdir())


def test_directional_sweep_limits():
    # at most 10,000 cases (sweep values x eps cases); the crawler's feet set its columns and cannot be swept
    assert bristle.io.parse_scenario_string(LOOP.format(theta=0.5) + sweep_table("drive.k_h_N_per_m", list(range(1, 5001))),
                                            "d").case_count == 10000
    with pytest.raises(ValueError, match=r"each run at the 2 eps cases of \[epsilon\]: 10002 cases, at most 10000"):
        bristle.io.parse_scenario_string(LOOP.format(theta=0.5) + sweep_table("drive.k_h_N_per_m", list(range(1, 5002))), "d")
    with pytest.raises(ValueError, match=r'^sweep.parameter = "crawler.feet": the number of feet sets the CSV'):
        bristle.io.parse_scenario_string(CRAWLER.format(ka=10.0) + sweep_table("crawler.feet", [2, 3]), "d")
