#!/usr/bin/env python3
"""Simulated data of examples/fit_patch_transient.toml: bristle's own transient patch F_y(t) at the truth (FrBD law
of paper 1, Table 2: mu_s = 1.2, mu_d = 0.7, v_s = 3.49 m/s; elastic roller k0 = 240 /m on a rigid ground), rolling
at 16 m/s from rest with v_y = 1.5 sin(300 t) m/s, 41 samples over 20 ms, plus Gaussian noise of 15 N (seed 17).

    /usr/bin/python3 examples/data/make_patch_fy_t.py [path/to/bristle]   # writes examples/data/patch_fy_t.csv
"""
import csv
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
TRUTH = """name = "truth"
kind = "patch_transient"
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
mode = "rolling"
Vr_mps = 16.0
vy_mps = { type = "sine", amplitude = 1.5, omega = 300.0 }
[time]
t_end_s = 0.02
output_dt_s = 0.0005
"""


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else str(HERE.parents[1] / "build" / "release" / "bristle")
    with tempfile.TemporaryDirectory() as tmp:
        scenario = pathlib.Path(tmp) / "truth.toml"
        scenario.write_text(TRUTH)
        subprocess.run([cli, "run", str(scenario), "--out", tmp, "--quiet", "--no-plot"], check=True)
        with open(pathlib.Path(tmp) / "truth.csv") as f:
            rows = list(csv.DictReader(f))
    noise = np.random.default_rng(17).normal(0.0, 15.0, len(rows))
    out = HERE / "patch_fy_t.csv"
    with open(out, "w", newline="") as f:
        f.write("# simulated by examples/data/make_patch_fy_t.py: bristle's transient patch at mu_s = 1.2, mu_d = 0.7, "
                "k0 = 240 /m, v_y = 1.5 sin(300 t), plus N(0, 15 N) noise (seed 17)\n")
        f.write("t_s,Fy_N\n")
        for r, n in zip(rows, noise):
            f.write(f"{float(r['t_s']):.6g},{float(r['Fy_N']) + n:.6f}\n")
    print(out)


if __name__ == "__main__":
    main()
