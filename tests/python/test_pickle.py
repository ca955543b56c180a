"""Pickling of the plain-data result classes (issue 18): SteadyPatch and PatchSnapshot round-trip
field by field (their state is the tuple of their fields)."""

import pickle

import numpy as np
import pytest

from bristle import papers


def test_plain_data_results_pickle():
    from bristle import patch as bp
    model = papers.rolling_model(0.4, 0)
    params = bp.PatchParams(nx=12, ny=6)
    steady = bp.PatchSolver(model, params).solve(bp.rolling(V_r=16.0, v_x=0.1, slip_angle_deg=1.0))
    tr = bp.PatchTransient(model, bp.PatchTransientParams(patch=params), bp.rolling(V_r=16.0, v_x=0.1), 3000.0)
    tr.advance_to(2e-3)
    for value, fields in ((steady, ("force_N", "Mz_Nm", "Mz_no_phi_Nm", "stored_energy_J", "supplied_power_W",
                                    "dissipated_power_W", "outflow_power_W", "compression_power_W",
                                    "budget_residual_W", "sweeps", "newton_steps")),
                          (tr.snapshot(), ("t_s", "Fz_N", "scale", "scale_y", "force_N", "Mz_Nm", "Mz_no_phi_Nm",
                                           "stored_energy_J", "supplied_power_W", "dissipated_power_W",
                                           "supplied_energy_J", "outflow_power_W", "compression_power_W",
                                           "load_power_W", "dissipated_energy_J", "outflow_energy_J",
                                           "compression_energy_J", "load_energy_J", "energy_residual_J"))):
        back = pickle.loads(pickle.dumps(value))
        assert type(back) is type(value)
        for f in fields:
            assert np.array_equal(getattr(back, f), getattr(value, f)), f
        assert any(np.any(getattr(value, f) != 0) for f in fields)  # not a default-constructed copy


# Profile.custom / Loading.custom with module-level functions: pickled by reference (a lambda is not).
def _w(x):
    return 0.05 * np.sin(2 * np.pi * x) + 0.01 * np.sin(4 * np.pi * x)


def _dw(x):
    return 0.1 * np.pi * np.cos(2 * np.pi * x) + 0.04 * np.pi * np.cos(4 * np.pi * x)


def _d2w(x):
    return -0.2 * np.pi ** 2 * np.sin(2 * np.pi * x) - 0.16 * np.pi ** 2 * np.sin(4 * np.pi * x)


def _load(t):
    return 1.0 + np.sin(t)


def _load_rate(t):
    return np.cos(t)


def _copy(x):
    return pickle.loads(pickle.dumps(x))


