"""bristle.Contact and bristle.ContactArray: a friction element stepped in the caller's loop (issue 18)."""

import copy
import math

import numpy as np
import pytest

import bristle

SQRT_1E5 = math.sqrt(1e5)


def lugre_1995():
    """Canudas de Wit et al. (1995): sigma0 = 1e5 N/m, sigma1 = sqrt(1e5) Ns/m, sigma2 = 0.4 Ns/m, Fc = 1 N,
    Fs = 1.5 N, vs = 1 mm/s."""
    return bristle.Contact.lugre(Fc_N=1.0, Fs_N=1.5, vs_mps=1e-3, sigma0_N_per_m=1e5,
                                 sigma1_Ns_per_m=SQRT_1E5, sigma2_Ns_per_m=0.4)


def test_step_converges_to_textbook_steady_friction():
    c = lugre_1995()
    for _ in range(10000):
        F = c.step(1e-4, 1e-3)
    assert isinstance(F, float)
    expected = 1.0 + 0.5 * math.exp(-1.0) + 0.4e-3  # Fc + (Fs - Fc) e^-1 + sigma2 v, opposing v
    assert F == pytest.approx(-expected, rel=1e-12)
    assert c.time_s == pytest.approx(1.0, rel=1e-12)
    assert c.friction_force_N[0] == pytest.approx(F, rel=1e-15)


def test_textbook_units_give_textbook_force():
    c = bristle.Contact.lugre(Fc_N=10.0, Fs_N=15.0, vs_mps=1e-3, sigma0_N_per_m=1e5, sigma1_Ns_per_m=SQRT_1E5,
                              sigma2_Ns_per_m=0.4)
    for _ in range(2000):
        F = c.step(1e-4, 0.1)
    assert F == pytest.approx(-10.04, abs=1e-10)


def test_two_dimensional_step_and_energy_balance():
    c = lugre_1995()
    rng = np.random.default_rng(3)
    for _ in range(50):
        v = rng.uniform(-3e-3, 3e-3, size=2)
        for _ in range(100):
            F = c.step(1e-5, v)
    assert F.shape == (2,)
    assert c.supplied_energy_J > 0.0
    balance = c.stored_energy_J - (c.supplied_energy_J - c.dissipated_energy_J)
    assert abs(balance) < 5e-6 * c.supplied_energy_J


def test_step_matches_adaptive_bench_run():
    law = bristle.LawParams(kind="lugre", mu_s=1.5, mu_d=1.0, v_s=1e-3, delta_s=2.0, sigma1=SQRT_1E5, sigma2=0.4)
    model = bristle.ContactModel(law, bristle.elastic(1e5))
    bench = bristle.Bench(model, bristle.BenchParams(drive="velocity", input_x=1e-3))
    ref = bristle.contact.run(bench, [0.0, 0.02], bristle.IntegratorOptions(method="rodas4", rtol=1e-11, atol=1e-15))
    F_ref = ref.series["F_N"][-1]
    c = bristle.Contact(law, bristle.elastic(1e5), normal_load_N=1.0)
    for _ in range(20000):
        F = c.step(1e-6, 1e-3)
    assert F == pytest.approx(F_ref, rel=1e-7)
    a = bristle.Contact(law, bristle.elastic(1e5))
    assert a.advance_to(0.02, 1e-3, rtol=1e-11, atol=1e-15) == pytest.approx(F_ref, rel=1e-9)


def test_state_get_set_reset_copy():
    c = lugre_1995()
    for _ in range(100):
        c.step(1e-4, 1e-3)
    u = c.state
    assert u.shape == (2,)
    d = c.copy()
    assert np.array_equal(d.state, u)
    c.step(1e-4, 1e-3)
    assert not np.array_equal(c.state, d.state)  # independent
    e = copy.deepcopy(d)
    e.state = np.zeros(2)
    assert np.array_equal(e.state, [0.0, 0.0]) and np.array_equal(d.state, u)
    c.reset()
    assert c.time_s == 0.0 and c.stored_energy_J == 0.0 and c.dissipated_energy_J == 0.0
    assert "lugre" in repr(c)


