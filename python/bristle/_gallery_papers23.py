"""Gallery figures of paper 2 (directional friction) and paper 3 (elastic structures).

Imported by bristle.gallery (which owns the registry); every figure takes its parameters from an
example scenario (examples/*.toml) or states them in its caption, and returns the plotted data for
the tests in tests/python/test_gallery.py.
"""

from __future__ import annotations

from typing import Any, Dict, List

import numpy as np

from . import _bristle
from .gallery import REFERENCES, Context, Rendered, figure
from .sweeps import sweep_sliding_force

directional = _bristle.directional
structures = _bristle.structures

P2 = "Paper 2"
P3 = "Paper 3"
REFERENCES[P2] = ("P. Gidoni, A. DeSimone: On the genesis of directional friction through bristle-like mediating "
                  "elements (shared/papers/directional-friction-bristles.md), sections 2-3, with the errata of "
                  "shared/notes/errata.md.")
REFERENCES[P3] = ("Modelling elastic structures with strong nonlinearities with application to stick-slip friction "
                  "(fragment: shared/papers/elastic-structures-stick-slip-fragment.md), sections II-III; "
                  "docs/structures.md states what was reconstructed from the fragment.")

EPS_COLOURS = {0.1: "tab:red", 0.01: "tab:orange", 0.001: "tab:green", 0.0: "black"}


def _eps_colour(eps: float) -> str:
    return EPS_COLOURS.get(round(float(eps), 12), "tab:blue")


def _eps_label(eps: float) -> str:
    return "limit (play law)" if eps == 0.0 else f"eps = {eps:g} m"


def _profile_text(profile: Dict[str, Any]) -> str:
    kind = profile["kind"]
    if kind == "sine":
        shape = f"sine w = A sin(2 pi x), A = {profile['amplitude']:.6g}"
    elif kind == "ratchet":
        shape = f"ratchet A = {profile['amplitude']:.6g}, r = {profile['asymmetry']:g}"
    else:
        shape = kind
    return f"{shape} (omega_+ = {profile['omega_plus']:.6g}, omega_- = {profile['omega_minus']:.6g})"


def _mechanism_text(m: Dict[str, Any]) -> str:
    kind = m["kind"]
    if kind == "angular":
        geo = (f"angular spring k = {m['k']:g} N m/rad, h = {m['height_m']:g} m, L = {m['length_m']:g} m "
               f"(theta_lim = {m['theta_lim_rad']:.4f} rad), theta_rest = {m['theta_rest_rad']:g} rad")
    elif kind == "slanted":
        geo = (f"slanted spring k = {m['k']:g} N/m, h = {m['height_m']:g} m, L_rest = {m['rest_length_m']:g} m, "
               f"theta = {m['theta_rad']:g} rad")
    else:
        geo = f"vertical spring k = {m['k']:g} N/m, h = {m['height_m']:g} m, L_rest = {m['rest_length_m']:g} m"
    return (f"{geo}: alpha = {m['alpha_N']:.4f} N, mu_+ = {m['mu_plus']:.4f}, mu_- = {m['mu_minus']:.4f}, "
            f"rho_+ = {m['rho_plus_N']:.4f} N, rho_- = {m['rho_minus_N']:.4f} N")


# ---- Paper 2 ---------------------------------------------------------------------------------------

def _coefficients(ctx: Context, stem: str, column: str):
    scenario, result = ctx.scenario(stem)
    s = result.cases[0].series
    report = result.report
    data = {column: np.array(s[column]), "mu_plus": np.array(s["mu_plus"]), "mu_minus": np.array(s["mu_minus"]),
            "omega_plus": float(report["parameters"]["profile"]["omega_plus"]),
            "omega_minus": float(report["parameters"]["profile"]["omega_minus"]),
            "amplitude": float(report["parameters"]["profile"]["amplitude"])}
    return data, report


