"""The figure gallery: every figure's data match the library's validated values (docs/validation.md and
the closed forms of paper 1), and `python3 -m bristle.gallery --out DIR` writes the PNGs and the index."""

import subprocess
import sys

import numpy as np
import pytest

from bristle import gallery, papers

FIGURES = list(gallery.REGISTRY)


def data(ctx, name):
    return gallery.compute(name, ctx).data


def test_registry_has_at_least_twelve_figures():
    assert len(FIGURES) >= 12
    for e in gallery.REGISTRY.values():
        assert e.source and e.title and e.examples


# ---- LuGre 1995 (values of tests/examples/lugre_examples_test.cpp, docs/validation.md) -----------------

def test_lugre_presliding(gallery_context):
    d = data(gallery_context, "lugre_presliding")
    t, x, F = d["t_s"], d["x_m"], d["F_N"]
    assert d["x_max_m"] == pytest.approx(52.25e-6, rel=2e-3)          # max |x| = 52 um
    assert np.interp(2.0, t, x) == pytest.approx(42.28e-6, rel=2e-3)   # at zero applied force after loading
    assert abs(np.interp(4.0, t, x)) < 0.1e-6                          # -0.05 um when reloading
    i = np.searchsorted(t, 0.2)
    assert F[i] / x[i] == pytest.approx(-1e5, rel=0.1)                 # spring-like: slope -sigma0


def crossing_forces(v, F, level=1.5e-3):
    up = down = None
    for k in range(1, len(v)):
        a, b = v[k - 1] - level, v[k] - level
        if a * b > 0 or a == b:
            continue
        f = abs(F[k - 1] + a / (a - b) * (F[k] - F[k - 1]))
        if b > a:
            up = f
        else:
            down = f
    return up, down


def test_lugre_frictional_lag(gallery_context):
    d = data(gallery_context, "lugre_frictional_lag")
    validated = {1.0: (1.0539, 1.0527), 10.0: (1.0611, 1.0483), 25.0: (1.0796, 1.0435)}
    widths = []
    for w in d["omega"]:
        up, down = crossing_forces(d[f"v_{w:g}"], d[f"F_{w:g}"])
        assert up == pytest.approx(validated[w][0], abs=3e-4)
        assert down == pytest.approx(validated[w][1], abs=3e-4)
        widths.append(up - down)
    assert widths[0] > 0 and np.all(np.diff(widths) > 0)  # lower on decreasing velocity, widening with omega


def test_lugre_breakaway(gallery_context):
    d = data(gallery_context, "lugre_breakaway_rate")
    assert list(d["rate_N_per_s"]) == [0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0]
    validated = [1.4728, 1.4570, 1.4324, 1.3944, 1.3132, 1.2200, 1.0986]
    assert np.allclose(d["F_breakaway_N"], validated, atol=1e-4)
    assert np.all(np.diff(d["F_breakaway_N"]) < 0)
    h = data(gallery_context, "lugre_breakaway")
    assert np.array_equal(h["F_breakaway_N"], d["F_breakaway_N"])


def test_lugre_stick_slip(gallery_context):
    d = data(gallery_context, "lugre_stick_slip")
    assert d["cycles"] >= 2
    assert d["period_s"] == pytest.approx(6.36272, abs=2e-5)
    assert d["peak_friction_N"] == pytest.approx(1.47657, abs=2e-5)


# ---- Paper 1, §5 -------------------------------------------------------------------------------------

def test_fig5_elastic_curves_are_eq57(gallery_context):
    d = data(gallery_context, "paper1_fig5")
    elastic = d["n2"] == 0
    for Fn, mu, s in zip(d["Fx_norm"][elastic], d["mu"][elastic], d["s"][elastic]):
        closed = papers.eq57(mu, s, d["L_m"])
        assert np.max(np.abs(Fn / closed - 1.0)) < 1e-10
    # mu is the Stribeck curve of Table 1
    assert np.allclose(d["mu"][0], papers.stribeck_mu(papers.TABLE1, d["V_mps"]), rtol=1e-15, atol=0)
    # smaller s and fewer substrate branches give larger forces (paper 1, §5.1.1)
    F = np.abs(d["Fx_N"]).reshape(4, 3, -1)
    assert np.all(np.diff(F, axis=0) < 0)
    assert np.all(np.diff(F, axis=1) <= 1e-12 * F[:, 1:])


