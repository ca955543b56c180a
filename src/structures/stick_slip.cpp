#include "bristle/structures/stick_slip.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "bristle/contact/analysis.hpp"
#include "bristle/core/error.hpp"

namespace bristle::structures {

namespace {

/// Where the quantity with samples y(-1) = ym, y(0) = y0, y(1) = y1 (step units) first reaches `level`
/// in [0, 1], given y0 <= level <= y1: the quadratic through the three samples when ym is known
/// (has_ym), else the straight line through y0 and y1.
double crossing_fraction(double ym, double y0, double y1, double level, bool has_ym) {
  const double linear = y1 > y0 ? std::clamp((level - y0) / (y1 - y0), 0.0, 1.0) : 1.0;
  if (!has_ym) return linear;
  // q(x) = y0 + b x + c x^2, b = (y1 - ym)/2, c = (y1 - 2 y0 + ym)/2
  const double b = 0.5 * (y1 - ym), c = 0.5 * (y1 - 2.0 * y0 + ym), r = y0 - level;
  if (std::abs(c) < 1e-14 * (std::abs(b) + std::abs(r))) return b != 0.0 ? std::clamp(-r / b, 0.0, 1.0) : linear;
  const double disc = b * b - 4.0 * c * r;
  if (disc < 0.0) return linear;
  // the root in [0, 1] (stable form)
  const double sq = std::sqrt(disc);
  const double qq = -0.5 * (b + (b >= 0.0 ? sq : -sq));
  double best = -1.0;
  for (const double x : {qq / c, qq != 0.0 ? r / qq : -1.0})
    if (x >= 0.0 && x <= 1.0 && (best < 0.0 || x < best)) best = x;
  return best >= 0.0 ? best : linear;
}

/// What a contact law returns for one step.
struct StepSolution {
  double force = 0.0;
  bool stick = false;
  double extra = 0.0;        // dynamic laws: normalised state force f (u[0])
  double breakaway_fraction = -1.0;  // in [0, 1] when the step starts a slip phase
};


/// The tangents of a step for every sensitivity: dF[j] (and dextra[j], the state force's) from dc[j], the
/// derivative of the step's c.
using StepTangent = std::function<void(double c, const StepSolution& sol, const std::vector<double>& dc,
                                       std::vector<double>& dF, std::vector<double>& dextra)>;

/// The partial of a step's output in a parameter from its values at p - h and p + h, on the branch of the run
/// (stick or slip): central where both perturbed steps stay on it, else one-sided from the one that does.
double branch_partial(double minus, bool minus_on_branch, double base, double plus, bool plus_on_branch, double h) {
  if (minus_on_branch && plus_on_branch) return (plus - minus) / (2.0 * h);
  if (plus_on_branch) return (plus - base) / h;
  if (minus_on_branch) return (base - minus) / h;
  return 0.0;  // both perturbations switch the step: it sits on a switch, where the run is not differentiable
}

struct Driver {
  ContactStepper& s;
  BeltParams belt;
  StickSlipOptions options;
  double a = 0.0;
  bool dynamic = false;
  const Progress& progress;
  std::vector<StickSlipSensitivity>* sensitivities = nullptr;

