"""numpy-native pointwise evaluations (issue 18, item 3): arrays of velocities in, arrays of matching
shape out, each row bit for bit the scalar call; scalar in, scalar (or one point's array) out as before;
non-finite or wrong-shaped arrays are ValueErrors naming the argument; the patch map as column arrays
with the TOML's slip angle."""

import math

import numpy as np
import pytest

import bristle
from bristle import papers
from bristle import patch as bp

V = np.array([-2.0, -0.3, -1e-3, 1e-3, 0.05, 0.7, 4.0])  # (n,) velocities along x
V2D = np.array([[0.01, 0.0], [0.3, -0.2], [-2.0, 1.0], [0.0, 0.5]])    # (n, 2)


def lugre_model():
    law = bristle.LawParams(kind="lugre", mu_s=1.2, mu_d=0.8, v_s=0.01, delta_s=2.0, sigma1=0.5, sigma2=0.1)
    return bristle.ContactModel(law, bristle.gkv(240.0, [100.0], [0.1]), bristle.elastic(600.0))


MODELS = {"frbd": lambda: papers.sliding_model(0.4, 1), "lugre": lugre_model}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_contact_model_pointwise_calls_take_velocity_arrays(name):
    m = MODELS[name]()
    n = m.state_size
    for v in (V, V2D):
        rows = [vi if np.ndim(vi) else float(vi) for vi in v]
        f = m.steady_force(v)
        assert f.shape == (len(v), 2)
        assert np.array_equal(f, np.array([m.steady_force(r) for r in rows]))
        u = m.steady_state(v)
        assert u.shape == (len(v), n)
        assert np.array_equal(u, np.array([m.steady_state(r) for r in rows]))
        fr = m.friction(u, v)  # (n, state) states with (n,) or (n, 2) velocities
        assert fr.shape == (len(v), 2)
        assert np.array_equal(fr, np.array([m.friction(ui, r) for ui, r in zip(u, rows)]))
        h, zdot = m.source(u, v)
        assert h.shape == (len(v), n) and zdot.shape == (len(v), 2)
        for i, r in enumerate(rows):
            hi, zi = m.source(u[i], r)
            assert np.array_equal(h[i], hi) and np.array_equal(zdot[i], zi)
        assert np.max(np.abs(h)) < 1e-9  # the steady states are steady: the source vanishes there
        J = m.source_jacobian(u, v)
        assert J.shape == (len(v), n, n)
        assert np.array_equal(J[2], m.source_jacobian(u[2], rows[2]))
    # One state broadcast against many velocities.
    u0 = np.zeros(n)
    assert np.array_equal(m.friction(u0, V), np.array([m.friction(u0, float(x)) for x in V]))


def test_scalar_in_scalar_out_as_before():
    m = MODELS["frbd"]()
    assert m.steady_force(1.0).shape == (2,)
    assert m.steady_force([1.0, 0.0]).shape == (2,)
    assert m.steady_force(np.array([1.0, 0.0])).shape == (2,)  # 2 values: one (v_x, v_y)
    assert m.steady_state(0.3).shape == (m.state_size,)
    law = m.law
    assert law.steady_force(0.5).shape == (2,)
    assert law.G_inverse(0.5).shape == (2, 2)
    assert law.params.M.M(0.5).shape == (2, 2)


def test_steady_force_array_is_the_stribeck_curve_with_the_sign_convention():
    """v > 0 gives -mu(v) (eq. 53) along x, v < 0 gives +mu(|v|): the force opposes the sliding."""
    m = MODELS["frbd"]()
    p = m.law.params.M.axis1
    speeds = np.geomspace(1e-3, 30.0, 60)
    f = m.steady_force(speeds)
    assert np.allclose(f[:, 0], -p.mu(speeds), rtol=1e-12, atol=0)
    assert np.array_equal(f[:, 1], np.zeros_like(speeds))
    assert np.array_equal(m.steady_force(-speeds)[:, 0], -f[:, 0])  # odd in v


def test_friction_law_calls_take_velocity_arrays():
    m = MODELS["lugre"]()
    law = m.law
    for v in (V, V2D):
        rows = [vi if np.ndim(vi) else float(vi) for vi in v]
        assert np.array_equal(law.steady_force(v), np.array([law.steady_force(r) for r in rows]))
        G = law.G_inverse(v)
        assert G.shape == (len(v), 2, 2)
        assert np.array_equal(G, np.array([law.G_inverse(r) for r in rows]))
        M = law.params.M.M(v)
        assert M.shape == (len(v), 2, 2)
        assert np.array_equal(M, np.array([law.params.M.M(r) for r in rows]))
        z = np.outer(np.linspace(-1e-3, 1e-3, len(v)), [1.0, 0.5])
        f = np.outer(np.linspace(-0.5, 0.5, len(v)), [1.0, -1.0])
        h0 = law.h0(z, f, v)
        assert h0.shape == (len(v), 2)
        assert np.array_equal(h0, np.array([law.h0(z[i], f[i], r) for i, r in enumerate(rows)]))
        dz, df = law.h0_jacobian(z, f, v)
        assert dz.shape == df.shape == (len(v), 2, 2)
        dz1, df1 = law.h0_jacobian(z[1], f[1], rows[1])
        assert np.array_equal(dz[1], dz1) and np.array_equal(df[1], df1)
        out = law.output(f, h0, v)
        assert np.array_equal(out, np.array([law.output(f[i], h0[i], r) for i, r in enumerate(rows)]))


