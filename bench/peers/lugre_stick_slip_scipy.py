#!/usr/bin/python3
"""Work-precision benchmark: bristle vs scipy.integrate.solve_ivp on LuGre stick-slip.

Problem (Canudas de Wit, Olsson, Astrom & Lischinsky 1995, stick-slip example), in bristle's sign
convention (the friction force F on the mass opposes its velocity v), with the normalised bristle
force f = sigma0 z as state (bristle's choice; identical dynamics to the z form):

    x' = v
    v' = (k (x_p(t) - x) + F) / m,          x_p(t) = v_p t  (x_p' = v_p integrated exactly)
    f' = sigma0 z' = -sigma0 (|v| / g(v)) f - sigma0 v
    g(v) = mu_d + (mu_s - mu_d) exp(-(v / v_s)^2)
    F = F_z (f + sigma1 z' - sigma2 v)

Parameters are those of examples/lugre_stick_slip.toml (checked against the values below at start).

What it does
  1. Reference: scipy Radau at rtol=1e-12, atol=1e-14 with the analytic Jacobian, and bristle at
     rtol=1e-12, atol=1e-14; their mutual difference is reported as the reference uncertainty.
  2. Error metrics on the output grid t = 0, 0.01, ..., 30 s: max |x(t) - x_ref(t)| (m), and the
     error of the stick-slip period (s), the period being the mean spacing of the slip onsets
     (upward crossings of v = v_p, located by a local cubic fit).
  3. Sweeps rtol (atol = rtol * 1e-4) for scipy Radau, LSODA, BDF (analytic Jacobian for all three)
     and for bristle (temporary scenario copies, `bristle run`, solve_seconds from the JSON).
     Times are the best of 3; scipy's is time.perf_counter() around solve_ivp only.
  4. Matched accuracy: per method, the Pareto front of (time, error) points is interpolated
     log-log to get the time needed for each target error; ratio = scipy's fastest / bristle.
  5. Writes bench/peers/results/lugre_stick_slip.md and .png.

Usage: /usr/bin/python3 bench/peers/lugre_stick_slip_scipy.py --bristle PATH/TO/bristle [--quick]
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import NoReturn

import numpy as np
import scipy
from scipy.integrate import solve_ivp

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SCENARIO = ROOT / "examples" / "lugre_stick_slip.toml"
RESULTS = HERE / "results"

# --- the problem (values as in the brief; verified against the scenario file) -----------------------
SIGMA0 = 1e5  # 1/m  (body1.k0: static stiffness of an elastic/rigid pair per newton of load)
SIGMA1 = math.sqrt(1e5)  # s/m
SIGMA2 = 0.4  # s/m
MU_D = 1.0
MU_S = 1.5
V_S = 1e-3  # m/s
DELTA_S = 2.0
MASS = 1.0  # kg
SPRING = 2.0  # N/m
V_P = 0.1  # m/s
F_Z = 1.0  # N
T_END = 30.0  # s
DT_OUT = 0.01  # s
T_GRID = np.round(np.arange(0, int(round(T_END / DT_OUT)) + 1) * DT_OUT, 12)

REF_RTOL, REF_ATOL = 1e-12, 1e-14
ATOL_FACTOR = 1e-4  # atol = rtol * ATOL_FACTOR in the sweeps (all methods)
TARGETS_X = [1e-3, 1e-4, 1e-5, 1e-6, 1e-7]  # m
TARGETS_P = [1e-3, 1e-4, 1e-5, 1e-6]  # s
SCIPY_METHODS = ["Radau", "LSODA", "BDF"]
# bristle runs: result key -> integrator.method (None: the scenario's own, the default method "auto" since
# issue 19). "bristle" keeps its meaning (the scenario as shipped); the others pin a Rosenbrock method.
BRISTLE_METHODS = {"bristle": None, "bristle rodas4": "rodas4", "bristle rodas5p": "rodas5p"}
REPEATS = 3
BRISTLE_IN_PROCESS = 2  # `bristle run --repeat 2`: a cold first solve, then a warm one (scipy is timed warm)
SCIPY_SLOW_S = 20.0  # a scipy run slower than this: no repeats, and tighter rtols are skipped


def log(msg: str) -> None:
    print(f"[lugre-bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def die(msg: str, code: int = 1) -> NoReturn:
    print(f"error: {msg}", file=sys.stderr, flush=True)
    sys.exit(code)


# --- scipy model ----------------------------------------------------------------------------------
_exp = math.exp
_DMU = MU_S - MU_D
_INV_VS2 = 1.0 / (V_S * V_S)


def rhs(t, y):
    x, v, f = y
    g = MU_D + _DMU * _exp(-v * v * _INV_VS2)
    zd = -abs(v) / g * f - v  # z' (m/s)
    force = F_Z * (f + SIGMA1 * zd - SIGMA2 * v)
    return np.array([v, (SPRING * (V_P * t - x) + force) / MASS, SIGMA0 * zd])


def jac(t, y):
    x, v, f = y
    e = _exp(-v * v * _INV_VS2)
    g = MU_D + _DMU * e
    dg = _DMU * e * (-2.0 * v * _INV_VS2)
    a = abs(v) / g
    sgn = 1.0 if v > 0 else (-1.0 if v < 0 else 0.0)
    da = sgn / g - abs(v) * dg / (g * g)
    dzd_dv = -f * da - 1.0
    dzd_df = -a
    return np.array([
        [0.0, 1.0, 0.0],
        [-SPRING / MASS, F_Z * (SIGMA1 * dzd_dv - SIGMA2) / MASS, F_Z * (1.0 + SIGMA1 * dzd_df) / MASS],
        [0.0, SIGMA0 * dzd_dv, SIGMA0 * dzd_df],
    ])


def check_jacobian() -> None:
    rng = np.random.default_rng(1)
    worst = 0.0
    for _ in range(20):
        y = np.array([rng.uniform(-1, 3), rng.uniform(-0.3, 0.3) * rng.choice([1, 1e-3]), rng.uniform(-1.5, 1.5)])
        t = rng.uniform(0, 30)
        jn = np.zeros((3, 3))
        for j in range(3):
            h = 1e-7 * max(1e-3, abs(y[j]))
            yp, ym = y.copy(), y.copy()
            yp[j] += h
            ym[j] -= h
            jn[:, j] = (rhs(t, yp) - rhs(t, ym)) / (2 * h)
        worst = max(worst, float(np.max(np.abs(jac(t, y) - jn) / (1 + np.abs(jn)))))
    if worst > 1e-5:
        die(f"analytic Jacobian disagrees with finite differences (rel. {worst:.2e})")


def run_scipy(method: str, rtol: float, atol: float, repeats: int):
    """Returns dict(time, x, v, ok, msg, nfev, njev, nlu, repeats)."""
    times, cpus = [], []
    sol = None
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.thread_time()
        sol = solve_ivp(rhs, (0.0, T_END), [0.0, 0.0, 0.0], method=method, rtol=rtol, atol=atol,
                        t_eval=T_GRID, jac=jac, dense_output=False)
        times.append(time.perf_counter() - t0)
        cpus.append(time.thread_time() - c0)
        if sol.status != 0 or times[-1] > SCIPY_SLOW_S:
            break
    ok = sol.status == 0 and sol.y.shape[1] == T_GRID.size and np.all(np.isfinite(sol.y))
    return dict(time=min(times), cpu=min(cpus), x=sol.y[0] if ok else None, v=sol.y[1] if ok else None, ok=ok,
                msg="" if ok else f"status {sol.status}: {sol.message}", nfev=sol.nfev, njev=sol.njev,
                nlu=sol.nlu, repeats=len(times))


# --- bristle --------------------------------------------------------------------------------------
def check_scenario(text: str) -> dict:
    try:
        sc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        die(f"{SCENARIO}: not valid TOML: {e}")
    expect = {
        ("law", "type"): "lugre", ("law", "mu_s"): MU_S, ("law", "mu_d"): MU_D, ("law", "v_s"): V_S,
        ("law", "delta_s"): DELTA_S, ("law", "sigma1"): SIGMA1, ("law", "sigma2"): SIGMA2,
        ("body1", "type"): "elastic", ("body1", "k0"): SIGMA0, ("body2", "type"): "rigid",
        ("bench", "drive"): "spring", ("bench", "mass_kg"): MASS, ("bench", "spring_N_per_m"): SPRING,
        ("bench", "normal_load_N"): F_Z, ("time", "t_end_s"): T_END,
    }
    bad = []
    for (sec, key), want in expect.items():
        got = sc.get(sec, {}).get(key)
        if isinstance(want, float):
            if not isinstance(got, (int, float)) or abs(got - want) > 1e-12 * abs(want):
                bad.append(f"[{sec}] {key} = {got!r} (benchmark expects {want!r})")
        elif got != want:
            bad.append(f"[{sec}] {key} = {got!r} (benchmark expects {want!r})")
    inp = sc.get("bench", {}).get("input", {})
    if inp.get("type") != "constant" or abs(float(inp.get("value", 0)) - V_P) > 1e-15:
        bad.append(f"[bench.input] = {inp!r} (benchmark expects constant {V_P})")
    if "sigma0" in sc.get("law", {}):
        bad.append("[law] sigma0 is set (benchmark assumes sigma0 = body1.k0)")
    if bad:
        die(f"{SCENARIO} no longer matches the benchmark's scipy model:\n  " + "\n  ".join(bad))
    return sc


def patch_toml(text: str, values: dict) -> str:
    """Sets (section, key) -> literal in a TOML text, replacing the key's line or adding it."""
    lines = text.splitlines()
    section = None
    done = set()
    out = []
    for line in lines:
        m = re.match(r"\s*\[([^\]]+)\]", line)
        if m:
            # before leaving a section, append the keys it lacks
            for (sec, key), lit in values.items():
                if sec == section and (sec, key) not in done:
                    out.append(f"{key} = {lit}")
                    done.add((sec, key))
            section = m.group(1).strip()
            out.append(line)
            continue
        m = re.match(r"\s*([A-Za-z0-9_]+)\s*=", line)
        if m and (section, m.group(1)) in values:
            out.append(f"{m.group(1)} = {values[(section, m.group(1))]}")
            done.add((section, m.group(1)))
            continue
        out.append(line)
    for (sec, key), lit in values.items():
        if (sec, key) not in done:
            if sec != section:
                out.append(f"[{sec}]")
                section = sec
            out.append(f"{key} = {lit}")
    return "\n".join(out) + "\n"


