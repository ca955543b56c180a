"""bristle.structures (paper 3): the bindings against the C++ library (bit for bit, bristle_pyref
structures), against independent closed forms (string modes, undamped string kernel, static
compliance, one-mode responses), and bad input."""

import math
import subprocess

import numpy as np
import pytest

import bristle
from bristle import structures as st


def reference(pyref, mode):
    out = subprocess.run([str(pyref), mode], check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        tag, *values = line.split()
        rows.setdefault(tag, []).append([float(v) for v in values])
    return rows


def damped_string():
    return st.Structure.taut_string(st.TautStringParams(damping_ratio=0.1))


def damped_cantilever():
    return st.Structure.cantilever(st.BeamParams(damping_ratio=0.1))


# ---- Bit for bit against the C++ library ------------------------------------------------------------

def test_structures_equal_cpp(pyref):
    ref = reference(pyref, "structures")
    s, b = damped_string(), damped_cantilever()
    tau = [0.05 * k for k in range(1, 21)]
    assert [list(st.displacement_kernel(s, tau).value)] == ref["string_L1"]
    assert [list(st.step_response(s, tau).value)] == ref["string_S"]
    assert [list(st.displacement_kernel(b, tau).value)] == ref["beam_L1"]
    assert [list(st.velocity_kernel(b, tau).value)] == ref["beam_K"]
    assert [[st.right_limit(s), st.sqrt_law_coefficient(b), s.static_compliance[0, 0],
             b.static_compliance[0, 0]]] == ref["limits"]

    friction = bristle.StribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1, delta_s=2.0)
    belt = st.BeltParams(normal_load_N=1.0, belt_speed_m_per_s=0.1)
    model = st.make_reduced_model(s, 2e-3)
    assert isinstance(model, st.ReducedModel)
    r = st.run_stick_slip(model, belt, friction, st.StickSlipOptions(t_end_s=12.0, output_every=25))
    got = np.column_stack([r.series[c] for c in ("t_s", "w_m", "v_mps", "F_N")])
    assert np.array_equal(got, np.array(ref["stick_slip"]))
    assert [[r.cycle.period_s, r.cycle.amplitude_w_m, r.cycle.stick_fraction,
             r.admittance_m_per_N_s]] == ref["cycle"]

    modal = st.ModalModel(s, 50, 1e-3)
    for n in range(1, 201):
        modal.advance([math.sin(3.0 * 1e-3 * n)])
    assert [[modal.velocity[0], modal.displacement[0], modal.stored_energy()]] == ref["modal"]


def test_stick_slip_progress_and_ctrl_c():
    friction = bristle.StribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1, delta_s=2.0)
    belt = st.BeltParams(normal_load_N=1.0, belt_speed_m_per_s=0.1)
    opts = st.StickSlipOptions(t_end_s=12.0, output_every=25)
    seen = []
    r = st.run_stick_slip(st.make_reduced_model(damped_string(), 2e-3), belt, friction, opts, progress=seen.append)
    plain = st.run_stick_slip(st.make_reduced_model(damped_string(), 2e-3), belt, friction, opts)
    assert seen and seen[-1] == 1.0 and seen == sorted(seen)
    assert np.array_equal(r.series["w_m"], plain.series["w_m"])

    # An exception from the callback reaches the caller (a short run: stop() sees only the final call; the
    # SIGINT case below stops a run midway).
    def stop(fraction):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        st.run_stick_slip(st.make_reduced_model(damped_string(), 2e-3), belt, friction, opts, progress=stop)

    # A real Ctrl-C (SIGINT to this process) during a run of a few seconds, without a callback.
    import os
    import signal
    import threading
    import time
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            st.run_stick_slip(st.ModalModel(damped_string(), 2000, 1e-4), belt, friction,
                              st.StickSlipOptions(t_end_s=200.0, output_every=1000))
    finally:
        timer.cancel()
    assert time.monotonic() - start < 5.0  # interrupted, not run to the end