def test_models_rebuilt_from_their_arguments_compute_the_same():
    """Models, solvers and the directional and structures objects rebuilt from their pickle give bit-identical
    results (test_conventions.py checks that every class pickles; this checks what the copies compute)."""
    import bristle
    from bristle import directional as d
    from bristle import patch as bp
    from bristle import structures as st

    xs = np.linspace(-0.1, 0.3, 9)
    p = bristle.transport.Pressure(bristle.PressureParams(kind="parabolic"), 0.2, 10.0)
    q = _copy(p)
    assert np.array_equal(q(xs), p(xs)) and (q.L, q.normal_load) == (0.2, 10.0) and q.params == p.params

    law = bristle.laws.CoulombStribeck(bristle.CoulombStribeckParams(mu_s=0.5, mu_d=0.3, v_s=0.1), admittance=0.01,
                                       normal_load_N=10.0)
    back = _copy(law)
    assert (back.admittance, back.normal_load_N) == (0.01, 10.0)
    assert [back.step(c) for c in (0.01, 1.0, -2.0)] == [law.step(c) for c in (0.01, 1.0, -2.0)]

    g = bp.PatchGeometry(bp.PatchParams(shape="ellipse", length_m=0.1, width_m=0.04, pressure="hertzian",
                                        normal_load_N=2500.0))
    h = _copy(g)
    pts = np.array([[0.0, 0.0], [0.02, 0.01], [0.04, -0.005]])
    assert (h.a, h.b, h.shape, h.peak_pressure) == (g.a, g.b, g.shape, g.peak_pressure)
    assert np.array_equal(h.pressure(pts), g.pressure(pts)) and np.all(g.pressure(pts) > 0)

    solver = bp.PatchSolver(papers.rolling_model(0.4, 0), bp.PatchParams(nx=12, ny=6))
    kin = bp.rolling(V_r=16.0, v_x=0.1, slip_angle_deg=1.0)
    a, b = solver.solve(kin), _copy(solver).solve(kin)
    assert np.array_equal(a.force_N, b.force_N) and a.Mz_Nm == b.Mz_Nm and a.force_N[0] != 0

    r = bp.riemann(papers.rolling_model(0.4, 1).pair)
    e = bp.classify_edges(g, r, bp.rolling(V_r=16.0, v_x=0.6), samples=8)
    e2 = _copy(e)
    assert np.array_equal(e2.points, e.points) and np.array_equal(e2.normals, e.normals)
    assert np.array_equal(e2.max_speed, e.max_speed) and np.any(e.max_speed > 0)
    for f in bp.Family.__members__.values():
        assert np.array_equal(e2.edges(f), e.edges(f))
    r2 = _copy(r)
    assert r2.theta == r.theta and np.array_equal(r2.R, r.R) and np.array_equal(r2.lambda_S1, r.lambda_S1)
    c = bp.check_eq84(g, bp.rolling(V_r=16.0, v_x=0.6), samples=21)
    assert (_copy(c).max_div_pV1, _copy(c).max_div_pV2) == (c.max_div_pV1, c.max_div_pV2)

    x = np.linspace(0.0, 1.0, 13)
    sine = d.Profile(d.ProfileParams(kind="sine", amplitude=0.08))
    for w in (sine, sine.mirrored(), sine.mirrored().mirrored(), d.Profile.custom(_w, _dw, _d2w, harmonics=4),
              d.Profile.custom(_w, _dw, _d2w, harmonics=4).mirrored()):
        v = _copy(w)
        assert v.description == w.description
        assert np.array_equal(v.w(x), w.w(x)) and np.array_equal(v.dw(x), w.dw(x)) and np.any(w.w(x) != 0)
        assert (v.omega_plus, v.omega_minus) == (w.omega_plus, w.omega_minus)
    mech = d.Mechanism(d.MechanismParams(kind="slanted", k=1.0, height_m=1.0, rest_length_m=1.5, theta_rad=0.5),
                       d.Profile(d.ProfileParams(kind="sine", amplitude=0.5 / (2 * np.pi))))
    m2 = _copy(mech)
    assert (m2.limit.rho_plus, m2.limit.rho_minus) == (mech.limit.rho_plus, mech.limit.rho_minus)
    V = d.WigglyPotential(mech, 0.05)
    assert np.array_equal(_copy(V).value(xs), V.value(xs)) and _copy(V).epsilon == 0.05
    pp = d.PerceivedProfile(sine, 1.0)
    assert np.array_equal(_copy(pp).W(xs), pp.W(xs))

    t = np.linspace(-0.5, 3.0, 15)
    for ld in (d.Loading.piecewise_linear([0.0, 1.0, 2.0], [0.0, 1.0, 0.5]), d.Loading.ramp(0.5, 2.0),
               d.Loading.sine(1.0, 0.5, 4.0, 0.3), d.Loading.triangle(0.0, 0.8, 2.0, 1.0),
               d.Loading.custom(_load, _load_rate, 0.01), d.Loading.ramp(0.5, 2.0).affine(3.0, -1.0).affine(0.5, 0.1)):
        back = _copy(ld)
        assert np.array_equal(back.value(t), ld.value(t)) and np.array_equal(back.rate(t), ld.rate(t))
        assert np.array_equal(back.kinks(), ld.kinks())
        assert np.array_equal(back.turning_points(0.0, 3.0), ld.turning_points(0.0, 3.0))
    system = d.WigglySystem(V, d.ConvexEnergy(k=2.0, c4=0.5), d.Loading.sine(0.1, 1.0, 2.0, 0.25), 1.5)
    s2 = _copy(system)
    assert s2.gamma == 1.5 and s2.phi.params == system.phi.params
    assert [s2.velocity(0.3, z) for z in xs] == [system.velocity(0.3, z) for z in xs]
    lim = d.LimitSystem(d.ConvexEnergy(k=1.0), d.Loading.triangle(0.0, 0.8, 2.0, 1.0), 0.3, -0.2)
    times = np.linspace(0.0, 2.0, 9)
    assert np.array_equal(_copy(lim).run(0.0, 0.0, times)["z_m"], lim.run(0.0, 0.0, times)["z_m"])

    string = st.Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3, 0.6])
    generic = st.Structure.generic(st.GenericModalParams(frequencies_rad_per_s=[1.0, 3.0], damping_ratios=[0.1, 0.2],
                                                         mode_values=[[1.0], [0.5]]))
    for s in (string, st.Structure.cantilever(st.BeamParams(bending_stiffness_N_m2=2.0)),
              st.Structure.simply_supported_beam(st.BeamParams(contact_positions_m=[0.4])), generic,
              st.Structure.truncated(string, 5)):
        s2 = _copy(s)
        assert (s2.kind, s2.contact_count, s2.finite) == (s.kind, s.contact_count, s.finite)
        a, b = s.modes(2), s2.modes(2)
        assert np.array_equal(a.omega, b.omega) and np.array_equal(a.values, b.values)
        assert np.array_equal(s2.static_compliance, s.static_compliance)