def read_csv(path: Path) -> dict:
    with open(path) as fh:
        rows = [ln.strip() for ln in fh if ln.strip() and not ln.lstrip().startswith("#")]
    header = [h.strip() for h in rows[0].split(",")]
    raw = [r.split(",") for r in rows[1:]]
    cols = {}
    for i, name in enumerate(header):
        try:
            cols[name] = np.array([float(r[i]) for r in raw])
        except (ValueError, IndexError):
            pass
    cols["_raw_x"] = [r[header.index("x_m")].strip() for r in raw] if "x_m" in header else []
    return cols


def significant_digits(s: str) -> int:
    mant = s.lower().split("e")[0].lstrip("+-").replace(".", "").lstrip("0")
    return max(len(mant), 1)


class Bristle:
    def __init__(self, binary: str, workdir: Path):
        path = shutil.which(binary) if os.sep not in binary else binary
        if not path or not os.path.isfile(path) or not os.access(path, os.X_OK):
            die(f"bristle binary not found or not executable: {binary!r}")
        self.binary = os.path.abspath(path)
        self.workdir = workdir
        self.text = SCENARIO.read_text()
        self.scenario = check_scenario(self.text)
        self.name = self.scenario.get("name", SCENARIO.stem)
        self.method = self.scenario.get("integrator", {}).get("method", "auto (the default)")
        self.count = 0
        self.mtime = datetime.datetime.fromtimestamp(os.path.getmtime(self.binary), datetime.timezone.utc).strftime(
            "%Y-%m-%d %H:%M UTC")
        try:
            out = subprocess.run([self.binary, "--version"], capture_output=True, text=True, timeout=30)
            self.version = (out.stdout.strip().splitlines() or ["?"])[0]
        except (OSError, subprocess.TimeoutExpired) as e:
            die(f"cannot run {self.binary} --version: {e}")

    def run(self, rtol: float, atol: float, repeats: int, method: str | None = None):
        """method: None = the scenario's integrator (the default, auto), else integrator.method is replaced."""
        self.count += 1
        case = self.workdir / f"case{self.count:03d}"
        case.mkdir()
        toml = case / f"{self.name}.toml"
        patch = {("integrator", "rtol"): repr(rtol), ("integrator", "atol"): repr(atol),
                 ("time", "output_dt_s"): repr(DT_OUT)}
        if method is not None:
            patch[("integrator", "method")] = f'"{method}"'
        toml.write_text(patch_toml(self.text, patch))
        chk = tomllib.loads(toml.read_text())
        assert chk["integrator"]["rtol"] == rtol and chk["integrator"]["atol"] == atol
        assert chk["time"]["output_dt_s"] == DT_OUT
        assert method is None or chk["integrator"]["method"] == method
        solve, wall, cpu, cold, used = [], [], [], [], set()
        for rep in range(repeats):
            outdir = case / f"out{rep}"
            cmd = [self.binary, "run", str(toml), "--out", str(outdir), "--no-plot", "--quiet",
                   "--repeat", str(BRISTLE_IN_PROCESS)]
            t0 = time.perf_counter()
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
            except subprocess.TimeoutExpired:
                die(f"bristle run timed out after 600 s: {' '.join(cmd)}")
            wall.append(time.perf_counter() - t0)
            csv, js = outdir / f"{self.name}.csv", outdir / f"{self.name}.json"
            if p.returncode != 0 or not csv.is_file() or not js.is_file():
                die(f"bristle run failed (rtol={rtol:g}, atol={atol:g}): exit code {p.returncode}; "
                    f"{csv.name} {'written' if csv.is_file() else 'MISSING'}, "
                    f"{js.name} {'written' if js.is_file() else 'MISSING'}\n  command: {' '.join(cmd)}\n"
                    f"  stdout: {p.stdout.strip()[-800:]}\n  stderr: {p.stderr.strip()[-800:]}")
            try:
                meta = json.loads(js.read_text())
                solve.append(float(meta["solve_seconds"]))  # the best of the in-process solves
                cpu.append(float(meta.get("solve_cpu_seconds", math.nan)))
                cold.append(float(meta["repeat"]["solve_seconds"][0]))  # the process's first solve
                used.add(meta["cases"][0]["integrator_stats"].get("method_used", "?"))
            except (ValueError, KeyError, TypeError) as e:
                die(f"{js}: no numeric \"solve_seconds\" ({e})")
        data = read_csv(csv)
        for col in ("t_s", "x_m", "v_mps"):
            if col not in data:
                die(f"{csv}: column {col} missing (have {', '.join(k for k in data if not k.startswith('_'))})")
        t = data["t_s"]
        if t.size == T_GRID.size and np.max(np.abs(t - T_GRID)) < 1e-9:
            x, v = data["x_m"], data["v_mps"]
        else:
            if t[0] > 1e-12 or t[-1] < T_END - 1e-9:
                die(f"{csv}: t_s spans [{t[0]}, {t[-1]}], expected [0, {T_END}]")
            log(f"  note: bristle's t_s is not the 0.01 s grid ({t.size} rows); interpolating linearly")
            x, v = np.interp(T_GRID, t, data["x_m"]), np.interp(T_GRID, t, data["v_mps"])
        digits = min(significant_digits(s) for s in data["_raw_x"][1:]) if len(data["_raw_x"]) > 1 else 17
        return dict(time=min(solve), cpu=min(cpu), wall=min(wall), cold=min(cold), x=x, v=v, ok=True,
                    msg="method_used " + ", ".join(sorted(used)),
                    repeats=repeats, digits=digits)