def test_bad_input_raises():
    c = lugre_1995()
    with pytest.raises(bristle.InvalidInput, match=r"^dt_s = -0.001: must be > 0$"):
        c.step(-1e-3, 1e-3)
    with pytest.raises(bristle.InvalidInput, match=r"^dt_s = 0: must be > 0$"):
        c.step(0.0, 1e-3)
    with pytest.raises(bristle.InvalidInput, match=r"^v_mps = nan: must be finite$"):
        c.step(1e-4, math.nan)
    with pytest.raises(bristle.InvalidInput, match=r"^v_mps = \[inf, 0\]: must be finite$"):
        c.step(1e-4, [math.inf, 0.0])
    with pytest.raises(bristle.InvalidInput, match="v_mps: expected 2 values"):
        c.step(1e-4, [1.0, 2.0, 3.0])
    with pytest.raises(bristle.InvalidInput, match="state: 3 values; expected 2"):
        c.state = [0.0, 0.0, 0.0]
    with pytest.raises(bristle.InvalidInput, match=r"state\[1\] = nan: must be finite"):
        c.state = [0.0, math.nan]
    with pytest.raises(bristle.InvalidInput, match="Fc_N = -1: must be > 0"):
        bristle.Contact.lugre(Fc_N=-1.0, Fs_N=1.5, vs_mps=1e-3, sigma0_N_per_m=1e5, sigma1_Ns_per_m=0.0,
                              sigma2_Ns_per_m=0.0)
    with pytest.raises(TypeError):
        c.step(1e-4, "fast")
    with pytest.raises(TypeError, match="body2"):
        bristle.Contact(bristle.LawParams(kind="dahl"), bristle.elastic(1e5), body2=3.0)
    assert c.time_s == 0.0  # nothing moved


def test_contact_array_numpy_in_and_out():
    proto = lugre_1995()
    a = bristle.ContactArray(proto, 4)
    assert len(a) == 4
    v = np.array([1e-3, -1e-3, 2e-3, 0.0])
    alone = [proto.copy() for _ in range(4)]
    for _ in range(30):
        F = a.step(1e-4, v)
        expected = [c.step(1e-4, float(vi)) for c, vi in zip(alone, v)]
        assert np.array_equal(F, expected)
    assert F.shape == (4,) and F.dtype == np.float64
    out = np.empty(4)
    assert a.step(1e-4, v, out=out) is not None and np.all(out[:3] != 0.0)
    assert a[-1].time_s == pytest.approx(31e-4)
    a[0].step(1e-4, 0.0)  # a live reference into the array
    assert a[0].time_s == pytest.approx(32e-4) and a[1].time_s == pytest.approx(31e-4)
    b = bristle.ContactArray(proto, 2)
    for _ in range(10000):
        F2 = b.step(1e-4, np.array([[1e-3, 1e-3], [-1e-3, 0.0]]))
    assert F2.shape == (2, 2)
    speed = math.sqrt(2) * 1e-3
    steady = 1.0 + 0.5 * math.exp(-(speed / 1e-3) ** 2) + 0.4 * speed
    assert F2[0] == pytest.approx([-steady / math.sqrt(2)] * 2, rel=1e-10)
    assert F2[1] == pytest.approx([1.0 + 0.5 * math.exp(-1.0) + 0.4e-3, 0.0], rel=1e-10, abs=1e-15)


def test_contact_array_bad_input():
    a = bristle.ContactArray(lugre_1995(), 3)
    with pytest.raises(IndexError, match=r"index = 3: must be in \[-3, 3\)"):
        a[3]
    with pytest.raises(IndexError):
        a[-4]
    with pytest.raises(bristle.InvalidInput, match=r"v_mps: expected shape \(3,\) or \(3, 2\), got \(4,\)"):
        a.step(1e-4, np.zeros(4))
    with pytest.raises(bristle.InvalidInput, match=r"v_mps: expected shape \(3,\) or \(3, 2\), got \(3, 3\)"):
        a.step(1e-4, np.zeros((3, 3)))
    with pytest.raises(bristle.InvalidInput, match=r"v_mps\[1\] = nan: must be finite"):
        a.step(1e-4, np.array([0.0, math.nan, 0.0]))
    with pytest.raises(bristle.InvalidInput, match=r"v_mps\[2, 1\] = inf: must be finite"):
        a.step(1e-4, np.array([[0.0, 0.0], [0.0, 0.0], [0.0, math.inf]]))
    with pytest.raises(bristle.InvalidInput, match=r"dt_s = -1: must be > 0"):
        a.step(-1.0, np.zeros(3))
    with pytest.raises(bristle.InvalidInput, match="out: expected a writable"):
        a.step(1e-4, np.zeros(3), out=np.empty(5))
    with pytest.raises(TypeError):
        a.step(1e-4, np.zeros(3), out=[0.0, 0.0, 0.0])
    assert all(a[i].time_s == 0.0 for i in range(3))  # no contact moved
    assert [c.time_s for c in a] == [0.0, 0.0, 0.0]  # iteration stops at IndexError