def test_a_lambda_fails_cleanly_with_pythons_pickling_error():
    """A user function is pickled by reference, as FrictionLaw's G_inverse: a lambda cannot be (Python's rule),
    which is a clean exception, not a crash; the object stays usable."""
    import math

    from bristle import directional as d
    w = d.Profile.custom(lambda x: 0.08 * math.sin(2 * math.pi * x),
                         lambda x: 0.16 * math.pi * math.cos(2 * math.pi * x),
                         lambda x: -0.32 * math.pi ** 2 * math.sin(2 * math.pi * x))
    ld = d.Loading.custom(lambda t: math.sin(t), lambda t: math.cos(t), 0.01)
    for obj in (w, w.mirrored(), ld, ld.affine(2.0, 0.0),
                d.Mechanism(d.MechanismParams(kind="angular"), w)):
        with pytest.raises((pickle.PicklingError, AttributeError)):
            pickle.dumps(obj)
    assert round(w.w(0.25), 12) == 0.08 and ld.value(0.0) == 0.0


def test_run_results_pickle_with_their_report_and_extra_files():
    import bristle
    from test_conventions import LINE_TRANSIENT_TOML
    run = bristle.io.parse_scenario_string(LINE_TRANSIENT_TOML).run()
    back = _copy(run)
    assert back.report == run.report and "cases" in run.report
    assert back.csv_text() == run.csv_text() and run.cases[0].series.rows > 1
    assert [(f.suffix, f.text) for f in back.extra_files] == [(f.suffix, f.text) for f in run.extra_files]
    assert run.extra_files and run.extra_files[0].text.count("\n") > 2
    assert (back.name, back.plot_x, back.plot_y, back.log_x) == (run.name, run.plot_x, run.plot_y, run.log_x)


def test_scenarios_pickle_with_every_part_and_run_the_same():
    """A pickled study runs to the same CSV, and a pickled case keeps the parts Python does not show: its
    key paths (the input form: tau as written) read the same values, a key set on the copy derives the same."""
    import pathlib

    import bristle
    from test_conventions import LINE_STEADY_TOML, LINE_TRANSIENT_TOML
    root = pathlib.Path(__file__).resolve().parents[2]
    study = bristle.load_scenario(str(root / "examples" / "lugre_stick_slip.toml"))
    case = study.cases[0]
    case.time.t_end_s = 0.05
    study = bristle.io.LumpedStudy([case])
    back = _copy(study)
    assert back.run().csv_text() == study.run().csv_text()
    c2 = back.cases[0]
    keys = bristle.numeric_keys(case)
    assert keys == bristle.numeric_keys(c2) and len(keys) > 5
    assert [bristle.get(c2, k) for k in keys] == [bristle.get(case, k) for k in keys]
    for toml in (LINE_STEADY_TOML, LINE_TRANSIENT_TOML):
        s = bristle.io.parse_scenario_string(toml)
        t = _copy(s)
        assert (t.kind, t.name, t.case_count) == (s.kind, s.name, s.case_count)
        keys = bristle.numeric_keys(s)
        assert keys == bristle.numeric_keys(t) and "body1.tau" in keys
        for k in keys:  # a key that differs between the cases raises for the study, as for the original
            try:
                value = bristle.get(s, k)
            except bristle.InvalidInput as e:
                with pytest.raises(bristle.InvalidInput, match=str(e).split(":")[0]):
                    bristle.get(t, k)
            else:
                assert bristle.get(t, k) == value, k
        assert t.run().csv_text() == s.run().csv_text()
        assert [x.label for x in t.cases] == [x.label for x in s.cases]


