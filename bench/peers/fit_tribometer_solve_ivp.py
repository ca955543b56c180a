"""The tribometer LuGre fit as a competent scipy user would write it: solve_ivp + least_squares.

The same model, data, window, bounds, start and scaled coordinates as fit_tribometer_scipy.py and
examples/fit_tribometer_lugre.toml (bristle's LuGre, elastic body, per unit load):
    f' = -K0 (|v(t)| / mu(v)) f - K0 v(t),    F = F_z(t) (f + sigma1 z' - sigma2 v),  z' = f' / K0
with v(t) the measured velocity interpolated linearly between samples (np.interp over the window's samples) and
F_z the measured load at the data times, integrated by solve_ivp (LSODA, with the analytic 1 x 1 Jacobian,
rtol 1e-8, atol 1e-12, max_step the 5 ms sampling so that no sample of the drive is stepped over, outputs at the
data times by t_eval), inside scipy.optimize.least_squares (trf, bounds, 2-point Jacobian with diff_step 1e-4:
the difference quotients of an adaptive solve carry its error control's noise, ~rtol, so the step is ~sqrt(rtol)
rather than least_squares' default sqrt(machine epsilon), which would make the Jacobian mostly noise).

Choices measured on one solve at the initial values (2026-12-04, docs/benchmarks.md): LSODA 88,277 right-hand
sides, 1.6 s CPU, max error 4.7e-6 N against a DOP853 solve at rtol 1e-12; RK45 2.6 s (error 8e-5 N); DOP853
4.8 s (6e-5 N); Radau 14.4 s and BDF 10.5 s (both 4e-6 N); without max_step LSODA steps over the drive
(error 4.6 N). The right-hand side reads the window's contiguous arrays with scalar math: np.interp over a column
of the structured array np.genfromtxt returns (a strided view of 42,066 rows) copies it at every call (5.5 ms a
call, 22.6 s to 900+ s a solve in earlier runs) -- a trap, not a modelling choice.

    /usr/bin/python3 bench/peers/fit_tribometer_solve_ivp.py [--max-nfev N] [--progress]

prints one JSON line: RMS, parameters, solves, CPU time (time.process_time). --max-nfev bounds the optimiser's
cost evaluations; --progress prints each solve's cost and CPU time to stderr.
"""
import argparse
import json
import math
import sys
import time

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import least_squares

from fit_tribometer_scipy import DATA, HI, KEYS, LO, P0, to_p, to_u


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-nfev", type=int, default=None)
    ap.add_argument("--progress", action="store_true")
    args = ap.parse_args()
    d = np.genfromtxt(DATA, delimiter=",", names=True)
    m = (d["t_s"] >= 20.0) & (d["t_s"] <= 60.0)
    t, v, fz, F = (np.ascontiguousarray(d[c][m]) for c in ("t_s", "v_mps", "Fz_N", "F_N"))
    solves = [0]
    start = time.process_time()

    def model(p):
        mu_s, mu_d, v_s, k0, s1, s2 = (float(x) for x in p)

        def rate(w):  # K0 |v| / mu(v)
            a = abs(w)
            return k0 * a / (mu_d + (mu_s - mu_d) * math.exp(-(a / v_s) ** 2))

        def rhs(tt, y):
            w = float(np.interp(tt, t, v))
            return [-rate(w) * y[0] - k0 * w]

        def jac(tt, y):
            return [[-rate(float(np.interp(tt, t, v)))]]

        mu0 = mu_d + (mu_s - mu_d) * math.exp(-(abs(v[0]) / v_s) ** 2)
        f0 = (F[0] / fz[0] + (s1 + s2) * v[0]) / (1.0 - s1 * abs(v[0]) / mu0)  # match_first_sample
        sol = solve_ivp(rhs, (t[0], t[-1]), [f0], method="LSODA", t_eval=t, jac=jac, rtol=1e-8, atol=1e-12,
                        max_step=0.005)
        solves[0] += 1
        if sol.status != 0:
            raise RuntimeError(f"solve_ivp failed at {p}: {sol.message}")
        f = sol.y[0]
        mus = mu_d + (mu_s - mu_d) * np.exp(-(np.abs(v) / v_s) ** 2)
        zdot = -(np.abs(v) / mus) * f - v
        r = fz * (f + s1 * zdot - s2 * v) - F
        if args.progress:
            print(f"solve {solves[0]}: cost {0.5 * float(r @ r):.10g}, cpu {time.process_time() - start:.1f} s",
                  file=sys.stderr, flush=True)
        return r

    sol = least_squares(lambda u: model(to_p(u)), to_u(P0), bounds=(to_u(LO), to_u(HI)), method="trf",
                        jac="2-point", diff_step=1e-4, ftol=1e-10, xtol=1e-10, gtol=1e-12, max_nfev=args.max_nfev)
    cpu = time.process_time() - start
    print(json.dumps({"method": "solve_ivp(LSODA, rtol 1e-8) + least_squares(trf, 2-point, diff_step 1e-4)",
                      "rms_N": float(np.sqrt(np.mean(sol.fun ** 2))),
                      "parameters": dict(zip(KEYS, to_p(sol.x).tolist())), "status": int(sol.status),
                      "message": sol.message, "nfev": int(sol.nfev), "njev": int(sol.njev), "solves": solves[0],
                      "cpu_s": cpu, "cpu_s_per_solve": cpu / max(solves[0], 1), "samples": int(len(t))}))


if __name__ == "__main__":
    main()