def test_energy_tracking_off_gives_the_same_forces_and_nan_energies():
    # Contact: the same forces bitwise, energies nan until reset, then tracked again.
    tracked, untracked = lugre_1995(), lugre_1995()
    assert untracked.energy_tracking is True
    untracked.set_energy_tracking(False)
    assert untracked.energy_tracking is False
    v = 2e-3 * np.sin(0.05 * np.arange(300))
    for vi in v:
        assert untracked.step(1e-4, float(vi)) == tracked.step(1e-4, float(vi))
    assert np.array_equal(untracked.state, tracked.state)
    assert math.isnan(untracked.supplied_energy_J) and math.isnan(untracked.dissipated_energy_J)
    assert tracked.supplied_energy_J > 0.0
    untracked.energy_tracking = True
    untracked.reset()
    tracked.reset()
    for _ in range(50):
        untracked.step(1e-4, 1e-3)
        tracked.step(1e-4, 1e-3)
    assert untracked.supplied_energy_J == tracked.supplied_energy_J
    # ContactArray: every contact switched; the forces equal a tracked array's.
    a, b = bristle.ContactArray(lugre_1995(), 4), bristle.ContactArray(lugre_1995(), 4)
    assert a.energy_tracking is True
    a.set_energy_tracking(False)
    assert a.energy_tracking is False and all(not a[i].energy_tracking for i in range(4))
    vv = np.array([1e-3, -2e-3, 0.0, 5e-4])
    for _ in range(20):
        assert np.array_equal(a.step(1e-3, vv), b.step(1e-3, vv))
    assert math.isnan(a[1].supplied_energy_J) and b[1].supplied_energy_J > 0.0
    a[0].energy_tracking = True
    assert a.energy_tracking is False  # not every contact
    a.energy_tracking = True
    assert a.energy_tracking is True
    with pytest.raises(TypeError):
        a.set_energy_tracking("no")


TEXTBOOK_TOML = """
[law]
type = "lugre"
[law.textbook]
Fc_N = 10.0
Fs_N = 15.0
vs_mps = 1e-3
sigma0_N_per_m = 1e5
sigma1_Ns_per_m = 316.22776601683796
sigma2_Ns_per_m = 0.4
[bench]
drive = "velocity"
normal_load_N = 1.0
input = 0.1
[time]
t_end_s = 0.2
"""


def test_textbook_units_in_toml_give_the_forces_of_contact_lugre():
    # [law.textbook] and Contact.lugre(...) are mapped by the same C++ function (contact::textbook_model):
    # a contact built from the parsed TOML steps bitwise as the Python textbook contact.
    sc = bristle.io.parse_lumped_string(TEXTBOOK_TOML)[0]
    from_toml = bristle.Contact(sc.law, sc.body1, sc.body2, normal_load_N=1.0)
    textbook = bristle.Contact.lugre(Fc_N=10.0, Fs_N=15.0, vs_mps=1e-3, sigma0_N_per_m=1e5,
                                     sigma1_Ns_per_m=316.22776601683796, sigma2_Ns_per_m=0.4)
    for i in range(2000):
        v = 0.1 * math.sin(0.01 * i) if i < 1000 else 0.1
        F = from_toml.step(1e-4, v)
        assert F == textbook.step(1e-4, v)
    assert F == pytest.approx(-10.04, abs=1e-10)  # the textbook force, not the -10.40 trap
    # The scenario's own run (adaptive bench) reaches the same steady force.
    study = bristle.io.LumpedStudy([sc])
    result = study.run()
    F_run = result.cases[0].series["F_N"]
    assert F_run[-1] == pytest.approx(-10.04, abs=1e-8)


