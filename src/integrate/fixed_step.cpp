// Fixed-step integrators: sdirk2, implicit_euler and rk4.
//
// Grid. Between consecutive output times ta < tb the driver takes steps of dt and one shorter last
// step that lands exactly on tb, so every output is a grid point (no interpolation). The grid
// restarts at each output time. Switching functions are ignored: a fixed-step method cannot restart
// inside a step, and a kink of the right-hand side only lowers the accuracy of the step containing it.
//
// Methods (Hairer & Wanner, Solving ODEs II, §IV.6 for SDIRK; Butcher tableaux below).
//   rk4             classical explicit Runge-Kutta, order 4.
//   implicit_euler  Y = x + h f(t + h, Y), x1 = Y; order 1, L-stable.
//   sdirk2          gamma = 1 - 1/sqrt(2) (Alexander 1977), order 2, L-stable, stiffly accurate:
//                       gamma   | gamma
//                       1       | 1 - gamma   gamma
//                       --------+------------------
//                               | 1 - gamma   gamma
//                   Y1 = x + h gamma f(t + gamma h, Y1),
//                   Y2 = x + h (1 - gamma) k1 + h gamma f(t + h, Y2),  x1 = Y2.
//
// Every implicit stage has the form  Y = base + hg f(tc, Y)  and is solved by simplified Newton
// iterations: the Jacobian (analytic, else forward differences) is evaluated once at the stage's
// starting guess and M = I - hg J is LU-factorised once; iterations stop when the weighted RMS norm
// of the update, with weights 1 / (atol_i + rtol |Y_i|), falls below kNewtonTolerance. Fixed-step
// methods do no error control: rtol and atol only set this Newton stopping test.
// The stage derivative is recovered as k = (Y - base) / hg rather than by another evaluation of f,
// which keeps stiff components from amplifying the Newton residual (Hairer & Wanner, §IV.8).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

#include "bristle/core/error.hpp"
#include "bristle/core/interrupt.hpp"
#include "bristle/integrate/stepper.hpp"
#include "drivers.hpp"

namespace bristle::integrate {

namespace {

constexpr double kGamma = kSdirk2Gamma;  // 1 - 1/sqrt(2), stepper.hpp
constexpr int kMaxNewtonIterations = 10;
/// Newton stops when the weighted update norm is below this (a tenth of the tolerance).
constexpr double kNewtonTolerance = 0.1;
/// Newton gives up when an update is this many times larger than the previous one.
constexpr double kNewtonDivergenceRatio = 2.0;
/// Relative tolerance of the Newton test is at least this, so that it stays reachable in double precision.
constexpr double kSmallestNewtonRtol = 1e-10;
/// An output time within this fraction of dt beyond a multiple of dt counts as that multiple (round-off).
constexpr double kGridSlack = 1e-9;

}  // namespace

/// The stages of one step; FixedStepper adds the argument checks and the step statistics.
class FixedStepper::Stages {
 public:
  Stages(const OdeSystem& system, const Options& options, Stats& stats)
      : system_(system),
        method_(options.method),
        rtol_(std::max(options.rtol, kSmallestNewtonRtol)),
        atol_(absolute_tolerances(options, system.size)),
        stats_(stats),
        k1_(system.size),
        k2_(system.size),
        k3_(system.size),
        k4_(system.size),
        stage_(system.size),
        base_(system.size),
        delta_(system.size),
        jacobian_(system.size, system.size),
        iteration_matrix_(system.size, system.size),
        residual_(system.size),
        lu_(system.size) {}

  /// Advances x from t to t + h.
  void step(double t, double h, VecX& x) {
    switch (method_) {
      case Method::rk4:
        rk4(t, h, x);
        break;
      case Method::implicit_euler:
        stage_ = x;
        solve_stage(t + h, h, x, stage_, Where{t, h, 1});
        x = stage_;
        break;
      case Method::sdirk2:
        sdirk2(t, h, x);
        break;
      case Method::auto_:
      case Method::cvode_bdf:
      case Method::rodas4:
      case Method::rodas5p:
        throw SolverError(fmt::format("{} is not a fixed-step method", to_string(method_)));  // never reached
    }
    if (!x.allFinite())
      throw SolverError(fmt::format("{}: non-finite state at t = {} (step from t = {} with dt = {}); try a smaller "
                                    "integrator.dt_s{}",
                                    to_string(method_), format_value(t + h), format_value(t), format_value(h),
                                    method_ == Method::rk4 ? " or an implicit method if the problem is stiff" : ""));
  }