def _draw_coefficients(data, column, xlabel):
    def draw(fig):
        ax1, ax2 = fig.subplots(1, 2)
        x = data[column]
        ax1.plot(x, data["mu_plus"], lw=2, label="mu_+ (rightward)")
        ax1.plot(x, -data["mu_minus"], lw=2, ls="--", label="-mu_- (leftward)")
        ax1.axhline(data["omega_plus"], color="0.5", lw=0.8, ls=":", label="omega_+ (flat bristle)")
        ax1.set_ylim(0, 4 * data["omega_plus"])
        ax1.set_xlabel(xlabel)
        ax1.set_ylabel("limit friction coefficient")
        ax1.legend(fontsize=8)
        ax2.plot(x, data["mu_plus"] / -data["mu_minus"], lw=2, color="tab:purple")
        ax2.axhline(1.0, color="0.5", lw=0.8)
        ax2.set_yscale("log")
        ax2.set_xlabel(xlabel)
        ax2.set_ylabel("mu_+ / (-mu_-)")
        for ax in (ax1, ax2):
            ax.grid(alpha=0.3, which="both")
    return draw


@figure("paper2_fig4", title="Slanted spring: limit friction coefficients against the slant theta",
        source=f"{P2}, Fig. 4", examples=("fig4_slanted_spring",))
def paper2_fig4(ctx: Context) -> Rendered:
    data, report = _coefficients(ctx, "fig4_slanted_spring", "theta_rad")
    caption = (f"mu_+- = omega_+- / (1 - omega_+- tan(theta)) (eq. 3.14, Lemma 3 with a = -tan(theta)) of a spring "
               f"slanted at theta on the wiggly surface, over the {len(data['theta_rad'])} interior points of the "
               f"admissible interval 0 < theta < arccot(omega_+) (eq. 3.9); right: the asymmetry mu_+/(-mu_-) > 1 "
               f"(rightward, against the slant, is the hard direction). Surface "
               f"{_profile_text(report['parameters']['profile'])}. Scenario examples/fig4_slanted_spring.toml.")
    return Rendered(data, caption, _draw_coefficients(data, "theta_rad", "slant theta (rad)"))


@figure("paper2_fig6", title="Angular spring: limit friction coefficients against theta_lim",
        source=f"{P2}, Fig. 6", examples=("fig6_angular_spring",))
def paper2_fig6(ctx: Context) -> Rendered:
    data, report = _coefficients(ctx, "fig6_angular_spring", "theta_lim_rad")
    caption = (f"mu_+- = omega_+- / (1 + omega_+- cot(theta_lim)) (eq. 3.24, Lemma 3 with a = cot(theta_lim)) of the "
               f"angular-spring bristle, theta_lim = arccos(h/L) (eq. 3.15), over the {len(data['theta_lim_rad'])} "
               f"interior points of arctan(omega_+) < theta_lim < arccot(omega_+) (eq. 3.17); here mu_+ < -mu_-: "
               f"rightward (with the nap) is easy (the §3.4 inequality is a typo, errata). Surface "
               f"{_profile_text(report['parameters']['profile'])}. Scenario examples/fig6_angular_spring.toml.")
    return Rendered(data, caption, _draw_coefficients(data, "theta_lim_rad", "theta_lim (rad)"))


LOOP_STEMS = ("directional_loop_vertical", "directional_loop_slanted", "directional_loop_angular")


@figure("paper2_loops", title="Force-displacement loops: eps-systems against the limit play law",
        source=f"{P2}, §3 (Fig. 1 set-up, eqs. 2.3, 2.8, 3.1-3.3)", examples=LOOP_STEMS)
