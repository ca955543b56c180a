"""Figure gallery: regenerates every figure the project reproduces.

    python3 -m bristle.gallery --out DIR [--only NAME ...] [--threads N] [--examples DIR] [--list]

writes DIR/<name>.png (matplotlib, Agg) for every registered figure, DIR/<name>.npz with the plotted
data, and DIR/index.html showing them with captions naming the paper figure and the parameters.
Progress goes to stderr.

The gallery is a registry: a figure is one function decorated with ``@figure(name, title=...,
source=...)`` that takes the Context and returns ``Rendered(data, caption, draw)``; ``data`` is a dict
of arrays and numbers (what the tests check against the library's validated values), ``draw(fig)``
draws into a matplotlib Figure. The parameters come from the example scenarios (examples/*.toml),
which state every value the papers leave open; the steady maps are computed by the parallel sweeps
(bit-identical to the scenario runner), the transient runs and the LuGre scenarios in parallel threads.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import html
import os
import platform
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import numpy as np

from . import _bristle, papers
from .sweeps import StderrProgress, default_threads, sweep_steady_line

io = _bristle.io
transport = _bristle.transport
contact = _bristle.contact

__all__ = ["Rendered", "Entry", "REGISTRY", "figure", "Context", "compute", "render", "main", "find_examples"]


# The papers the figures come from (named in the index).
REFERENCES = {
    "LuGre 1995": "C. Canudas de Wit, H. Olsson, K. J. Astrom, P. Lischinsky: A new model for control of systems "
                  "with friction. IEEE Transactions on Automatic Control 40(3), 1995 (the experiments of its "
                  "section on the model's properties).",
    "Paper 1": "Dynamic sliding and rolling friction models for viscoelastic contact pairs "
               "(shared/papers/viscoelastic-sliding-rolling-friction.md), section 5 (line contact), with the "
               "errata of shared/notes/errata.md.",
}


# ---- Registry ---------------------------------------------------------------------------------------

@dataclass
class Rendered:
    """What a figure function returns: the plotted data, the caption (plain text) and a draw(fig)."""
    data: Dict[str, Any]
    caption: str
    draw: Callable[[Any], None]
    size: tuple = (10.0, 4.2)


@dataclass
class Entry:
    name: str
    title: str
    source: str          # the paper figure, e.g. "Paper 1, Fig. 5"
    function: Callable[["Context"], Rendered]
    examples: tuple = ()  # example scenario stems it needs


REGISTRY: Dict[str, Entry] = {}


def figure(name: str, *, title: str, source: str, examples: tuple = ()):
    """Registers a figure function (gallery order = registration order)."""
    def register(fn):
        if name in REGISTRY:
            raise ValueError(f"gallery: figure {name!r} registered twice")
        REGISTRY[name] = Entry(name, title, source, fn, tuple(examples))
        return fn
    return register


# ---- Context: examples, caches, parallel runs --------------------------------------------------------

def find_examples(explicit: Optional[str] = None) -> Path:
    """The examples directory: --examples, $BRISTLE_EXAMPLES, $BRISTLE_SOURCE_DIR/examples, the source
    tree the module was built from, or an examples/ directory in the working directory or above."""
    candidates: List[Path] = []
    if explicit:
        candidates.append(Path(explicit))
    for var in ("BRISTLE_EXAMPLES",):
        if os.environ.get(var):
            candidates.append(Path(os.environ[var]))
    if os.environ.get("BRISTLE_SOURCE_DIR"):
        candidates.append(Path(os.environ["BRISTLE_SOURCE_DIR"]) / "examples")
    try:
        from ._config import SOURCE_DIR  # written by CMake
        candidates.append(Path(SOURCE_DIR) / "examples")
    except ImportError:
        pass
    here = Path.cwd()
    for p in [here, *here.parents]:
        candidates.append(p / "examples")
    for c in candidates:
        if (c / "lugre_stick_slip.toml").is_file():
            return c.resolve()
    raise FileNotFoundError("gallery: cannot find the examples directory (looked for lugre_stick_slip.toml in "
                            + ", ".join(str(c) for c in candidates[:6]) + ", ...); pass --examples DIR")


class Context:
    """Shared state of a gallery run: where the examples are, worker threads, cached results."""

    def __init__(self, examples: Optional[str] = None, threads: Optional[int] = None, verbose: bool = True):
        self.examples = find_examples(examples)
        self.threads = int(threads) if threads else default_threads()
        self.verbose = verbose
        self._cache: Dict[str, Any] = {}
        self._locks: Dict[str, threading.Lock] = {}
        self._lock = threading.Lock()

    def log(self, message: str) -> None:
        if self.verbose:
            sys.stderr.write(message + "\n")
            sys.stderr.flush()

    def example(self, stem: str) -> Path:
        path = self.examples / f"{stem}.toml"
        if not path.is_file():
            raise FileNotFoundError(f"gallery: example {path} is missing")
        return path

    def cached(self, key: str, compute: Callable[[], Any]) -> Any:
        """compute() once per key, thread-safe (concurrent callers of the same key wait)."""
        with self._lock:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self._cache:
                self._cache[key] = compute()
            return self._cache[key]

    def progress(self, label: str):
        return StderrProgress(label) if self.verbose else None

    # -- scenarios --------------------------------------------------------------------------------
    def scenario(self, stem: str):
        """(Scenario, RunResult) of an example, run once (the C++ runner, GIL released)."""
        def run():
            scenario = io.load_scenario(str(self.example(stem)))
            start = time.perf_counter()
            result = scenario.run()
            self.log(f"  {stem}: {scenario.case_count} case(s) in {time.perf_counter() - start:.1f} s")
            return scenario, result
        return self.cached("scenario:" + stem, run)

    def prefetch(self, stems: List[str]) -> None:
        """Runs several scenarios concurrently (each run releases the GIL)."""
        stems = [s for s in stems if "scenario:" + s not in self._cache]
        if not stems:
            return
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.threads) as pool:
            for f in [pool.submit(self.scenario, s) for s in stems]:
                f.result()

    def steady_study(self, stem: str) -> "SteadyStudy":
        """A line_steady example solved by the parallel sweep (bit-identical to its scenario run)."""
        return self.cached("steady:" + stem, lambda: _solve_steady_study(self, stem))

    def transient_study(self, stem: str) -> "TransientStudy":
        """A line_transient example, its cases run in parallel threads (as its scenario runner does)."""
        return self.cached("transient:" + stem, lambda: _run_transient_study(self, stem))


@dataclass
class SteadyStudy:
    scenario: Any
    cases: List[Any]
    velocities: np.ndarray      # sliding: V_x; rolling: v_x (m/s)
    V1: np.ndarray
    V2: np.ndarray
    force: np.ndarray           # (cases, velocities, 2), N
    mu: np.ndarray              # (cases, velocities): mu(|v_r|) of eq. 53
    seconds: float
    threads: int

    @property
    def Fx(self) -> np.ndarray:
        return self.force[..., 0]

    @property
    def Fx_norm(self) -> np.ndarray:
        loads = np.array([c.line.normal_load_N for c in self.cases])[:, None]
        return self.Fx / (self.mu * loads)

    def column(self, case, name, default=None):
        return dict(case.columns).get(name, default)


def _solve_steady_study(ctx: Context, stem: str) -> SteadyStudy:
    scenario = io.load_scenario(str(ctx.example(stem)))
    cases = scenario.cases
    V1, V2 = cases[0].material_velocities()
    for c in cases[1:]:
        a, b = c.material_velocities()
        if not (np.array_equal(a, V1) and np.array_equal(b, V2)):
            raise ValueError(f"gallery: the cases of {stem} have different velocity grids")
    items = [(c.model(), c.line) for c in cases]
    result = sweep_steady_line(items, V1=V1, V2=V2, threads=ctx.threads,
                               progress=ctx.progress(f"  {stem}") if ctx.verbose else None)
    ctx.log(f"  {stem}: {result.points} steady points on {result.threads} threads in {result.seconds:.2f} s")
    mu = np.empty(result.force_N.shape[:2])
    for j, c in enumerate(cases):
        for i, v in enumerate(V2 - V1):
            mu[j, i] = c.law.M.M([v, 0.0])[0, 0]  # as the scenario runner does (eq. 53 at |v_r|)
    return SteadyStudy(scenario, cases, np.asarray(cases[0].velocities), V1, V2, result.force_N, mu,
                       result.seconds, result.threads)


@dataclass
class TransientStudy:
    scenario: Any
    cases: List[Any]
    runs: List[Any]             # transport.LineRun per case
    steady: np.ndarray          # (cases, 2): steady force at the final velocities (N)
    seconds: float


def _run_transient_study(ctx: Context, stem: str) -> TransientStudy:
    scenario = io.load_scenario(str(ctx.example(stem)))
    cases = scenario.cases
    models = [c.model() for c in cases]
    done = [0]
    lock = threading.Lock()

    def run(j):
        c = cases[j]
        lc = transport.LineContact(models[j], c.line)
        lc.reset(c.time.t_start_s)
        r = transport.run(lc, c.output_times(), c.field_times)
        with lock:
            done[0] += 1
            ctx.log(f"  {stem}: case {done[0]}/{len(cases)} ({c.label}) done, {r.steps} steps")
        return r

    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=ctx.threads) as pool:
        runs = list(pool.map(run, range(len(cases))))
    steady = np.array([transport.steady_state(m, c.line, c.line.V1(c.time.t_end_s), c.line.V2(c.time.t_end_s)).force_N
                       for m, c in zip(models, cases)])
    return TransientStudy(scenario, cases, runs, steady, time.perf_counter() - start)


# ---- Helpers for drawing ---------------------------------------------------------------------------

S_COLOURS = {0.2: "tab:blue", 0.4: "tab:orange", 0.6: "tab:green", 0.8: "tab:red"}
STYLES = [dict(ls="-", lw=2.2), dict(ls="--", lw=1.3), dict(ls="-.", lw=1.3)]


def _colour(s: float) -> str:
    return S_COLOURS.get(round(float(s), 6), "black")


def _style_legend(ax, labels: List[str], title: str):
    from matplotlib.lines import Line2D
    handles = [Line2D([], [], color="0.3", **STYLES[k]) for k in range(len(labels))]
    return ax.legend(handles, labels, title=title, fontsize=8, title_fontsize=8, loc="lower right")


def _s_legend(ax, s_values, loc="upper right"):
    from matplotlib.lines import Line2D
    handles = [Line2D([], [], color=_colour(s), lw=2) for s in s_values]
    leg = ax.legend(handles, [f"s = {s:g}" for s in s_values], fontsize=8, loc=loc)
    ax.add_artist(leg)


def _law_text(law) -> str:
    a = law.M.axis1
    return (f"{law.kind.name} law, mu_s = {a.mu_s:g}, mu_d = {a.mu_d:g}, v_S = {a.v_s:g} m/s, "
            f"delta_S = {a.delta_s:g}, mu_v = {a.mu_v:g} s/m, eps = {law.eps:g} m^2/s^2")


def _body_text(body) -> str:
    k = body.k_elastic[0, 0]
    if body.kind.name == "rigid":
        return "rigid"
    if not body.branches:
        return f"elastic, k0 = {k:g} 1/m"
    br = ", ".join(f"(c = {b.c[0, 0]:.4g} s/m, tau = {b.c[0, 0] / b.k[0, 0]:.3g} s)" for b in body.branches)
    return f"{body.kind.name.upper()}, k0 = {k:g} 1/m, branches {br}"


def _lugre_text(case) -> str:
    law, bench = case.law, case.bench
    a = law.M.axis1
    return (f"LuGre: F_s = {a.mu_s:g} N, F_c = {a.mu_d:g} N (F_z = {bench.normal_load(0.0):g} N), "
            f"v_s = {a.v_s:g} m/s, sigma0 = {case.body1.k_elastic[0, 0]:g} N/m, "
            f"sigma1 = {law.sigma1[0, 0]:.6g} N s/m, sigma2 = {law.sigma2[0, 0]:g} N s/m")


# ---- LuGre 1995 experiments (Canudas de Wit, Olsson, Astrom, Lischinsky, IEEE TAC 40(3)) ------------

LUGRE = "LuGre 1995"


@figure("lugre_presliding", title="force-displacement hysteresis below the static force",
        source=f"{LUGRE}, presliding displacement", examples=("lugre_presliding",))
def lugre_presliding(ctx: Context) -> Rendered:
    scenario, result = ctx.scenario("lugre_presliding")
    s = result.cases[0].series
    data = {k: np.array(s[k]) for k in ("t_s", "x_m", "F_N", "F_applied_N")}
    x_max = float(np.max(np.abs(data["x_m"])))
    data["x_max_m"] = x_max
    case = scenario.cases[0]
    caption = (f"Applied force against displacement of a 1 kg mass on a LuGre contact, the force ramped "
               f"0 -> +0.95 F_s -> -0.95 F_s -> +0.95 F_s -> -0.95 F_s (1.425 N): below F_s the mass never slides, "
               f"it creeps by micrometres along a spring-like hysteresis loop (max |x| = {x_max * 1e6:.1f} um). "
               f"{_lugre_text(case)}. Scenario examples/lugre_presliding.toml, CVODE rtol "
               f"{case.integrator.rtol:g}.")

    def draw(fig):
        ax1, ax2 = fig.subplots(1, 2)
        ax1.plot(data["x_m"] * 1e6, data["F_applied_N"], lw=1.4)
        ax1.set_xlabel("displacement x (um)")
        ax1.set_ylabel("applied force F_ext (N)")
        ax1.set_title("presliding hysteresis")
        ax1.grid(alpha=0.3)
        ax2.plot(data["t_s"], data["F_applied_N"], label="applied F_ext")
        ax2.plot(data["t_s"], -data["F_N"], "--", label="friction -F")
        ax2.set_xlabel("t (s)")
        ax2.set_ylabel("force (N)")
        ax2b = ax2.twinx()
        ax2b.plot(data["t_s"], data["x_m"] * 1e6, color="tab:green", lw=1, label="x")
        ax2b.set_ylabel("x (um)", color="tab:green")
        ax2.legend(fontsize=8, loc="lower left")
        ax2.grid(alpha=0.3)
    return Rendered(data, caption, draw)


@figure("lugre_frictional_lag", title="friction-velocity loops",
        source=f"{LUGRE}, frictional lag", examples=("lugre_frictional_lag",))
def lugre_frictional_lag(ctx: Context) -> Rendered:
    scenario, result = ctx.scenario("lugre_frictional_lag")
    data: Dict[str, Any] = {"omega": []}
    for c in result.cases:
        s = c.series
        omega = c.sweep_value
        t, v, F = np.array(s["t_s"]), np.array(s["vr_mps"]), np.array(s["F_N"])
        last = t >= t[-1] - 2 * np.pi / omega - 1e-12  # the last period: the settled loop
        data["omega"].append(omega)
        data[f"v_{omega:g}"] = v[last]
        data[f"F_{omega:g}"] = F[last]
        data[f"t_{omega:g}"] = t[last]
    data["omega"] = np.array(data["omega"])
    case = scenario.cases[0]
    caption = (f"Friction force against velocity for v(t) = 1e-3 (cos(omega t) + 1.5) m/s, omega = "
               f"{', '.join(f'{w:g}' for w in data['omega'])} rad/s, last period of each run: the force is lower for "
               f"decreasing than for increasing velocity, and the loop widens with omega. {_lugre_text(case)}. "
               f"Scenario examples/lugre_frictional_lag.toml.")

    def draw(fig):
        ax = fig.add_subplot(1, 1, 1)
        for w in data["omega"]:
            ax.plot(data[f"v_{w:g}"] * 1e3, np.abs(data[f"F_{w:g}"]), label=f"omega = {w:g} rad/s")
        ax.set_xlabel("velocity v (mm/s)")
        ax.set_ylabel("friction |F| (N)")
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
    return Rendered(data, caption, draw, size=(7.0, 4.6))


def _breakaway_data(ctx: Context):
    def compute():
        scenario, result = ctx.scenario("lugre_breakaway")
        rates, forces, times, series = [], [], [], []
        for c in result.cases:
            t_b, f_b = contact.breakaway(c.series)
            rates.append(c.sweep_value)
            forces.append(f_b)
            times.append(t_b)
            series.append(c.series)
        return scenario, result, np.array(rates), np.array(forces), np.array(times), series
    return ctx.cached("breakaway", compute)


@figure("lugre_breakaway", title="friction under force ramps",
        source=f"{LUGRE}, varying break-away force (histories)", examples=("lugre_breakaway",))
def lugre_breakaway(ctx: Context) -> Rendered:
    scenario, result, rates, forces, times, series = _breakaway_data(ctx)
    data: Dict[str, Any] = {"rate_N_per_s": rates, "F_breakaway_N": forces, "t_breakaway_s": times}
    for r, s in zip(rates, series):
        data[f"t_{r:g}"] = np.array(s["t_s"])
        data[f"F_{r:g}"] = np.array(s["F_N"])
        data[f"v_{r:g}"] = np.array(s["v_mps"])
    caption = (f"Friction force and velocity of a 1 kg mass pushed by F_ext = r t, r = "
               f"{', '.join(f'{r:g}' for r in rates)} N/s, from rest, against the applied force r t up to 2 N: the "
               f"friction follows the applied force until break-away (its first maximum, marked), then drops towards "
               f"F_c while the mass accelerates; the faster the ramp, the lower the break-away force. "
               f"{_lugre_text(scenario.cases[0])}. Scenario examples/lugre_breakaway.toml.")

    def draw(fig):
        ax1, ax2 = fig.subplots(1, 2)
        for r, tb, fb in zip(rates, times, forces):
            applied = r * data[f"t_{r:g}"]
            keep = applied <= 2.0
            line, = ax1.plot(applied[keep], np.abs(data[f"F_{r:g}"][keep]), lw=1.2, label=f"r = {r:g} N/s")
            ax1.plot([r * tb], [fb], "o", color=line.get_color(), ms=4)
            ax2.plot(applied[keep], data[f"v_{r:g}"][keep] * 1e3, lw=1.2, color=line.get_color())
        ax1.set_xlabel("applied force F_ext = r t (N)")
        ax1.set_ylabel("friction |F| (N)")
        ax1.legend(fontsize=7, ncol=2)
        ax2.set_xlabel("applied force F_ext = r t (N)")
        ax2.set_ylabel("velocity (mm/s)")
        ax2.set_yscale("symlog", linthresh=1e-3)
        for a in (ax1, ax2):
            a.grid(alpha=0.3)
    return Rendered(data, caption, draw)


@figure("lugre_breakaway_rate", title="break-away force against force rate",
        source=f"{LUGRE}, varying break-away force", examples=("lugre_breakaway",))
def lugre_breakaway_rate(ctx: Context) -> Rendered:
    scenario, result, rates, forces, times, _ = _breakaway_data(ctx)
    law = scenario.cases[0].law
    data = {"rate_N_per_s": rates, "F_breakaway_N": forces, "F_s_N": law.M.axis1.mu_s, "F_c_N": law.M.axis1.mu_d}
    caption = (f"Break-away force (first maximum of the friction under F_ext = r t) against the force rate r: "
               f"{', '.join(f'{f:.4f}' for f in forces)} N for r = {', '.join(f'{r:g}' for r in rates)} N/s, decreasing "
               f"from near F_s = {data['F_s_N']:g} N towards F_c = {data['F_c_N']:g} N. Same runs as lugre_breakaway.")

    def draw(fig):
        ax = fig.add_subplot(1, 1, 1)
        ax.semilogx(rates, forces, "o-")
        ax.axhline(data["F_s_N"], color="0.5", ls="--", lw=1)
        ax.axhline(data["F_c_N"], color="0.5", ls=":", lw=1)
        ax.text(rates[0], data["F_s_N"], " F_s", va="bottom", fontsize=8)
        ax.text(rates[0], data["F_c_N"], " F_c", va="bottom", fontsize=8)
        ax.set_xlabel("force rate r (N/s)")
        ax.set_ylabel("break-away force (N)")
        ax.grid(alpha=0.3, which="both")
    return Rendered(data, caption, draw, size=(7.0, 4.4))


@figure("lugre_stick_slip", title="mass pulled through a spring", source=f"{LUGRE}, stick-slip",
        examples=("lugre_stick_slip",))
def lugre_stick_slip(ctx: Context) -> Rendered:
    scenario, result = ctx.scenario("lugre_stick_slip")
    s = result.cases[0].series
    data = {k: np.array(s[k]) for k in ("t_s", "x_m", "v_mps", "F_N")}
    cycle = contact.stick_slip_cycle(s)
    data.update(period_s=cycle.period_s, peak_friction_N=cycle.peak_friction_N, cycles=cycle.cycles)
    case = scenario.cases[0]
    caption = (f"A 1 kg mass pulled through a spring k = {case.bench.spring_N_per_m:g} N/m whose end moves at "
               f"{case.bench.input(0.0):g} m/s: stick-slip limit cycle with period {cycle.period_s:.5f} s and peak "
               f"friction {cycle.peak_friction_N:.5f} N (mean of the last {cycle.cycles} cycles). {_lugre_text(case)}. "
               f"Scenario examples/lugre_stick_slip.toml, CVODE rtol {case.integrator.rtol:g}.")

    def draw(fig):
        axes = fig.subplots(3, 1, sharex=True)
        for ax, key, label in zip(axes, ("x_m", "v_mps", "F_N"), ("x (m)", "v (m/s)", "friction F (N)")):
            ax.plot(data["t_s"], data[key], lw=1)
            ax.set_ylabel(label)
            ax.grid(alpha=0.3)
        axes[-1].set_xlabel("t (s)")
    return Rendered(data, caption, draw, size=(9.0, 6.5))


# ---- Paper 1, §5: line contact ----------------------------------------------------------------------

P1 = "Paper 1"


def _steady_panels(fig, study: SteadyStudy, select, style_of, style_labels, style_title, xlabel, xscale, vel):
    ax1, ax2 = fig.subplots(1, 2)
    for j, c in enumerate(study.cases):
        if not select(c):
            continue
        kw = dict(color=_colour(c.s), **STYLES[style_of(c)])
        ax1.plot(vel, np.abs(study.Fx[j]), **kw)
        ax2.plot(vel, np.abs(study.Fx_norm[j]), **kw)
    ax1.set_ylabel("|F_x| (N)")
    ax2.set_ylabel("|F_x / (mu F_z)| (-)")
    for ax in (ax1, ax2):
        ax.set_xlabel(xlabel)
        ax.set_xscale(xscale)
        ax.grid(alpha=0.3, which="both")
    s_values = sorted({round(c.s, 6) for c in study.cases})
    _s_legend(ax2, s_values, loc="upper left" if xscale == "log" else "upper center")
    _style_legend(ax2, style_labels, style_title)


def _steady_caption(study: SteadyStudy, what: str, table: str) -> str:
    c = study.cases[0]
    v = study.velocities
    spacing = "log-spaced" if c.log_x else "linearly spaced"
    kin = (f"sliding, V1 = 0, V2 = V_x, {len(v)} speeds V_x = {v[0]:g} .. {v[-1]:g} m/s ({spacing})"
           if c.mode.name == "sliding" else
           f"rolling, V_r = {study.cases[0].Vr_mps:g} m/s, {len(v)} values v_x = V_x - V_r = {v[0]:g} .. {v[-1]:g} m/s")
    return (f"{what} Parameters ({table}): {_law_text(c.law)}; L = {c.line.L_m:g} m, F_z = {c.line.normal_load_N:g} N, "
            f"uniform pressure; body 1: {_body_text(c.body1)}; body 2: k02 = k01 (1 - s)/s with the case's branches "
            f"(first case, s = {c.s:g}: {_body_text(c.body2)}). Kinematics: {kin}. Solved by "
            f"transport.steady_state (matrix exponential, exact) for {study.force.shape[0]} cases x {len(v)} "
            f"velocities by the parallel sweep ({study.threads} threads, {study.seconds:.2f} s). Scenario "
            f"examples/{study.scenario.name}.toml.")


@figure("paper1_fig5", title="Steady sliding force: s and substrate branches",
        source=f"{P1}, Fig. 5", examples=("fig5_sliding_steady",))
def paper1_fig5(ctx: Context) -> Rendered:
    st = ctx.steady_study("fig5_sliding_steady")
    data = {"V_mps": st.velocities, "s": np.array([c.s for c in st.cases]), "n2": np.array([c.n2 for c in st.cases]),
            "Fx_N": st.Fx, "Fx_norm": st.Fx_norm, "mu": st.mu, "L_m": st.cases[0].line.L_m,
            "F_z_N": st.cases[0].line.normal_load_N}
    caption = _steady_caption(
        st, "Steady longitudinal force |F_x| and normalised force |F_x/(mu F_z)| against the sliding speed for "
        "s = 0.2, 0.4, 0.6, 0.8 (colours) and n2 = 0 (solid thick), 1 (dashed), 2 (dash-dotted) substrate "
        "branches with dampings from eq. 58: smaller s and fewer branches give larger forces. n2 = 0 is eq. 57 "
        "(see paper1_eq57).", "Table 1")

    def draw(fig):
        _steady_panels(fig, st, lambda c: True, lambda c: c.n2, ["n2 = 0", "n2 = 1", "n2 = 2"], "substrate branches",
                       "sliding speed V_x (m/s)", "log", st.velocities)
    return Rendered(data, caption, draw)


def _fig6(ctx: Context, n2: int, panel: str) -> Rendered:
    st = ctx.steady_study("fig6_sliding_relaxation")
    keep = [j for j, c in enumerate(st.cases) if c.n2 == n2]
    taus = sorted({st.column(st.cases[j], "tau2") for j in keep})
    data = {"V_mps": st.velocities, "s": np.array([st.cases[j].s for j in keep]),
            "tau2_s": np.array([st.column(st.cases[j], "tau2") for j in keep]),
            "Fx_N": st.Fx[keep], "Fx_norm": st.Fx_norm[keep], "n2": n2}
    caption = _steady_caption(
        st, f"Fig. 6({panel}): steady |F_x| and |F_x/(mu F_z)| against the sliding speed with n2 = {n2} substrate "
        f"branch{'es' if n2 > 1 else ''}, relaxation times tau_i,2 = {', '.join(f'{t:g}' for t in taus)} s (solid "
        "thick, dashed, dash-dotted) and s = 0.2 .. 0.8 (colours); substrate dampings from eq. 58, c_i,2 = tau_i,2 "
        "k01 (1 - s)/s: the force grows with the relaxation time.", "Table 1")

    def draw(fig):
        _steady_panels(fig, st, lambda c: c.n2 == n2, lambda c: taus.index(st.column(c, "tau2")),
                       [f"tau_i,2 = {t:g} s" for t in taus], "relaxation time", "sliding speed V_x (m/s)", "log",
                       st.velocities)
    return Rendered(data, caption, draw)


@figure("paper1_fig6a", title="Steady sliding force: substrate relaxation time, one branch",
        source=f"{P1}, Fig. 6(a)", examples=("fig6_sliding_relaxation",))
def paper1_fig6a(ctx: Context) -> Rendered:
    return _fig6(ctx, 1, "a")


@figure("paper1_fig6b", title="Steady sliding force: substrate relaxation time, two branches",
        source=f"{P1}, Fig. 6(b)", examples=("fig6_sliding_relaxation",))
def paper1_fig6b(ctx: Context) -> Rendered:
    return _fig6(ctx, 2, "b")


def _transient_figure(ctx: Context, stem: str, keep: Callable[[Any], bool], what: str, table: str,
                      t_scale: float, t_unit: str) -> Rendered:
    ts = ctx.transient_study(stem)
    idx = [j for j, c in enumerate(ts.cases) if keep(c)]
    taus = sorted({dict(ts.cases[j].columns).get("tau2") for j in idx})
    data: Dict[str, Any] = {"s": np.array([ts.cases[j].s for j in idx]),
                            "tau2_s": np.array([dict(ts.cases[j].columns).get("tau2") for j in idx]),
                            "steady_Fx_N": ts.steady[idx, 0], "labels": [ts.cases[j].label for j in idx]}
    data["t_s"] = np.array(ts.runs[idx[0]].series["t_s"])
    data["Fx_N"] = np.array([np.array(ts.runs[j].series["Fx_N"]) for j in idx])
    c = ts.cases[idx[0]]
    caption = (f"{what} Curves: s = 0.4, 0.8 (colours), tau_i,2 = {', '.join(f'{t:g}' for t in taus)} s (solid thick, "
               f"dashed); dotted: the steady force of transport.steady_state at the final velocities. Parameters "
               f"({table}): {_law_text(c.law)}; L = {c.line.L_m:g} m, F_z = {c.line.normal_load_N:g} N; body 1: "
               f"{_body_text(c.body1)}; body 2: k02 = k01 (1 - s)/s (first case, s = {c.s:g}: {_body_text(c.body2)}); "
               f"n1 = n2 = 2. Solver: transport.LineContact, {c.line.cells} cells, Courant "
               f"number {c.line.cfl:g}, {c.line.limiter.name} limiter, from an unloaded contact; the {len(ts.cases)} "
               f"runs in parallel threads ({ts.seconds:.1f} s). Scenario examples/{stem}.toml.")

    def draw(fig):
        ax = fig.add_subplot(1, 1, 1)
        for k, j in enumerate(idx):
            cj = ts.cases[j]
            style = STYLES[taus.index(dict(cj.columns).get("tau2"))]
            ax.plot(data["t_s"] * t_scale, np.abs(data["Fx_N"][k]), color=_colour(cj.s), **style)
            ax.axhline(abs(data["steady_Fx_N"][k]), color=_colour(cj.s), ls=":", lw=0.8)
        ax.set_xlabel(f"t ({t_unit})")
        ax.set_ylabel("|F_x(t)| (N)")
        ax.grid(alpha=0.3)
        _s_legend(ax, sorted({round(ts.cases[j].s, 6) for j in idx}), loc="center right")
        _style_legend(ax, [f"tau_i,2 = {t:g} s" for t in taus], "relaxation time")
    return Rendered(data, caption, draw, size=(8.0, 4.6))


def _sliding_speed(case) -> float:
    return case.line.V2(0.0)


@figure("paper1_fig7a", title="Transient sliding from rest, V_x = 0.1 m/s", source=f"{P1}, Fig. 7(a)",
        examples=("fig7_sliding_transient",))
def paper1_fig7a(ctx: Context) -> Rendered:
    return _transient_figure(ctx, "fig7_sliding_transient", lambda c: np.isclose(_sliding_speed(c), 0.1),
                             "Fig. 7(a): |F_x(t)| of a block sliding at V_x = 0.1 m/s from t = 0 over a viscoelastic "
                             "substrate: smaller s gives larger forces.", "Table 1", 1.0, "s")


@figure("paper1_fig7b", title="Transient sliding from rest, V_x = 0.3 m/s", source=f"{P1}, Fig. 7(b)",
        examples=("fig7_sliding_transient",))
def paper1_fig7b(ctx: Context) -> Rendered:
    return _transient_figure(ctx, "fig7_sliding_transient", lambda c: np.isclose(_sliding_speed(c), 0.3),
                             "Fig. 7(b): |F_x(t)| of a block sliding at V_x = 0.3 m/s from t = 0 over a viscoelastic "
                             "substrate.", "Table 1", 1.0, "s")


@figure("paper1_fig8", title="Steady rolling force: s and rheology orders", source=f"{P1}, Fig. 8",
        examples=("fig8_rolling_steady",))
def paper1_fig8(ctx: Context) -> Rendered:
    st = ctx.steady_study("fig8_rolling_steady")
    data = {"vx_mps": st.velocities, "Vr_mps": st.cases[0].Vr_mps, "s": np.array([c.s for c in st.cases]),
            "n": np.array([c.n2 for c in st.cases]), "Fx_N": st.Fx, "Fx_norm": st.Fx_norm, "mu": st.mu,
            "L_m": st.cases[0].line.L_m, "F_z_N": st.cases[0].line.normal_load_N, "eps": st.cases[0].law.eps}
    caption = _steady_caption(
        st, "Steady rolling force |F_x| and |F_x/(mu F_z)| against the rigid relative velocity v_x = V_x - V_r for "
        "s = 0.2 .. 0.8 (colours) and n1 = n2 = 0 (solid thick), 1 (dashed), 2 (dash-dotted) branches in both bodies: "
        "the force vanishes at v_x = 0 and the rheology has only a minor influence. n = 0 is eq. 62 (see "
        "paper1_eq62).", "Table 2")

    def draw(fig):
        _steady_panels(fig, st, lambda c: True, lambda c: c.n2, ["n = 0", "n = 1", "n = 2"], "branches per body",
                       "v_x = V_x - V_r (m/s)", "linear", st.velocities)
    return Rendered(data, caption, draw)


@figure("paper1_fig9", title="Transient rolling after a velocity step", source=f"{P1}, Fig. 9",
        examples=("fig9_rolling_transient",))
def paper1_fig9(ctx: Context) -> Rendered:
    return _transient_figure(ctx, "fig9_rolling_transient", lambda c: True,
                             "Fig. 9: |F_x(t)| of a cylinder rolling at V_r = 16 m/s after a step of the rigid relative "
                             "velocity to v_x = -3.2 m/s (V_x = 12.8 m/s) from an unloaded contact: smaller s gives "
                             "slightly larger forces, reached sooner.", "Table 2", 1e3, "ms")


def _relative_error(solver, closed, floor):
    return np.abs(solver - closed) / np.maximum(np.abs(closed), floor)


@figure("paper1_eq57", title="Closed form eq. 57 against the steady solver (sliding)",
        source=f"{P1}, eq. 57 (Fig. 5, n2 = 0)", examples=("fig5_sliding_steady",))
def paper1_eq57(ctx: Context) -> Rendered:
    st = ctx.steady_study("fig5_sliding_steady")
    idx = [j for j, c in enumerate(st.cases) if c.n2 == 0]
    L = st.cases[0].line.L_m
    closed = np.array([papers.eq57(st.mu[j], st.cases[j].s, L) for j in idx])
    solver = st.Fx_norm[idx]
    err = _relative_error(solver, closed, 1e-300)
    data = {"V_mps": st.velocities, "s": np.array([st.cases[j].s for j in idx]), "solver": solver,
            "eq57": closed, "rel_error": err, "max_rel_error": float(err.max())}
    caption = (f"Normalised steady sliding force F_x/(mu F_z) of the elastic pair (n2 = 0 substrate branches) from "
               f"transport.steady_state (lines) and the closed form eq. 57 (markers), and their relative difference "
               f"(lower panel): at most {data['max_rel_error']:.1e} over s = 0.2 .. 0.8 and {len(st.velocities)} speeds "
               f"(the test requires 1e-10). Parameters as paper1_fig5 (Table 1).")

    def draw(fig):
        ax1, ax2 = fig.subplots(1, 2)
        every = max(1, len(st.velocities) // 20)
        for k, j in enumerate(idx):
            col = _colour(st.cases[j].s)
            ax1.plot(st.velocities, -solver[k], color=col, lw=1.5, label=f"s = {st.cases[j].s:g}")
            ax1.plot(st.velocities[::every], -closed[k][::every], "o", color=col, ms=3.5, mfc="none")
            ax2.plot(st.velocities, np.maximum(err[k], 1e-17), color=col, lw=1)
        ax1.set_ylabel("-F_x / (mu F_z)")
        ax1.legend(fontsize=8, title="lines: solver, o: eq. 57", title_fontsize=8)
        ax2.set_ylabel("relative difference")
        ax2.set_yscale("log")
        ax2.axhline(1e-10, color="0.4", ls="--", lw=1)
        for ax in (ax1, ax2):
            ax.set_xscale("log")
            ax.set_xlabel("sliding speed V_x (m/s)")
            ax.grid(alpha=0.3, which="both")
    return Rendered(data, caption, draw)


@figure("paper1_eq62", title="Closed form eq. 62 against the steady solver (rolling)",
        source=f"{P1}, eq. 62 (Fig. 8, n = 0)", examples=("fig8_rolling_steady",))
def paper1_eq62(ctx: Context) -> Rendered:
    st = ctx.steady_study("fig8_rolling_steady")
    idx = [j for j, c in enumerate(st.cases) if c.n2 == 0]
    c0 = st.cases[0]
    L, Vr, eps = c0.line.L_m, c0.Vr_mps, c0.law.eps
    closed = np.array([papers.eq62(st.mu[j], st.cases[j].s, L, st.velocities, Vr, eps) for j in idx])
    solver = st.Fx_norm[idx]
    # relative to the force scale away from v_x = 0, where both vanish
    err = _relative_error(solver, closed, 1e-6)
    data = {"vx_mps": st.velocities, "s": np.array([st.cases[j].s for j in idx]), "solver": solver, "eq62": closed,
            "rel_error": err, "max_rel_error": float(err.max()), "Vr_mps": Vr, "eps": eps}
    caption = (f"Normalised steady rolling force F_x/(mu F_z) of the elastic pair (n1 = n2 = 0) from "
               f"transport.steady_state (lines) and the closed form eq. 62 (markers; regularisation eps = {eps:g} "
               f"m^2/s^2 applied to ||M v|| as in eq. 2), and their difference relative to max(|eq. 62|, 1e-6) (lower "
               f"panel): at most {data['max_rel_error']:.1e}. V_r = {Vr:g} m/s; parameters as paper1_fig8 (Table 2).")

    def draw(fig):
        ax1, ax2 = fig.subplots(1, 2)
        every = max(1, len(st.velocities) // 25)
        for k, j in enumerate(idx):
            col = _colour(st.cases[j].s)
            ax1.plot(st.velocities, solver[k], color=col, lw=1.5, label=f"s = {st.cases[j].s:g}")
            ax1.plot(st.velocities[::every], closed[k][::every], "o", color=col, ms=3.5, mfc="none")
            ax2.plot(st.velocities, np.maximum(err[k], 1e-17), color=col, lw=1)
        ax1.set_ylabel("F_x / (mu F_z)")
        ax1.legend(fontsize=8, title="lines: solver, o: eq. 62", title_fontsize=8)
        ax2.set_ylabel("relative difference")
        ax2.set_yscale("log")
        ax2.axhline(1e-10, color="0.4", ls="--", lw=1)
        for ax in (ax1, ax2):
            ax.set_xlabel("v_x = V_x - V_r (m/s)")
            ax.grid(alpha=0.3, which="both")
    return Rendered(data, caption, draw)


# ---- Papers 2 and 3 (directional friction, elastic structures): python/bristle/_gallery_papers23.py ----

from . import _gallery_papers23  # noqa: E402  (registers its figures here, after paper 1's)

# ---- Running -------------------------------------------------------------------------------------------

def compute(name: str, ctx: Optional[Context] = None) -> Rendered:
    """The Rendered result (data, caption, draw) of one registered figure."""
    if name not in REGISTRY:
        raise KeyError(f"gallery: no figure {name!r} (registered: {', '.join(REGISTRY)})")
    return REGISTRY[name].function(ctx or Context(verbose=False))


def render(rendered: Rendered, path: Path, title: str, dpi: int = 110) -> None:
    """Draws a Rendered figure into a PNG (Agg; no display needed)."""
    import matplotlib
    matplotlib.use("Agg", force=True)
    from matplotlib.figure import Figure
    fig = Figure(figsize=rendered.size, layout="constrained")
    rendered.draw(fig)
    fig.suptitle(title, fontsize=11)
    fig.savefig(str(path), dpi=dpi)


def _save_data(data: Dict[str, Any], path: Path) -> None:
    arrays = {}
    for k, v in data.items():
        try:
            a = np.asarray(v)
        except Exception:  # noqa: BLE001 - skip what numpy cannot hold
            continue
        if a.dtype.kind in "biufcU":
            arrays[k] = a
    np.savez_compressed(str(path), **arrays)


def _index_html(entries: List[Entry], results: Dict[str, Rendered], errors: Dict[str, str], seconds: float,
                ctx: Context) -> str:
    from . import __version__
    stamp = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    machine = f"{platform.node()} ({platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()})"
    parts = [
        "<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>", "<title>bristle figure gallery</title>",
        "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
        "figure{margin:2.5em 0;border-top:1px solid #ccc;padding-top:1em}img{max-width:100%}"
        "figcaption{font-size:0.92em;line-height:1.4}.src{font-weight:bold}.err{color:#a00}"
        "code{background:#f4f4f4}</style></head><body>",
        "<h1>bristle figure gallery</h1>",
        f"<p>{len(results)} figures regenerated by <code>python3 -m bristle.gallery</code> (bristle {__version__}) on "
        f"{html.escape(stamp)}, {html.escape(machine)}, in {seconds:.1f} s with {ctx.threads} threads. Examples: "
        f"<code>{html.escape(str(ctx.examples))}</code>. Each figure's data are in <code>&lt;name&gt;.npz</code>.</p>",
        "<h2>References</h2>", "<ul>",
    ]
    for key, ref in REFERENCES.items():
        parts.append(f"<li><b>{html.escape(key)}</b>: {html.escape(ref)}</li>")
    parts += ["</ul>", "<h2>Figures</h2>", "<ul>"]
    for e in entries:
        parts.append(f"<li><a href='#{e.name}'>{html.escape(e.source)}</a>: {html.escape(e.title)}</li>")
    parts.append("</ul>")
    for e in entries:
        parts.append(f"<figure id='{e.name}'>")
        if e.name in results:
            parts.append(f"<img src='{e.name}.png' alt='{html.escape(e.title)}'>")
            parts.append(f"<figcaption><span class='src'>{html.escape(e.source)}</span> &mdash; "
                         f"{html.escape(e.title)}. {html.escape(results[e.name].caption)} "
                         f"(<code>{e.name}.png</code>)</figcaption>")
        else:
            parts.append(f"<figcaption class='err'><span class='src'>{html.escape(e.source)}</span>: not generated: "
                         f"{html.escape(errors.get(e.name, ''))}</figcaption>")
        parts.append("</figure>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m bristle.gallery",
                                     description="Regenerates every figure bristle reproduces (PNG + index.html).")
    parser.add_argument("--out", help="output directory (created if needed)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only these figures")
    parser.add_argument("--threads", type=int, default=None, help="worker threads (default: every core)")
    parser.add_argument("--examples", help="directory of the example scenarios (default: found automatically)")
    parser.add_argument("--dpi", type=int, default=110)
    parser.add_argument("--list", action="store_true", help="list the registered figures and exit")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    if args.list:
        for e in REGISTRY.values():
            print(f"{e.name:24s} {e.source}: {e.title}")
        return 0
    if not args.out:
        parser.error("--out DIR is required")
    names = args.only or list(REGISTRY)
    unknown = [n for n in names if n not in REGISTRY]
    if unknown:
        parser.error(f"unknown figure(s) {', '.join(unknown)}; --list shows them")
    ctx = Context(args.examples, args.threads, verbose=not args.quiet)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    entries = [REGISTRY[n] for n in names]
    start = time.perf_counter()
    ctx.log(f"gallery: {len(entries)} figures into {out} ({ctx.threads} threads, examples {ctx.examples})")
    # The LuGre scenarios are independent runs: start them together.
    # So are the paper 2 and paper 3 scenarios (each releases the GIL): start them together too.
    runner = set(_gallery_papers23.papers23_examples())
    lumped = sorted({ex for e in entries for ex in e.examples if ex.startswith("lugre_") or ex in runner})
    if lumped:
        ctx.log(f"gallery: running {', '.join(lumped)} in parallel")
        ctx.prefetch(lumped)
    results: Dict[str, Rendered] = {}
    errors: Dict[str, str] = {}
    for k, e in enumerate(entries, 1):
        t0 = time.perf_counter()
        ctx.log(f"[{k}/{len(entries)}] {e.name}: {e.source}")
        try:
            rendered = e.function(ctx)
            render(rendered, out / f"{e.name}.png", f"{e.source}: {e.title}", dpi=args.dpi)
            _save_data(rendered.data, out / f"{e.name}.npz")
            results[e.name] = rendered
            ctx.log(f"[{k}/{len(entries)}] {e.name}: done in {time.perf_counter() - t0:.1f} s")
        except Exception as exc:  # noqa: BLE001 - report every failing figure, keep going
            errors[e.name] = f"{type(exc).__name__}: {exc}"
            ctx.log(f"[{k}/{len(entries)}] {e.name}: FAILED: {errors[e.name]}")
    seconds = time.perf_counter() - start
    (out / "index.html").write_text(_index_html(entries, results, errors, seconds, ctx), encoding="utf-8")
    ctx.log(f"gallery: {len(results)}/{len(entries)} figures, {out / 'index.html'}, {seconds:.1f} s")
    return 0 if not errors else 1


if __name__ == "__main__":
    # `python3 -m bristle.gallery` runs this file as __main__, a second copy of the module; the figures of
    # _gallery_papers23 register into the package's bristle.gallery, so run that one's main().
    from bristle.gallery import main as _package_main
    sys.exit(_package_main())