  /// `solve(c, t_next)` returns the step's StepSolution (a template: called once per step); `tangent` is called
  /// after it when there are sensitivities.
  template <class StepSolver>
  StickSlipResult run(StepSolver& solve, const StepTangent& tangent, double mu_s) {
    StickSlipResult out;
    const int i = belt.contact_index;
    const double dt = s.step_s(), vb = belt.belt_speed_m_per_s, N = belt.normal_load_N;
    const StepQuadrature* q = s.step_quadrature();
    std::vector<std::string> names{"t_s", "w_m", "v_mps", "vr_mps", "F_N", "stick"};
    if (q) {
      for (const char* n : {"E_belt_J", "D_friction_J", "D_modal_J", "dE_stored_J", "energy_residual_J"}) names.emplace_back(n);
      out.energy.available = true;
    }
    if (dynamic) names.emplace_back("f_state");
    out.series = TimeSeries(names);
    out.admittance_m_per_N_s = a;
    // Rows are held in memory: at most kMaxRows (10 x a scenario's limit; t_end_s = 1e9 at output_every = 1
    // asked for 10^13 rows).
    constexpr double kMaxRows = 20'000'001;
    if (const double rows = std::round(options.t_end_s / dt) / options.output_every + 1; !(rows <= kMaxRows))
      throw InvalidInput(fmt::format("run.t_end_s = {} at a step of {} s and run.output_every = {} give {:.6g} output "
                                     "rows: at most {:g} (a larger output_every thins them)",
                                     format_value(options.t_end_s), format_value(dt), options.output_every, rows,
                                     kMaxRows));
    if (!(options.t_end_s / dt <= kMaxStickSlipSteps))  // rows thinned by output_every bound no work (helper-46)
      throw InvalidInput(fmt::format("run.t_end_s = {}: more than {} steps of {} s", format_value(options.t_end_s),
                                     format_value(kMaxStickSlipSteps), format_value(dt)));
    const long steps = std::max(1L, std::lround(options.t_end_s / dt));
    // Stick-slip from sticking itself, the detector the lumped benches use (contact/analysis.hpp), with its
    // rule against chatter (stick phases of a few steps about a long one).
    contact::StickSlipDetector detector(options.stick_tolerance_m_per_s > 0.0 ? options.stick_tolerance_m_per_s
                                                                              : 1e-3 * std::abs(vb));
    detector.add(0.0, vb == 0.0, 0.0);
    out.series.reserve(static_cast<std::size_t>(steps / options.output_every + 2));  // no regrowth
    std::vector<double> row;  // one buffer for every row: no allocation per output
    auto record = [&](double t, double w, double v, double F, bool stick, double extra) {
      row.assign({t, w, v, v - vb, F, stick ? 1.0 : 0.0});
      if (q) {
        const EnergyAccount& e = out.energy;
        row.insert(row.end(), {e.belt_work_J, e.friction_dissipation_J, e.modal_damping_J, e.stored_energy_change_J,
                               e.residual_J()});
      }
      if (dynamic) row.push_back(extra);
      out.series.add_row(row);
    };
    record(0.0, 0.0, 0.0, 0.0, vb == 0.0, 0.0);
    // Sensitivities: the derivative of c, F and the state force per parameter, and of the belt speed.
    const std::size_t P = sensitivities ? sensitivities->size() : 0;
    std::vector<double> dc(P), dF(P), dextra(P), dvb(P);
    VecX df_next;
    for (std::size_t j = 0; j < P; ++j) {
      StickSlipSensitivity& sj = (*sensitivities)[j];
      if (!sj.structure || sj.structure->steps_taken() != 0 || sj.structure->step_s() != dt ||
          sj.structure->contact_count() != s.contact_count() || !(sj.step > 0.0))
        throw InvalidInput("stick-slip sensitivities: each needs a copy of the run's structure at rest and a step > 0");
      dvb[j] = (sj.belt_plus.belt_speed_m_per_s - sj.belt_minus.belt_speed_m_per_s) / (2.0 * sj.step);
      sj.derivative = TimeSeries(names);
      sj.derivative.reserve(static_cast<std::size_t>(steps / options.output_every + 2));
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    auto record_derivatives = [&](double t, bool initial) {  // initial: the state at rest, before any step
      for (std::size_t j = 0; j < P; ++j) {
        const ContactStepper& T = *(*sensitivities)[j].structure;
        const double v = initial ? 0.0 : T.velocity()[i];
        row.assign({t, initial ? 0.0 : T.displacement()[i], v, v - dvb[j], initial ? 0.0 : dF[j], nan});
        if (q) row.insert(row.end(), {nan, nan, nan, nan, nan});
        if (dynamic) row.push_back(initial ? 0.0 : dextra[j]);
        (*sensitivities)[j].derivative.add_row(row);
      }
    };
    record_derivatives(0.0, true);
    bool prev_stick = (vb == 0.0);
    double interval_start = 0.0;
    VecX f_next = s.force();
    ProgressThrottle report(progress);
    for (long n = 0; n < steps; ++n) {
      const double F_old = s.force()[i];
      const double c = s.predicted_velocity()[i] - vb - a * F_old;
      const double t_next = static_cast<double>(n + 1) * dt;
      for (std::size_t j = 0; j < P; ++j) {
        const ContactStepper& T = *(*sensitivities)[j].structure;
        dc[j] = T.predicted_velocity()[i] - dvb[j] - a * T.force()[i];
      }
      const StepSolution sol = solve(c, t_next);
      if (!std::isfinite(sol.force))
        throw SolverError(fmt::format("stick-slip: non-finite friction force at t = {} s", format_value(t_next)));
      if (P > 0) tangent(c, sol, dc, dF, dextra);
      f_next = s.force();  // same size: no allocation
      f_next[i] = sol.force;
      const bool want_w = ((n + 1) % options.output_every == 0) || n + 1 == steps;
      s.advance(f_next, want_w);
      for (std::size_t j = 0; j < P; ++j) {
        ContactStepper& T = *(*sensitivities)[j].structure;
        df_next = T.force();
        df_next[i] = dF[j];
        T.advance(df_next, want_w);
      }
      const double v = s.velocity()[i];
      if (!std::isfinite(v))
        throw SolverError(fmt::format("stick-slip: non-finite contact velocity at t = {} s", format_value(t_next)));
      if (q) {
        EnergyAccount& e = out.energy;
        e.belt_work_J += dt * vb * 0.5 * (F_old + sol.force);
        double fr = 0.0;
        for (std::size_t g = 0; g < q->fraction.size(); ++g) {
          const double F = F_old + (sol.force - F_old) * q->fraction[g];
          fr += q->weight[g] * (-F) * (q->velocity(i, static_cast<long>(g)) - vb);
        }
        e.friction_dissipation_J += dt * fr;
        e.modal_damping_J += q->damping_work_J;
        e.stored_energy_change_J = q->stored_energy_J;
      }
      if (sol.stick) {
        out.max_stick_velocity_mps = std::max(out.max_stick_velocity_mps, std::abs(v - vb));
        if (mu_s > 0.0) out.max_stick_force_ratio = std::max(out.max_stick_force_ratio, std::abs(sol.force) / (mu_s * N));
      }
      if (sol.stick != prev_stick) {
        const double t_switch = static_cast<double>(n) * dt;
        if (t_switch > interval_start) out.intervals.push_back({interval_start, t_switch, prev_stick});
        interval_start = t_switch;
        prev_stick = sol.stick;
      }
      // The step's own stick decision (|v_r| <= tolerance, or the set-valued stick of Coulomb-Stribeck) and
      // break-away time (|F| reaching mu_s N, resp. |v_r| leaving the band, interpolated inside the step).
      detector.add(t_next, sol.stick,
                   sol.breakaway_fraction >= 0.0 ? (static_cast<double>(n) + sol.breakaway_fraction) * dt
                                                 : static_cast<double>(n) * dt);
      if (want_w) {
        record(t_next, s.displacement()[i], v, sol.force, sol.stick, sol.extra);
        record_derivatives(t_next, false);
      }
      if (report) report(static_cast<double>(n + 1) / static_cast<double>(steps));
    }
    out.intervals.push_back({interval_start, static_cast<double>(steps) * dt, prev_stick});
    out.steps = steps;
    analyse_cycle(out, detector.result(options.cycles));
    return out;
  }

  /// The limit cycle from the detector's result: period and cycles from it, amplitudes, force range and
  /// stick fraction over the last cycle measured.
  static void analyse_cycle(StickSlipResult& out, const contact::StickSlipDetector::Result& found) {
    LimitCycle& lc = out.cycle;
    if (!found.found) return;
    const double mean = found.period_s;
    lc.found = true;
    lc.cycles = lc.cycles_used = found.cycles_used;
    lc.breakaways_per_cycle = found.breakaways_per_cycle;
    lc.period_s = mean;
    lc.period_spread_s = found.period_spread_s;
    const double t1 = found.t_end_s, t0 = t1 - mean;
    const auto& t = out.series.column("t_s");
    const auto& w = out.series.column("w_m");
    const auto& v = out.series.column("v_mps");
    const auto& F = out.series.column("F_N");
    double wmin = 1e300, wmax = -1e300, vmin = 1e300, vmax = -1e300, fmin = 1e300, fmax = -1e300, wsum = 0.0;
    long count = 0;
    for (std::size_t r = 0; r < t.size(); ++r) {
      if (t[r] < t0 || t[r] > t1 || !std::isfinite(w[r])) continue;
      wmin = std::min(wmin, w[r]);
      wmax = std::max(wmax, w[r]);
      vmin = std::min(vmin, v[r]);
      vmax = std::max(vmax, v[r]);
      fmin = std::min(fmin, F[r]);
      fmax = std::max(fmax, F[r]);
      wsum += w[r];
      ++count;
    }
    if (count > 0) {
      lc.amplitude_w_m = 0.5 * (wmax - wmin);
      lc.amplitude_v_mps = 0.5 * (vmax - vmin);
      lc.mean_w_m = wsum / static_cast<double>(count);
      lc.force_min_N = fmin;
      lc.force_max_N = fmax;
    }
    double stick_time = 0.0;
    for (const StickSlipInterval& iv : out.intervals)
      if (iv.stick) stick_time += std::max(0.0, std::min(iv.t_end_s, t1) - std::max(iv.t_start_s, t0));
    lc.stick_fraction = stick_time / mean;
  }
};

}  // namespace

void BeltParams::validate(std::string_view prefix, int contact_count) const {
  require_positive(fmt::format("{}.normal_load_N", prefix), normal_load_N);
  require_finite(fmt::format("{}.belt_speed_m_per_s", prefix), belt_speed_m_per_s);
  if (contact_index < 0 || contact_index >= contact_count)
    throw InvalidInput(fmt::format("{}.contact_index = {}: must lie in [0, {}] (the structure has {} contact point{})",
                                   prefix, contact_index, contact_count - 1, contact_count,
                                   contact_count == 1 ? "" : "s"));
}

void StickSlipOptions::validate(std::string_view prefix) const {
  require_positive(fmt::format("{}.t_end_s", prefix), t_end_s);
  if (output_every < 1) throw InvalidInput(fmt::format("{}.output_every = {}: must be >= 1", prefix, output_every));
  require_non_negative(fmt::format("{}.stick_tolerance_m_per_s", prefix), stick_tolerance_m_per_s);
  if (cycles < 1) throw InvalidInput(fmt::format("{}.cycles = {}: must be >= 1", prefix, cycles));
}

StickSlipResult run_stick_slip(ContactStepper& structure, const BeltParams& belt,
                               const laws::CoulombStribeckParams& friction, const StickSlipOptions& options,
                               const Progress& progress, std::vector<StickSlipSensitivity>* sensitivities) {
  belt.validate("contact", structure.contact_count());
  friction.validate("friction");
  options.validate("run");
  const int i = belt.contact_index;
  const double a = structure.admittance()(i, i);
  if (!(a > 0.0))
    throw InvalidInput(fmt::format("contact.contact_index = {}: the structure's admittance there is {} (a node of "
                                   "every mode?); friction cannot act",
                                   i, format_value(a)));
  const double N = belt.normal_load_N;
  const laws::CoulombStribeck law(friction, a, N);  // the set-valued step (laws/coulomb_stribeck.hpp)
  const double mu_s = law.mu_static();
  double F_prev = 0.0, F_prev2 = 0.0, slip_speed = 0.0, slip_speed_prev = 0.0;
  bool stick_prev = belt.belt_speed_m_per_s == 0.0, stick_prev2 = false;
  auto solve = [&](double c, double /*t_next*/) {
    StepSolution out;
    // Warm start of the slip speed: the last one, extrapolated linearly over two slip steps (cantilever
    // benchmark: 2.4 instead of 3.0 evaluations per slip step; 2 is the floor, as mu at the root is needed).
    const double C = std::abs(c);
    double guess = -1.0;
    if (!stick_prev && slip_speed > 0.0 && slip_speed < C) {
      guess = slip_speed;
      const double extrapolated = 2.0 * slip_speed - slip_speed_prev;
      if (!stick_prev2 && slip_speed_prev > 0.0 && extrapolated > 0.0 && extrapolated < C) guess = extrapolated;
    }
    const laws::CoulombStribeckStep step = law.step(c, guess);
    out.force = step.force;
    out.stick = step.stick;
    if (!step.stick) {
      slip_speed_prev = stick_prev ? 0.0 : slip_speed;
      slip_speed = step.slip_speed;
      if (stick_prev) {
        // |F| reached mu_s N inside the step: interpolate |F| of the stick branch (|F_{n-1}|, |F_n| and
        // the candidate |F*_{n+1}|) to where it equals mu_s N.
        out.breakaway_fraction =
            crossing_fraction(std::abs(F_prev2), std::abs(F_prev), std::abs(-c / a), mu_s * N, stick_prev2);
      }
    }
    F_prev2 = F_prev;
    stick_prev2 = stick_prev;
    F_prev = out.force;
    stick_prev = out.stick;
    return out;
  };
  // Sensitivities: stick F = -c/a; slip F = -sgn(c) N mu(x), x = |c| - a N mu(x), so dF/dc = -N mu'/(1 + a N mu');
  // the partial in the parameter from the laws at p -/+ h at the same c.
  std::vector<laws::CoulombStribeck> minus, plus;
  if (sensitivities)
    for (const StickSlipSensitivity& sj : *sensitivities) {
      minus.emplace_back(sj.friction_minus, a, sj.belt_minus.normal_load_N);
      plus.emplace_back(sj.friction_plus, a, sj.belt_plus.normal_load_N);
    }
  const StepTangent tangent = [&](double c, const StepSolution& sol, const std::vector<double>& dc,
                                  std::vector<double>& dF, std::vector<double>& /*dextra*/) {
    double dF_dc = -1.0 / a;
    if (!sol.stick) {
      double slope = 0.0;
      (void)laws::stribeck_mu(friction.mu, slip_speed, &slope);
      dF_dc = -N * slope / (1.0 + a * N * slope);
    }
    for (std::size_t j = 0; j < dF.size(); ++j) {
      const laws::CoulombStribeckStep m = minus[j].step(c), p = plus[j].step(c);
      dF[j] = dF_dc * dc[j] + branch_partial(m.force, m.stick == sol.stick, sol.force, p.force,
                                             p.stick == sol.stick, (*sensitivities)[j].step);
    }
  };
  Driver d{structure, belt, options, a, false, progress, sensitivities};
  StickSlipResult r = d.run(solve, tangent, mu_s);
  r.well_posed = law.well_posed();
  return r;
}

StickSlipResult run_stick_slip(ContactStepper& structure, const BeltParams& belt, const laws::StribeckParams& friction,
                               const StickSlipOptions& options, const Progress& progress) {
  return run_stick_slip(structure, belt, laws::CoulombStribeckParams{friction}, options, progress);
}

StickSlipResult run_stick_slip(ContactStepper& structure, const BeltParams& belt, const contact::ContactModel& law,
                               const StickSlipOptions& options, const Progress& progress,
                               std::vector<StickSlipSensitivity>* sensitivities) {
  belt.validate("contact", structure.contact_count());
  options.validate("run");
  const int i = belt.contact_index;
  const double a = structure.admittance()(i, i);
  if (!(a > 0.0))
    throw InvalidInput(fmt::format("contact.contact_index = {}: the structure's admittance there is {}; friction "
                                   "cannot act",
                                   i, format_value(a)));
  const double N = belt.normal_load_N, vb = belt.belt_speed_m_per_s, dt = structure.step_s();
  const double tol = options.stick_tolerance_m_per_s > 0.0 ? options.stick_tolerance_m_per_s
                                                            : 1e-3 * std::max(std::abs(vb), 1e-12);
  const int ns = law.state_size();
  VecX u = VecX::Zero(ns), u_old = VecX::Zero(ns), h(ns);
  double vr = -vb, vr_prev_abs = std::abs(vb), vr_prev2_abs = std::abs(vb);
  bool first = true, have_prev2 = false;
  VecX X(ns + 1), R(ns + 1), R2(ns + 1), Xt(ns + 1), dX(ns + 1);
  MatX J(ns + 1, ns + 1);
  Eigen::PartialPivLU<MatX> lu(ns + 1);
  const double su = 1e-2, sv = 1e-3 * std::max(std::abs(vb), 1e-3);
  // The step equations of `m` under load Nm: BDF1/BDF2 for the state, v_r = c + a F for the velocity.
  auto residual_of = [&](const contact::ContactModel& m, double Nm, const VecX& X, const VecX& un, const VecX& unm1,
                         double c, bool bdf1, VecX& R) {
    const double x = X[ns];
    Eigen::Map<const VecX> uu(X.data(), ns);
    m.source(uu.data(), Vec2(x, 0.0), h.data());
    if (bdf1)
      R.head(ns) = uu - un - dt * h;
    else
      R.head(ns) = uu - (4.0 / 3.0) * un + (1.0 / 3.0) * unm1 - (2.0 / 3.0) * dt * h;
    R[ns] = x - c - a * Nm * m.friction(uu.data(), Vec2(x, 0.0))[0];
  };
  auto residual = [&](const VecX& X, const VecX& un, const VecX& unm1, double c, bool bdf1, VecX& R) {
    residual_of(law, N, X, un, unm1, c, bdf1, R);
  };
  VecX u_nm1 = VecX::Zero(ns);  // u_{n-1} of the last step (its BDF2 equations, for the sensitivities)
  bool last_bdf1 = true;
  auto solve = [&](double c, double t_next) {
    const bool bdf1 = first;
    if (bdf1)
      X.head(ns) = u;
    else
      X.head(ns) = 2.0 * u - u_old;
    X[ns] = vr;
    auto scaled_norm = [&](const VecX& r) {
      double m = 0.0;
      for (int k = 0; k < ns; ++k) m = std::max(m, std::abs(r[k]) / su);
      return std::max(m, std::abs(r[ns]) / sv);
    };
    bool converged = false;
    residual(X, u, u_old, c, bdf1, R);
    for (int it = 0; it < 50 && !converged; ++it) {
      for (int k = 0; k <= ns; ++k) {
        const double scale = k < ns ? su : sv;
        const double delta = 1e-7 * std::max(std::abs(X[k]), scale);
        Xt = X;
        Xt[k] += delta;
        residual(Xt, u, u_old, c, bdf1, R2);
        J.col(k) = (R2 - R) / delta;
      }
      lu.compute(J);
      dX = lu.solve(-R);
      double lambda = 1.0;
      const double r0 = scaled_norm(R);
      for (int ls = 0; ls < 30; ++ls) {
        Xt = X + lambda * dX;
        residual(Xt, u, u_old, c, bdf1, R2);
        if (scaled_norm(R2) < r0 || lambda < 1e-6) break;
        lambda *= 0.5;
      }
      X = Xt;
      R = R2;
      converged = true;
      for (int k = 0; k <= ns; ++k) {
        const double scale = k < ns ? su : sv;
        if (std::abs(lambda * dX[k]) > 1e-11 * std::max(std::abs(X[k]), scale)) converged = false;
      }
      if (!X.allFinite()) break;
    }
    if (!converged)
      throw SolverError(fmt::format("stick-slip: the implicit step of the dynamic friction law did not converge at "
                                    "t = {} s (try a smaller dt_s)",
                                    format_value(t_next)));
    u_nm1 = u_old;
    u_old = u;
    u = X.head(ns);
    vr = X[ns];
    last_bdf1 = first;
    first = false;
    StepSolution out;
    out.force = N * law.friction(u.data(), Vec2(vr, 0.0))[0];
    out.stick = std::abs(vr) <= tol;
    out.extra = u[0];
    if (!out.stick && vr_prev_abs <= tol)
      out.breakaway_fraction = crossing_fraction(vr_prev2_abs, vr_prev_abs, std::abs(vr), tol, have_prev2);
    vr_prev2_abs = vr_prev_abs;
    have_prev2 = true;
    vr_prev_abs = std::abs(vr);
    return out;
  };
  // Sensitivities: the step equations R(X; u_n, u_{n-1}, c, p) = 0 at the solution X = (u_{n+1}, v_r) give
  // dR/dX dX = -(dR/du_n du_n + dR/du_{n-1} du_{n-1} + dR/dc dc + dR/dp), and F = N f(u, v_r) gives dF; dR/dX and
  // df/d(u, v_r) are central differences in X, dR/dp and d(N f)/dp between the laws and loads at p -/+ h.
  const std::size_t P = sensitivities ? sensitivities->size() : 0;
  for (std::size_t j = 0; j < P; ++j)
    if (const StickSlipSensitivity& sj = (*sensitivities)[j]; !sj.law_minus || !sj.law_plus || sj.law_minus->state_size() != ns || sj.law_plus->state_size() != ns)
      throw InvalidInput("stick-slip sensitivities: a dynamic run needs the law at p -/+ h, of the run's state size");
  std::vector<VecX> du(P, VecX::Zero(ns)), du_old(P, VecX::Zero(ns));
  MatX JX(ns + 1, ns + 1);
  VecX Xs(ns + 1), Rp(ns + 1), Rm(ns + 1), rhs(ns + 1), dXt(ns + 1), fu(ns), Xp(ns + 1), Xm(ns + 1);
  auto f_of = [&](const contact::ContactModel& m, const VecX& X) { return m.friction(X.data(), Vec2(X[ns], 0.0))[0]; };
  const StepTangent tangent = [&](double c, const StepSolution&, const std::vector<double>& dc,
                                  std::vector<double>& dF, std::vector<double>& dextra) {
    const bool bdf1 = last_bdf1;
    const double alpha1 = bdf1 ? 1.0 : 4.0 / 3.0, alpha2 = bdf1 ? 0.0 : 1.0 / 3.0;
    Xs << u, vr;
    double f_vr = 0.0;
    for (int k = 0; k <= ns; ++k) {
      const double delta = 1e-6 * std::max(std::abs(Xs[k]), k < ns ? su : sv);
      Xp = Xs, Xm = Xs;
      Xp[k] += delta, Xm[k] -= delta;
      residual(Xp, u_old, u_nm1, c, bdf1, Rp);
      residual(Xm, u_old, u_nm1, c, bdf1, Rm);
      JX.col(k) = (Rp - Rm) / (2.0 * delta);
      const double df = (f_of(law, Xp) - f_of(law, Xm)) / (2.0 * delta);
      (k < ns ? fu[k] : f_vr) = df;
    }
    lu.compute(JX);
    for (std::size_t j = 0; j < P; ++j) {
      const StickSlipSensitivity& sj = (*sensitivities)[j];
      const double Np = sj.belt_plus.normal_load_N, Nm = sj.belt_minus.normal_load_N;
      residual_of(*sj.law_plus, Np, Xs, u_old, u_nm1, c, bdf1, Rp);
      residual_of(*sj.law_minus, Nm, Xs, u_old, u_nm1, c, bdf1, Rm);
      rhs = -(Rp - Rm) / (2.0 * sj.step);
      rhs.head(ns) += alpha1 * du[j] - alpha2 * du_old[j];
      rhs[ns] += dc[j];
      dXt = lu.solve(rhs);  // no allocation per step and parameter
      du_old[j] = du[j];
      du[j] = dXt.head(ns);
      dF[j] = (Np * f_of(*sj.law_plus, Xs) - Nm * f_of(*sj.law_minus, Xs)) / (2.0 * sj.step) +
              N * (fu.dot(du[j]) + f_vr * dXt[ns]);
      dextra[j] = du[j][0];
    }
  };
  Driver d{structure, belt, options, a, true, progress, sensitivities};
  StickSlipResult r = d.run(solve, tangent, 0.0);
  r.well_posed = true;
  return r;
}

}  // namespace bristle::structures
