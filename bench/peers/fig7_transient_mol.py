#!/usr/bin/python3
"""Fig. 7 transient line contact: bristle's solver against a scipy method of lines (MOL).

Problem (paper 1, eq. 54, §5.1.2, Table 1, errata): sliding FrBD line contact, xi in [0, L], L = 0.2 m,
uniform pressure p = F_z / L, F_z = 10 N, k01 = 240 1/m, s = 0.4, k0bar = (1 - s) k01; block (body 1)
GKV with c = 100, 50 s/m, tau = 0.1, 0.1 s; substrate (body 2) GKV with tau = 0.1, 0.1 s,
c_i2 = tau_i2 k01 (1 - s) / s (eq. 58); mu(V) = 0.7 + 0.3 exp(-(V / 6)^2); V_x = 0.1 m/s; unloaded
start; t in [0, 2] s.

    df/dt + s V df/dxi = -k0bar (V / mu) f - k0bar V - k0bar sum_i dz_i1/dt + k0bar sum_i D2 z_i2/Dt
    dz_i1/dt = -z_i1 / tau_i1 + f / c_i1                         (not advected)
    dz_i2/dt + V dz_i2/dxi = -z_i2 / tau_i2 - f / c_i2
    f(0, t) = 0,  z_i2(0, t) = 0;     F_x(t) = int_0^L p f dxi

bristle: its transient solver (finite volumes, Strang splitting, van Leer-limited second-order upwind
transport with Lax-Wendroff face values, exact exponential propagator of the affine source, automatic
step at CFL 0.9), run through the small driver bench/peers/fig7_bristle_driver.cpp (compiled here
against BUILD/libbristle.a), which times the solve alone and prints F_x on the output grid: the solver
takes its own CFL steps and F_x is interpolated to the output times (LineContact::sample, degree-5
polynomial through the six nearest step points), as solve_ivp's t_eval interpolates with its dense
output. The same with the steps landing on every output time is timed too, for comparison; the
reference and its convergence series always land on the output times. The model is built as in
BM_Fig7Transient.

scipy: the same finite-volume grid, the same van Leer-limited second-order upwind reconstruction
(semi-discrete form: face value u_i + sigma_i / 2, inflow face value 0, ghost u_-1 = -u_0, linear
extrapolation at the outflow end), sources pointwise, x components only (5 states per cell), integrated
by solve_ivp with RK45, RK23, LSODA (banded Jacobian: lband/uband), BDF and Radau (jac_sparsity).

Metric: max over t = 0, 0.01, ..., 2 s of |F_x - F_ref| / max |F_ref|, F_ref = bristle at 3200 cells
(self-convergence against 1600 and 800 cells reported). Secondary: the L1 error of the field f(xi) at
t = 1 and 2 s against the reference's cell averages (F_x is nearly blind to the spatial error here, see
the results file). Timing: wall (time.perf_counter / steady_clock) and thread CPU time around the solve
only, best of R round-robin rounds.

Usage: /usr/bin/python3 bench/peers/fig7_transient_mol.py --build BUILD_DIR [--quick]
Writes bench/peers/results/fig7_transient_mol.md and .png, and (full runs only) the section
"## Line contact: Fig. 7 transient against a scipy method of lines" of docs/benchmarks.md.
"""
from __future__ import annotations

import os

# One thread for numpy/scipy: bristle is single-threaded and the machine is shared.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import datetime  # noqa: E402
import math  # noqa: E402
import platform  # noqa: E402
import re  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import NoReturn  # noqa: E402

import numpy as np  # noqa: E402
import scipy  # noqa: E402
import scipy.sparse as sps  # noqa: E402
from scipy.integrate import solve_ivp  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DRIVER_SRC = HERE / "fig7_bristle_driver.cpp"
RESULTS = HERE / "results"
DOCS = ROOT / "docs" / "benchmarks.md"
SECTION = "## Line contact: Fig. 7 transient against a scipy method of lines"
GOAL = 50.0

# --- the problem ------------------------------------------------------------------------------------
L = 0.2
F_Z = 10.0
P = F_Z / L
K01 = 240.0
S = 0.4
K0BAR = (1.0 - S) * K01
C1 = np.array([100.0, 50.0])
TAU1 = np.array([0.1, 0.1])
TAU2 = np.array([0.1, 0.1])
C2 = TAU2 * K01 * (1.0 - S) / S  # eq. 58
MU_S, MU_D, V_STRIBECK, DELTA = 1.0, 0.7, 6.0, 2.0
VX = 0.1
MU = MU_D + (MU_S - MU_D) * math.exp(-((VX / V_STRIBECK) ** DELTA))
T_END = 2.0
T_GRID = np.round(np.arange(201) * 0.01, 12)
FIELD_TIMES = (1.0, 2.0)
FIELD_INDEX = tuple(int(round(t / 0.01)) for t in FIELD_TIMES)
NC = 5  # states per cell: f, z11, z21, z12, z22 (cell-major layout y[5 i + k])
ADVECTED = np.array([0, 3, 4])
SPEEDS = np.array([S * VX, VX, VX])

ATOL_FACTOR = 1e-3  # atol = rtol * 1e-3 (the z states are ~3e-3 m, f ~ 1)
SCIPY_CAP_S = 6.0  # a scipy run slower than this (wall): not repeated, tighter rtols skipped