def test_steppers_pickle_before_their_first_advance():
    """A fresh stepper rebuilt from its pickle (structure, step, options) advances exactly as the original; one
    that has advanced refuses with a TypeError (its force history cannot be set again), and stays usable."""
    from bristle import structures as st
    string = st.Structure.taut_string(damping_ratio=0.1, contact_positions_m=[0.3, 0.6])
    undamped = st.Structure.taut_string(contact_positions_m=[0.3, 0.7])
    for model in (st.ModalModel(string, 20, 1e-3, track_energy=True),
                  st.ReducedModel(string, 1e-3, st.ReducedModelOptions(window_steps=17)),
                  st.StringDelayModel(undamped, 0.25), st.make_reduced_model(string, 1e-3)):
        back = _copy(model)
        assert type(back) is type(model) and (back.step_s, back.contact_count) == (model.step_s, model.contact_count)
        for k in range(12):
            f = [0.5 + 0.1 * k, -0.2 * k]
            model.advance(f)
            back.advance(f)
        assert np.array_equal(back.velocity, model.velocity) and np.any(model.velocity != 0)
        assert np.array_equal(back.displacement, model.displacement)
        with pytest.raises(TypeError, match="has advanced .12 steps. does not pickle"):
            pickle.dumps(model)
        model.advance([0.0, 0.0])


def _kinematics(t):
    from bristle import patch as bp
    return bp.rolling(V_r=16.0, v_x=0.1 + 10.0 * t)


def _patch_load(t):
    return 3000.0 * (1.0 + 50.0 * t)


def test_transient_patch_pickles_unloaded_with_its_histories():
    """A transient patch pickles by its model, parameters, kinematics and load (a PatchKinematics and a number, or
    Python functions by reference) and its start time, while unloaded (new or after reset()); the copy steps
    bit-identically. One that has stepped refuses with a TypeError; a lambda raises Python's PicklingError."""
    from bristle import patch as bp
    model = papers.rolling_model(0.4, 0)
    params = bp.PatchTransientParams(patch=bp.PatchParams(nx=12, ny=6))
    for kin, load in ((bp.rolling(V_r=16.0, v_x=0.1), 3000.0), (_kinematics, _patch_load)):
        tr = bp.PatchTransient(model, params, kin, load)
        tr.advance_to(1e-3)
        tr.reset(0.5)
        back = _copy(tr)
        assert back.time == 0.5 and back.nx == 12
        tr.advance_to(0.502)
        back.advance_to(0.502)
        a, b = tr.snapshot(), back.snapshot()
        assert np.array_equal(a.force_N, b.force_N) and a.Fz_N == b.Fz_N and a.force_N[0] != 0
        assert a.energy_residual_J == b.energy_residual_J
        with pytest.raises(TypeError, match="has stepped .* does not pickle"):
            pickle.dumps(tr)
    tr = bp.PatchTransient(model, params, bp.rolling(V_r=16.0, v_x=0.1), lambda t: 3000.0)
    with pytest.raises((pickle.PicklingError, AttributeError)):
        pickle.dumps(tr)
    tr.advance_to(1e-3)
    assert tr.snapshot().Fz_N == 3000.0


