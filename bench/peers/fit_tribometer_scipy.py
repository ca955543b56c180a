"""The tribometer LuGre fit of examples/fit_tribometer_lugre.toml with scipy, the fastest way we could write it.

Model (bristle's, docs/fitting.md; elastic body, law.sigma0 = body1.k0 = K0, per unit load):
    f' = -K0 (|v| / mu(v)) f - K0 v,     mu(v) = mu_d + (mu_s - mu_d) exp(-(|v| / v_s)^2)     (paper 1, eqs. 2, 53)
    F  = F_z (f + sigma1 z' - sigma2 v),  z' = f' / K0
driven by the measured v_mps (linear between samples) and F_z = Fz_N, fitted to F_N over 20-60 s, starting from
the bristle force that gives the first sample (match_first_sample). The solver is the one bristle's fit uses:
sdirk2 (gamma = 1 - 1/sqrt(2)) with one step per 5 ms sample, each stage solved exactly (the ODE is affine in f)
in a plain Python loop over scalars (the velocities at the stage times vectorised with numpy beforehand), and
scipy.optimize.least_squares (trf, bounds, the same scaled coordinates: linear u = p / |p0|, log u = ln p) with a
2-point difference Jacobian (the discrete solution is smooth in p: no solver noise).

    /usr/bin/python3 bench/peers/fit_tribometer_scipy.py [--check P.json]

prints the RMS, parameters, solves and CPU time (time.process_time) as one JSON line. --check evaluates the model
at the parameters of a bristle *_fit.json and prints its RMS (the two implementations must agree).
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np
from scipy.optimize import least_squares

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "examples", "data", "tribometer.csv")
KEYS = ["law.mu_s", "law.mu_d", "law.v_s", "body1.k0", "law.sigma1", "law.sigma2"]
P0 = np.array([0.55, 0.45, 1e-4, 1e4, 1.0, 10.0])          # the example's initial values and bounds
LO = np.array([0.05, 0.05, 1e-7, 1e2, 1e-4, 1e-3])
HI = np.array([2.0, 2.0, 1e-2, 1e8, 1e3, 1e4])
LOG = np.array([False, False, True, True, True, True])
GAMMA = 1.0 - 1.0 / math.sqrt(2.0)


def load():
    d = np.genfromtxt(DATA, delimiter=",", names=True)
    m = (d["t_s"] >= 20.0) & (d["t_s"] <= 60.0)
    t, v, fz, F = d["t_s"][m], d["v_mps"][m], d["Fz_N"][m], d["F_N"][m]
    h = np.diff(t)
    v1 = np.interp(t[:-1] + GAMMA * h, d["t_s"], d["v_mps"])  # stage 1 at t + gamma h, stage 2 at t + h
    return t, v, fz, F, h, v1


def simulate(p, t, v, fz, F, h, v1):
    mu_s, mu_d, v_s, k0, s1, s2 = (float(x) for x in p)
    mu = lambda w: mu_d + (mu_s - mu_d) * math.exp(-(abs(w) / v_s) ** 2)
    fs = np.empty(len(t))  # the bristle force f at the data times
    # match_first_sample: F0 / Fz0 = f (1 - s1 |v| / mu) - (s1 + s2) v
    w = float(v[0])
    f = (F[0] / fz[0] + (s1 + s2) * w) / (1.0 - s1 * abs(w) / mu(w))
    fs[0] = f
    c = (1.0 - GAMMA) / GAMMA
    for i in range(len(t) - 1):
        a = GAMMA * float(h[i])
        wa, wb = float(v1[i]), float(v[i + 1])
        y1 = (f - a * k0 * wa) / (1.0 + a * k0 * abs(wa) / mu(wa))   # Y = x + a (-K0 |v|/mu Y - K0 v)
        b = f + c * (y1 - f)
        f = (b - a * k0 * wb) / (1.0 + a * k0 * abs(wb) / mu(wb))
        fs[i + 1] = f
    mus = mu_d + (mu_s - mu_d) * np.exp(-(np.abs(v) / v_s) ** 2)
    zdot = -(np.abs(v) / mus) * fs - v
    return fz * (fs + s1 * zdot - s2 * v)


def to_p(u):
    return np.where(LOG, np.exp(u), u * np.abs(P0))


def to_u(p):
    return np.where(LOG, np.log(p), p / np.abs(P0))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check")
    args = ap.parse_args()
    data = load()
    t, v, fz, F = data[0], data[1], data[2], data[3]
    if args.check:
        j = json.load(open(args.check))
        p = np.array([j["parameters"][k]["value"] for k in KEYS])
        r = simulate(p, *data) - F
        print(json.dumps({"rms_N": float(np.sqrt(np.mean(r ** 2))), "bristle_rms_N": j["rms_N"]}))
        return
    solves = [0]

    def residual(u):
        solves[0] += 1
        return simulate(to_p(u), *data) - F

    start = time.process_time()
    sol = least_squares(residual, to_u(P0), bounds=(to_u(LO), to_u(HI)), method="trf", jac="2-point",
                        x_scale=1.0, ftol=1e-10, xtol=1e-10, gtol=1e-12, max_nfev=400)
    cpu = time.process_time() - start
    p = to_p(sol.x)
    rms = float(np.sqrt(np.mean(sol.fun ** 2)))
    print(json.dumps({"method": "sdirk2 in Python + least_squares(trf, 2-point)", "rms_N": rms,
                      "parameters": dict(zip(KEYS, p.tolist())), "status": int(sol.status),
                      "message": sol.message, "nfev": int(sol.nfev), "njev": int(sol.njev), "solves": solves[0],
                      "cpu_s": cpu, "samples": int(len(t))}))


if __name__ == "__main__":
    sys.exit(main())