def paper2_loops(ctx: Context) -> Rendered:
    ctx.prefetch(list(LOOP_STEMS))
    data: Dict[str, Any] = {}
    texts = []
    for stem in LOOP_STEMS:
        _, result = ctx.scenario(stem)
        kind = result.report["parameters"]["mechanism"]["kind"]
        mech = result.report["parameters"]["mechanism"]
        data[f"{kind}_rho_plus_N"] = float(mech["rho_plus_N"])
        data[f"{kind}_rho_minus_N"] = float(mech["rho_minus_N"])
        eps_list = []
        for case, rep in zip(result.cases, result.report["cases"]):
            eps = float(case.sweep_value)
            eps_list.append(eps)
            key = f"{kind}_{'limit' if eps == 0.0 else f'{eps:g}'}"
            data[key + "_q_m"] = np.array(case.series["q_m"])
            data[key + "_F_N"] = np.array(case.series["F_N"])
            data[key + "_max_abs_F_minus_limit_N"] = float(rep["max_abs_F_minus_limit_N"])
        data[f"{kind}_epsilons"] = np.array(eps_list)
        texts.append(f"{kind}: {_mechanism_text(mech)}")
    drive = ctx.scenario(LOOP_STEMS[0])[1].report["parameters"]
    profile = drive["profile"]
    caption = ("Spring force F = k_h (q - L_h - u) against the driver position q for a bristle pulled back and forth "
               "through a horizontal spring (k_h = 1 N/m, triangle wave 0 -> 0.8 -> -0.8 -> 0.8 -> 0 m, period 2 s): "
               "the eps-systems (eq. 2.8, gamma = 1, from rest) at eps = 0.1, 0.01, 0.001 m and the limit play "
               "operator (eq. 2.3), whose plateaus are the thresholds rho_+ and rho_- of eq. 2.17 (dotted). "
               f"Surface {_profile_text(profile)}. " + "; ".join(texts) +
               ". Scenarios examples/directional_loop_{vertical,slanted,angular}.toml.")

    def draw(fig):
        axes = fig.subplots(1, 3)
        for ax, stem in zip(axes, LOOP_STEMS):
            kind = stem.rsplit("_", 1)[1]
            for eps in data[f"{kind}_epsilons"]:
                key = f"{kind}_{'limit' if eps == 0.0 else f'{eps:g}'}"
                ax.plot(data[key + "_q_m"], data[key + "_F_N"], color=_eps_colour(eps),
                        lw=2.0 if eps == 0.0 else 0.8, label=_eps_label(eps), zorder=3 if eps == 0.0 else 2)
            for rho in (data[f"{kind}_rho_plus_N"], data[f"{kind}_rho_minus_N"]):
                ax.axhline(rho, color="0.4", ls=":", lw=1)
            ax.set_title(f"{kind} spring", fontsize=10)
            ax.set_xlabel("driver position q (m)")
            ax.grid(alpha=0.3)
        axes[0].set_ylabel("spring force F (N)")
        axes[0].legend(fontsize=7)
    return Rendered(data, caption, draw, size=(13.0, 4.2))


CRAWLER_STEMS = ("directional_crawler_2_feet", "directional_crawler_3_feet")


@figure("paper2_crawler", title="A crawler with bristle feet: eps-systems and the limit law",
        source=f"{P2}, beyond the paper (§1; Noselli and DeSimone 2014)", examples=CRAWLER_STEMS)
def paper2_crawler(ctx: Context) -> Rendered:
    ctx.prefetch(list(CRAWLER_STEMS))
    data: Dict[str, Any] = {}
    for stem in CRAWLER_STEMS:
        _, result = ctx.scenario(stem)
        feet = int(result.report["parameters"]["crawler"]["feet"])
        eps_list, advance = [], []
        for case, rep in zip(result.cases, result.report["cases"]):
            eps = float(case.sweep_value)
            eps_list.append(eps)
            advance.append(float(rep["advance_per_cycle_m"]))
            key = f"{feet}feet_{'limit' if eps == 0.0 else f'{eps:g}'}"
            data[key + "_t_s"] = np.array(case.series["t_s"])
            data[key + "_center_m"] = np.array(case.series["center_m"])
        data[f"{feet}feet_epsilons"] = np.array(eps_list)
        data[f"{feet}feet_advance_m"] = np.array(advance)
        if "advance_per_cycle_closed_form_m" in result.report:
            data[f"{feet}feet_closed_form_m"] = float(result.report["advance_per_cycle_closed_form_m"])
    params = ctx.scenario(CRAWLER_STEMS[0])[1].report["parameters"]
    cr = params["crawler"]
    caption = (f"Centre of mass of a crawler whose feet touch the wiggly surface through angular-spring bristles "
               f"({_mechanism_text(params['mechanism'])}; surface {_profile_text(params['profile'])}), joined by "
               f"actuated springs k_a = {cr['k_a_N_per_m']:g} N/m with rest lengths L0 + stroke/2 (1 - cos(2 pi t/T - "
               f"2 pi lag (j-1))), L0 = {cr['rest_length_m']:g} m, stroke = {cr['stroke_m']:g} m, T = "
               f"{cr['period_s']:g} s, lag = {cr['phase_lag']:g}: eps-systems (eq. 2.8 per foot, gamma = 1) and the "
               f"limit rate-independent law (exact incremental minimisation). Two feet: limit advance "
               f"{data['2feet_advance_m'][-1]:.6f} m/cycle, closed form stroke - 2 rho_+/k_a = "
               f"{data.get('2feet_closed_form_m', float('nan')):.6f} m/cycle; three feet: "
               f"{data['3feet_advance_m'][-1]:.6f} m/cycle. "
               "Scenarios examples/directional_crawler_{2,3}_feet.toml.")

    def draw(fig):
        axes = fig.subplots(1, 2)
        for ax, feet in zip(axes, (2, 3)):
            for eps in data[f"{feet}feet_epsilons"]:
                key = f"{feet}feet_{'limit' if eps == 0.0 else f'{eps:g}'}"
                ax.plot(data[key + "_t_s"], data[key + "_center_m"], color=_eps_colour(eps),
                        lw=2.0 if eps == 0.0 else 1.0, label=_eps_label(eps))
            ax.set_title(f"{feet} feet", fontsize=10)
            ax.set_xlabel("time t (s)")
            ax.set_ylabel("centre of mass (m)")
            ax.grid(alpha=0.3)
        axes[0].legend(fontsize=8)
    return Rendered(data, caption, draw)