def test_scenarios_of_the_other_kinds_pickle_by_their_toml_text():
    """A scenario of a kind without its own Python class (patch, directional, structures) pickles by the TOML
    text it was parsed from, with its name and source: parsed again, it is the same scenario (kind, name, cases,
    summary) and runs to the same CSV."""
    import pathlib

    import bristle
    examples = pathlib.Path(__file__).resolve().parents[2] / "examples"
    for name in ("patch_slip_spin_map", "patch_longitudinal_creep", "directional_loop_slanted", "fig4_slanted_spring",
                 "directional_crawler_2_feet", "string_kernel", "structures_string_stick_slip"):
        s = bristle.load_scenario(str(examples / f"{name}.toml"))
        t = _copy(s)
        assert type(t) is type(s) is bristle.io.Scenario
        assert (t.kind, t.name, t.case_count, t.summary()) == (s.kind, s.name, s.case_count, s.summary())
    for name in ("string_kernel", "fig4_slanted_spring"):  # runs in milliseconds
        s = bristle.io.parse_scenario_string((examples / f"{name}.toml").read_text(), "x", str(examples))
        t = _copy(s)
        assert t.name == s.name and t.run().csv_text() == s.run().csv_text() and s.run().cases[0].series.rows > 2


def test_a_scenario_of_the_other_kinds_pickles_after_set_with_the_values_set():
    """bristle.set on a patch/structure/directional Scenario keeps its origin (the TOML text) and appends the key path:
    the copy is parsed again and set again, so it reads the set values and runs to the same CSV (9eae582 raised
    TypeError: the study rebuilt by set had lost its TOML text)."""
    import pathlib

    import bristle
    examples = pathlib.Path(__file__).resolve().parents[2] / "examples"
    s = bristle.io.parse_scenario_string((examples / "string_kernel.toml").read_text(), "x", str(examples))
    key = bristle.numeric_keys(s)[0]
    new_value = bristle.get(s, key) * 1.25
    bristle.set(s, key, new_value)
    t = _copy(s)
    assert bristle.get(t, key) == new_value
    assert t.run().csv_text() == s.run().csv_text()
    d = bristle.load_scenario(str(examples / "fig4_slanted_spring.toml"))
    bristle.set(d, "range.points", 80)
    bristle.set(d, "range.points", 70)  # the sets replay in order: the last one wins
    assert bristle.get(_copy(d), "range.points") == 70


def test_a_tampered_state_is_refused_before_it_is_read():
    # A TimeSeries state with fewer columns than names, or ragged columns, was read past its end (SIGSEGV in
    # ts["F_N"] and to_array()); kernel samples and mode tables of mismatched lengths were taken as well.
    import bristle
    from bristle import structures as st
    ts = bristle.TimeSeries.__new__(bristle.TimeSeries)
    with pytest.raises(bristle.InvalidInput, match=r"^TimeSeries: pickled state of 2 names and 1 columns; "):
        ts.__setstate__((["t_s", "F_N"], [[0.0, 1.0]]))
    with pytest.raises(bristle.InvalidInput, match=r'^TimeSeries: pickled column "b" has 0 rows, column "a" 3; '):
        ts.__setstate__((["a", "b"], [[1.0, 2.0, 3.0], []]))
    k = st.displacement_kernel(st.Structure.taut_string(st.TautStringParams(damping_ratio=0.1)), [0.1, 0.2])
    state = list(k.__getstate__())
    state[1] = state[1][:1]
    with pytest.raises(bristle.InvalidInput, match=r"^KernelSamples: pickled state of 2 tau_s, 1 value, "):
        type(k).__new__(type(k)).__setstate__(tuple(state))
    modes = st.Structure.taut_string(st.TautStringParams()).modes(3)
    state = list(modes.__getstate__())
    state[1] = state[1][:2]
    with pytest.raises(bristle.InvalidInput, match=r"^ModeTable: pickled state of 3 omega, 2 damping "):
        type(modes).__new__(type(modes)).__setstate__(tuple(state))
    good = pickle.loads(pickle.dumps(bristle.TimeSeries.from_columns({"t_s": [0.0, 1.0], "F_N": [0.5, 1.5]})))
    assert list(good["F_N"]) == [0.5, 1.5]
