"""bristle.fit and the key paths of kind = "structure_stick_slip" from Python (docs/fitting.md, "Structures:
stick-slip"): a string on a belt with LuGre friction, mu_d recovered from its simulated contact force with noise;
bristle.get/set on a loaded scenario; a target the kind does not output raises InvalidInput naming it."""

import numpy as np
import pytest

import bristle

MODEL = """kind = "structure_stick_slip"
name = "ss"
[structure]
type = "taut_string"
damping_ratio = 0.05
contact_positions_m = [0.3]
[contact]
normal_load_N = 1.0
belt_speed_m_per_s = 0.1
[law]
type = "lugre"
mu_s = 0.5
mu_d = 0.3
v_s = 0.1
delta_s = 2.0
[body1]
type = "elastic"
k0 = 1e4
[model]
type = "modal"
modes = 4
[run]
dt_s = 1e-3
t_end_s = 2.0
output_every = 10
"""

FIT = """
[fit]
data = "d.csv"
time_column = "t_s"
[fit.targets]
F_N = "F_N"
[fit.parameters]
"law.mu_d" = { initial = 0.25, min = 0.1, max = 0.45 }
"""

NOISE_N = 0.005


def write_data(directory):
    series = bristle.parse_scenario_string(MODEL).run().cases[0].series
    t, F = np.asarray(series["t_s"]), np.asarray(series["F_N"])
    F = F + np.random.default_rng(4).normal(0.0, NOISE_N, F.size)
    np.savetxt(directory / "d.csv", np.column_stack([t, F]), delimiter=",", header="t_s,F_N", comments="",
               fmt="%.17g")
    return t, F


def test_fit_recovers_mu_d_from_the_contact_force(tmp_path):
    t, F = write_data(tmp_path)
    r = bristle.fit(toml=MODEL + FIT, directory=tmp_path, progress=False)
    assert r["converged"]
    assert r["kind"] == "structure_stick_slip"
    p = r["parameters"]["law.mu_d"]
    assert abs(p["value"] - 0.3) < 5 * p["std_error"]
    assert p["ci95"][0] < p["value"] < p["ci95"][1]
    assert abs(r["rms_N"] - NOISE_N) < 0.2 * NOISE_N
    e = r["experiments"][0]
    np.testing.assert_allclose(e["t_s"], t, rtol=0, atol=1e-12)
    np.testing.assert_allclose(e["measured"]["F_N"], F, rtol=0, atol=1e-12)
    residual = e["fitted"]["F_N"] - F
    assert abs(np.sqrt(np.mean(residual**2)) - r["rms_N"]) < 1e-12


def test_key_paths_of_a_loaded_structure_scenario():
    s = bristle.parse_scenario_string(MODEL)
    assert bristle.get(s, "law.mu_d") == 0.3
    assert "structure.damping_ratio" in bristle.numeric_keys(s)
    bristle.set(s, "structure.damping_ratio", 0.1)
    assert bristle.get(s, "structure.damping_ratio") == 0.1
    edited = bristle.parse_scenario_string(MODEL.replace("damping_ratio = 0.05", "damping_ratio = 0.1"))
    np.testing.assert_array_equal(np.asarray(s.run().cases[0].series["F_N"]),
                                  np.asarray(edited.run().cases[0].series["F_N"]))
    with pytest.raises(bristle.InvalidInput, match=r'key "friction.mu_s" does not apply to a dynamic \[law\]'):
        bristle.set(s, "friction.mu_s", 0.4)


def test_a_target_the_kind_does_not_output_is_named(tmp_path):
    write_data(tmp_path)
    with pytest.raises(bristle.InvalidInput, match=r'fit.targets.x_m: the model does not output a column "x_m"'):
        bristle.fit(toml=MODEL + FIT.replace('F_N = "F_N"', 'x_m = "F_N"'), directory=tmp_path, progress=False)
