// Tests of the integrate module: measured orders of convergence of the fixed-step methods, CVODE's
// accuracy against the tolerance and on a stiff problem, restarts at switches, analytic against
// difference-quotient Jacobians, L-stability, and every failure mode (with its message).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/integrate/ode.hpp"
#include "bristle/integrate/stepper.hpp"

namespace {

using bristle::InvalidInput;
using bristle::SolverError;
using bristle::VecX;
using namespace bristle::integrate;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---- Test problems -----------------------------------------------------------------------------

// A smooth nonlinear, non-autonomous system with a known solution:
//   y0' = -2 t y0^2                           y0 = 1 / (1 + t^2)
//   y1' = -y2 + y1 (1 - y1^2 - y2^2)           (y1, y2) = (cos t, sin t), the attracting limit cycle
//   y2' =  y1 + y2 (1 - y1^2 - y2^2)
OdeSystem nonlinear_system(bool analytic_jacobian) {
  OdeSystem s;
  s.size = 3;
  s.rhs = [](double t, const double* y, double* f) {
    const double r = 1.0 - y[1] * y[1] - y[2] * y[2];
    f[0] = -2.0 * t * y[0] * y[0];
    f[1] = -y[2] + y[1] * r;
    f[2] = y[1] + y[2] * r;
  };
  if (analytic_jacobian)
    s.jacobian = [](double t, const double* y, double* j) {  // column-major
      const double r = 1.0 - y[1] * y[1] - y[2] * y[2];
      j[0] = -4.0 * t * y[0];
      j[4] = r - 2.0 * y[1] * y[1];
      j[5] = 1.0 - 2.0 * y[1] * y[2];
      j[7] = -1.0 - 2.0 * y[1] * y[2];
      j[8] = r - 2.0 * y[2] * y[2];
    };
  return s;
}

VecX nonlinear_exact(double t) { return VecX{{1.0 / (1.0 + t * t), std::cos(t), std::sin(t)}}; }

// Robertson's chemical kinetics (Hairer & Wanner II, §IV.1): stiffness ratio ~1e11 over t in [0, 4e10].
OdeSystem robertson(bool analytic_jacobian) {
  OdeSystem s;
  s.size = 3;
  s.rhs = [](double, const double* y, double* f) {
    f[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
    f[2] = 3e7 * y[1] * y[1];
    f[1] = -f[0] - f[2];
  };
  if (analytic_jacobian)
    s.jacobian = [](double, const double* y, double* j) {
      j[0] = -0.04, j[1] = 0.04, j[2] = 0.0;
      j[3] = 1e4 * y[2], j[4] = -1e4 * y[2] - 6e7 * y[1], j[5] = 6e7 * y[1];
      j[6] = 1e4 * y[1], j[7] = -1e4 * y[1], j[8] = 0.0;
    };
  return s;
}

// y' = -lambda (y - cos t), lambda = 1e6: a fast transient onto the slow solution ~ cos t.
constexpr double kLambda = 1e6;
OdeSystem stiff_scalar() {
  OdeSystem s;
  s.size = 1;
  s.rhs = [](double t, const double* y, double* f) { f[0] = -kLambda * (y[0] - std::cos(t)); };
  s.jacobian = [](double, const double*, double* j) { j[0] = -kLambda; };
  return s;
}
double stiff_scalar_exact(double t, double y0) {
  const double l2 = kLambda * kLambda;
  const double particular = (l2 * std::cos(t) + kLambda * std::sin(t)) / (l2 + 1.0);
  return particular + (y0 - l2 / (l2 + 1.0)) * std::exp(-kLambda * t);
}

struct Trajectory {
  VecX x;
  Stats stats;
  std::vector<double> times;
  std::vector<VecX> states;
};

Trajectory run(const OdeSystem& system, VecX x0, double t0, const std::vector<double>& outputs,
               const Options& options) {
  Trajectory r;
  r.x = std::move(x0);
  r.stats = integrate(system, r.x, t0, outputs, options, [&](double t, const double* x) {
    r.times.push_back(t);
    r.states.emplace_back(Eigen::Map<const VecX>(x, system.size));
  });
  return r;
}

std::vector<double> grid(double t0, double t1, int intervals) {
  std::vector<double> times;
  for (int i = 0; i <= intervals; ++i) times.push_back(t0 + (t1 - t0) * i / intervals);
  return times;
}

/// cvode_bdf, pinned: the CvodeBdf tests were written when it was the default (auto is now).
Options cvode() {
  Options o;
  o.method = Method::cvode_bdf;
  return o;
}

Options fixed(Method method, double dt) {
  Options o;
  o.method = method;
  o.dt_s = dt;
  return o;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no exception)";
}

// ---- (a) Orders of convergence of the fixed-step methods ---------------------------------------

struct OrderCase {
  Method method;
  double order, tolerance;
};

TEST(FixedStep, MeasuredOrderOfConvergence) {
  const double t_end = 2.0;
  for (const OrderCase c : {OrderCase{Method::implicit_euler, 1.0, 0.15}, OrderCase{Method::sdirk2, 2.0, 0.15},
                            OrderCase{Method::rk4, 4.0, 0.2}}) {
    std::vector<double> errors;
    double dt = 0.1;
    for (int level = 0; level <= 4; ++level, dt /= 2.0) {
      const Trajectory r = run(nonlinear_system(false), nonlinear_exact(0.0), 0.0, {t_end}, fixed(c.method, dt));
      errors.push_back((r.x - nonlinear_exact(t_end)).lpNorm<Eigen::Infinity>());
    }
    std::ostringstream table;
    table << std::fixed << std::setprecision(3);
    for (std::size_t i = 0; i + 1 < errors.size(); ++i) {
      const double observed = std::log2(errors[i] / errors[i + 1]);
      table << (i ? ", " : "") << observed;
      EXPECT_NEAR(observed, c.order, c.tolerance)
          << to_string(c.method) << " between dt = " << 0.1 / (1 << i) << " and " << 0.1 / (2 << i);
    }
    std::cout << "[ order    ] " << to_string(c.method) << ": errors at t = 2 for dt = 0.1 ... 0.00625: "
              << std::scientific << errors.front() << " ... " << errors.back() << std::defaultfloat
              << "; observed orders " << table.str() << " (theory " << c.order << ")\n";
    ::testing::Test::RecordProperty(std::string("order_") + std::string(to_string(c.method)), table.str());
  }
}

TEST(FixedStep, GridLandsOnEveryOutputTime) {
  // dt = 0.1 does not divide 0.25: each segment ends with a shorter step.
  const Trajectory r =
      run(nonlinear_system(false), nonlinear_exact(0.0), 0.0, {0.25, 0.5, 1.0}, fixed(Method::rk4, 0.1));
  EXPECT_EQ(r.times, (std::vector<double>{0.25, 0.5, 1.0}));
  EXPECT_EQ(r.stats.steps, 3 + 3 + 5);
  EXPECT_NEAR(r.stats.smallest_step, 0.05, 1e-15);
  EXPECT_NEAR(r.stats.largest_step, 0.1, 1e-15);
  EXPECT_EQ(r.stats.rhs_evaluations, 4 * r.stats.steps);
  for (std::size_t i = 0; i < r.times.size(); ++i)
    EXPECT_LT((r.states[i] - nonlinear_exact(r.times[i])).lpNorm<Eigen::Infinity>(), 1e-5);
}

TEST(Integrate, RepeatedOutputTimesAndTheInitialTimeAreObserved) {
  const std::vector<double> outputs{0.0, 0.0, 0.5, 0.5, 1.0};
  for (const Options& options : {cvode(), Options{}, fixed(Method::sdirk2, 0.01)}) {
    const Trajectory r = run(nonlinear_system(false), nonlinear_exact(0.0), 0.0, outputs, options);
    EXPECT_EQ(r.times, outputs) << to_string(options.method);
    EXPECT_EQ(r.states[0], nonlinear_exact(0.0));
    EXPECT_EQ(r.states[2], r.states[3]);
    EXPECT_EQ(r.x, r.states.back()) << "x holds the state at the last output time";
    EXPECT_LT((r.x - nonlinear_exact(1.0)).lpNorm<Eigen::Infinity>(), 1e-4);
  }
}

TEST(Integrate, NoIntegrationWhenEveryOutputIsAtTheInitialTime) {
  const Trajectory r = run(nonlinear_system(false), nonlinear_exact(0.0), 0.0, {0.0}, Options{});
  EXPECT_EQ(r.stats.steps, 0);
  EXPECT_EQ(r.x, nonlinear_exact(0.0));
  ASSERT_EQ(r.times.size(), 1u);
}

TEST(FixedStep, StepperAdvancesLikeIntegrate) {
  const OdeSystem system = nonlinear_system(false);
  const Trajectory reference = run(system, nonlinear_exact(0.0), 0.0, {1.0}, fixed(Method::sdirk2, 0.1));
  Stats stats;
  FixedStepper stepper(system, fixed(Method::sdirk2, 0.0), stats);  // dt is not used by the stepper
  VecX x = nonlinear_exact(0.0);
  for (int k = 0; k < 10; ++k) stepper.step(0.1 * k, 0.1 * (k + 1) - 0.1 * k, x);
  EXPECT_LT((x - reference.x).lpNorm<Eigen::Infinity>(), 1e-14);
  EXPECT_EQ(stats.steps, 10);
  EXPECT_EQ(stats.rhs_evaluations, reference.stats.rhs_evaluations);
  EXPECT_GT(stats.smallest_step, 0.0);

  EXPECT_EQ(message_of([&] { FixedStepper(system, cvode(), stats); }),
            "integrator.method = \"cvode_bdf\": a fixed-step method is required here (valid: sdirk2, implicit_euler, "
            "rk4)");
  EXPECT_EQ(message_of([&] { stepper.step(0.0, 0.0, x); }), "FixedStepper::step h = 0: must be > 0");
  VecX wrong = VecX::Zero(2);
  EXPECT_EQ(message_of([&] { stepper.step(0.0, 0.1, wrong); }),
            "FixedStepper::step state size = 2: must equal system.size = 3");
}

// ---- (b) cvode_bdf: accuracy follows the tolerance; a stiff problem ---------------------------

TEST(CvodeBdf, ErrorDecreasesWithTheTolerance) {
  const std::vector<double> outputs = grid(0.0, 10.0, 20);
  double previous = std::numeric_limits<double>::infinity();
  for (const double rtol : {1e-4, 1e-6, 1e-8, 1e-10}) {
    Options o = cvode();
    o.rtol = rtol;
    o.atol = 1e-3 * rtol;
    const Trajectory r = run(nonlinear_system(false), nonlinear_exact(0.0), 0.0, outputs, o);
    double error = 0.0;
    for (std::size_t i = 0; i < r.times.size(); ++i)
      error = std::max(error, (r.states[i] - nonlinear_exact(r.times[i])).lpNorm<Eigen::Infinity>());
    std::cout << "[ cvode    ] rtol = " << rtol << ": max error " << error << ", " << r.stats.steps << " steps\n";
    EXPECT_LE(error, 50.0 * rtol) << "rtol = " << rtol;
    EXPECT_LT(error, previous) << "rtol = " << rtol;
    EXPECT_GT(r.stats.smallest_step, 0.0);
    EXPECT_LE(r.stats.smallest_step, r.stats.largest_step);
    EXPECT_GT(r.stats.rhs_evaluations, r.stats.steps);
    EXPECT_EQ(r.stats.restarts, 0);
    previous = error;
  }
}

// CVODE refuses a span of a couple of ulps (CV_TOO_CLOSE) and one below ~1e-154 s (a product of two spans
// underflows: "tstop = 1e-300 is behind current t = 0"); such a sliver is one rodas4 step.
TEST(CvodeBdf, TakesASpanOfAFewUlpsOrBelow1e150) {
  for (const double t0 : {1e-3, 1.0, 1e6}) {
    for (const double relative : {2.3e-16, 4e-16, 1e-15, 1e-13}) {
      const double t1 = t0 * (1.0 + relative);
      ASSERT_GT(t1, t0);
      const Trajectory r = run(nonlinear_system(false), nonlinear_exact(t0), t0, {t0, t1}, cvode());
      ASSERT_EQ(r.times.size(), 2u);  // t0 served once (helper-41: the sliver path served it twice)
      EXPECT_EQ(r.times[0], t0);
      EXPECT_EQ(r.stats.method_used, relative < 8e-16 ? Method::rodas4 : Method::cvode_bdf);  // 4 ulp: a sliver
      EXPECT_LT((r.x - nonlinear_exact(t1)).lpNorm<Eigen::Infinity>(), std::max(1e-15, 1e-3 * (t1 - t0)))
          << t0 << " " << relative;
    }
  }
  for (const double t1 : {1e-300, 1e-200, 1e-155}) {
    const Trajectory r = run(nonlinear_system(false), nonlinear_exact(0.0), 0.0, {t1}, cvode());
    EXPECT_NEAR(r.x[2], t1, 1e-12 * t1);  // y' = (0, 0, 1) at t = 0: y2 = sin t1 = t1
    EXPECT_EQ(r.x.head(2), nonlinear_exact(0.0).head(2)) << t1;
  }
}

TEST(CvodeBdf, RobertsonStiffProblem) {
  std::vector<double> outputs;
  for (double t = 0.4; t < 5e10; t *= 10.0) outputs.push_back(t);  // 0.4 ... 4e10
  Options o = cvode();
  o.rtol = 1e-8;
  o.atol_per_component = {1e-12, 1e-18, 1e-10};
  const Trajectory r = run(robertson(false), VecX{{1.0, 0.0, 0.0}}, 0.0, outputs, o);
  // Reference at t = 40 (Radau IIA at rtol 1e-12): 0.7158270687, 9.185534764e-6, 0.2841637457.
  const VecX& at40 = r.states[2];
  ASSERT_DOUBLE_EQ(r.times[2], 40.0);
  EXPECT_NEAR(at40[0], 0.7158270687, 1e-7);
  EXPECT_NEAR(at40[1], 9.185534764e-6, 1e-12);
  EXPECT_NEAR(at40[2], 0.2841637457, 1e-7);
  for (const VecX& y : r.states) EXPECT_NEAR(y.sum(), 1.0, 1e-7);  // mass is conserved
  EXPECT_LT(r.x[0], 1e-6);                                        // y0 -> 0 as t -> infinity
  std::cout << "[ cvode    ] Robertson to t = 4e10: " << r.stats.steps << " steps, " << r.stats.rhs_evaluations
            << " rhs, " << r.stats.jacobian_evaluations << " Jacobians, steps from " << r.stats.smallest_step
            << " to " << r.stats.largest_step << " s\n";
  EXPECT_LT(r.stats.steps, 3000);
  EXPECT_GT(r.stats.largest_step, 1e8);
}

TEST(CvodeBdf, StepBudgetIsRespectedAcrossTheRun) {
  Options o = cvode();
  o.max_steps = 10;
  const std::string message =
      message_of([&] { run(nonlinear_system(false), nonlinear_exact(0.0), 0.0, grid(0.0, 10.0, 10), o); });
  EXPECT_NE(message.find("cvode_bdf: step budget exhausted at t = "), std::string::npos) << message;
  EXPECT_NE(message.find("integrator.max_steps = 10 steps taken before reaching t = 10"), std::string::npos)
      << message;
  EXPECT_THROW(run(nonlinear_system(false), nonlinear_exact(0.0), 0.0, {10.0}, o), SolverError);
}

// ---- (c) Switching functions ------------------------------------------------------------------

// y0' = |sin t| (kinks at t = k pi); y1' = 2 - y1 - 2 max(0, y1 - 1) (kink where y1 crosses 1, at t = ln 2):
//   y0 = 2k + 1 - cos(t - k pi) for k = floor(t / pi);
//   y1 = 2 - 2 exp(-t) before ln 2, 4/3 - exp(-3 (t - ln 2)) / 3 after.
OdeSystem kinked_system(bool with_switches) {
  OdeSystem s;
  s.size = 2;
  s.rhs = [](double t, const double* y, double* f) {
    f[0] = std::abs(std::sin(t));
    f[1] = 2.0 - y[1] - 2.0 * std::max(0.0, y[1] - 1.0);
  };
  if (with_switches) {
    s.switch_count = 2;
    s.switches = [](double t, const double* y, double* g) {
      g[0] = std::sin(t);
      g[1] = y[1] - 1.0;
    };
  }
  return s;
}
VecX kinked_exact(double t) {
  const double k = std::floor(t / std::numbers::pi);
  const double y1 = t < std::numbers::ln2 ? 2.0 - 2.0 * std::exp(-t)
                                          : 4.0 / 3.0 - std::exp(-3.0 * (t - std::numbers::ln2)) / 3.0;
  return VecX{{2.0 * k + 1.0 - std::cos(t - k * std::numbers::pi), y1}};
}

TEST(CvodeBdf, RestartsAtSwitchesAndStaysAccurate) {
  Options o = cvode();
  o.rtol = 1e-8;
  o.atol = 1e-10;
  const std::vector<double> outputs = grid(0.0, 10.0, 40);
  for (const bool with_switches : {true, false}) {
    const Trajectory r = run(kinked_system(with_switches), VecX::Zero(2), 0.0, outputs, o);
    double error = 0.0;
    for (std::size_t i = 0; i < r.times.size(); ++i) {
      const VecX exact = kinked_exact(r.times[i]);
      error = std::max(error, ((r.states[i] - exact).array() / exact.array().abs().max(1.0)).abs().maxCoeff());
    }
    std::cout << "[ switches ] " << (with_switches ? "with" : "without") << " switching functions: " << r.stats.restarts
              << " restarts, " << r.stats.steps << " steps, " << r.stats.error_test_failures
              << " error-test failures, max relative error " << error << "\n";
    if (with_switches) {
      EXPECT_EQ(r.stats.restarts, 4);  // t = ln 2, pi, 2 pi, 3 pi
      EXPECT_LT(error, 1e-6);
      EXPECT_GE(r.stats.jacobian_evaluations, r.stats.restarts);
    } else {
      EXPECT_EQ(r.stats.restarts, 0);
    }
  }
}

TEST(CvodeBdf, SwitchAtTheEndTimeOrIdenticallyZeroIsHarmless) {
  OdeSystem s = kinked_system(false);
  s.switch_count = 2;
  s.switches = [](double t, const double*, double* g) {
    g[0] = t - 1.0;  // a root exactly at the last output time
    g[1] = 0.0;      // never changes sign
  };
  const Trajectory r = run(s, VecX::Zero(2), 0.0, {0.5, 1.0}, cvode());
  EXPECT_EQ(r.times.back(), 1.0);
  EXPECT_NEAR(r.x[0], kinked_exact(1.0)[0], 1e-6);
}

/// The number that follows `prefix` in `text` (NaN if the prefix is absent). std::regex is avoided:
/// GCC 12 warns inside <regex> (-Wmaybe-uninitialized) in the sanitizer build.
double number_after(const std::string& text, const std::string& prefix, std::size_t from = 0) {
  const std::size_t at = text.find(prefix, from);
  if (at == std::string::npos) return std::nan("");
  return std::stod(text.substr(at + prefix.size()));
}

TEST(CvodeBdf, ChatteringSwitchEndsTheRunEarly) {
  // x' = +1 below 0.5 and -1 above: from t = 0.5 on x slides along 0.5 and the switch changes sign at
  // every step, however small. Without the guard this would creep on until the step budget is spent.
  OdeSystem s;
  s.size = 1;
  s.rhs = [](double, const double* x, double* f) { f[0] = x[0] > 0.5 ? -1.0 : 1.0; };
  s.switch_count = 1;
  s.switches = [](double, const double* x, double* g) { g[0] = x[0] - 0.5; };
  const std::string message = message_of([&] { run(s, VecX::Zero(1), 0.0, {1.0}, cvode()); });
  const std::string prefix = "cvode_bdf: switching function g[0] chatters at t = ";
  ASSERT_EQ(message.rfind(prefix, 0), 0u) << message;
  ASSERT_NE(message.find(": 100 sign changes in a row"), std::string::npos) << message;
  EXPECT_NEAR(number_after(message, prefix), 0.5, 1e-6) << message;
}

// ---- (d) Analytic against difference-quotient Jacobians ---------------------------------------

TEST(CvodeBdf, AnalyticJacobianMatchesDifferenceQuotients) {
  Options o = cvode();
  o.rtol = 1e-8;
  o.atol_per_component = {1e-12, 1e-18, 1e-10};
  const std::vector<double> outputs{0.4, 4.0, 40.0, 400.0, 4000.0};
  const Trajectory dq = run(robertson(false), VecX{{1.0, 0.0, 0.0}}, 0.0, outputs, o);
  const Trajectory exact = run(robertson(true), VecX{{1.0, 0.0, 0.0}}, 0.0, outputs, o);
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (int k = 0; k < 3; ++k)
      EXPECT_NEAR(exact.states[i][k], dq.states[i][k], 1e-6 * std::abs(dq.states[i][k]) + 1e-14)
          << "t = " << outputs[i] << ", component " << k;
  EXPECT_GT(exact.stats.jacobian_evaluations, 0);
  EXPECT_LT(exact.stats.rhs_evaluations, dq.stats.rhs_evaluations);  // no difference quotients
}

TEST(FixedStep, AnalyticJacobianMatchesDifferenceQuotients) {
  for (const Method method : {Method::sdirk2, Method::implicit_euler}) {
    const Trajectory dq = run(nonlinear_system(false), nonlinear_exact(0.0), 0.0, {2.0}, fixed(method, 0.01));
    const Trajectory exact = run(nonlinear_system(true), nonlinear_exact(0.0), 0.0, {2.0}, fixed(method, 0.01));
    EXPECT_LT((exact.x - dq.x).lpNorm<Eigen::Infinity>(), 1e-9) << to_string(method);
    EXPECT_EQ(exact.stats.jacobian_evaluations, dq.stats.jacobian_evaluations);
    EXPECT_EQ(exact.stats.jacobian_evaluations, (method == Method::sdirk2 ? 2 : 1) * exact.stats.steps);
    EXPECT_LT(exact.stats.rhs_evaluations, dq.stats.rhs_evaluations);
  }
}

// ---- (f) L-stability ----------------------------------------------------------------------------

TEST(FixedStep, LStableMethodsDampTheStiffTransient) {
  // dt lambda = 1e4: the transient from y(0) = 0 is gone after a step or two, and the slow solution is
  // followed to O(dt) (implicit Euler) and O(dt^2) (sdirk2).
  const double dt = 1e-2;
  for (const Method method : {Method::implicit_euler, Method::sdirk2}) {
    const Trajectory r = run(stiff_scalar(), VecX::Zero(1), 0.0, grid(0.0, 1.0, 100), fixed(method, dt));
    const double order = method == Method::sdirk2 ? 2.0 : 1.0;
    double error = 0.0;
    for (std::size_t i = 0; i < r.times.size(); ++i) {
      EXPECT_LE(std::abs(r.states[i][0]), 1.0 + 1e-3) << to_string(method) << " at t = " << r.times[i];
      if (r.times[i] >= 5 * dt) error = std::max(error, std::abs(r.states[i][0] - stiff_scalar_exact(r.times[i], 0.0)));
    }
    EXPECT_LT(error, std::pow(dt, order)) << to_string(method);
    std::cout << "[ L-stable ] " << to_string(method) << " at dt lambda = 1e4: max error after the transient " << error
              << "\n";
  }
  // The explicit rk4 is unstable here and stops with an error naming the time.
  const std::string message =
      message_of([&] { run(stiff_scalar(), VecX::Zero(1), 0.0, {1.0}, fixed(Method::rk4, dt)); });
  EXPECT_NE(message.find("rk4: non-finite state at t = "), std::string::npos) << message;
}

// ---- (e) Failure modes ----------------------------------------------------------------------------

// Returns NaN once t > 0.5.
OdeSystem nan_after_half() {
  OdeSystem s = nonlinear_system(false);
  s.rhs = [](double t, const double* y, double* f) {
    nonlinear_system(false).rhs(t, y, f);
    if (t > 0.5) f[1] = kNaN;
  };
  return s;
}

TEST(CvodeBdf, NonFiniteRightHandSideNamesTheTime) {
  const std::string message = message_of([] { run(nan_after_half(), nonlinear_exact(0.0), 0.0, {1.0}, cvode()); });
  const std::string prefix = "cvode_bdf failed at t = ";
  const std::string nan_at = "the right-hand side returned a non-finite value at t = ";
  ASSERT_EQ(message.rfind(prefix, 0), 0u) << message;
  ASSERT_NE(message.find(" (CV_"), std::string::npos) << message;  // the SUNDIALS flag is named
  ASSERT_NE(message.find(nan_at), std::string::npos) << message;
  EXPECT_LE(number_after(message, prefix), 0.5) << message;
  EXPECT_GT(number_after(message, nan_at), 0.5) << message;
  EXPECT_LT(number_after(message, nan_at), 0.51) << message;
  EXPECT_THROW(run(nan_after_half(), nonlinear_exact(0.0), 0.0, {1.0}, cvode()), SolverError);
}

TEST(FixedStep, NonFiniteRightHandSideNamesTheTime) {
  EXPECT_EQ(message_of([] { run(nan_after_half(), nonlinear_exact(0.0), 0.0, {1.0}, fixed(Method::rk4, 0.125)); }),
            "rk4: non-finite state at t = 0.625 (step from t = 0.5 with dt = 0.125); try a smaller integrator.dt_s or "
            "an implicit method if the problem is stiff");
  EXPECT_EQ(message_of([] { run(nan_after_half(), nonlinear_exact(0.0), 0.0, {1.0}, fixed(Method::sdirk2, 0.125)); }),
            "sdirk2: non-finite state in the step from t = 0.5 to t = 0.625 (stage 1, Newton iteration 1): the "
            "right-hand side or its Jacobian returned non-finite values, or the step is too large; try a smaller "
            "integrator.dt_s");
  EXPECT_THROW(run(nan_after_half(), nonlinear_exact(0.0), 0.0, {1.0}, fixed(Method::implicit_euler, 0.125)),
               SolverError);
}

TEST(FixedStep, NewtonFailureNamesTheTimeAndSuggestsASmallerStep) {
  // y' = y^2 from y = 1 blows up at t = 1: the stage equation of the step ending at 0.9 has no solution
  // near the Newton guess.
  OdeSystem s;
  s.size = 1;
  s.rhs = [](double, const double* y, double* f) { f[0] = y[0] * y[0]; };
  const std::string message = message_of([&] { run(s, VecX::Ones(1), 0.0, {2.0}, fixed(Method::sdirk2, 0.1)); });
  EXPECT_EQ(message.find("sdirk2: Newton iterations did not converge in the step from t = 0.8 to t = 0.9 (stage 2, "
                         "weighted update norm "),
            0u)
      << message;
  EXPECT_TRUE(message.ends_with(" iterations); try a smaller integrator.dt_s")) << message;
}

struct RhsFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

TEST(Integrate, ExceptionsFromCallbacksPropagateWithTheirType) {
  OdeSystem s = nonlinear_system(false);
  s.rhs = [](double t, const double* y, double* f) {
    if (t > 0.5) throw RhsFailure("rhs failed");
    nonlinear_system(false).rhs(t, y, f);
  };
  for (const Options& options :
       {Options{}, cvode(), fixed(Method::sdirk2, 0.1), fixed(Method::implicit_euler, 0.1), fixed(Method::rk4, 0.1)})
    EXPECT_THROW(run(s, nonlinear_exact(0.0), 0.0, {1.0}, options), RhsFailure) << to_string(options.method);

  OdeSystem bad_jacobian = nonlinear_system(true);
  bad_jacobian.jacobian = [](double, const double*, double*) { throw RhsFailure("jacobian failed"); };
  EXPECT_THROW(run(bad_jacobian, nonlinear_exact(0.0), 0.0, {1.0}, Options{}), RhsFailure);

  OdeSystem bad_switch = nonlinear_system(false);
  bad_switch.switch_count = 1;
  bad_switch.switches = [](double t, const double*, double* g) {
    if (t > 0.5) throw RhsFailure("switch failed");
    g[0] = 1.0;
  };
  EXPECT_THROW(run(bad_switch, nonlinear_exact(0.0), 0.0, {1.0}, Options{}), RhsFailure);
}

TEST(FixedStep, StepBudget) {
  Options o = fixed(Method::sdirk2, 0.1);
  o.max_steps = 10;
  EXPECT_EQ(message_of([&] { run(nonlinear_system(false), nonlinear_exact(0.0), 0.0, {2.0}, o); }),
            "sdirk2: step budget exhausted at t = 1: integrator.max_steps = 10 steps taken before reaching t = 2");
  EXPECT_NO_THROW(run(nonlinear_system(false), nonlinear_exact(0.0), 0.0, {1.0}, o));  // exactly 10 steps
}

std::string option_error(const Options& options) {
  return message_of([&] { run(nonlinear_system(false), nonlinear_exact(0.0), 0.0, {1.0}, options); });
}

TEST(IntegratorOptions, InvalidValuesAreRejectedWithKeyValueAndRule) {
  Options o;
  o.rtol = 0.0;
  EXPECT_EQ(option_error(o), "integrator.rtol = 0: must be > 0");
  o.rtol = 1.0;
  EXPECT_EQ(option_error(o), "integrator.rtol = 1: must be < 1");
  o.rtol = kNaN;
  EXPECT_EQ(option_error(o), "integrator.rtol = nan: must be finite");
  o = Options{};
  o.atol = -1.0;
  EXPECT_EQ(option_error(o), "integrator.atol = -1: must be > 0");
  o = Options{};
  o.atol_per_component = {1e-6, 0.0, 1e-6};
  EXPECT_EQ(option_error(o), "integrator.atol_per_component[1] = 0: must be > 0");
  o.atol_per_component = {1e-6, 1e-6};
  EXPECT_EQ(option_error(o), "integrator.atol_per_component: has 2 entries, must have one per state (3)");
  EXPECT_EQ(option_error(fixed(Method::sdirk2, -1.0)),
            "integrator.dt_s = -1: must be > 0 (sdirk2 is a fixed-step method)");
  EXPECT_EQ(option_error(fixed(Method::rk4, 0.0)), "integrator.dt_s = 0: must be > 0 (rk4 is a fixed-step method)");
  EXPECT_EQ(option_error(fixed(Method::implicit_euler, std::numeric_limits<double>::infinity())),
            "integrator.dt_s = inf: must be finite");
  o = Options{};
  o.max_steps = 0;
  EXPECT_EQ(option_error(o), "integrator.max_steps = 0: must be > 0");
  o = Options{};
  o.max_dt_s = -1.0;
  EXPECT_THROW(o.validate("solver"), InvalidInput);
  EXPECT_EQ(message_of([&] { o.validate("solver"); }), "solver.max_dt_s = -1: must be >= 0");
  o = Options{};
  o.initial_dt_s = kNaN;
  EXPECT_EQ(message_of([&] { o.validate("solver"); }), "solver.initial_dt_s = nan: must be finite");
  EXPECT_NO_THROW(Options{}.validate("integrator"));
}

// The valid list gained auto and rodas5p (issue 19); the messages are otherwise those pinned before.
TEST(IntegratorOptions, MethodNames) {
  for (const Method m : {Method::auto_, Method::cvode_bdf, Method::rodas4, Method::rodas5p, Method::sdirk2,
                         Method::implicit_euler, Method::rk4})
    EXPECT_EQ(method_from_string("integrator.method", to_string(m)), m);
  EXPECT_EQ(to_string(Method::auto_), "auto");
  EXPECT_TRUE(is_adaptive(Method::cvode_bdf));
  EXPECT_TRUE(is_adaptive(Method::auto_));
  EXPECT_FALSE(is_adaptive(Method::sdirk2) || is_adaptive(Method::implicit_euler) || is_adaptive(Method::rk4));
  // "foo" is 3 edits from "auto" and from "rk4": the first listed wins (it was "rk4" before auto existed).
  EXPECT_EQ(message_of([] { method_from_string("integrator.method", "foo"); }),
            "integrator.method = \"foo\": unknown method (valid: auto, cvode_bdf, rodas4, rodas5p, sdirk2, "
            "implicit_euler, rk4); did you mean \"auto\"?");
  EXPECT_EQ(message_of([] { method_from_string("integrator.method", "sdirk"); }),
            "integrator.method = \"sdirk\": unknown method (valid: auto, cvode_bdf, rodas4, rodas5p, sdirk2, "
            "implicit_euler, rk4); did you mean \"sdirk2\"?");
  EXPECT_EQ(message_of([] { method_from_string("integrator.method", "rodas5"); }),
            "integrator.method = \"rodas5\": unknown method (valid: auto, cvode_bdf, rodas4, rodas5p, sdirk2, "
            "implicit_euler, rk4); did you mean \"rodas5p\"?");
  EXPECT_EQ(message_of([] { method_from_string("integrator.method", "xyzzyq"); }),
            "integrator.method = \"xyzzyq\": unknown method (valid: auto, cvode_bdf, rodas4, rodas5p, sdirk2, "
            "implicit_euler, rk4)");
  EXPECT_THROW(method_from_string("integrator.method", "foo"), InvalidInput);
}

TEST(IntegratorOptions, AutoIsTheDefaultAndResolvesByTheRule) {
  EXPECT_EQ(Options{}.method, Method::auto_);
  Options o;
  o.rtol = 1e-8;
  EXPECT_EQ(resolve_method(o, 3), Method::rodas5p);
  EXPECT_EQ(resolve_method(o, 10), Method::rodas5p);
  EXPECT_EQ(resolve_method(o, 11), Method::cvode_bdf);
  o.rtol = 1e-4;
  EXPECT_EQ(resolve_method(o, 3), Method::rodas4);
  EXPECT_EQ(resolve_method(o, 11), Method::cvode_bdf);
  for (const Method m : {Method::cvode_bdf, Method::rodas4, Method::rodas5p, Method::sdirk2, Method::rk4}) {
    o.method = m;
    EXPECT_EQ(resolve_method(o, 3), m);
    EXPECT_EQ(resolve_method(o, 100), m);
  }
  // integrate() reports the method that ran; a fixed-step FixedStepper refuses auto.
  const OdeSystem s = nonlinear_system(true);
  for (const auto& [rtol, expected] : {std::pair{1e-8, Method::rodas5p}, std::pair{1e-4, Method::rodas4}}) {
    VecX x = nonlinear_exact(0.0);
    Options a;
    a.rtol = rtol;
    a.atol = 1e-3 * rtol;
    const Stats stats = integrate(s, x, 0.0, {2.0}, a, nullptr);
    EXPECT_EQ(stats.method_used, expected);
    EXPECT_LT((x - nonlinear_exact(2.0)).lpNorm<Eigen::Infinity>(), 50.0 * rtol);
  }
  OdeSystem wide;  // 12 independent decays: above the Rosenbrock size of auto
  wide.size = 12;
  wide.rhs = [](double, const double* y, double* f) {
    for (int i = 0; i < 12; ++i) f[i] = -(i + 1.0) * y[i];
  };
  VecX x = VecX::Ones(12);
  EXPECT_EQ(integrate(wide, x, 0.0, {1.0}, Options{}, nullptr).method_used, Method::cvode_bdf);
  EXPECT_NEAR(x[11], std::exp(-12.0), 1e-8);
  Options fixed;
  fixed.method = Method::sdirk2;
  fixed.dt_s = 0.1;
  x = nonlinear_exact(0.0);
  EXPECT_EQ(integrate(s, x, 0.0, {1.0}, fixed, nullptr).method_used, Method::sdirk2);
  Stats stepper_stats;
  EXPECT_EQ(message_of([&] { FixedStepper(s, Options{}, stepper_stats); }),
            "integrator.method = \"auto\": a fixed-step method is required here (valid: sdirk2, implicit_euler, rk4)");
}

TEST(Integrate, InvalidSystemsAndTimesAreRejected) {
  const OdeSystem good = nonlinear_system(false);
  const VecX x0 = nonlinear_exact(0.0);
  auto error = [](const OdeSystem& s, const VecX& x, double t0, const std::vector<double>& outputs) {
    return message_of([&] { run(s, x, t0, outputs, Options{}); });
  };
  EXPECT_EQ(error(good, x0, 0.0, {0.5, 1.0, 0.5}),
            "output_times[2] = 0.5: must be >= output_times[1] = 1 (output times must be non-decreasing)");
  EXPECT_EQ(error(good, x0, 0.0, {-1.0, 1.0}), "output_times[0] = -1: must be >= t0 = 0");
  EXPECT_EQ(error(good, x0, 0.0, {kNaN}), "output_times[0] = nan: must be finite");
  EXPECT_EQ(error(good, VecX::Zero(2), 0.0, {1.0}), "initial state size = 2: must equal system.size = 3");
  EXPECT_EQ(error(good, VecX{{1.0, kNaN, 0.0}}, 0.0, {1.0}), "initial state x[1] = nan: must be finite");
  OdeSystem no_rhs = good;
  no_rhs.rhs = nullptr;
  EXPECT_EQ(error(no_rhs, x0, 0.0, {1.0}), "system.rhs: not set; a right-hand side is required");
  OdeSystem no_switches = good;
  no_switches.switch_count = 2;
  EXPECT_EQ(error(no_switches, x0, 0.0, {1.0}), "system.switches: not set, but system.switch_count = 2");
  VecX x = x0;
  EXPECT_THROW(integrate(good, x, 0.0, {1.0, 0.5}, Options{}, nullptr), InvalidInput);
  EXPECT_EQ(integrate(good, x, 0.0, {}, Options{}, nullptr).steps, 0);
}

}  // namespace