def test_stick_slip_sweep_equals_serial_runs():
    friction = bristle.StribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1, delta_s=2.0)
    opts = st.StickSlipOptions(t_end_s=12.0, output_every=50)
    speeds = [0.05, 0.1, 0.2]
    serial = []
    for vb in speeds:
        r = st.run_stick_slip(st.make_reduced_model(damped_string(), 2e-3),
                              st.BeltParams(belt_speed_m_per_s=vb), friction, opts)
        serial.append([r.cycle.period_s, r.cycle.amplitude_w_m])
    for threads in (1, 2):
        sw = bristle.sweep_stick_slip(lambda vb: (damped_string(), st.BeltParams(belt_speed_m_per_s=vb)),
                                      grid={"vb": speeds}, dt=2e-3, friction=friction, options=opts,
                                      threads=threads, progress=None)
        assert sw.period_s.shape == (3,)
        assert np.array_equal(np.column_stack([sw.period_s, sw.amplitude_w_m]), np.array(serial))
        assert sw.threads == threads


# ---- Independent closed forms -------------------------------------------------------------------

def test_string_modes_closed_form():
    p = st.TautStringParams(density_kg_per_m=2.0, length_m=1.5, wave_speed_m_per_s=3.0, contact_positions_m=[0.4, 1.1])
    s = st.Structure.taut_string(p)
    modes = s.modes(5)
    k = np.arange(1, 6)
    assert np.allclose(modes.omega, k * np.pi * 3.0 / 1.5, rtol=1e-15)
    expected = np.sqrt(2 / (2.0 * 1.5)) * np.sin(np.outer(k, [0.4, 1.1]) * np.pi / 1.5)
    assert np.allclose(modes.values, expected, rtol=1e-14, atol=1e-15)
    # static compliance: the string's Green's function x (l - y) / (T l) for x <= y
    T = 2.0 * 9.0
    G = s.static_compliance
    assert G[0, 1] == pytest.approx(0.4 * (1.5 - 1.1) / (T * 1.5), rel=1e-13)
    assert G[0, 0] == pytest.approx(0.4 * (1.5 - 0.4) / (T * 1.5), rel=1e-13)
    assert s.mode_count is None and not s.finite


def undamped_string_L1(tau, chi, l=1.0, c=1.0, rho=1.0):
    """d'Alembert: a unit force step at chi sends waves of speed c both ways; the images at the fixed ends
    return with opposite sign. L1 = (1/(2 rho c)) [1 - H(tau - 2 chi/c) - H(tau - 2(l - chi)/c) + H(tau - 2l/c)],
    periodic with period 2l/c (right-continuous)."""
    t = np.mod(np.asarray(tau) * c / l, 2.0)  # in units of l/c
    h = lambda x: (t >= x).astype(float)  # noqa: E731
    return (1.0 - h(2 * chi / l) - h(2 * (l - chi) / l)) / (2 * rho * c)


def test_undamped_string_kernel_closed_form():
    s = st.Structure.taut_string(st.TautStringParams(contact_positions_m=[0.3]))
    tau = np.linspace(0.0013, 7.9, 997)  # avoids the jump times 0.6 + 2n, 1.4 + 2n
    k = st.displacement_kernel(s, tau)
    assert np.array_equal(np.asarray(k.tau_s), tau)
    assert np.max(np.abs(np.asarray(k.value) - undamped_string_L1(tau, 0.3))) < 1e-13
    jumps = st.kernel_jumps(s, 2.7)
    assert [round(j.tau_s, 12) for j in jumps] == [0.6, 1.4, 2.0, 2.6]
    assert st.right_limit(s) == pytest.approx(0.5, rel=1e-15)


def test_damped_right_limit_closed_form():
    for D in (0.05, 0.1, 0.5):
        s = st.Structure.taut_string(st.TautStringParams(damping_ratio=D))
        assert st.right_limit(s) == pytest.approx(math.acos(D) / (math.pi * math.sqrt(1 - D * D)), rel=1e-14)


def test_mode_response_closed_forms():
    r = st.ModeResponse(3.0, 0.2)
    wd = 3.0 * math.sqrt(1 - 0.04)
    tau = np.linspace(0.0, 5.0, 51)
    assert np.allclose(r.h(tau), np.exp(-0.6 * tau) * np.sin(wd * tau) / wd, rtol=1e-13, atol=1e-16)
    # S -> 1/omega^2 (static), S0 = S - 1/omega^2
    assert np.allclose(r.S(tau) - r.S0(tau), 1.0 / 9.0, rtol=1e-13)


