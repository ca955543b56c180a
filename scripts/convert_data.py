#!/usr/bin/python3
"""Converts the measured friction data of ../shared/data/ (raw files unchanged, read-only) into the SI CSV
files of examples/data/ that the fit examples read. Run from anywhere:

    /usr/bin/python3 scripts/convert_data.py [--shared DIR]   # default DIR: <repository>/../shared/data
                                                              # (of the main checkout, in a worktree)

Writes (and overwrites) examples/data/tribometer.csv and examples/data/seal_{1,3,5,7}bar.csv, and copies the
two LICENSE files beside them (examples/data/LICENSE.tribometer, LICENSE.seal). Provenance and the
conventions applied: examples/data/README.md.

Conventions (docs/models.md): bristle's friction force F_N is the force on the moving body (body 1), so it
opposes the relative velocity v_r at steady sliding (F_N * v_mps < 0 while sliding).
- tribometer: the raw `Friction [uN]` already has that sign (FrictionModels.jl flips it, F = -Friction, to
  get the Canudas de Wit convention in which F has the sign of v), so F_N = 1e-6 * Friction; the normal load
  Fz_N = 1e-6 * Normal; x_m = 1e-3 * Position; v_mps from central differences of x_m.
- seal: F_N is the authors' friction, F_N = p * 1e5 * pi * (25.7e-3 / 2)^2 - F_measured (p in bar, F in N).
  With the position axis of the data (x_m = piston position, v_mps its central differences) it opposes the
  velocity (F_N * v_mps < 0 in > 99 % of the samples with |v| > 5 mm/s), i.e. it is already bristle's sign.
  The first 15 rows (start-up) are dropped, as in the authors' analysis; t_s starts at 0 on the first kept row.
"""
import argparse
import math
import pathlib
import shutil
import subprocess
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
BORE_M = 25.7e-3  # seal: cylinder bore (E. Zillen 2021)
SEAL_STARTUP_ROWS = 15


def central_velocity(t, x):
    """v_i = (x_{i+1} - x_{i-1}) / (t_{i+1} - t_{i-1}); one-sided differences at both ends."""
    v = np.empty_like(x)
    v[1:-1] = (x[2:] - x[:-2]) / (t[2:] - t[:-2])
    v[0] = (x[1] - x[0]) / (t[1] - t[0])
    v[-1] = (x[-1] - x[-2]) / (t[-1] - t[-2])
    return v


def check_times(name, t):
    if not np.all(np.isfinite(t)) or np.any(np.diff(t) <= 0):
        sys.exit(f"{name}: times are not finite and strictly increasing")


def write_csv(path, header, columns, formats):
    rows = np.column_stack(columns)
    with open(path, "w", newline="\n") as out:
        out.write(",".join(header) + "\n")
        for row in rows:
            out.write(",".join(fmt % value for fmt, value in zip(formats, row)) + "\n")
    print(f"wrote {path.relative_to(ROOT)} ({len(rows)} rows, {path.stat().st_size} bytes)")


def convert_tribometer(shared, out_dir):
    raw = np.loadtxt(shared / "tribometer" / "test_data_2.txt", skiprows=1, delimiter="\t")
    t_s = raw[:, 0]
    check_times("tribometer", t_s)
    Fz_N = raw[:, 1] * 1e-6
    x_m = raw[:, 2] * 1e-3
    F_N = raw[:, 3] * 1e-6
    v_mps = central_velocity(t_s, x_m)
    # Before the pin is loaded the measured normal load is ~0 and partly negative (noise); bristle's normal-load
    # signal must be > 0, so the rows up to the last non-positive load sample (t <= 3.12 s) are dropped.
    unloaded = np.nonzero(Fz_N <= 0)[0]
    keep = slice(unloaded[-1] + 1 if unloaded.size else 0, None)
    print(f"tribometer: dropping {keep.start} unloaded rows (t <= {t_s[keep.start - 1] if keep.start else 0} s)")
    t_s, x_m, v_mps, Fz_N, F_N = t_s[keep], x_m[keep], v_mps[keep], Fz_N[keep], F_N[keep]
    write_csv(out_dir / "tribometer.csv", ["t_s", "x_m", "v_mps", "Fz_N", "F_N"],
              [t_s, x_m, v_mps, Fz_N, F_N], ["%.3f", "%.7f", "%.5g", "%.7f", "%.7f"])
    sliding = np.abs(v_mps) > 1e-4
    opposing = np.mean(F_N[sliding] * v_mps[sliding] < 0)
    if opposing < 0.6:  # presliding after each reversal: the force lags the velocity's sign change
        sys.exit(f"tribometer: F_N opposes v in only {opposing:.1%} of the sliding samples")
    shutil.copyfile(shared / "tribometer" / "LICENSE", out_dir / "LICENSE.tribometer")


def convert_seal(shared, out_dir):
    area_m2 = math.pi * (BORE_M / 2) ** 2
    for bar in (1, 3, 5, 7):
        raw = np.loadtxt(shared / "seal" / f"O-ring257_{bar}bar.csv")[SEAL_STARTUP_ROWS:]
        t_s = (raw[:, 0] - raw[0, 0]) * 1e-3  # time from the first kept row
        check_times(f"seal {bar} bar", t_s)
        x_m = raw[:, 4] * 1e-3
        p_Pa = raw[:, 5] * 1e5
        F_measured_N = raw[:, 6]
        F_N = p_Pa * area_m2 - F_measured_N  # the authors' formula
        v_mps = central_velocity(t_s, x_m)
        write_csv(out_dir / f"seal_{bar}bar.csv",
                  ["t_s", "x_m", "v_mps", "p_Pa", "F_measured_N", "F_N"],
                  [t_s, x_m, v_mps, p_Pa, F_measured_N, F_N], ["%.3f", "%.6f", "%.5g", "%.0f", "%.3f", "%.4f"])
        moving = np.abs(v_mps) > 5e-3
        opposing = np.mean(F_N[moving] * v_mps[moving] < 0)
        if opposing < 0.95:
            sys.exit(f"seal {bar} bar: F_N opposes v in only {opposing:.1%} of the sliding samples")
    shutil.copyfile(shared / "seal" / "LICENSE", out_dir / "LICENSE.seal")


def default_shared():
    """../shared/data beside the repository; in a git worktree, beside the main checkout."""
    candidates = [ROOT.parent / "shared" / "data"]
    try:
        common = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--git-common-dir"], capture_output=True,
                                text=True, check=True).stdout.strip()
        candidates.append((ROOT / common).resolve().parent.parent / "shared" / "data")
    except (OSError, subprocess.CalledProcessError):
        pass
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return candidates[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=pathlib.Path, default=None,
                        help="directory of the raw data (default: ../shared/data beside the repository)")
    args = parser.parse_args()
    if args.shared is None:
        args.shared = default_shared()
    out_dir = ROOT / "examples" / "data"
    out_dir.mkdir(parents=True, exist_ok=True)
    convert_tribometer(args.shared, out_dir)
    convert_seal(args.shared, out_dir)


if __name__ == "__main__":
    main()