def example_mechanism(path) -> Any:
    """The directional.Mechanism of a directional example's [profile] and [mechanism] tables."""
    import tomllib
    with open(path, "rb") as f:
        table = tomllib.load(f)
    profile = directional.Profile(directional.ProfileParams(**table["profile"]))
    return directional.Mechanism(directional.MechanismParams(**table["mechanism"]), profile)


# the eps of docs/directional.md's convergence tables (tests/directional/epsilon_system_test.cpp)
EPS_SWEEP = np.array([1e-2, 3.16e-3, 1e-3, 3.16e-4, 1e-4, 3.16e-5, 1e-5, 3.16e-6, 1e-6])


@figure("paper2_epsilon_convergence", title="Sliding force of the eps-systems against eps: convergence to rho_+-",
        source=f"{P2}, Theorem 1 and eq. 2.17", examples=LOOP_STEMS)
def paper2_epsilon_convergence(ctx: Context) -> Rendered:
    def run():
        mechs = {stem.rsplit("_", 1)[1]: example_mechanism(ctx.example(stem)) for stem in LOOP_STEMS}
        return mechs, sweep_sliding_force(list(mechs.values()), epsilon=EPS_SWEEP, gamma=1.0, threads=ctx.threads,
                                          progress=ctx.progress("  eps sweep") if ctx.verbose else None)
    mechs, r = ctx.cached("eps_sweep", run)
    ctx.log(f"  eps sweep: {r.points} points on {r.threads} threads in {r.seconds:.2f} s")
    kinds = list(mechs)
    data: Dict[str, Any] = {"epsilon_m": r.axes["epsilon"], "mean_N": r.mean_N, "limit_N": r.limit_N,
                            "error_N": r.error, "kinds": np.array(kinds),
                            "omega_plus": np.array([m.profile.omega_plus for m in mechs.values()]),
                            "omega_minus": np.array([m.profile.omega_minus for m in mechs.values()])}
    rates = np.empty((len(kinds), 2))
    for a in range(len(kinds)):
        for d in range(2):
            e = np.abs(r.error[a, -3:, d])
            rates[a, d] = np.polyfit(np.log10(EPS_SWEEP[-3:]), np.log10(e), 1)[0]
    data["rates"] = rates
    o = directional.SlidingOptions()
    caption = ("|mean spring force - rho_+-| of the eps-systems (eq. 2.8, gamma = 1) driven at "
               f"{o.speed_mps:g} m/s through a k_h = {o.k_h_N_per_m:g} N/m spring, averaged over {o.averaged_wiggles} "
               f"whole wiggles after {o.transient_wiggles}, against eps = 1e-2 .. 1e-6 m; rho_+- = alpha mu_+- of eq. "
               "2.17 (Lemmas 2, 3). The bristles and surfaces of the loop examples: "
               + "; ".join(f"{k}: {m.params.kind.name} on {m.profile.description} (rho_+ = {m.limit.rho_plus:.6f} N, "
                           f"rho_- = {m.limit.rho_minus:.6f} N)" for k, m in mechs.items()) +
               ". Fitted rates over the three "
               "smallest eps: " + ", ".join(f"{k} {rates[a, 0]:.2f} / {rates[a, 1]:.2f}" for a, k in enumerate(kinds)) +
               " (right / left; Theorem 1: beta = min(1, gamma) = 1). Computed by bristle.sweep_sliding_force "
               f"({r.points} points, {r.threads} threads). Parameters from "
               "examples/directional_loop_{vertical,slanted,angular}.toml.")

    def draw(fig):
        ax1, ax2 = fig.subplots(1, 2)
        for a, k in enumerate(kinds):
            col = f"C{a}"
            ax1.loglog(EPS_SWEEP, np.abs(r.error[a, :, 0]), "o-", color=col, ms=4, label=f"{k}, rightward")
            ax1.loglog(EPS_SWEEP, np.abs(r.error[a, :, 1]), "s--", color=col, ms=4, mfc="none", label=f"{k}, leftward")
            ax2.semilogx(EPS_SWEEP, r.mean_N[a, :, 0], "o-", color=col, ms=4, label=f"{k}: rho_+ = {r.limit_N[a, 0, 0]:.4f}")
            ax2.semilogx(EPS_SWEEP, r.mean_N[a, :, 1], "s--", color=col, ms=4, mfc="none",
                         label=f"{k}: rho_- = {r.limit_N[a, 0, 1]:.4f}")
            for d in range(2):
                ax2.axhline(r.limit_N[a, 0, d], color=col, lw=0.8, ls=":")
        ax1.loglog(EPS_SWEEP, 0.4 * EPS_SWEEP, color="0.4", lw=1, ls=":", label="slope 1")
        ax1.set_xlabel("eps (m)")
        ax1.set_ylabel("|mean force - rho| (N)")
        ax1.legend(fontsize=7, ncol=2)
        ax2.set_xlabel("eps (m)")
        ax2.set_ylabel("mean sliding force (N)")
        ax2.legend(fontsize=7, ncol=2)
        for ax in (ax1, ax2):
            ax.grid(alpha=0.3, which="both")
    return Rendered(data, caption, draw)