# --- metrics --------------------------------------------------------------------------------------
def slip_onsets(v: np.ndarray) -> np.ndarray:
    """Times of upward crossings of v = v_p, each located by a cubic fit through 6 grid points."""
    idx = np.where((v[:-1] < V_P) & (v[1:] >= V_P))[0]
    out = []
    for i in idx:
        lo, hi = max(i - 2, 0), min(i + 4, v.size)
        tt = T_GRID[lo:hi] - T_GRID[i]
        c = np.polyfit(tt, v[lo:hi] - V_P, 3)
        roots = [r.real for r in np.roots(c) if abs(r.imag) < 1e-12 and -1e-9 <= r.real <= DT_OUT + 1e-9]
        if roots:
            out.append(T_GRID[i] + min(roots, key=lambda r: abs(r - DT_OUT / 2)))
        else:  # fall back to linear
            out.append(T_GRID[i] + (V_P - v[i]) / (v[i + 1] - v[i]) * DT_OUT)
    return np.array(out)


def period(v: np.ndarray) -> tuple[float, int]:
    on = slip_onsets(v)
    if on.size < 2:
        return float("nan"), on.size
    return float((on[-1] - on[0]) / (on.size - 1)), on.size


def errors(res: dict, ref: dict) -> None:
    if not res["ok"]:
        res["err_x"] = res["err_p"] = float("nan")
        return
    res["err_x"] = float(np.max(np.abs(res["x"] - ref["x"])))
    p, n = period(res["v"])
    res["err_p"] = abs(p - ref["period"]) if n == ref["n_slips"] else float("nan")
    if n != ref["n_slips"]:
        res["msg"] = (res["msg"] + "; " if res["msg"] else "") + f"{n} slips (reference {ref['n_slips']})"