def test_cantilever_roots():
    for k in range(1, 8):
        b = st.cantilever_root(k)
        assert abs(1 + math.cos(b) * math.cosh(b)) < 1e-9 * math.cosh(b)
    assert st.cantilever_mode_shape(st.cantilever_root(3), 1.0) == pytest.approx(2.0, rel=1e-12)


def test_kernel_samples_are_views():
    k = st.displacement_kernel(damped_string(), [0.1, 0.2])
    v = k.value
    assert not v.flags.writeable
    assert k.to_dict()["value"].flags.writeable


# ---- Bad input ---------------------------------------------------------------------------------------

def test_bad_parameters_raise_value_error():
    with pytest.raises(ValueError, match="structure.damping_ratio"):
        st.Structure.taut_string(st.TautStringParams(damping_ratio=1.0))
    with pytest.raises(ValueError, match="structure.density_kg_per_m = -1"):
        st.Structure.taut_string(density_kg_per_m=-1.0)
    with pytest.raises(ValueError, match="contact_positions_m"):
        st.Structure.taut_string(contact_positions_m=[1.3])
    with pytest.raises(ValueError, match="nan"):
        st.Structure.cantilever(st.BeamParams(bending_stiffness_N_m2=float("nan")))
    with pytest.raises(ValueError, match="i = 3"):
        st.displacement_kernel(damped_string(), [0.1], i=3)
    with pytest.raises(ValueError, match="tau"):
        st.displacement_kernel(damped_string(), [[0.1, 0.2]])
    with pytest.raises(ValueError):
        st.ReducedModel(damped_string(), -1e-3)
    with pytest.raises(ValueError, match="f_next"):
        st.ModalModel(damped_string(), 10, 1e-3).advance([1.0, 2.0])
    with pytest.raises(ValueError, match="f_next"):
        st.ModalModel(damped_string(), 10, 1e-3).advance([float("nan")])
    with pytest.raises(ValueError, match="normal_load_N"):
        st.run_stick_slip(st.ModalModel(damped_string(), 10, 1e-3), st.BeltParams(normal_load_N=-1.0),
                          bristle.StribeckParams(mu_s=0.5, mu_d=0.3), st.StickSlipOptions(t_end_s=0.1))
    with pytest.raises(ValueError, match="mode_values"):
        st.GenericModalParams(frequencies_rad_per_s=[1.0], damping_ratios=[0.1], mode_values=[1.0])
    with pytest.raises(ValueError, match="mode_values"):  # ragged rows
        st.GenericModalParams(frequencies_rad_per_s=[1.0, 2.0], damping_ratios=[0.1, 0.1], mode_values=[[1.0], [1.0, 2.0]])
    with pytest.raises(ValueError):
        st.Structure.generic(st.GenericModalParams(frequencies_rad_per_s=[1.0, -2.0], damping_ratios=[0.1, 0.1],
                                                   mode_values=[[1.0], [1.0]]))
    with pytest.raises(ValueError, match="dt"):
        bristle.sweep_stick_slip(damped_string(), dt=0.0, progress=None)


def test_wrong_types_raise_type_error():
    with pytest.raises(TypeError):
        st.TautStringParams(length_m="long")
    with pytest.raises(TypeError):
        st.Structure.taut_string(st.BeamParams())
    with pytest.raises(TypeError):
        st.displacement_kernel("string", [0.1])
    with pytest.raises(TypeError, match="friction"):
        st.run_stick_slip(st.ModalModel(damped_string(), 10, 1e-3), st.BeltParams(), 0.5)
    with pytest.raises(TypeError):
        st.ModalModel(damped_string(), 10, 1e-3).advance("force")
    with pytest.raises(TypeError):
        bristle.sweep_stick_slip([1.0], dt=1e-3, progress=None)