 private:
  /// Identifies a stage solve in error messages.
  struct Where {
    double t, h;
    int stage;
  };

  void rhs(double t, const VecX& y, VecX& dydt) {
    system_.rhs(t, y.data(), dydt.data());
    ++stats_.rhs_evaluations;
  }

  void rk4(double t, double h, VecX& x) {
    rhs(t, x, k1_);
    rhs(t + 0.5 * h, x + 0.5 * h * k1_, k2_);
    rhs(t + 0.5 * h, x + 0.5 * h * k2_, k3_);
    rhs(t + h, x + h * k3_, k4_);
    x += (h / 6.0) * (k1_ + 2.0 * k2_ + 2.0 * k3_ + k4_);
  }

  void sdirk2(double t, double h, VecX& x) {
    stage_ = x;
    solve_stage(t + kGamma * h, kGamma * h, x, stage_, Where{t, h, 1});
    // base of stage 2: x + h (1 - gamma) k1 with k1 = (Y1 - x) / (h gamma)
    base_ = x + ((1.0 - kGamma) / kGamma) * (stage_ - x);
    solve_stage(t + h, kGamma * h, base_, stage_, Where{t, h, 2});  // guess Y2 = Y1
    x = stage_;
  }

  /// Solves Y = base + hg f(tc, Y) for y, starting from the guess in y.
  void solve_stage(double tc, double hg, const VecX& base, VecX& y, const Where& where) {
    double previous = std::numeric_limits<double>::infinity();
    double norm = previous;
    int iteration = 1;
    for (; iteration <= kMaxNewtonIterations; ++iteration) {
      rhs(tc, y, k1_);
      if (iteration == 1) {
        evaluate_jacobian(tc, y, k1_);
        iteration_matrix_.noalias() = -hg * jacobian_;  // I - hg J, without temporaries
        iteration_matrix_.diagonal().array() += 1.0;
        lu_.compute(iteration_matrix_);
      }
      residual_.noalias() = base + hg * k1_ - y;
      delta_ = lu_.solve(residual_);
      y += delta_;
      if (!y.allFinite())
        throw SolverError(fmt::format(
            "{}: non-finite state in the step from t = {} to t = {} (stage {}, Newton iteration {}): the right-hand "
            "side or its Jacobian returned non-finite values, or the step is too large; try a smaller integrator.dt_s",
            to_string(method_), format_value(where.t), format_value(where.t + where.h), where.stage, iteration));
      norm = weighted_norm(delta_, y);
      if (norm <= kNewtonTolerance) return;
      if (norm > kNewtonDivergenceRatio * previous) break;
      previous = norm;
    }
    throw SolverError(fmt::format(
        "{}: Newton iterations did not converge in the step from t = {} to t = {} (stage {}, weighted update norm "
        "{:.3g} after {} iterations); try a smaller integrator.dt_s",
        to_string(method_), format_value(where.t), format_value(where.t + where.h), where.stage, norm,
        std::min(iteration, kMaxNewtonIterations)));
  }

  /// Jacobian at (t, y), fy = f(t, y): analytic if given, else forward differences with increments
  /// sqrt(eps) max(|y_j|, atol_j / rtol), i.e. relative to the component's size or, near zero, to the
  /// magnitude below which its error is controlled absolutely.
  void evaluate_jacobian(double t, VecX& y, const VecX& fy) {
    ++stats_.jacobian_evaluations;
    if (system_.jacobian) {
      jacobian_.setZero();
      system_.jacobian(t, y.data(), jacobian_.data());
      return;
    }
    const double root_eps = std::sqrt(std::numeric_limits<double>::epsilon());
    for (Eigen::Index j = 0; j < y.size(); ++j) {
      const double saved = y[j];
      y[j] += root_eps * std::max(std::abs(saved), atol_[j] / rtol_);
      const double increment = y[j] - saved;  // the increment actually represented
      rhs(t, y, k2_);
      jacobian_.col(j) = (k2_ - fy) / increment;
      y[j] = saved;
    }
  }