def pareto(points: list[tuple[float, float, float]]) -> list[tuple[float, float]]:
    """(time, error) front: sorted by time, each point more accurate than every faster one."""
    pts = sorted((t, e) for t, e, _ in points if np.isfinite(e) and e > 0 and t > 0)
    front, best = [], math.inf
    for t, e in pts:
        if e < best:
            front.append((t, e))
            best = e
    return front


def time_for(points, target: float):
    """Time needed to reach `target` error: (value, kind) with kind '=' (interpolated),
    '<=' (even the fastest run is at least this accurate) or None (not reached)."""
    front = pareto(points)
    if not front:
        return None, None
    if front[0][1] <= target:
        return front[0][0], "<="
    for (t0, e0), (t1, e1) in zip(front, front[1:]):
        if e0 >= target >= e1:
            if e0 == e1:
                return t1, "="
            w = (math.log(target) - math.log(e0)) / (math.log(e1) - math.log(e0))
            return math.exp(math.log(t0) + w * (math.log(t1) - math.log(t0))), "="
    return None, None


# --- reporting ------------------------------------------------------------------------------------
def fmt_ms(t, kind=None) -> str:
    if t is None:
        return "not reached"
    s = f"{t * 1e3:.3g}" if t * 1e3 < 100 else f"{t * 1e3:.0f}"
    return ("≤ " if kind == "<=" else "") + s