def test_coulomb_stribeck_law_is_a_law_with_its_schema():
    # bristle.laws.CoulombStribeckParams: the [friction] table (defaults 0.5, 0.3, 0.1, 2, 0), same results as
    # its coefficient given as a StribeckParams, and the one-step law itself.
    f = bristle.CoulombStribeckParams()
    assert (f.mu_s, f.mu_d, f.v_s, f.delta_s, f.mu_v) == (0.5, 0.3, 0.1, 2.0, 0.0)
    assert bristle.CoulombStribeckParams.keys() == ["mu_s", "mu_d", "v_s", "delta_s", "mu_v"]
    belt = st.BeltParams(normal_load_N=1.0, belt_speed_m_per_s=0.1)
    opts = st.StickSlipOptions(t_end_s=4.0)
    a = st.run_stick_slip(st.make_reduced_model(damped_string(), 2e-3), belt, f, opts)
    b = st.run_stick_slip(st.make_reduced_model(damped_string(), 2e-3), belt, f.stribeck, opts)
    assert np.array_equal(a.series["F_N"], b.series["F_N"]) and a.series["F_N"].size > 100
    law = bristle.CoulombStribeck(f, 0.2, 2.0)
    force, stick, speed = law.step(0.1)
    assert stick and force == -0.1 / 0.2 and speed == 0.0
    force, stick, speed = law.step(0.5)
    assert not stick and speed == pytest.approx(0.5 - 0.2 * 2.0 * float(f.mu(speed)), abs=1e-14)
    assert force == -float(f.mu(speed)) * 2.0
    with pytest.raises(ValueError, match=r"friction\.mu_s = -1: must be > 0"):
        bristle.CoulombStribeck(bristle.CoulombStribeckParams(mu_s=-1.0), 0.2, 2.0)
    with pytest.raises(ValueError, match="coulomb_stribeck"):
        bristle.CoulombStribeckParams(type="lugre")


def test_eq58_is_a_rheology_option():
    # paper 1, eq. 58: c_i = tau_i k0; ContactPair re-applies it when k0 changes
    body = bristle.rheology.gkv_eq58(160.0, [0.1, 0.3])
    assert body.eq58_tau == [0.1, 0.3]
    assert body.c == [pytest.approx(16.0, rel=1e-15), pytest.approx(48.0, rel=1e-15)]
    body.k0 = 400.0
    pair = bristle.ContactPair(bristle.elastic(240.0), body)
    same = bristle.ContactPair(bristle.elastic(240.0), bristle.rheology.gkv_eq58(400.0, [0.1, 0.3]))
    assert np.array_equal(pair.S0, same.S0)


STICK_SLIP = """kind = "structure_stick_slip"
[structure]
type = "taut_string"
damping_ratio = 0.05
contact_positions_m = [0.3]
[contact]
normal_load_N = 1.0
belt_speed_m_per_s = {vb}
[friction]
type = "coulomb_stribeck"
mu_s = 0.5
mu_d = 0.3
v_s = 0.1
[model]
type = "modal"
modes = 4
[run]
dt_s = 1e-3
t_end_s = 1.0
"""


def test_stick_slip_sweeps_any_numeric_key_from_toml():
    # [sweep] of a structure_stick_slip (issue 15: one sweep syntax): the belt speed swept, each case the file with
    # that value (bitwise), the value the first column of the CSV and of the intervals file, each case's limit cycle
    # and steps under "cases"; set() refuses the swept key.
    values = [0.05, 0.2]
    study = bristle.io.parse_scenario_string(
        STICK_SLIP.format(vb=0.1) + f'[sweep]\nparameter = "contact.belt_speed_m_per_s"\nvalues = {values}\ncolumn = "vb_mps"\n', "s"
    )
    assert study.case_count == 2
    result = study.run()
    assert result.sweep_column == "vb_mps"
    assert result.csv_text().splitlines()[0].split(",")[:3] == ["vb_mps", "t_s", "w_m"]
    report = result.report
    assert report["sweep"]["values"] == values and [c["vb_mps"] for c in report["cases"]] == values
    assert all(c["steps"] == 1000 and "limit_cycle" in c for c in report["cases"]) and "steps" not in report
    intervals = [f for f in result.extra_files if f.suffix == "_intervals.csv"][0].text.splitlines()
    assert intervals[0] == "vb_mps,t_start_s,t_end_s,stick" and {line.split(",")[0] for line in intervals[1:]} == {"0.05", "0.2"}
    for i, v in enumerate(values):
        one = bristle.io.parse_scenario_string(STICK_SLIP.format(vb=v), "s").run()
        assert np.array_equal(result.cases[i].series["F_N"], one.cases[0].series["F_N"])
    assert not np.array_equal(result.cases[0].series["F_N"], result.cases[1].series["F_N"])
    with pytest.raises(ValueError, match=r"^contact.belt_speed_m_per_s: is the parameter of the sweep"):
        bristle.set(study, "contact.belt_speed_m_per_s", 0.3)
    with pytest.raises(ValueError, match=r"^sweep case 2 of 2 \(contact.normal_load_N = -1\): contact.normal_load_N = -1: must be > 0"):
        bristle.io.parse_scenario_string(STICK_SLIP.format(vb=0.1) + '[sweep]\nparameter = "contact.normal_load_N"\nvalues = [1, -1]\n')