# ---- Paper 3 -----------------------------------------------------------------------------------

def _kernel_data(ctx: Context, stem: str):
    _, result = ctx.scenario(stem)
    s = result.cases[0].series
    data: Dict[str, Any] = {"tau_s": np.array(s["tau_s"])}
    for name, case in zip(s.names[1:], result.report["cases"]):
        data[name] = np.array(s[name])
        data[name + "_damping_ratio"] = float(case["damping_ratio"])
        data[name + "_max_error_bound"] = float(case["max_error_bound"])
        data[name + "_right_limit"] = float(case["right_limit_L1_0plus"])
        if "sqrt_law_coefficient" in case:
            data[name + "_sqrt_law_coefficient"] = float(case["sqrt_law_coefficient"])
    return data, result.report


def _structure_text(p: Dict[str, Any]) -> str:
    keys = [("density_kg_per_m", "rho", "kg/m"), ("bending_stiffness_N_m2", "EI", "N m^2"),
            ("mass_per_length_kg_per_m", "rho A", "kg/m"), ("length_m", "l", "m"), ("wave_speed_m_per_s", "c", "m/s")]
    parts = [f"{sym} = {p[k]:g} {unit}" for k, sym, unit in keys if k in p]
    chi = p.get("contact_positions_m")
    if chi is not None:
        parts.append(f"chi = {', '.join(f'{x:g}' for x in np.atleast_1d(chi))} m")
    return ", ".join(parts)


def _draw_kernels(data: dict, undamped_lw: float):
    """The undamped and damped (D = 0.1) kernels L1(tau) of a kernel scenario on one axis."""
    def draw(fig):
        ax = fig.add_subplot(1, 1, 1)
        ax.plot(data["tau_s"], data["L1_undamped"], lw=undamped_lw, label="D = 0 (undamped)")
        ax.plot(data["tau_s"], data["L1_damped"], lw=1.6, label="D = 0.1")
        ax.axhline(0.0, color="0.5", lw=0.8)
        ax.set_xlabel("tau (s)")
        ax.set_ylabel("L1(tau) (m/(N s))")
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
    return draw


