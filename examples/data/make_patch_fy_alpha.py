#!/usr/bin/env python3
"""Simulated data of examples/fit_patch_steady_map.toml: bristle's own steady patch map F_y(alpha) at the truth
(FrBD law of paper 1, Table 2: mu_s = 1.2, mu_d = 0.7, v_s = 3.49 m/s; elastic roller k0 = 240 /m on a rigid
ground), 41 slip angles from -10 to 10 deg, plus Gaussian noise of 15 N (seed 16).

    /usr/bin/python3 examples/data/make_patch_fy_alpha.py [path/to/bristle]   # writes examples/data/patch_fy_alpha.csv
"""
import csv
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
TRUTH = """name = "truth"
kind = "patch_steady_map"
[law]
type = "frbd"
mu_s = 1.2
mu_d = 0.7
v_s = 3.49
delta_s = 0.6
eps = 1e-12
[body1]
type = "elastic"
k0 = 240.0
[patch]
shape = "rectangle"
length_m = 0.1
width_m = 0.05
pressure = "uniform"
normal_load_N = 3000.0
nx = 40
ny = 8
[kinematics]
Vr_mps = 16.0
slip_angle_deg = { from = -10.0, to = 10.0, points = 41 }
"""


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else str(HERE.parents[1] / "build" / "release" / "bristle")
    with tempfile.TemporaryDirectory() as tmp:
        scenario = pathlib.Path(tmp) / "truth.toml"
        scenario.write_text(TRUTH)
        subprocess.run([cli, "run", str(scenario), "--out", tmp, "--quiet", "--no-plot"], check=True)
        with open(pathlib.Path(tmp) / "truth.csv") as f:
            rows = list(csv.DictReader(f))
    rng = np.random.default_rng(16)
    noise = rng.normal(0.0, 15.0, len(rows))
    out = HERE / "patch_fy_alpha.csv"
    with open(out, "w", newline="") as f:
        f.write("# simulated by examples/data/make_patch_fy_alpha.py: bristle's steady patch map at mu_s = 1.2, "
                "mu_d = 0.7, k0 = 240 /m, plus N(0, 15 N) noise (seed 16)\n")
        f.write("slip_angle_deg,Fy_N\n")
        for r, n in zip(rows, noise):
            f.write(f"{float(r['slip_angle_deg']):.6g},{float(r['Fy_N']) + n:.6f}\n")
    print(out)


if __name__ == "__main__":
    main()