def test_bad_arrays_are_value_errors_naming_the_argument():
    m = MODELS["frbd"]()
    with pytest.raises(ValueError, match=r"^v_r\[2\] = nan: must be finite$"):
        m.steady_force(np.array([0.1, 0.2, math.nan]))
    with pytest.raises(ValueError, match=r"^v_r\[1\] = inf: must be finite$"):
        m.steady_state(np.array([[0.1, 0.0], [0.2, math.inf]]))
    with pytest.raises(ValueError, match=r"^v_r = nan: must be finite$"):
        m.steady_force(math.nan)
    with pytest.raises(ValueError, match=r"^v_r: expected a number, 2 values \(x, y\), or an \(n,\) or \(n, 2\) "
                                         r"array, got an array of shape \(4, 3\)$"):
        m.steady_force(np.zeros((4, 3)))
    with pytest.raises(ValueError, match=r"^v_r: 3 points, but u has 4$"):
        m.friction(np.zeros((4, m.state_size)), np.array([0.1, 0.2, 0.3]))
    with pytest.raises(ValueError, match=r"^v: expected a number, 2 values"):
        m.law.steady_force(np.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match=r"^z\[0\] = nan: must be finite$"):
        m.law.h0(np.array([[math.nan, 0.0]]), np.zeros(2), 0.1)
    with pytest.raises(TypeError, match=r"^v_r: expected"):
        m.steady_force("fast")


# ---- The patch: slip angle as in TOML, maps as column arrays --------------------------------------

def test_rolling_takes_the_slip_angle_of_the_toml():
    k = bp.rolling(V_r=16.0, v_x=0.2, slip_angle_deg=3.0)
    ref = bp.rolling(V_r=16.0, v_x=0.2, v_y=(16.0 + 0.2) * math.tan(3.0 * math.pi / 180.0))  # as the TOML reader
    assert k.body2.V0_mps[1] == ref.body2.V0_mps[1]
    with pytest.raises(ValueError, match=r"^rolling.slip_angle_deg = 90: must be in \(-89, 89\)$"):
        bp.rolling(V_r=16.0, slip_angle_deg=90.0)
    with pytest.raises(ValueError, match=r"^rolling.v_y and rolling.slip_angle_deg: give one of them, not both$"):
        bp.rolling(V_r=16.0, v_y=0.1, slip_angle_deg=1.0)


def test_steady_map_returns_columns_equal_to_the_list_form():
    model = papers.rolling_model(0.4, 0)
    params = bp.PatchParams(nx=20, ny=8)
    alpha = np.array([-2.0, 0.0, 2.0, 4.0])
    cols = bp.steady_map(model, params, Vr_mps=16.0, vx_mps=0.1, slip_angle_deg=alpha, chain_length=2, threads=2)
    assert set(cols) >= {"Vr_mps", "vx_mps", "vy_mps", "slip_angle_deg", "spin_radps", "Fx_N", "Fy_N", "Mz_Nm"}
    assert all(c.shape == (4,) for c in cols.values())
    points = [bp.rolling(V_r=16.0, v_x=0.1, slip_angle_deg=a) for a in alpha]
    ref = bp.solve_steady_map(model, params, points, chain_length=2, threads=1)
    assert np.array_equal(cols["Fx_N"], [r.force_N[0] for r in ref])
    assert np.array_equal(cols["Fy_N"], [r.force_N[1] for r in ref])
    assert np.array_equal(cols["Mz_Nm"], [r.Mz_Nm for r in ref])
    assert np.array_equal(cols["vy_mps"], (16.0 + 0.1) * np.tan(alpha * np.pi / 180.0))
    assert np.all(np.diff(cols["Fy_N"]) != 0) and np.sign(cols["Fy_N"][0]) == -np.sign(cols["Fy_N"][-1])
    with pytest.raises(ValueError, match=r"^steady_map.spin_radps: 3 values, but slip_angle_deg has 4"):
        bp.steady_map(model, params, Vr_mps=16.0, slip_angle_deg=alpha, spin_radps=[0.0, 1.0, 2.0])
    with pytest.raises(ValueError, match=r"^steady_map.vx_mps\[1\] = nan: must be finite$"):
        bp.steady_map(model, params, Vr_mps=16.0, vx_mps=[0.1, math.nan])
    with pytest.raises(ValueError, match=r"^steady_map.slip_angle_deg = 89: must be in \(-89, 89\)$"):
        bp.steady_map(model, params, Vr_mps=16.0, slip_angle_deg=[0.0, 89.0])


def test_numpy_scalars_are_numbers():
    # A numpy scalar or 0-d array of any real dtype is a number, as a Python float is (Contact.step refused
    # np.float32(0.1) and np.array(0.1) as "expected 2 values (x, y), got a number"); str is not a number
    # (stribeck_mu(p, "0.1") parsed the string).
    def contact():
        return bristle.Contact(bristle.LawParams(type="lugre"), bristle.RheologyParams())

    for v in (np.float32(0.25), np.float64(0.25), np.array(0.25), np.int64(1), np.uint8(1), np.array(1, dtype=np.int32)):
        a, b = contact(), contact()
        got, ref = a.step(1e-3, v), b.step(1e-3, float(v))
        assert isinstance(got, float) and got == ref, (v, got, ref)
        got, ref = a.advance_to(0.01, v), b.advance_to(0.01, float(v))
        assert isinstance(got, float) and got == ref, (v, got, ref)
    with pytest.raises(TypeError, match="got str"):
        contact().step(1e-3, "0.1")
    with pytest.raises(TypeError, match=r"^expected a number or an array of numbers, got str$"):
        bristle.stribeck_mu(bristle.StribeckParams(), "0.1")
    with pytest.raises(TypeError, match=r"^expected a number or an array of numbers, got NoneType$"):
        bristle.stribeck_mu(bristle.StribeckParams(), None)
    assert bristle.stribeck_mu(bristle.StribeckParams(), np.float32(0.5)) == \
        bristle.stribeck_mu(bristle.StribeckParams(), float(np.float32(0.5)))