@figure("paper3_fig2", title="Taut string: memory kernel L1 at one contact point",
        source=f"{P3}, Fig. III.2(a)", examples=("string_kernel",))
def paper3_fig2(ctx: Context) -> Rendered:
    data, report = _kernel_data(ctx, "string_kernel")
    p = report["parameters"]["structure"]
    caption = (f"Displacement kernel (velocity step response) L1(tau) of a taut string fixed at both ends, "
               f"{_structure_text(p)}: undamped (closed sawtooth form summing all modes: piecewise constant, "
               f"1/(2 rho c) = 0.5 until the reflection from the near end at 2 chi/c = 0.6 s, period 2 l/c = 2 s) and "
               f"with modal damping D = 0.1 (closed log form; L1(0+) = arccos(D)/(pi rho c sqrt(1 - D^2)) = "
               f"{data['L1_damped_right_limit']:.4f}, eq. III.30 as re-derived in docs/structures.md). "
               f"Scenario examples/string_kernel.toml ({len(data['tau_s'])} points).")

    return Rendered(data, caption, _draw_kernels(data, undamped_lw=1.6))


@figure("paper3_fig3a", title="Cantilever: memory kernel L1 at the free end",
        source=f"{P3}, Fig. III.3(a)", examples=("cantilever_kernel",))
def paper3_fig3a(ctx: Context) -> Rendered:
    data, report = _kernel_data(ctx, "cantilever_kernel")
    p = report["parameters"]["structure"]
    caption = (f"Displacement kernel L1(tau) at the free end of an Euler-Bernoulli cantilever, {_structure_text(p)}: "
               f"undamped (direct mode sum, rigorous truncation bound {data['L1_undamped_max_error_bound']:.1e}; "
               f"continuous but nowhere smooth) and with modal damping D = 0.1 (our choice: the fragment does not "
               f"give the paper's value; exponentially convergent sum, bound "
               f"{data['L1_damped_max_error_bound']:.1e}). Frequencies a beta_k^2/l^2 with 1 + cos(beta) "
               f"cosh(beta) = 0, free-end mode values 2 (-1)^(k+1)/sqrt(rho A l). "
               f"Scenario examples/cantilever_kernel.toml.")

    return Rendered(data, caption, _draw_kernels(data, undamped_lw=1.0))


@figure("paper3_fig3b", title="Cantilever: short-time law of the kernel, L1 ~ C sqrt(tau)",
        source=f"{P3}, Fig. III.3(b)", examples=("cantilever_kernel_sqrt",))
def paper3_fig3b(ctx: Context) -> Rendered:
    data, report = _kernel_data(ctx, "cantilever_kernel_sqrt")
    tau = data["tau_s"]
    for name in ("L1_undamped", "L1_damped"):
        data[name + "_over_sqrt_tau"] = data[name] / np.sqrt(tau)
    caption = (f"The free-end kernel of the cantilever (EI = rho A = l = 1) near tau = 0 on a logarithmic grid "
               f"(tau = {tau[0]:g} .. {tau[-1]:g} s): L1 grows like C sqrt(tau) (the power p = 1/2 of Fig. III.3(b)) "
               f"with C = 4 / (rho A sqrt(2 pi a (1 + D))): {data['L1_undamped_sqrt_law_coefficient']:.4f} undamped, "
               f"{data['L1_damped_sqrt_law_coefficient']:.4f} with D = 0.1 (dashed; docs/structures.md §2.4). "
               f"Right: L1/sqrt(tau) tending to C. Scenario examples/cantilever_kernel_sqrt.toml.")

    def draw(fig):
        ax1, ax2 = fig.subplots(1, 2)
        for k, name in enumerate(("L1_undamped", "L1_damped")):
            C = data[name + "_sqrt_law_coefficient"]
            ax1.loglog(tau, data[name], color=f"C{k}", lw=1.5, label=name.replace("L1_", "D: "))
            ax1.loglog(tau, C * np.sqrt(tau), color=f"C{k}", lw=1, ls="--")
            ax2.semilogx(tau, data[name + "_over_sqrt_tau"], color=f"C{k}", lw=1.5)
            ax2.axhline(C, color=f"C{k}", lw=1, ls="--")
        ax1.set_xlabel("tau (s)")
        ax1.set_ylabel("L1(tau) (m/(N s))")
        ax1.legend(fontsize=8)
        ax2.set_xlabel("tau (s)")
        ax2.set_ylabel("L1(tau) / sqrt(tau)")
        for ax in (ax1, ax2):
            ax.grid(alpha=0.3, which="both")
    return Rendered(data, caption, draw)