KERNEL = """kind = "structure_kernel"
name = "k"
[structure]
type = "taut_string"
wave_speed_m_per_s = {c}
damping_ratio = 0.05
contact_positions_m = [0.3]
[kernel]
tau_end_s = 3.0
points = 300
"""


def test_kernel_key_paths_and_sweep_from_toml(cli, tmp_path):
    # structure_kernel takes key paths (bristle.get/set) and the [sweep] of every kind (issue 15): each case is the
    # file with its value (bitwise), the value the first column of the CSV, each case's kernels under "cases"; bad
    # values name the case and the key, and the CLI refuses them with exit code 2 before writing anything.
    study = bristle.io.parse_scenario_string(KERNEL.format(c=1.0), "k")
    assert bristle.get(study, "structure.wave_speed_m_per_s") == 1.0
    bristle.set(study, "structure.wave_speed_m_per_s", 1.5)
    edited = bristle.io.parse_scenario_string(KERNEL.format(c=1.5), "k").run()
    assert study.run().csv_text() == edited.csv_text()
    with pytest.raises(ValueError, match=r'^unknown key "kernel.tau_end"; did you mean "kernel.tau_end_s"\?'):
        bristle.set(study, "kernel.tau_end", 2.0)
    with pytest.raises(ValueError, match=r"^kernel.tau_end_s = -1: must be > 0"):
        bristle.set(study, "kernel.tau_end_s", -1.0)
    assert bristle.get(study, "kernel.tau_end_s") == 3.0  # unchanged by the error

    values = [0.8, 1.25]
    sweep = f'[sweep]\nparameter = "structure.wave_speed_m_per_s"\nvalues = {values}\ncolumn = "c_mps"\n'
    study = bristle.io.parse_scenario_string(KERNEL.format(c=1.0) + sweep, "k")
    assert study.case_count == 2
    result = study.run()
    assert result.sweep_column == "c_mps"
    assert result.csv_text().splitlines()[0] == "c_mps,tau_s,L1"
    report = result.report
    assert report["sweep"]["values"] == values and [c["c_mps"] for c in report["cases"]] == values
    for i, v in enumerate(values):
        one = bristle.io.parse_scenario_string(KERNEL.format(c=v), "k").run()
        assert np.array_equal(result.cases[i].series["L1"], one.cases[0].series["L1"])
        assert report["cases"][i]["kernels"] == one.report["cases"]
    assert not np.array_equal(result.cases[0].series["L1"], result.cases[1].series["L1"])
    with pytest.raises(ValueError, match=r"^structure.wave_speed_m_per_s: is the parameter of the sweep"):
        bristle.set(study, "structure.wave_speed_m_per_s", 0.3)

    bad = KERNEL.format(c=1.0) + '[sweep]\nparameter = "structure.wave_speed_m_per_s"\nvalues = [1, -1]\n'
    message = (r"^sweep case 2 of 2 \(structure.wave_speed_m_per_s = -1\): structure.wave_speed_m_per_s = -1: "
               r"must be > 0")
    with pytest.raises(ValueError, match=message):
        bristle.io.parse_scenario_string(bad)
    (tmp_path / "k.toml").write_text(bad)
    out = tmp_path / "out"
    done = subprocess.run([str(cli), "run", str(tmp_path / "k.toml"), "--out", str(out), "--no-plot"],
                          capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert "sweep case 2 of 2 (structure.wave_speed_m_per_s = -1)" in done.stderr
    assert not out.exists() or not any(out.iterdir())
