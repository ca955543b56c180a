"""Parameter tables and closed forms of the papers the gallery reproduces.

Paper 1: *Dynamic sliding and rolling friction models for viscoelastic contact pairs*, §5 (line
contact), Table 1 (sliding) and Table 2 (rolling), with the errata of shared/notes/errata.md
(s = k01/(k01 + k02), k0bar = (1 - s) k01, rolling V1 = V_r, V2 = V_x).
"""

from __future__ import annotations

import numpy as np

from . import _bristle

K01 = 240.0  # micro-stiffness of body 1, 0th branch (1/m), Tables 1 and 2

# Table 1: sliding contact.
TABLE1 = dict(L_m=0.2, k01=K01, c1=(100.0, 50.0), tau1=(0.1, 0.1), tau2=(0.1, 0.1),
              mu_s=1.0, mu_d=0.7, mu_v=0.0, v_s=6.0, delta_s=2.0, F_z=10.0, eps=0.0)
# Table 2: rolling contact.
TABLE2 = dict(L_m=0.1, k01=K01, c1=(72.0, 78.0), c2=(18.0, 21.6), tau1=(0.1, 0.1), tau2=(0.3, 0.3),
              mu_s=1.2, mu_d=0.7, mu_v=0.0, v_s=3.49, delta_s=0.6, F_z=3000.0, eps=1e-12)


def _law(t: dict):
    return _bristle.laws.LawParams(type="frbd", mu_s=t["mu_s"], mu_d=t["mu_d"], v_s=t["v_s"],
                                   delta_s=t["delta_s"], mu_v=t["mu_v"], eps=t["eps"])


def table1_law():
    """FrBD law (eq. 3) with the Stribeck curve of Table 1.

    Units: mu (-), v_s (m/s). Example: ``papers.table1_law().mu_s``
    """
    return _law(TABLE1)


def table2_law():
    """FrBD law (eq. 3) with the Stribeck curve of Table 2 (eps = 1e-12 m^2/s^2).

    Units: mu (-), v_s (m/s), eps (m^2/s^2). Example: ``papers.table2_law().eps``
    """
    return _law(TABLE2)


def eq58_damping(tau2: float, s: float, k01: float = K01) -> float:
    """c_i,2 = tau_i,2 k01 (1 - s)/s (s/m), paper 1, eq. 58.

    Units: tau2 (s), s (-), k01 (1/m), result (s/m). Example: ``papers.eq58_damping(0.1, 0.4)``
    """
    return tau2 * k01 * (1.0 - s) / s


def sliding_model(s: float, n2: int, n1: int = 2, tau2: float = 0.1):
    """Table 1 contact model: block GKV (k01, first n1 of c = 100, 50 s/m, tau = 0.1 s) over a
    substrate GKV (k02 = k01 (1 - s)/s, n2 branches with tau_i,2 = tau2 and c_i,2 from eq. 58).

    Units: s (-), tau2 (s). Example: ``papers.sliding_model(0.4, 2).steady_force(1.0)``
    """
    k02 = _bristle.rheology.substrate_stiffness_from_s(s, K01)
    c2 = eq58_damping(tau2, s)
    body1 = _bristle.rheology.gkv(K01, list(TABLE1["c1"][:n1]), list(TABLE1["tau1"][:n1]))
    body2 = _bristle.rheology.gkv(k02, [c2] * n2, [tau2] * n2)
    return _bristle.contact.ContactModel(table1_law(), body1, body2)


def rolling_model(s: float, n: int, tau2: float = 0.3):
    """Table 2 contact model: cylinder GKV (k01, first n of c = 72, 78 s/m, tau = 0.1 s) over a
    substrate GKV (k02 = k01 (1 - s)/s, first n of c = 18, 21.6 s/m, tau_i,2 = tau2).

    Units: s (-), tau2 (s). Example: ``papers.rolling_model(0.4, 1).state_size``
    """
    k02 = _bristle.rheology.substrate_stiffness_from_s(s, K01)
    body1 = _bristle.rheology.gkv(K01, list(TABLE2["c1"][:n]), list(TABLE2["tau1"][:n]))
    body2 = _bristle.rheology.gkv(k02, list(TABLE2["c2"][:n]), [tau2] * n)
    return _bristle.contact.ContactModel(table2_law(), body1, body2)


def line_params(table: dict, cells: int = 200, **kw):
    """LineContactParams with L and F_z of a table (uniform pressure).

    Units: L_m (m), normal_load_N (N). Example: ``papers.line_params(papers.TABLE1, cells=100).L_m``
    """
    return _bristle.transport.LineContactParams(L_m=table["L_m"], normal_load_N=table["F_z"], cells=cells, **kw)


def stribeck_mu(table: dict, speed):
    """mu(|v|) of eq. 53 with the table's parameters.

    Units: speed (m/s), mu (-). Example: ``papers.stribeck_mu(papers.TABLE1, np.geomspace(0.01, 30, 5))``
    """
    p = _bristle.laws.StribeckParams(mu_s=table["mu_s"], mu_d=table["mu_d"], v_s=table["v_s"],
                                     delta_s=table["delta_s"], mu_v=table["mu_v"])
    return p.mu(np.abs(np.asarray(speed, dtype=float)))


def _one_minus_phi(a):
    """1 - (1 - e^-a)/a = (a + expm1(-a))/a, accurate for small a (slow rolling)."""
    a = np.asarray(a, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = (a + np.expm1(-a)) / a
    return np.where(a == 0.0, 0.0, out)


def eq57(mu, s, L, k01: float = K01):
    """Normalised steady sliding force F_x/(mu F_z) of paper 1, eq. 57 (negative: opposes sliding).

    Units: mu (-), s (-), L (m), k01 (1/m); the result (-). Example: ``papers.eq57(0.9, 0.4, 0.2)``
    """
    a = (1.0 - s) * k01 * L / (s * np.asarray(mu, dtype=float))
    return -_one_minus_phi(a)


def eq62(mu, s, L, vx, Vr, eps: float = 0.0, k01: float = K01):
    """Normalised steady rolling force F_x/(mu F_z) of paper 1, eq. 62.

    The library regularises ||M v||_{2,eps} (eq. 2), so for M = mu I its |v_x|_eps of eq. 60a is
    sqrt(v_x^2 + eps/mu^2): the closed form is evaluated with that regularisation (identical for
    eps = 0).

    Units: mu (-), s (-), L (m), vx and Vr (m/s), eps (m^2/s^2); the result (-). Example: ``papers.eq62(0.9, 0.4, 0.2, vx=0.6, Vr=16.0)``
    """
    mu = np.asarray(mu, dtype=float)
    vx = np.asarray(vx, dtype=float)
    abs_eps = np.sqrt(vx * vx + eps / (mu * mu))
    with np.errstate(invalid="ignore", divide="ignore"):
        sgn = np.where(abs_eps > 0.0, vx / abs_eps, 0.0)
    a = (1.0 - s) * k01 * abs_eps * L / ((Vr + s * vx) * mu)
    return -sgn * _one_minus_phi(a)


__all__ = ["K01", "TABLE1", "TABLE2", "table1_law", "table2_law", "eq58_damping", "sliding_model",
           "rolling_model", "line_params", "stribeck_mu", "eq57", "eq62"]