def _stick_slip_figure(ctx: Context, stem: str, what: str) -> Rendered:
    _, result = ctx.scenario(stem)
    s = result.cases[0].series
    rep = result.report
    data: Dict[str, Any] = {k: np.array(s[k]) for k in ("t_s", "w_m", "vr_mps", "F_N", "stick")}
    lc = rep["limit_cycle"]
    for k in ("period_s", "period_spread_s", "amplitude_w_m", "amplitude_v_mps", "stick_fraction",
              "breakaways_per_cycle", "found"):
        data[k] = lc[k]
    data["max_stick_force_ratio"] = rep.get("max_stick_force_ratio", float("nan"))
    data["max_stick_velocity_mps"] = rep["max_stick_velocity_mps"]
    params = rep["parameters"]
    data["parameters"] = params
    fr = params.get("friction", {})
    caption = (f"{what} pressed with N = {params['contact']['normal_load_N']:g} N against a belt moving at v_b = "
               f"{params['contact']['belt_speed_m_per_s']:g} m/s, Coulomb-Stribeck friction mu_s = "
               f"{fr.get('mu_s', float('nan')):g}, mu_d = {fr.get('mu_d', float('nan')):g}, v_S = "
               f"{fr.get('v_s', float('nan')):g} m/s (set-valued stick: v_r = 0 exactly while |F| <= mu_s N), "
               f"integrated through the reduced model (the structure eliminated; dt = {params['run']['dt_s']:g} s). "
               f"Limit cycle: period {lc['period_s']:.8f} s, {lc['breakaways_per_cycle']} break-away(s) per cycle, "
               f"contact amplitude {lc['amplitude_w_m']:.4g} m, stick fraction {lc['stick_fraction']:.3f}. "
               f"Scenario examples/{stem}.toml.")

    def draw(fig):
        ax1, ax2 = fig.subplots(1, 2)
        t = data["t_s"]
        ax1.plot(t, data["w_m"], lw=1.0, label="contact displacement w (m)")
        ax1.plot(t, data["vr_mps"], lw=0.8, label="relative velocity v_r (m/s)")
        ax1.set_xlabel("t (s)")
        ax1.legend(fontsize=8)
        stick = data["stick"] > 0.5
        ax2.plot(data["vr_mps"], data["F_N"], lw=0.6, color="0.3")
        ax2.plot(data["vr_mps"][stick], data["F_N"][stick], ".", ms=2, color="tab:red", label="stick")
        ax2.set_xlabel("relative velocity v_r (m/s)")
        ax2.set_ylabel("friction force F (N)")
        ax2.legend(fontsize=8)
        for ax in (ax1, ax2):
            ax.grid(alpha=0.3)
    return Rendered(data, caption, draw)


@figure("paper3_string_stick_slip", title="Stick-slip of a taut string on a moving belt",
        source=f"{P3}, §III application (string)", examples=("structures_string_stick_slip",))
def paper3_string_stick_slip(ctx: Context) -> Rendered:
    return _stick_slip_figure(ctx, "structures_string_stick_slip",
                              "A taut string (rho = l = c = 1, D = 0.1 in every mode) touching at chi = 0.3,")


@figure("paper3_cantilever_stick_slip", title="Stick-slip of a cantilever tip on a moving belt",
        source=f"{P3}, §III application (cantilever)", examples=("cantilever_stick_slip",))
def paper3_cantilever_stick_slip(ctx: Context) -> Rendered:
    return _stick_slip_figure(ctx, "cantilever_stick_slip",
                              "The free end of a cantilever (EI = rho A = l = 1, D = 0.05)")


def papers23_examples() -> List[str]:
    """Every example scenario the paper 2 / paper 3 figures run (prefetched together by main)."""
    return ["fig4_slanted_spring", "fig6_angular_spring", *LOOP_STEMS, *CRAWLER_STEMS, "string_kernel",
            "cantilever_kernel", "cantilever_kernel_sqrt", "structures_string_stick_slip", "cantilever_stick_slip"]