def machine_info(bristle_version: str, load_start: float) -> list[str]:
    model = "?"
    try:
        for ln in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if ln.lower().startswith("model name"):
                model = ln.split(":", 1)[1].strip()
    except OSError:
        pass
    return [
        f"- Date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- Machine: {model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
        f"load average at start {load_start:.2f}",
        f"- Python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}",
        f"- bristle: {bristle_version}",
    ]


def load_warning() -> None:
    load = os.getloadavg()[0]
    if load > 0.5 * (os.cpu_count() or 1):
        log(f"WARNING: load average {load:.2f} on {os.cpu_count()} cores: other work is running, timings will be noisy")


def matched_table(results: dict, key: str, targets: list[float], unit: str, have_bristle: bool,
                  floor: float, time_key: str = "time") -> tuple[list[str], dict[str, list[tuple[float, float | None]]]]:
    """Rows per target; for each bristle method its time and speed-up (scipy's fastest / bristle).
    Returns (lines, {bristle method: [(target, ratio, bound, verdict)]})."""
    methods = [m for m in SCIPY_METHODS if m in results]
    bms = [b for b in BRISTLE_METHODS if b in results] if have_bristle else []
    head = f"| target {unit} | " + " | ".join(f"{m} (ms)" for m in methods) + " | scipy fastest (ms) |"
    sep = "|---|" + "---|" * len(methods) + "---|"
    for b in bms:
        label = "" if b == "bristle" else " " + b.split(" ", 1)[1]
        head += f" {b} (ms) | speed-up scipy/bristle{label} |"
        sep += "---|---|"
    lines, ratios = [head, sep], {b: [] for b in bms}
    for tgt in targets:
        cells, best = [], (None, None, None)
        for m in methods:
            t, kind = time_for([(r[time_key], r[key], r["rtol"]) for r in results[m]], tgt)
            cells.append(fmt_ms(t, kind))
            if t is not None and (best[0] is None or t < best[0]):
                best = (t, kind, m)
        row = f"| {tgt:.0e}{' (below ref. uncertainty ×10)' if tgt < 10 * floor else ''} | " + " | ".join(cells)
        row += f" | {fmt_ms(best[0], best[1])}{' ' + best[2] if best[2] else ''} |"
        for b in bms:
            tb, kb = time_for([(r[time_key], r[key], r["rtol"]) for r in results[b]], tgt)
            if best[0] is not None and tb is not None:
                ratio = best[0] / tb
                # kinds: '=' interpolated, '<=' an upper bound on the time needed
                pre = {("=", "="): "", ("<=", "="): "≤ ", ("=", "<="): "≥ "}.get((best[1], kb), "~ ")
                rs = f"{pre}{ratio:.0f}×" if ratio >= 10 else f"{pre}{ratio:.2g}×"
                if pre == "":
                    verdict = "met" if ratio >= 100 else "not met"
                elif pre == "≥ ":
                    verdict = "met" if ratio >= 100 else "undetermined"
                elif pre == "≤ ":
                    verdict = "not met" if ratio < 100 else "undetermined"
                else:
                    verdict = "undetermined"
                if tgt < 10 * floor:
                    verdict = "undetermined"
                ratios[b].append((tgt, ratio, pre.strip(), verdict))
            else:
                rs = "n/a"
                ratios[b].append((tgt, None, "n/a", "undetermined"))
            row += f" {fmt_ms(tb, kb)} | {rs} |"
        lines.append(row)
    return lines, ratios