def test_eq57_and_eq62_figures(gallery_context):
    d57 = data(gallery_context, "paper1_eq57")
    assert d57["max_rel_error"] < 1e-10 and d57["solver"].shape == (4, 200)
    d62 = data(gallery_context, "paper1_eq62")
    assert d62["max_rel_error"] < 1e-10 and d62["solver"].shape == (4, 201)


@pytest.mark.parametrize("name, n2", [("paper1_fig6a", 1), ("paper1_fig6b", 2)])
def test_fig6_force_grows_with_relaxation_time(gallery_context, name, n2):
    d = data(gallery_context, name)
    assert d["n2"] == n2 and list(d["tau2_s"][:3]) == [0.1, 0.3, 0.6]
    F = np.abs(d["Fx_N"]).reshape(4, 3, -1)  # s x tau2 x V
    assert np.all(np.diff(F, axis=1) >= -1e-12 * F[:, 1:])
    assert np.all(np.diff(F, axis=0) < 0)


def test_fig8_elastic_curves_are_eq62(gallery_context):
    d = data(gallery_context, "paper1_fig8")
    vx = d["vx_mps"]
    for Fn, mu, s, n in zip(d["Fx_norm"], d["mu"], d["s"], d["n"]):
        if n != 0:
            continue
        closed = papers.eq62(mu, s, d["L_m"], vx, d["Vr_mps"], d["eps"])
        assert np.max(np.abs(Fn - closed) / np.maximum(np.abs(closed), 1e-6)) < 1e-10
    zero = np.argmin(np.abs(vx))
    assert vx[zero] == 0.0 and np.max(np.abs(d["Fx_N"][:, zero])) < 1e-3  # no force without slip
    assert np.all(np.sign(d["Fx_N"][:, vx != 0]) == -np.sign(vx[vx != 0]))  # opposes v_x


@pytest.mark.parametrize("name", ["paper1_fig7a", "paper1_fig7b", "paper1_fig9"])
def test_transients_start_unloaded_and_settle_on_the_steady_force(gallery_context, name):
    d = data(gallery_context, name)
    F = d["Fx_N"]
    assert np.all(F[:, 0] == 0.0)
    # The finite-volume solution settles on the exact steady state within its discretisation error
    # (docs/validation.md: 1e-4 .. 1e-3 relative at 100-200 cells).
    assert np.all(np.abs(F[:, -1] / d["steady_Fx_N"] - 1.0) < 1e-4)
    # smaller s, larger force (paper 1, §§5.1.2 and 5.2.2)
    for tau in set(d["tau2_s"]):
        small, large = (np.abs(F[(d["tau2_s"] == tau) & (d["s"] == s), -1]) for s in (0.4, 0.8))
        assert small[0] > large[0]


# ---- The command ---------------------------------------------------------------------------------------

def test_gallery_command_writes_pngs_and_index(tmp_path, examples):
    out = tmp_path / "gallery"
    done = subprocess.run([sys.executable, "-m", "bristle.gallery", "--out", str(out), "--examples", str(examples)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"gallery: {len(FIGURES)}/{len(FIGURES)} figures" in done.stderr  # progress went to stderr
    index = (out / "index.html").read_text()
    for name, entry in gallery.REGISTRY.items():
        png = out / f"{name}.png"
        assert png.is_file() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (out / f"{name}.npz").is_file()
        assert f"{name}.png" in index and entry.source in index
    assert "Table 1" in index and "Table 2" in index
