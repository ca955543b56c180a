#!/usr/bin/env python3
"""Simulated data of examples/fit_structure_stick_slip.toml: bristle's own stick-slip of a taut string on a belt
(paper 3; rho = c = l = 1, damping ratio D = 0.05, contact at x = 0.3 m, 8-mode modal model, N = 1 N, belt at
0.1 m/s) with LuGre friction (mu_s = 0.5, mu_d = 0.3, v_s = 0.1 m/s, delta_s = 2; elastic bristle k0 = 1e4 /m),
from rest at t = 0: the contact force F_N and the string's displacement w_m at the contact every 10 ms over 4 s
(401 samples), plus Gaussian noise of 5 mN and 0.5 mm (seed 23).

    /usr/bin/python3 examples/data/make_structure_stick_slip.py [path/to/bristle]
    # writes examples/data/structure_stick_slip.csv
"""
import csv
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
TRUTH = """name = "truth"
kind = "structure_stick_slip"
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
modes = 8
[run]
dt_s = 1e-3
t_end_s = 4.0
output_every = 10
"""


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else str(HERE.parents[1] / "build" / "release" / "bristle")
    with tempfile.TemporaryDirectory() as tmp:
        scenario = pathlib.Path(tmp) / "truth.toml"
        scenario.write_text(TRUTH)
        subprocess.run([cli, "run", str(scenario), "--out", tmp, "--quiet", "--no-plot"], check=True)
        with open(pathlib.Path(tmp) / "truth.csv") as f:
            rows = list(csv.DictReader(f))
    rng = np.random.default_rng(23)
    noise_F = rng.normal(0.0, 5e-3, len(rows))
    noise_w = rng.normal(0.0, 5e-4, len(rows))
    out = HERE / "structure_stick_slip.csv"
    with open(out, "w", newline="") as f:
        f.write("# simulated by examples/data/make_structure_stick_slip.py: bristle's string stick-slip with LuGre "
                "friction at mu_s = 0.5, mu_d = 0.3, D = 0.05, plus N(0, 5 mN) and N(0, 0.5 mm) noise (seed 23)\n")
        f.write("t_s,F_N,w_m\n")
        for r, nF, nw in zip(rows, noise_F, noise_w):
            f.write(f"{float(r['t_s']):.6g},{float(r['F_N']) + nF:.6f},{float(r['w_m']) + nw:.7f}\n")
    print(out)


if __name__ == "__main__":
    main()