def raw_table(results: dict) -> list[str]:
    lines = ["| method | rtol | atol | time (ms) | CPU (ms) | runs | slowest / fastest run | max abs x err (m) "
             "| period err (s) | nfev / njev / nlu | note |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for m, rs in results.items():
        for r in rs:
            if m in BRISTLE_METHODS:
                stats = f"first solve {r['cold'] * 1e3:.3g} ms, process wall {r['wall'] * 1e3:.3g} ms"
            else:
                stats = f"{r['nfev']} / {r['njev']} / {r['nlu']}"
            err_x = f"{r['err_x']:.2e}" if np.isfinite(r["err_x"]) else "—"
            err_p = f"{r['err_p']:.2e}" if np.isfinite(r["err_p"]) else "—"
            tm = "—" if r.get("skipped") else f"{r['time'] * 1e3:.3g}"
            spread = f"{max(r['times']) / min(r['times']):.2f}" if r.get("times") else "—"
            cpu = "—" if not np.isfinite(r.get("cpu", math.nan)) else f"{r['cpu'] * 1e3:.3g}"
            lines.append(f"| {m} | {r['rtol']:.1e} | {r['atol']:.1e} | {tm} | {cpu} | {r.get('repeats', 0)} | {spread} | {err_x} | "
                         f"{err_p} | {stats} | {r['msg']} |")
    return lines


def plot(results: dict, ref_unc: tuple[float, float], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 5))
    style = {"Radau": "o-", "LSODA": "s-", "BDF": "^-", "bristle": "D-", "bristle rodas4": "P-"}
    for ax, key, unc, targets, ylabel in (
            (axes[0], "err_x", ref_unc[0], TARGETS_X, "max |x - x_ref| on the 0.01 s grid (m)"),
            (axes[1], "err_p", ref_unc[1], TARGETS_P, "|period - period_ref| (s)")):
        for m, rs in results.items():
            pts = [(r["time"], r[key]) for r in rs if r["ok"] and np.isfinite(r[key]) and r[key] > 0]
            if pts:
                ax.loglog(*zip(*pts), style.get(m, "x-"), label=m if m not in BRISTLE_METHODS else f"{m} (solve_seconds)",
                          lw=2 if m in BRISTLE_METHODS else 1)
        for tgt in targets:
            ax.axhline(tgt, color="0.85", lw=0.8, zorder=0)
        if unc > 0:
            ax.axhspan(1e-30, unc, color="red", alpha=0.08, zorder=0, label="below reference uncertainty")
        lo = min([r[key] for rs in results.values() for r in rs if r["ok"] and np.isfinite(r[key]) and r[key] > 0],
                 default=1e-12)
        ax.set_ylim(min(lo, unc if unc > 0 else lo) / 3, None)
        ax.set_xlabel("wall time of the solve, best of 3 (s)")
        ax.set_ylabel(ylabel)
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("LuGre stick-slip (Canudas de Wit et al. 1995), t ∈ [0, 30] s: work-precision, bristle vs scipy")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


