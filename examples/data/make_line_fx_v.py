#!/usr/bin/env python3
"""Simulated data of examples/fit_line_steady.toml: bristle's own steady sliding map F_x(V) of the line contact
(paper 1, §5, eq. 54) at the truth (Table 1: L = 0.2 m, F_z = 10 N, FrBD with mu_s = 1, mu_d = 0.7, v_S = 6 m/s,
delta_S = 2; a GKV block k01 = 240 /m, c = [100, 50] s/m, tau = 0.1 s; a GKV substrate with s = 0.4, dampings from
eq. 58 and relaxation times tau_2 = [0.05, 0.5] s), 30 speeds from 0.01 to 30 m/s (log-spaced), plus Gaussian noise
of 0.05 N (seed 18).

    /usr/bin/python3 examples/data/make_line_fx_v.py [path/to/bristle]   # writes examples/data/line_fx_v.csv
"""
import csv
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
TRUTH = """name = "truth"
kind = "line_steady"
[law]
type = "frbd"
mu_s = 1.0
mu_d = 0.7
v_s = 6.0
delta_s = 2.0
[body1]
type = "gkv"
k0 = 240.0
c = [100.0, 50.0]
tau = [0.1, 0.1]
[body2]
type = "gkv"
c = "eq58"
tau = [0.05, 0.5]
[pair]
s = 0.4
[line]
L_m = 0.2
normal_load_N = 10.0
[kinematics]
mode = "sliding"
V_mps = { from = 0.01, to = 30.0, points = 30, spacing = "log" }
"""


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else str(HERE.parents[1] / "build" / "release" / "bristle")
    with tempfile.TemporaryDirectory() as tmp:
        scenario = pathlib.Path(tmp) / "truth.toml"
        scenario.write_text(TRUTH)
        subprocess.run([cli, "run", str(scenario), "--out", tmp, "--quiet", "--no-plot"], check=True)
        with open(pathlib.Path(tmp) / "truth.csv") as f:
            rows = list(csv.DictReader(f))
    rng = np.random.default_rng(18)
    noise = rng.normal(0.0, 0.05, len(rows))
    out = HERE / "line_fx_v.csv"
    with open(out, "w", newline="") as f:
        f.write("# simulated by examples/data/make_line_fx_v.py: bristle's steady sliding map of the line contact at "
                "mu_s = 1, mu_d = 0.7, tau_2 = [0.05, 0.5] s (paper 1, Table 1), plus N(0, 0.05 N) noise (seed 18)\n")
        f.write("V_mps,Fx_N\n")
        for r, n in zip(rows, noise):
            f.write(f"{float(r['V_mps']):.17g},{float(r['Fx_N']) + n:.6f}\n")
    print(out)


if __name__ == "__main__":
    main()