def test_advance_to_a_few_ulps_ahead():
    # A controller's loop advancing to accumulated times: t = 1e-3 (1 + 3e-16) is 2 ulps past 1e-3. The
    # integrator's first step was 1 % of the span, below the smallest step at t: a "step-size collapse".
    c = lugre_1995()
    c.step(1e-3, 1e-3)
    F = c.friction_force_N[0]
    for t in (1e-3 * (1 + 3e-16), 1e-3 * (1 + 1e-14), 1e-3 * (1 + 1e-12)):
        assert c.advance_to(t, 1e-3) == pytest.approx(F, rel=1e-6)
        assert c.time_s == t
    c.reset()
    with pytest.raises(bristle.SolverError, match=r"^rodas4 cannot step from t = 0 to t = 1e-310: the stages are not "
                                                  r"finite at a step of 1e-310 s; advance over a longer span$"):
        c.advance_to(1e-310, 1e-3)


def test_advance_to_refuses_an_rtol_below_ten_eps():
    # helper-39: rtol = 1e-200 shrank the steps until the stages overflowed and said "non-finite values at every
    # step size down to 5.8e-309".
    c = lugre_1995()
    with pytest.raises(bristle.InvalidInput, match=r"^options.rtol = 1e-200: below 10 eps = 2.220446049250313e-15, a "
                                                   r"relative accuracy double precision cannot hold$"):
        c.advance_to(0.01, 0.1, rtol=1e-200)
    assert c.time_s == 0.0
    assert math.isfinite(c.advance_to(0.01, 0.1, rtol=3e-15))


def test_textbook_model_is_the_mapping_of_contact_lugre_and_of_law_textbook():
    # One mapping (contact::textbook_model) behind Contact.lugre, [law.textbook] and bristle.textbook_model.
    keys = dict(Fc_N=10.0, Fs_N=15.0, vs_mps=1e-3, sigma0_N_per_m=1e5, sigma1_Ns_per_m=316.2, sigma2_Ns_per_m=0.4)
    p = bristle.TextbookParams(**keys)
    law, body1, body2 = bristle.textbook_model("lugre", p, normal_load_N=10.0)
    assert (law.mu_d, law.mu_s, body1.k0) == (1.0, 1.5, 1e4)
    mapped = bristle.Contact(law, body1, body2, normal_load_N=10.0)
    reference = bristle.Contact.lugre(**keys)
    for v in (1e-4, 1e-3, 0.1, -0.05):
        for _ in range(200):
            assert mapped.step(1e-4, v) == pytest.approx(reference.step(1e-4, v), rel=1e-9, abs=1e-12)
    sc = bristle.parse_scenario_string(
        "[law]\ntype = \"lugre\"\n[law.textbook]\n" + "".join(f"{k} = {v}\n" for k, v in keys.items()) +
        "[bench]\ndrive = \"velocity\"\ninput = 0.1\nnormal_load_N = 10.0\n[time]\nt_end_s = 0.1\noutputs = 3\n")
    assert bristle.get(sc, "law.mu_s") == law.mu_s and bristle.get(sc, "body1.k0") == body1.k0
    assert bristle.TextbookParams.keys() == [k for k in list(keys) + ["delta"]]
    with pytest.raises(bristle.InvalidInput, match=r"^law\.textbook\.sigma0_N_per_m = 0: must be > 0$"):
        bristle.textbook_model("dahl", bristle.TextbookParams(Fc_N=1.0), normal_load_N=1.0)
    # helper-49: Dahl ignored a LuGre value given ([law.textbook] refuses it), and the load was named as a table key
    with pytest.raises(bristle.InvalidInput, match=r"^law\.textbook\.Fs_N = 0\.5: does not apply to the dahl law"):
        bristle.textbook_model("dahl", bristle.TextbookParams(Fc_N=1.0, sigma0_N_per_m=1e5, Fs_N=0.5))
    with pytest.raises(bristle.InvalidInput, match=r"^normal_load_N = 0: must be > 0$"):
        bristle.textbook_model("lugre", p, normal_load_N=0.0)