# --- main -----------------------------------------------------------------------------------------
def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bristle", help="path to the bristle CLI binary")
    ap.add_argument("--quick", action="store_true", help="fewer tolerances, for a smoke run")
    ap.add_argument("--scipy-only", action="store_true",
                    help="development aid: skip bristle entirely (no speed ratios)")
    ap.add_argument("--repeats", type=int, default=REPEATS, help=f"timed runs per point, best taken (default {REPEATS})")
    ap.add_argument("--out-dir", type=Path, default=RESULTS, help=f"where to write the results (default {RESULTS})")
    args = ap.parse_args()
    if not args.bristle and not args.scipy_only:
        ap.error("--bristle PATH is required (or --scipy-only)")
    if args.repeats < 1:
        ap.error("--repeats must be >= 1")

    t_start = time.perf_counter()
    load_start = os.getloadavg()[0]
    if args.quick:
        exps = [-3, -5, -7, -9]
    else:
        exps = [x / 2 for x in range(-4, -23, -1)]  # 1e-2 ... 1e-11 in half decades
    rtols = [float(f"{10.0 ** e:.3g}") for e in exps]

    check_jacobian()
    load_warning()
    tmp = Path(tempfile.mkdtemp(prefix="bristle-lugre-bench-"))
    try:
        bristle = None
        if not args.scipy_only:
            bristle = Bristle(args.bristle, tmp)
            log(f"bristle: {bristle.binary} ({bristle.version}), scenario {SCENARIO.name}, method {bristle.method}")
            log("smoke run of bristle at the scenario's tolerances")
            bristle.run(1e-8, 1e-12, 1)

        log(f"reference: scipy Radau rtol={REF_RTOL:g} atol={REF_ATOL:g} (analytic Jacobian)")
        ref_sc = run_scipy("Radau", REF_RTOL, REF_ATOL, 1)
        if not ref_sc["ok"]:
            die(f"scipy reference failed: {ref_sc['msg']}")
        log(f"  {ref_sc['time']:.2f} s, nfev {ref_sc['nfev']}")
        ref = dict(x=ref_sc["x"], v=ref_sc["v"])
        ref["period"], ref["n_slips"] = period(ref["v"])
        if ref["n_slips"] < 2:
            die("reference shows fewer than two slips; cannot measure a period")
        ref_unc = (0.0, 0.0)
        ref_note = ""
        ref_b = None
        if bristle:
            log(f"reference: bristle rtol={REF_RTOL:g} atol={REF_ATOL:g}")
            ref_b = bristle.run(REF_RTOL, REF_ATOL, 1)
            pb, nb = period(ref_b["v"])
            ref_unc = (float(np.max(np.abs(ref_b["x"] - ref["x"]))), abs(pb - ref["period"]))
            slip_note = "" if nb == ref["n_slips"] else f" (bristle shows {nb} slips, scipy {ref['n_slips']})"
            ref_note = (f"bristle at rtol={REF_RTOL:g} vs scipy Radau at rtol={REF_RTOL:g}: "
                        f"max |Δx| = {ref_unc[0]:.2e} m, |Δperiod| = {ref_unc[1]:.2e} s"
                        f"{slip_note}; "
                        f"CSV x_m printed with ≥ {ref_b['digits']} significant digits")
            log("  " + ref_note)
            if ref_unc[0] > 0.1 * min(TARGETS_X):
                log(f"  WARNING: reference uncertainty {ref_unc[0]:.2e} m is not much below the smallest target")

        # Round-robin timing: every (method, rtol) point is run once per round, and the best of the
        # rounds is kept, so that load bursts on a shared machine hit all methods alike.
        results: dict[str, list[dict]] = {m: [] for m in SCIPY_METHODS}
        if bristle:
            for b in BRISTLE_METHODS:
                results[b] = []
        for rnd in range(args.repeats):
            log(f"timing round {rnd + 1}/{args.repeats}")
            for m in results:
                too_slow = False
                for i, rtol in enumerate(rtols):
                    atol = rtol * ATOL_FACTOR
                    if rnd == 0:
                        if too_slow:
                            results[m].append(dict(rtol=rtol, atol=atol, time=math.nan, cpu=math.nan, times=[], ok=False,
                                                   skipped=True, msg=f"skipped (a looser rtol took > {SCIPY_SLOW_S:g} s)",
                                                   nfev=0, njev=0, nlu=0, repeats=0, err_x=math.nan, err_p=math.nan))
                            continue
                        r = (bristle.run(rtol, atol, 1, BRISTLE_METHODS[m]) if m in BRISTLE_METHODS
                             else run_scipy(m, rtol, atol, 1))
                        r.update(rtol=rtol, atol=atol, times=[r["time"]])
                        errors(r, ref)
                        results[m].append(r)
                        too_slow = m not in BRISTLE_METHODS and r["time"] > SCIPY_SLOW_S
                        extra = (f" (first solve of the process {r['cold'] * 1e3:.3f} ms, process {r['wall'] * 1e3:.1f} ms)"
                                 if m in BRISTLE_METHODS else "")
                        log(f"{m:14s} rtol={rtol:.1e}: {r['time'] * 1e3:9.3f} ms{extra}, err x {r['err_x']:.2e} m, "
                            f"period {r['err_p']:.2e} s {r['msg']}")
                        continue
                    r = results[m][i]
                    if not r["ok"] or r["time"] > SCIPY_SLOW_S:
                        continue
                    again = (bristle.run(rtol, atol, 1, BRISTLE_METHODS[m]) if m in BRISTLE_METHODS
                             else run_scipy(m, rtol, atol, 1))
                    r["times"].append(again["time"])
                    r["time"] = min(r["times"])
                    r["cpu"] = min(r["cpu"], again["cpu"])
                    r["repeats"] = len(r["times"])
                    if m in BRISTLE_METHODS:
                        r["wall"] = min(r["wall"], again["wall"])
                        r["cold"] = min(r["cold"], again["cold"])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    # ---- report
    have_b = bristle is not None
    tab_x, ratios = matched_table(results, "err_x", TARGETS_X, "max abs x err (m)", have_b, ref_unc[0])
    tab_p, _ = matched_table(results, "err_p", TARGETS_P, "period err (s)", have_b, ref_unc[1])
    tab_cpu, ratios_cpu = matched_table(results, "err_x", TARGETS_X, "max abs x err (m)", have_b, ref_unc[0], "cpu")
    md = ["# LuGre stick-slip: bristle vs scipy.integrate.solve_ivp at matched accuracy", ""]
    md += machine_info(f"{bristle.version} ({bristle.binary}, built {bristle.mtime})" if bristle
                       else "not measured (--scipy-only)", load_start)
    md += [f"- Run: `{' '.join([Path(sys.argv[0]).name] + sys.argv[1:])}`"
           f"{' (quick: few tolerances)' if args.quick else ''}, {time.perf_counter() - t_start:.0f} s in total, "
           f"load average at the end {os.getloadavg()[0]:.2f}", ""]
    md += ["Problem: Canudas de Wit et al. (1995) stick-slip, examples/lugre_stick_slip.toml, t ∈ [0, 30] s, "
           "output grid 0.01 s (3001 points). Error = max over the grid of |x − x_ref| (position of the mass); "
           "period = mean spacing of the slip onsets (v crossing v_p upwards), "
           f"reference period {ref['period']:.9f} s over {ref['n_slips']} slips.",
           f"Tolerances: rtol swept, atol = rtol × {ATOL_FACTOR:g}; scipy Radau/BDF/LSODA all get the analytic "
           f"Jacobian; timing in {args.repeats} round-robin rounds (each point once per round), best kept: scipy time = best of {args.repeats} of time.perf_counter() around solve_ivp (t_eval = grid, dense_output "
           f"off) in this warm interpreter; bristle time = best of {args.repeats} of the JSON's solve_seconds of "
           f"`bristle run --repeat {BRISTLE_IN_PROCESS}` (the best of {BRISTLE_IN_PROCESS} solves in one process, so one warm "
           "solve per round as for scipy; the solve includes recording the 3001 rows of 21 columns; process wall time "
           "and the cold first solve in the raw table).",
           f"Reference: scipy Radau rtol={REF_RTOL:g}, atol={REF_ATOL:g}; "
           + (f"reference uncertainty: {ref_note}." if ref_note else "bristle reference not run."), ""]
    md += ["## Time to reach a position error (matched accuracy)", "",
           "Times are interpolated log-log on each method's Pareto front of (time, error); "
           "\"≤\" = even the loosest tolerance run is more accurate than the target (its time is an upper bound).",
           ""] + tab_x + [""]
    if have_b:
        for b, rb in ratios.items():
            verdicts = {v for *_, v in rb}
            if verdicts == {"met"}:
                overall = "met at every target level"
            elif "not met" in verdicts:
                overall = "not met at " + ", ".join(f"{t:.0e} m" for t, *_, v in rb if v == "not met")
            elif "met" in verdicts:
                overall = "met where measurable; undetermined at " + ", ".join(
                    f"{t:.0e} m" for t, *_, v in rb if v == "undetermined")
            else:
                overall = "undetermined"
            per = ", ".join(f"{t:.0e} m: {pre}{r:.0f}×" if r is not None else f"{t:.0e} m: n/a" for t, r, pre, _ in rb)
            who = ("bristle with the default method (auto)" if b == "bristle"
                   else f"bristle with integrator.method = \"{BRISTLE_METHODS[b]}\"")
            md += [f"Goal: {who} at least 100× faster than scipy's fastest method at equal position error — "
                   f"**{overall}** (speed-ups {per}).", ""]
    md += ["## CPU time to reach a position error (matched accuracy)", "",
           "The same, with CPU time instead of wall time: scipy = time.thread_time() around solve_ivp, bristle = "
           "the JSON's solve_cpu_seconds (CPU time of the solving thread). On a loaded machine wall times of short "
           "runs are inflated by descheduling far more than those of long runs; CPU time is not.", ""] + tab_cpu + [""]
    if have_b:
        for b, rb in ratios_cpu.items():
            per = ", ".join(f"{t:.0e} m: {pre}{r:.0f}×" if r is not None else f"{t:.0e} m: n/a" for t, r, pre, _ in rb)
            md += [f"CPU-time speed-ups of {b}: {per}.", ""]
    md += ["## Time to reach a period error", ""] + tab_p + [""]
    md += ["## All runs", ""] + raw_table(results) + [""]
    md += ["![work-precision](lugre_stick_slip.png)", ""]
    args.out_dir.mkdir(parents=True, exist_ok=True)
    (args.out_dir / "lugre_stick_slip.md").write_text("\n".join(md))
    plot(results, ref_unc, args.out_dir / "lugre_stick_slip.png")
    print("\n".join(tab_x))
    print()
    print("\n".join(tab_p))
    print()
    print("\n".join(tab_cpu))
    if have_b:
        print()
        for line in md:
            if line.startswith("Goal:"):
                print(line)
    log(f"wrote {args.out_dir / 'lugre_stick_slip.md'} and .png ({time.perf_counter() - t_start:.0f} s in total)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