  double weighted_norm(const VecX& v, const VecX& y) const {
    double sum = 0.0;
    for (Eigen::Index i = 0; i < v.size(); ++i) {
      const double scaled = v[i] / (atol_[i] + rtol_ * std::abs(y[i]));
      sum += scaled * scaled;
    }
    return std::sqrt(sum / static_cast<double>(v.size()));
  }

  const OdeSystem& system_;
  const Method method_;
  const double rtol_;
  const VecX atol_;
  Stats& stats_;
  VecX k1_, k2_, k3_, k4_;  // stage derivatives (rk4); Newton and difference-quotient work vectors
  VecX stage_, base_, delta_;
  MatX jacobian_;
  MatX iteration_matrix_;
  VecX residual_;
  Eigen::PartialPivLU<MatX> lu_;
};

namespace {
Options checked_stepper_options(Options options) {
  if (is_adaptive(options.method))
    throw InvalidInput(fmt::format("integrator.method = \"{}\": a fixed-step method is required here (valid: sdirk2, "
                                   "implicit_euler, rk4)",
                                   to_string(options.method)));
  options.dt_s = 1.0;  // not used: each step is given its own h
  options.validate("integrator");
  return options;
}
}  // namespace

FixedStepper::FixedStepper(const OdeSystem& system, const Options& options, Stats& stats)
    : stats_(stats), size_(system.size) {
  const Options checked = checked_stepper_options(options);
  if (system.size <= 0) throw InvalidInput(fmt::format("system.size = {}: must be > 0", system.size));
  if (!system.rhs) throw InvalidInput("system.rhs: not set; a right-hand side is required");
  if (!checked.atol_per_component.empty() &&
      checked.atol_per_component.size() != static_cast<std::size_t>(system.size))
    throw InvalidInput(fmt::format("integrator.atol_per_component: has {} entries, must have one per state ({})",
                                   checked.atol_per_component.size(), system.size));
  stages_ = std::make_unique<Stages>(system, checked, stats);
  stats_.method_used = checked.method;
}

FixedStepper::~FixedStepper() = default;

void FixedStepper::step(double t, double h, VecX& x) {
  require_finite("FixedStepper::step t", t);
  require_positive("FixedStepper::step h", h);
  if (x.size() != size_)
    throw InvalidInput(fmt::format("FixedStepper::step state size = {}: must equal system.size = {}", x.size(), size_));
  stages_->step(t, h, x);
  stats_.smallest_step = stats_.steps == 0 ? h : std::min(stats_.smallest_step, h);
  stats_.largest_step = std::max(stats_.largest_step, h);
  ++stats_.steps;
}

namespace detail {

Stats integrate_fixed_step(const OdeSystem& system, VecX& x, double t0, const std::vector<double>& output_times,
                           const Options& options, const Observer& observe) {
  Stats stats;
  FixedStepper stepper(system, options, stats);
  const double dt = options.dt_s;
  double t = t0;
  for (const double t_out : output_times) {
    const double start = t;
    const double steps_to_output = std::ceil((t_out - start) / dt - kGridSlack);  // the last may be shorter
    for (double k = 1.0; t < t_out; k += 1.0) {
      if (stats.steps >= options.max_steps)
        throw SolverError(fmt::format("{}: step budget exhausted at t = {}: {} = {} steps taken before reaching "
                                      "t = {}",
                                      to_string(options.method), format_value(t), options.max_steps_key, options.max_steps,
                                      format_value(output_times.back())));
      const double t_next = k >= steps_to_output ? t_out : std::min(start + k * dt, t_out);
      if (!(t_next > t))
        throw SolverError(fmt::format("{}: integrator.dt_s = {} is below the resolution of t = {}",
                                      to_string(options.method), format_value(dt), format_value(t)));
      stepper.step(t, t_next - t, x);
      t = t_next;
      poll_interrupt(static_cast<unsigned long>(x.size()));  // core/interrupt.hpp: as the adaptive methods do
    }
    if (observe) observe(t_out, x.data());
  }
  return stats;
}

}  // namespace detail

}  // namespace bristle::integrate