def log(msg: str) -> None:
    print(f"[fig7-mol {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


class Failure(Exception):
    pass


def die(msg: str) -> NoReturn:
    raise Failure(msg)


# --- scipy method of lines --------------------------------------------------------------------------
def make_rhs(n: int):
    dx = L / n
    nu = SPEEDS / dx
    a = K0BAR * VX / MU
    col = np.empty((n + 2, 3))
    face = np.empty((n + 1, 3))
    face[0] = 0.0  # inflow boundary value (eqs. 54d-e)

    def rhs(t, y):
        Y = y.reshape(n, NC)
        f = Y[:, 0]
        d = np.empty_like(Y)
        d[:, 1] = -Y[:, 1] / TAU1[0] + f / C1[0]
        d[:, 2] = -Y[:, 2] / TAU1[1] + f / C1[1]
        d[:, 3] = -Y[:, 3] / TAU2[0] - f / C2[0]
        d[:, 4] = -Y[:, 4] / TAU2[1] - f / C2[1]
        d[:, 0] = -a * f - K0BAR * VX - K0BAR * (d[:, 1] + d[:, 2]) + K0BAR * (d[:, 3] + d[:, 4])
        U = Y[:, ADVECTED]
        col[1:n + 1] = U
        col[0] = -U[0]  # ghost: reconstruction meets the boundary value 0
        col[n + 1] = 2.0 * U[n - 1] - U[n - 2]  # outflow: linear extrapolation
        dl = col[1:n + 1] - col[0:n]
        dr = col[2:n + 2] - col[1:n + 1]
        prod = dl * dr
        pos = prod > 0.0
        sigma = np.where(pos, 2.0 * prod / np.where(pos, dl + dr, 1.0), 0.0)  # van Leer
        face[1:] = U + 0.5 * sigma
        d[:, ADVECTED] -= nu * (face[1:] - face[:-1])
        return d.ravel()

    return rhs


def sparsity(n: int) -> sps.csr_matrix:
    block = np.array([[1, 1, 1, 1, 1], [1, 1, 0, 0, 0], [1, 0, 1, 0, 0], [1, 0, 0, 1, 0], [1, 0, 0, 0, 1]])
    adv = np.zeros((NC, NC), dtype=int)
    adv[ADVECTED, ADVECTED] = 1
    pat = sps.kron(sps.eye(n, dtype=int), sps.csr_matrix(block))
    for off in (-2, -1, 1):  # stencil of cell i: i-2 .. i+1
        pat = pat + sps.kron(sps.eye(n, k=off, dtype=int), sps.csr_matrix(adv))
    return (pat != 0).astype(np.int8).tocsr()


def bands(pat: sps.csr_matrix) -> tuple[int, int]:
    coo = pat.tocoo()
    return int(np.max(coo.row - coo.col)), int(np.max(coo.col - coo.row))


def check_sparsity() -> None:
    """The declared pattern must cover the finite-difference Jacobian (random states, small grid)."""
    n = 9
    rhs = make_rhs(n)
    pat = sparsity(n).toarray().astype(bool)
    rng = np.random.default_rng(3)
    for _ in range(5):
        y = rng.normal(size=n * NC)
        f0 = rhs(0.0, y)
        jac = np.zeros((n * NC, n * NC))
        for j in range(n * NC):
            yp = y.copy()
            yp[j] += 1e-7
            jac[:, j] = (rhs(0.0, yp) - f0) / 1e-7
        if np.any(np.abs(jac[~pat]) > 1e-6):
            die("internal: the Jacobian sparsity pattern misses non-zero entries")


def force(y: np.ndarray, n: int) -> np.ndarray:
    return P * (L / n) * y[0::NC].sum(axis=0)


def run_scipy(n: int, method: str, rtol: float):
    rhs = make_rhs(n)
    kw = {}
    if method in ("BDF", "Radau"):
        kw["jac_sparsity"] = sparsity(n)
    elif method == "LSODA":
        kw["lband"], kw["uband"] = bands(sparsity(n))
    y0 = np.zeros(n * NC)
    c0 = time.thread_time()
    t0 = time.perf_counter()
    sol = solve_ivp(rhs, (0.0, T_END), y0, method=method, t_eval=T_GRID, rtol=rtol, atol=rtol * ATOL_FACTOR, **kw)
    wall = time.perf_counter() - t0
    cpu = time.thread_time() - c0
    ok = sol.status == 0 and sol.y.shape[1] == T_GRID.size and bool(np.all(np.isfinite(sol.y)))
    out = dict(wall=wall, cpu=cpu, ok=ok, msg="" if ok else f"status {sol.status}: {sol.message}",
               nfev=int(sol.nfev), njev=int(sol.njev), nlu=int(sol.nlu))
    if ok:
        out["F"] = force(sol.y, n)
        out["fields"] = {t: sol.y[0::NC, j].copy() for t, j in zip(FIELD_TIMES, FIELD_INDEX)}
    return out


# --- bristle ----------------------------------------------------------------------------------------
LINK_LIBS = ["-lsundials_cvode", "-lsundials_nvecserial", "-lsundials_sunlinsoldense",
             "-lsundials_sunmatrixdense", "-ltomlplusplus", "-lfmt"]


def build_driver(build: Path) -> Path:
    lib = build / "libbristle.a"
    if not lib.is_file():
        die(f"{lib} not found: build the library first, e.g. "
            f"cmake -S {ROOT} -B {build} -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build {build} --target bristle")
    if not DRIVER_SRC.is_file():
        die(f"{DRIVER_SRC} is missing")
    exe = build / "bench_peers" / "fig7_bristle_driver"
    newest = max(lib.stat().st_mtime, DRIVER_SRC.stat().st_mtime)
    if exe.is_file() and exe.stat().st_mtime >= newest:
        return exe
    exe.parent.mkdir(parents=True, exist_ok=True)
    cmd = ["g++", "-O3", "-DNDEBUG", "-std=c++20", f"-I{ROOT / 'include'}", "-isystem", "/usr/include/eigen3",
           str(DRIVER_SRC), "-o", str(exe), str(lib), *LINK_LIBS]
    log("compiling the bristle driver: " + " ".join(cmd))
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        die(f"compiling {DRIVER_SRC.name} against {lib} failed (exit {r.returncode}):\n{r.stderr[-4000:]}")
    return exe


def run_bristle(exe: Path, n: int, repeats: int, noout_repeats: int, cfl: float | None = None,
                land: bool = False) -> dict:
    """land=False: bristle takes its own CFL steps and interpolates F_x to the grid (LineContact::sample);
    land=True: its steps land on every output time (advance_to(t_j) in turn)."""
    cmd = [str(exe), str(n), str(repeats), str(noout_repeats)]
    if cfl is not None or land:
        cmd.append(repr(cfl if cfl is not None else 0.9))
    if land:
        cmd.append("land")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        die(f"bristle driver failed ({' '.join(cmd)}, exit {r.returncode}): {r.stderr.strip()[-2000:]}")
    meta: dict = {}
    F: list[float] = []
    fields: dict[float, list[float]] = {}
    cur = None
    for line in r.stdout.splitlines():
        if not line.strip():
            continue
        if line.startswith("# field"):
            cur = float(line.split()[2])
            fields[cur] = []
        elif line.startswith("#"):
            parts = line[1:].split()
            if parts[0] == "cells":
                meta["steps"] = int(parts[3])
                meta["steps_noout"] = int(parts[5])
            else:
                meta[parts[0]] = [float(v) for v in parts[1:]]
        elif cur is None:
            F.append(float(line.split()[1]))
        else:
            fields[cur].append(float(line))
    F_arr = np.array(F)
    if F_arr.size != T_GRID.size or not np.all(np.isfinite(F_arr)):
        die(f"bristle driver ({' '.join(cmd)}): expected {T_GRID.size} finite F_x values, got {F_arr.size}")
    if any(len(fields.get(t, [])) != n for t in FIELD_TIMES):
        die(f"bristle driver ({' '.join(cmd)}): field output missing or of the wrong length")
    return dict(F=F_arr, fields={t: np.array(v) for t, v in fields.items()}, steps=meta.get("steps"),
                steps_noout=meta.get("steps_noout"), wall=meta.get("solve_s_grid", []),
                cpu=meta.get("cpu_s_grid", []), wall_noout=meta.get("solve_s_noout", []),
                cpu_noout=meta.get("cpu_s_noout", []))


# --- metrics ----------------------------------------------------------------------------------------
def f_error(F: np.ndarray, ref: np.ndarray) -> float:
    return float(np.max(np.abs(F - ref)) / np.max(np.abs(ref)))


def field_error(fields: dict, ref_fields: dict, n: int) -> float:
    """max over the field times of mean_i |f_i - <f_ref>_i| / max |f_ref| (cell averages of the reference)."""
    worst = 0.0
    for t in FIELD_TIMES:
        r = ref_fields[t]
        if r.size % n:
            return float("nan")
        avg = r.reshape(n, -1).mean(axis=1)
        worst = max(worst, float(np.mean(np.abs(fields[t] - avg)) / np.max(np.abs(r))))
    return worst


def pareto(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """(time, error) points -> sorted by time, each more accurate than every faster one."""
    front: list[tuple[float, float]] = []
    for t, e in sorted(points):
        if not front or e < front[-1][1]:
            front.append((t, e))
    return front


def time_for(points: list[tuple[float, float]], target: float):
    """Time needed for error <= target: (time, kind) with kind '' (interpolated log-log), '≤' (the
    fastest point is already more accurate: an upper bound) or None (not reached)."""
    front = pareto([(t, e) for t, e in points if e > 0 and math.isfinite(e)])
    if not front:
        return None, None
    if front[0][1] <= target:
        return front[0][0], "≤"
    for (t0, e0), (t1, e1) in zip(front, front[1:]):
        if e1 <= target < e0:
            w = (math.log(target) - math.log(e0)) / (math.log(e1) - math.log(e0))
            return math.exp(math.log(t0) + w * (math.log(t1) - math.log(t0))), ""
    return None, None


def fastest_run(runs: list[dict], target: float, key: str, clock: str):
    ok = [r for r in runs if r["ok"] and r[key] <= target]
    return min(ok, key=lambda r: r[clock]) if ok else None


# --- report helpers ---------------------------------------------------------------------------------
def fmt_t(t) -> str:
    if t is None or not math.isfinite(t):
        return "—"
    return f"{t * 1e3:.0f}" if t >= 0.1 else f"{t * 1e3:.1f}"


def fmt_e(e) -> str:
    return "—" if e is None or not math.isfinite(e) else f"{e:.2e}"


def ratio_text(r: float) -> str:
    if r < 1:
        return f"{r:.2f}×"
    return f"{r:.1f}×" if r < 10 else f"{r:.0f}×"


def machine_info() -> dict:
    model = platform.processor() or "?"
    try:
        for ln in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if ln.startswith("Model name:"):
                model = ln.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        gxx = subprocess.run(["g++", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        gxx = "?"
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        commit = head + (" + uncommitted changes" if dirty else "")
    except OSError:
        commit = "?"
    version = "?"
    cm = ROOT / "CMakeLists.txt"
    if cm.is_file():
        m = re.search(r"project\s*\(\s*bristle[^)]*VERSION\s+([0-9.]+)", cm.read_text(), re.S)
        if m:
            version = m.group(1)
    return dict(model=model, cores=os.cpu_count(), gxx=gxx, commit=commit, version=version,
                python=platform.python_version(), numpy=np.__version__, scipy=scipy.__version__,
                os=f"{platform.system()} {platform.release()}")


def plot(path: Path, ref: dict, main_n: int, bris: dict, scipy_runs: dict, picks: dict, ref_n: int) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(17, 5.2))
    ax = axes[0]
    ax.plot(T_GRID, -ref["F"], "k-", lw=2.5, alpha=0.35, label=f"reference: bristle, {ref_n} cells")
    ax.plot(T_GRID, -bris[main_n]["F"], "C3--", lw=1.2, label=f"bristle, {main_n} cells")
    pick = picks.get(main_n)
    if pick is not None:
        ax.plot(T_GRID, -pick["F"], "C0:", lw=1.6,
                label=f"scipy {pick['method']} rtol {pick['rtol']:g}, {main_n} cells")
    ax.set_xlabel("t (s)")
    ax.set_ylabel("|F_x| (N)")
    ax.set_title("Fig. 7 (a), s = 0.4, V_x = 0.1 m/s, n1 = n2 = 2")
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(alpha=0.3)

    ax = axes[1]
    scale = np.max(np.abs(ref["F"]))
    ax.semilogy(T_GRID[1:], np.abs(bris[main_n]["F"] - ref["F"])[1:] / scale, "C3-", label=f"bristle, {main_n} cells")
    if pick is not None:
        ax.semilogy(T_GRID[1:], np.maximum(np.abs(pick["F"] - ref["F"])[1:] / scale, 1e-12), "C0-",
                    label=f"scipy {pick['method']} rtol {pick['rtol']:g}")
    ax.axhline(ref["unc"], color="k", ls=":", lw=1, label="reference uncertainty (est.)")
    ax.set_xlabel("t (s)")
    ax.set_ylabel("|F_x − F_ref| / max |F_ref|")
    ax.set_title("error of F_x(t)")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, which="both")

    ax = axes[2]
    markers = {"RK45": "o", "RK23": "v", "LSODA": "s", "BDF": "^", "Radau": "D"}
    for i, (method, runs) in enumerate(sorted(scipy_runs.get(main_n, {}).items())):
        pts = [(r["wall"], r["err"]) for r in sorted(runs, key=lambda r: -r["rtol"]) if r["ok"]]
        if pts:
            ax.loglog([p[0] for p in pts], [p[1] for p in pts], marker=markers.get(method, "o"), ls="-",
                      color=f"C{i}", label=f"scipy {method} ({main_n} cells)")
    for n, mk in zip(sorted(bris), ("P", "*", "X", "h")):
        b = bris[n]
        ax.loglog([min(b["wall"])], [b["err"]], mk, color="C3" if n == main_n else "C7", ms=14 if n == main_n else 9,
                  ls="none", label=f"bristle, {n} cells")
    ax.axhline(ref["unc"], color="k", ls=":", lw=1, label="reference uncertainty (est.)")
    ax.set_xlabel("solve wall time (s), best of rounds")
    ax.set_ylabel("max |F_x − F_ref| / max |F_ref|")
    ax.set_title("work-precision")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def update_docs(section_text: str) -> None:
    if not DOCS.is_file():
        die(f"{DOCS} not found")
    text = DOCS.read_text()
    lines = text.splitlines(keepends=True)
    start = next((i for i, ln in enumerate(lines) if ln.rstrip("\n") == SECTION), None)
    body = section_text.rstrip("\n") + "\n"
    if start is None:
        new = text.rstrip("\n") + "\n\n" + body
    else:
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        tail = "".join(lines[end:])
        new = "".join(lines[:start]) + body + ("\n" + tail if tail else "")
    DOCS.write_text(new)


# --- main -------------------------------------------------------------------------------------------
def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True, type=Path, help="CMake build directory holding libbristle.a")
    ap.add_argument("--quick", action="store_true", help="smoke run: 400 cells only, 1600-cell reference, "
                    "fewer tolerances, 2 rounds; docs/benchmarks.md is not touched")
    ap.add_argument("--repeats", type=int, default=None, help="timing rounds (default 3, --quick 2)")
    ap.add_argument("--out-dir", type=Path, default=RESULTS)
    ap.add_argument("--no-docs", action="store_true", help="do not update docs/benchmarks.md")
    args = ap.parse_args()

    build = args.build.resolve()
    if not build.is_dir():
        die(f"--build {args.build}: not a directory")
    quick = args.quick
    rounds = args.repeats or (2 if quick else 3)
    if rounds < 1:
        die("--repeats must be >= 1")
    main_n = 400
    ref_n = 1600 if quick else 3200
    grids = [400] if quick else [400, 200, 800]
    explicit_tols = [1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8]
    if quick:
        plan = {400: {"RK45": [1e-2, 1e-4, 1e-6], "LSODA": [1e-3, 1e-5, 1e-7], "BDF": [1e-3, 1e-5]}}
    else:
        plan = {
            400: {"RK45": explicit_tols, "RK23": explicit_tols[:5], "LSODA": explicit_tols,
                  "BDF": explicit_tols[:5], "Radau": [1e-3]},
            200: {"RK45": [1e-2, 1e-3, 1e-4, 1e-6], "RK23": [1e-2, 1e-3, 1e-4], "LSODA": [1e-2, 1e-3, 1e-5, 1e-7],
                  "BDF": [1e-2, 1e-3, 1e-4]},
            800: {"RK45": [1e-2, 1e-3, 1e-4], "RK23": [1e-3], "LSODA": [1e-3, 1e-5, 1e-7], "BDF": [1e-2]},
        }
    started = datetime.datetime.now(datetime.timezone.utc)
    load_start = os.getloadavg()
    info = machine_info()
    log(f"{info['model']}, {info['cores']} cores, load average {load_start[0]:.2f}; "
        f"{'quick' if quick else 'full'} run, {rounds} rounds")
    if load_start[0] > 0.5 * (info["cores"] or 1):
        log("warning: the machine is loaded; wall times will be inflated (CPU times are reported too)")

    check_sparsity()
    exe = build_driver(build)

    # 1. reference and its self-convergence
    conv_ns = [ref_n // 4, ref_n // 2, ref_n]
    conv: dict[int, np.ndarray] = {}
    conv_fields: dict[int, dict] = {}
    ref_fields = None
    for n in reversed(conv_ns):
        # The reference and its convergence series land on the output times (no interpolation in them).
        log(f"bristle at {n} cells (reference / convergence, steps landing on the output times) ...")
        r = run_bristle(exe, n, 1, 0, land=True)
        conv[n] = r["F"]
        conv_fields[n] = r["fields"]
        if n == ref_n:
            ref_fields = r["fields"]
            ref_cpu = min(r["cpu"])
            log(f"  reference solve: {min(r['wall']):.1f} s wall, {ref_cpu:.1f} s CPU, {r['steps']} steps")

    # 2. timing rounds: bristle and every scipy point once per round, round-robin
    bris: dict[int, dict] = {}
    scipy_runs: dict[int, dict[str, list[dict]]] = {}
    skipped: dict[int, dict[str, float]] = {}
    for rnd in range(rounds):
        for n in grids:
            log(f"round {rnd + 1}/{rounds}, {n} cells: bristle ...")
            r = run_bristle(exe, n, 1, 1)
            if n not in bris:
                bris[n] = dict(F=r["F"], fields=r["fields"], steps=r["steps"], steps_noout=r["steps_noout"],
                               wall=[], cpu=[], wall_noout=[], cpu_noout=[])
            elif not np.array_equal(bris[n]["F"], r["F"]):
                die(f"bristle at {n} cells is not deterministic between rounds")
            for k in ("wall", "cpu", "wall_noout", "cpu_noout"):
                bris[n][k] += r[k]
            if n == main_n:  # the same with the steps landing on the 201 output times, for comparison
                rl = run_bristle(exe, n, 1, 0, land=True)
                land = bris[n].setdefault("land", dict(F=rl["F"], fields=rl["fields"], steps=rl["steps"], wall=[],
                                                       cpu=[]))
                land["wall"] += rl["wall"]
                land["cpu"] += rl["cpu"]
            scipy_runs.setdefault(n, {})
            skipped.setdefault(n, {})
            for method, tols in plan[n].items():
                runs = scipy_runs[n].setdefault(method, [])
                for i, rtol in enumerate(tols):
                    if method in skipped[n] and rtol < skipped[n][method]:
                        continue
                    existing = runs[i] if i < len(runs) else None
                    if existing is not None and (existing["slow"] or not existing["ok"]):
                        continue  # slow or failed runs are not repeated
                    log(f"  scipy {method} rtol {rtol:g} ...")
                    out = run_scipy(n, method, rtol)
                    if existing is None:
                        out.update(method=method, rtol=rtol, walls=[out["wall"]], cpus=[out["cpu"]],
                                   slow=out["wall"] > SCIPY_CAP_S)
                        runs.append(out)
                        if out["slow"]:
                            skipped[n][method] = rtol
                            log(f"    {out['wall']:.1f} s: not repeated, tighter rtols skipped")
                        if not out["ok"]:
                            log(f"    failed: {out['msg']}")
                    else:
                        existing["walls"].append(out["wall"])
                        existing["cpus"].append(out["cpu"])
                        existing["wall"] = min(existing["walls"])
                        existing["cpu"] = min(existing["cpus"])

    # the reference
    ref_F = conv[ref_n]
    scale = float(np.max(np.abs(ref_F)))
    d_half = float(np.max(np.abs(conv[ref_n // 2] - ref_F)) / scale)
    d_quarter = float(np.max(np.abs(conv[ref_n // 4] - conv[ref_n // 2])) / scale)
    order = math.log2(d_quarter / d_half) if d_half > 0 and d_quarter > 0 else float("nan")
    p_used = min(max(order, 1.0), 2.0) if math.isfinite(order) else 1.0
    unc = d_half / (2.0 ** p_used - 1.0)  # Richardson estimate of the reference's own error
    richardson = ref_F + (ref_F - conv[ref_n // 2]) / (2.0 ** p_used - 1.0)
    ref = dict(F=ref_F, unc=unc)
    # the same for the field error (cell averages of the reference)
    fd_half = field_error(conv_fields[ref_n // 2], ref_fields, ref_n // 2)
    fd_quarter = field_error(conv_fields[ref_n // 4], conv_fields[ref_n // 2], ref_n // 4)
    f_order = math.log2(fd_quarter / fd_half) if fd_half > 0 and fd_quarter > 0 else float("nan")
    f_unc = fd_half / (2.0 ** min(max(f_order, 1.0), 2.0) - 1.0) if math.isfinite(f_order) else fd_half
    log(f"reference: {ref_n} cells; |F_{ref_n} - F_{ref_n // 2}| = {d_half:.2e}, "
        f"|F_{ref_n // 2} - F_{ref_n // 4}| = {d_quarter:.2e}, order {order:.2f}, uncertainty ≈ {unc:.1e}")

    # independent check of the reference: scipy DOP853 at a tight tolerance
    log("independent check: scipy DOP853 rtol 1e-10 at 400 cells ...")
    chk = {}
    for n in ([200, 400] if not quick else [400]):
        rhs = make_rhs(n)
        sol = solve_ivp(rhs, (0.0, T_END), np.zeros(n * NC), method="DOP853", t_eval=T_GRID, rtol=1e-10,
                        atol=1e-13)
        if sol.status != 0:
            die(f"scipy DOP853 check failed: {sol.message}")
        chk[n] = force(sol.y, n)
    chk_vs_ref = f_error(chk[400], ref_F)
    chk_vs_rich = f_error(chk[400], richardson)
    chk_spread = f_error(chk[200], chk[400]) if 200 in chk else float("nan")

    # is bristle's F_x error a time-step error? 400 cells at CFL 0.45 take the steps of 800 cells at CFL 0.9
    step_check = None
    if 800 in bris:
        log("bristle at 400 cells, CFL 0.45 (the step of 800 cells at CFL 0.9) ...")
        half = run_bristle(exe, 400, 1, 0, cfl=0.45)
        step_check = (f_error(half["F"], bris[800]["F"]), f_error(half["F"], ref_F), half["steps"])

    # errors
    for n, b in bris.items():
        b["err"] = f_error(b["F"], ref_F)
        b["ferr"] = field_error(b["fields"], ref_fields, n)
        if "land" in b:
            b["land"]["err"] = f_error(b["land"]["F"], ref_F)
            b["land"]["ferr"] = field_error(b["land"]["fields"], ref_fields, n)
    for n, methods in scipy_runs.items():
        for runs in methods.values():
            for r in runs:
                r["err"] = f_error(r["F"], ref_F) if r["ok"] else float("nan")
                r["ferr"] = field_error(r["fields"], ref_fields, n) if r["ok"] else float("nan")

    # 3. equal error
    eq_rows = []
    picks = {}
    verdicts = []
    for n in grids:
        b = bris[n]
        bw, bc = min(b["wall"]), min(b["cpu"])
        all_runs = [r for runs in scipy_runs[n].values() for r in runs]
        best_w = fastest_run(all_runs, b["err"], "err", "wall")
        best_c = fastest_run(all_runs, b["err"], "err", "cpu")
        picks[n] = best_w
        interp = []
        for method, runs in scipy_runs[n].items():
            t, kind = time_for([(r["wall"], r["err"]) for r in runs if r["ok"]], b["err"])
            if t is not None:
                interp.append((t, kind, method))
        interp.sort()
        fbest = fastest_run(all_runs, b["ferr"], "ferr", "wall")
        eq_rows.append(dict(n=n, b=b, bw=bw, bc=bc, best_w=best_w, best_c=best_c, interp=interp[0] if interp else None,
                            fbest=fbest))
        if best_w is not None:
            verdicts.append(best_w["wall"] / bw)
    # any grid: F_x of the MOL hardly depends on the grid here; the field error does
    def any_grid(key: str):
        best = None
        for n, methods in scipy_runs.items():
            for runs in methods.values():
                for r in runs:
                    if r["ok"] and r[key] <= bris[main_n][key] and (best is None or r["wall"] < best[1]["wall"]):
                        best = (n, r)
        return best

    any_best, any_best_field = any_grid("err"), any_grid("ferr")

    load_end = os.getloadavg()
    finished = datetime.datetime.now(datetime.timezone.utc)
    main_row = next(r for r in eq_rows if r["n"] == main_n)
    speedup_main = main_row["best_w"]["wall"] / main_row["bw"] if main_row["best_w"] else float("nan")
    speedup_main_cpu = main_row["best_c"]["cpu"] / main_row["bc"] if main_row["best_c"] else float("nan")
    met = math.isfinite(speedup_main) and speedup_main >= GOAL
    if math.isfinite(speedup_main):
        rel = (f"bristle is {ratio_text(speedup_main)} as fast as scipy's fastest"
               if speedup_main >= 1 else f"bristle is {ratio_text(1 / speedup_main)} slower than scipy's fastest")
    else:
        rel = "scipy reached bristle's error with none of its runs"

    # 4. report
    def eq_table() -> list[str]:
        out = ["| cells | bristle error | bristle wall / CPU (ms) | bristle steps | scipy fastest run at ≤ that error "
               "(wall) | its error | its wall / CPU (ms) | speed-up wall | speed-up CPU¹ | log-log interpolated² |",
               "|---|---|---|---|---|---|---|---|---|---|"]
        for row in eq_rows:
            b, bw, bc, s = row["b"], row["bw"], row["bc"], row["best_w"]
            sc = row["best_c"]
            it = row["interp"]
            it_txt = "—" if it is None else f"{it[1]}{ratio_text(it[0] / bw)} ({it[2]})"
            if s is None:
                out.append(f"| {row['n']} | {fmt_e(b['err'])} | {fmt_t(bw)} / {fmt_t(bc)} | {b['steps']} | not reached "
                           f"| — | — | — | — | {it_txt} |")
            else:
                out.append(f"| {row['n']} | {fmt_e(b['err'])} | {fmt_t(bw)} / {fmt_t(bc)} | {b['steps']} | "
                           f"{s['method']} rtol {s['rtol']:g} | {fmt_e(s['err'])} | {fmt_t(s['wall'])} / {fmt_t(s['cpu'])} | "
                           f"**{ratio_text(s['wall'] / bw)}** | {ratio_text(sc['cpu'] / bc)} | {it_txt} |")
        return out

    def runs_table(n: int) -> list[str]:
        b = bris[n]
        out = [f"| solver | rtol | status | nfev | njev | F_x error | field L1 error | wall (ms) | CPU (ms) | "
               f"wall max/min |", "|---|---|---|---|---|---|---|---|---|---|"]
        out.append(f"| bristle (grid: own steps, F_x interpolated to the 201 output times) | — | ok | {b['steps']} steps "
                   f"| — | {fmt_e(b['err'])} | {fmt_e(b['ferr'])} | {fmt_t(min(b['wall']))} | {fmt_t(min(b['cpu']))} | "
                   f"{max(b['wall']) / min(b['wall']):.2f} |")
        if "land" in b:
            bl = b["land"]
            out.append(f"| bristle (grid: steps land on the 201 output times) | — | ok | {bl['steps']} steps | — | "
                       f"{fmt_e(bl['err'])} | {fmt_e(bl['ferr'])} | {fmt_t(min(bl['wall']))} | {fmt_t(min(bl['cpu']))} | "
                       f"{max(bl['wall']) / min(bl['wall']):.2f} |")
        out.append(f"| bristle (advance_to(2 s) alone, = BM_Fig7Transient) | — | ok | {b['steps_noout']} steps | — | "
                   f"(not on the grid) | — | {fmt_t(min(b['wall_noout']))} | {fmt_t(min(b['cpu_noout']))} | "
                   f"{max(b['wall_noout']) / min(b['wall_noout']):.2f} |")
        for method in plan[n]:
            for r in scipy_runs[n].get(method, []):
                noise = max(r["walls"]) / min(r["walls"]) if len(r["walls"]) > 1 else float("nan")
                status = "ok" if r["ok"] else r["msg"]
                if r["slow"]:
                    status += " (1 run: slow)"
                out.append(f"| scipy {method} | {r['rtol']:g} | {status} | {r['nfev']} | {r['njev']} | {fmt_e(r['err'])} "
                           f"| {fmt_e(r['ferr'])} | {fmt_t(r['wall'])} | {fmt_t(r['cpu'])} | "
                           f"{'—' if not math.isfinite(noise) else f'{noise:.2f}'} |")
            if method in skipped[n]:
                out.append(f"| scipy {method} | < {skipped[n][method]:g} | skipped (previous run > {SCIPY_CAP_S:g} s) "
                           f"| | | | | | | |")
        return out

    header = [
        f"Run of {started:%Y-%m-%d %H:%M} UTC{' (quick run)' if quick else ''} — {info['model']}, "
        f"{info['cores']} cores, {info['os']}; load average {load_start[0]:.2f} at the start, "
        f"{load_end[0]:.2f} at the end ({(finished - started).total_seconds() / 60:.1f} min); Python {info['python']}, "
        f"numpy {info['numpy']}, scipy {info['scipy']}; bristle {info['version']} ({info['commit']}; "
        f"library {build / 'libbristle.a'} built {datetime.datetime.fromtimestamp((build / 'libbristle.a').stat().st_mtime, datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
        f"driver `{info['gxx']}` -O3).",
    ]
    ref_lines = [
        f"Reference: bristle at {ref_n} cells ({conv_steps_text(ref_n)}). Self-convergence of F_x (max over "
        f"the grid, relative): |F_{ref_n // 2} − F_{ref_n}| = {d_half:.2e}, |F_{ref_n // 4} − F_{ref_n // 2}| = "
        f"{d_quarter:.2e}, observed order {order:.2f}; estimated error of the reference (Richardson, order "
        f"{p_used:.2f}) **{unc:.1e}**. Field f(ξ) at t = 1, 2 s (L1, cell averages): {ref_n // 2} cells differ from "
        f"{ref_n} by {fd_half:.1e}, {ref_n // 4} from {ref_n // 2} by {fd_quarter:.1e}; estimated error of the reference ≈ {f_unc:.0e}. "
        f"Independent check: scipy DOP853 (rtol 1e-10, atol 1e-13) on the MOL at 400 cells "
        f"differs from the reference by {chk_vs_ref:.1e} and from its Richardson extrapolation by {chk_vs_rich:.1e}"
        + (f"; the same at 200 cells differs from 400 cells by {chk_spread:.0e}." if math.isfinite(chk_spread) else "."),
    ]
    verdict = (f"**Goal (issue 3, benchmark (b)): bristle ≥ {GOAL:.0f}× faster than scipy's fastest at equal error on "
               f"{main_n} cells. Result: {'met' if met else 'NOT met'}** — at bristle's error "
               f"({fmt_e(bris[main_n]['err'])}) {rel} "
               + (f"({main_row['best_w']['method']} rtol {main_row['best_w']['rtol']:g}: {fmt_t(main_row['best_w']['wall'])} ms "
                  f"against bristle's {fmt_t(main_row['bw'])} ms wall; CPU-time ratio {ratio_text(speedup_main_cpu)})."
                  if main_row["best_w"] else "."))
    notes = [
        "¹ CPU = thread CPU time of the solve (robust against the load of a shared machine); the scipy run is the "
        "fastest by CPU time with error ≤ bristle's. ² Time at exactly bristle's error, interpolated log-log on the "
        "best scipy method's (wall time, error) Pareto front; \"≤\" = its loosest run is already more accurate, so "
        "the ratio is an upper bound.",
    ]
    if any_best is not None:
        notes.append(f"Any grid: the fastest scipy run with F_x error ≤ bristle's at {main_n} cells is "
                     f"{any_best[1]['method']} rtol {any_best[1]['rtol']:g} on {any_best[0]} cells, "
                     f"{fmt_t(any_best[1]['wall'])} ms wall (speed-up {ratio_text(any_best[1]['wall'] / main_row['bw'])}).")
    fb = main_row["fbest"]
    main_ok = [r for runs in scipy_runs[main_n].values() for r in runs if r["ok"]]
    floor = min(r["ferr"] for r in main_ok) if main_ok else float("nan")
    field_txt = (f"Field error (secondary metric: mean over cells of |f − ⟨f_ref⟩| at t = 1 and 2 s, the larger, "
                 f"relative to max |f_ref|; the reference's own is ≈ {f_unc:.0e}): bristle {fmt_e(bris[main_n]['ferr'])} "
                 f"on {main_n} cells; scipy's smallest on the same cells {fmt_e(floor)} (its spatial floor"
                 + (", the same as bristle's within the reference's uncertainty" if abs(floor - bris[main_n]["ferr"]) <= f_unc
                    else "") + "). ")
    if fb:
        field_txt += (f"The fastest scipy run at ≤ bristle's field error on {main_n} cells is {fb['method']} rtol "
                      f"{fb['rtol']:g} ({fmt_e(fb['ferr'])}, {fmt_t(fb['wall'])} ms wall: speed-up "
                      f"{ratio_text(fb['wall'] / main_row['bw'])}).")
    else:
        field_txt += f"No scipy run on {main_n} cells reaches bristle's field error."
    if any_best_field is not None and (fb is None or any_best_field[0] != main_n):
        n_f, r_f = any_best_field
        field_txt += (f" On any grid: {r_f['method']} rtol {r_f['rtol']:g} on {n_f} cells ({fmt_e(r_f['ferr'])}, "
                      f"{fmt_t(r_f['wall'])} ms wall: speed-up {ratio_text(r_f['wall'] / main_row['bw'])}).")
    notes.append(field_txt)
    bn = bris[main_n]
    notes.append(f"bristle without the output grid (`advance_to(2 s)` alone, {bn['steps_noout']} steps, the "
                 f"configuration of `BM_Fig7Transient/{main_n}`): {fmt_t(min(bn['wall_noout']))} ms wall, "
                 f"{fmt_t(min(bn['cpu_noout']))} ms CPU"
                 + (f" (speed-up {ratio_text(main_row['best_w']['wall'] / min(bn['wall_noout']))} against the scipy run "
                    f"above)." if main_row["best_w"] else "."))
    if "land" in bn:
        bl = bn["land"]
        all_main = [r for runs in scipy_runs[main_n].values() for r in runs]
        lw, lc = min(bl["wall"]), min(bl["cpu"])
        best_lw = fastest_run(all_main, bl["err"], "err", "wall")
        best_lc = fastest_run(all_main, bl["err"], "err", "cpu")
        notes.append(f"bristle with its steps landing on the 201 output times instead of interpolating ({bl['steps']} "
                     f"steps): error {fmt_e(bl['err'])}, {fmt_t(lw)} ms wall / {fmt_t(lc)} ms CPU"
                     + (f"; the fastest scipy run at ≤ that error is {best_lw['method']} rtol {best_lw['rtol']:g} "
                        f"({fmt_t(best_lw['wall'])} ms wall): speed-up {ratio_text(best_lw['wall'] / lw)} wall, "
                        f"{ratio_text(best_lc['cpu'] / lc)} CPU." if best_lw and best_lc else
                        "; no scipy run reached that error."))

    md = ["# Fig. 7 transient line contact: bristle vs a scipy method of lines", "",
          "Generated by `bench/peers/fig7_transient_mol.py`; do not edit by hand.", "", *header, "",
          "Problem: paper 1 eq. 54 (sliding FrBD line contact, Table 1, s = 0.4, n1 = n2 = 2, V_x = 0.1 m/s, "
          "F_z = 10 N uniform, L = 0.2 m, unloaded start, t ∈ [0, 2] s). bristle: `LineContact` (Strang splitting, "
          "van Leer second-order upwind with Lax-Wendroff face values, exact exponential propagator of the affine "
          "source, CFL 0.9; 10 states per cell, of which the 5 lateral ones stay zero and are skipped) through "
          "`bench/peers/fig7_bristle_driver.cpp`, which takes the solver's own CFL steps and reads F_x at the 201 "
          "output times from `LineContact::sample` (dense output: degree-5 interpolation through the six nearest step "
          "points, as scipy's `t_eval` uses its dense output); a run whose steps land on the output times is listed "
          "too, and the reference always lands on them. scipy: `solve_ivp` on the method of lines over the same "
          "cells, same van Leer reconstruction in semi-discrete form, 5 states per cell; BDF/Radau get `jac_sparsity`, "
          f"LSODA the band (lband/uband); atol = rtol × {ATOL_FACTOR:g}. Error = max over t = 0, 0.01, …, 2 s of "
          "|F_x − F_ref| / max |F_ref|. Times: the solve only, best of "
          f"{rounds} round-robin rounds (every point once per round); scipy runs over {SCIPY_CAP_S:g} s are not repeated "
          "and end the method's sweep.", "",
          verdict, "", "## Equal error", "", *eq_table(), "", *paragraphs(notes), "## Reference", "", *ref_lines, "",
          "| cells | F_x error vs reference |", "|---|---|"]
    for n in sorted(set(conv) | set(bris)):
        if n == ref_n:
            continue
        F = bris[n]["F"] if n in bris else conv[n]
        md.append(f"| {n} | {fmt_e(f_error(F, ref_F))} |")
    md += ["", "## Why", "", *why_lines(bris, main_n, scipy_runs, chk_spread, step_check), ""]
    for n in grids:
        md += [f"## All runs, {n} cells", "", *runs_table(n), ""]
    md += ["![F_x(t), errors and work-precision](fig7_transient_mol.png)", ""]

    args.out_dir.mkdir(parents=True, exist_ok=True)
    md_path = args.out_dir / "fig7_transient_mol.md"
    png_path = args.out_dir / "fig7_transient_mol.png"
    md_path.write_text("\n".join(md))
    plot(png_path, ref, main_n, bris, scipy_runs, picks, ref_n)
    log(f"wrote {md_path} and {png_path}")

    if not quick and not args.no_docs:
        section = [SECTION, "", verdict, "", *header, "", *eq_table(), "", *paragraphs(notes),
                   ref_lines[0], "", "Why: " + " ".join(why_lines(bris, main_n, scipy_runs, chk_spread, step_check)), "",
                   "Method, every run and the plots: `bench/peers/results/fig7_transient_mol.md`, `.png`. Reproduce: "
                   "`/usr/bin/python3 bench/peers/fig7_transient_mol.py --build BUILD` (Release build of the library; "
                   "about 5 minutes on a loaded 2-core machine, `--quick` about 1–2)."]
        update_docs("\n".join(section))
        log(f"updated {DOCS} (section \"{SECTION[3:]}\")")

    print("\n".join([verdict, "", *eq_table(), "", *notes, "", *ref_lines]))
    return 0


def conv_steps_text(n: int) -> str:
    dt = 0.9 * (L / n) / VX
    return f"CFL step {dt * 1e3:.3g} ms"


def paragraphs(items: list[str]) -> list[str]:
    out: list[str] = []
    for item in items:
        out += [item, ""]
    return out


def why_lines(bris: dict, n: int, scipy_runs: dict, chk_spread: float, step_check) -> list[str]:
    b = bris[n]
    cpu_per_cell_step = min(b["cpu"]) / (b["steps"] * n)
    rk = [r for r in scipy_runs[n].get("RK45", []) if r["ok"]]
    rk_txt = ""
    if rk:
        r = min(rk, key=lambda r: r["cpu"])
        rk_txt = (f" scipy's RK45 is limited by stability, not accuracy: about {r['nfev']} right-hand sides "
                  f"whatever the tolerance, each a handful of vectorised numpy operations on {n * NC} states "
                  f"({r['cpu'] / r['nfev'] * 1e6:.0f} µs).")
    grid_txt = ""
    if math.isfinite(chk_spread):
        grid_txt = (f" F_x is almost blind to the spatial discretisation here: with uniform pressure and a linear, "
                    f"spatially uniform source, ∫f dξ changes only through the outflow flux at ξ = L, which lies in "
                    f"the still-uniform region ahead of both characteristic fronts (ξ = sV t and V t) until t = 2 s; the "
                    f"MOL's F_x on 200 and 400 cells (DOP853, rtol 1e-10) differ by {chk_spread:.0e}. So the F_x error "
                    f"measures time integration only: bristle's is its step (splitting) error, scipy's its tolerance, "
                    f"and scipy reaches bristle's error at loose tolerances. The field error (notes above) is where "
                    f"the grid shows.")
        if step_check is not None:
            grid_txt += (f" Check: bristle on 400 cells at CFL 0.45 ({step_check[2]} steps, the step of 800 cells at "
                         f"CFL 0.9) gives the F_x of 800 cells to {step_check[0]:.0e} (error {step_check[1]:.2e}).")
    return [f"bristle spends ≈ {cpu_per_cell_step * 1e9:.0f} ns CPU per cell per step ({min(b['cpu']) * 1e3:.2f} ms / "
            f"({b['steps']} steps × {n} cells)). Per step: two half-steps of the source, each one small dense "
            f"matrix (the exact propagator of the frozen affine source, the same for every cell at these uniform "
            f"velocities) applied to the (cells × components) block, and the limited upwind transport of the 3 "
            f"advected components, each a contiguous vectorised loop (AVX2/FMA where the CPU has it); the 5 lateral "
            f"components are zero and unforced here and are skipped, and F_x and the supplied power come from "
            f"p-weighted sums of the components (friction is affine in the state). It takes the {b['steps_noout']} "
            f"CFL steps of 2 s and interpolates the 201 outputs between them (landing on them instead costs "
            + (f"{b['land']['steps'] - b['steps']} more steps)." if "land" in b else "more steps).")
            + rk_txt + grid_txt]


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Failure as e:
        print(f"error: {e}", file=sys.stderr, flush=True)
        sys.exit(1)
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr, flush=True)
        sys.exit(130)
