"""The tribometer LuGre fit as a competent scipy user would write it: solve_ivp + least_squares.

The same model, data, window, bounds, start and scaled coordinates as fit_tribometer_scipy.py and
examples/fit_tribometer_lugre.toml (bristle's LuGre, elastic body, per unit load):
    f' = -K0 (|v(t)| / mu(v)) f - K0 v(t),    F = F_z(t) (f + sigma1 z' - sigma2 v),  z' = f' / K0
with v(t) and F_z(t) the measured signals interpolated linearly (np.interp), integrated by solve_ivp (LSODA, with
the analytic 1 x 1 Jacobian, rtol 1e-8, atol 1e-12, max_step the 5 ms sampling so that no sample is stepped over,
outputs at the data times), and scipy.optimize.least_squares (trf, bounds, 2-point Jacobian).

    /usr/bin/python3 bench/peers/fit_tribometer_solve_ivp.py [--max-nfev N]

prints one JSON line: RMS, parameters, solves, CPU time. --max-nfev bounds the optimiser's cost evaluations
(the full fit takes minutes on a loaded machine).
"""
import argparse
import json
import time

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import least_squares

from fit_tribometer_scipy import DATA, HI, KEYS, LO, P0, to_p, to_u


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-nfev", type=int, default=None)
    args = ap.parse_args()
    d = np.genfromtxt(DATA, delimiter=",", names=True)
    ts, vs = d["t_s"], d["v_mps"]
    m = (ts >= 20.0) & (ts <= 60.0)
    t, v, fz, F = ts[m], vs[m], d["Fz_N"][m], d["F_N"][m]
    solves = [0]

    def model(p):
        mu_s, mu_d, v_s, k0, s1, s2 = p
        mu = lambda w: mu_d + (mu_s - mu_d) * np.exp(-(np.abs(w) / v_s) ** 2)
        rhs = lambda tt, y: -k0 * (abs(np.interp(tt, ts, vs)) / mu(np.interp(tt, ts, vs))) * y - k0 * np.interp(tt, ts, vs)
        jac = lambda tt, y: np.array([[-k0 * abs(np.interp(tt, ts, vs)) / mu(np.interp(tt, ts, vs))]])
        f0 = (F[0] / fz[0] + (s1 + s2) * v[0]) / (1.0 - s1 * abs(v[0]) / mu(v[0]))  # match_first_sample
        sol = solve_ivp(rhs, (t[0], t[-1]), [f0], method="LSODA", t_eval=t, jac=jac, rtol=1e-8, atol=1e-12,
                        max_step=0.005)
        f = sol.y[0]
        zdot = -(np.abs(v) / mu(v)) * f - v
        solves[0] += 1
        return fz * (f + s1 * zdot - s2 * v)

    start = time.process_time()
    sol = least_squares(lambda u: model(to_p(u)) - F, to_u(P0), bounds=(to_u(LO), to_u(HI)), method="trf",
                        jac="2-point", ftol=1e-10, xtol=1e-10, gtol=1e-12, max_nfev=args.max_nfev)
    cpu = time.process_time() - start
    print(json.dumps({"method": "solve_ivp(LSODA) + least_squares(trf, 2-point)",
                      "rms_N": float(np.sqrt(np.mean(sol.fun ** 2))),
                      "parameters": dict(zip(KEYS, to_p(sol.x).tolist())), "status": int(sol.status),
                      "message": sol.message, "nfev": int(sol.nfev), "solves": solves[0], "cpu_s": cpu,
                      "cpu_s_per_solve": cpu / max(solves[0], 1)}))


if __name__ == "__main__":
    main()
