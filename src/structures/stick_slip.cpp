#include "bristle/structures/stick_slip.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
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


struct Driver {
  ContactStepper& s;
  BeltParams belt;
  StickSlipOptions options;
  double a = 0.0;
  bool dynamic = false;
  const Progress& progress;

  /// `solve(c, t_next)` returns the step's StepSolution (a template: called once per step).
  template <class StepSolver>
  StickSlipResult run(StepSolver& solve, double mu_s) {
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
    bool prev_stick = (vb == 0.0);
    double interval_start = 0.0;
    VecX f_next = s.force();
    ProgressThrottle report(progress);
    for (long n = 0; n < steps; ++n) {
      const double F_old = s.force()[i];
      const double c = s.predicted_velocity()[i] - vb - a * F_old;
      const double t_next = static_cast<double>(n + 1) * dt;
      const StepSolution sol = solve(c, t_next);
      if (!std::isfinite(sol.force))
        throw SolverError(fmt::format("stick-slip: non-finite friction force at t = {} s", format_value(t_next)));
      f_next = s.force();  // same size: no allocation
      f_next[i] = sol.force;
      const bool want_w = ((n + 1) % options.output_every == 0) || n + 1 == steps;
      s.advance(f_next, want_w);
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
      if (want_w) record(t_next, s.displacement()[i], v, sol.force, sol.stick, sol.extra);
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
                               const Progress& progress) {
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
  Driver d{structure, belt, options, a, false, progress};
  StickSlipResult r = d.run(solve, mu_s);
  r.well_posed = law.well_posed();
  return r;
}

StickSlipResult run_stick_slip(ContactStepper& structure, const BeltParams& belt, const laws::StribeckParams& friction,
                               const StickSlipOptions& options, const Progress& progress) {
  return run_stick_slip(structure, belt, laws::CoulombStribeckParams{friction}, options, progress);
}

StickSlipResult run_stick_slip(ContactStepper& structure, const BeltParams& belt, const contact::ContactModel& law,
                               const StickSlipOptions& options, const Progress& progress) {
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
  auto residual = [&](const VecX& X, const VecX& un, const VecX& unm1, double c, bool bdf1, VecX& R) {
    const double x = X[ns];
    Eigen::Map<const VecX> uu(X.data(), ns);
    law.source(uu.data(), Vec2(x, 0.0), h.data());
    if (bdf1)
      R.head(ns) = uu - un - dt * h;
    else
      R.head(ns) = uu - (4.0 / 3.0) * un + (1.0 / 3.0) * unm1 - (2.0 / 3.0) * dt * h;
    R[ns] = x - c - a * N * law.friction(uu.data(), Vec2(x, 0.0))[0];
  };
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
    u_old = u;
    u = X.head(ns);
    vr = X[ns];
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
  Driver d{structure, belt, options, a, true, progress};
  StickSlipResult r = d.run(solve, 0.0);
  r.well_posed = true;
  return r;
}

}  // namespace bristle::structures
