// Adaptive integration by SUNDIALS CVODE (Hindmarsh et al., ACM TOMS 31(3), 2005): variable-order
// (1-5), variable-step BDF with Newton iterations on a dense direct linear solver.
//
// Stepping. CVODE runs in CV_ONE_STEP mode with its stop time at the last output time. After every
// internal step the state is checked for finiteness, the step size is recorded, and each output time
// the step has passed is served by CVODE's interpolant (CVodeGetDky), which is of the order of the
// step. The step budget max_steps is counted here over the whole run, across restarts. The smallest
// step is kept at 10 eps |t| (a few ulp of t), so that a collapsing step size ends the run with an
// error instead of an endless creep (e.g. towards a time beyond which the right-hand side is not finite).
//
// Switches. With switch_count > 0, CVODE's root finder locates sign changes of g(t, x) inside each
// step. At a root the integration is restarted there (CVodeReInit): the BDF history, which would
// otherwise interpolate across the kink of the right-hand side, is discarded and the method starts
// again at order 1 from a fresh step-size estimate. A root inside the first step after a (re)start
// does not restart again (two switches crossing together, or one chattering about zero): CVODE then
// steps across it under ordinary error control. This bounds restarts to one per two steps and rules
// out a restart loop at one time. A switch that keeps changing sign every step or two (a right-hand
// side discontinuous across it, e.g. a sliding mode, where steps shrink towards zero) ends the run
// with an error after kMaxChatteringRoots such roots, rather than after the whole step budget.
//
// Failures. Every SUNDIALS return value is checked (the frees aside). CVODE's own printing is replaced
// by a handler that keeps the message for the SolverError. A right-hand side returning non-finite
// values is reported to CVODE as a recoverable failure (it retries with a smaller step); if that
// persists the run ends with an error naming the time. An exception thrown by a user callback is
// caught inside the C callback (never crossing the C library) and rethrown once CVODE has returned.
#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <fmt/format.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/core/interrupt.hpp"
#include "drivers.hpp"

namespace bristle::integrate::detail {

namespace {

/// A restart closer than this (relative) to the end time would be round-off; CVODE just finishes.
constexpr double kEndRoundoff = 100.0 * std::numeric_limits<double>::epsilon();
/// Smallest step, relative to |t|: a step of a few units in the last place of t makes no progress,
/// so CVODE is told (CVodeSetMinStep) to report a step-size collapse instead of creeping on.
constexpr double kMinStepRelative = 10.0 * std::numeric_limits<double>::epsilon();
/// Roots at most kChatterSteps steps apart count as chattering; this many in a row end the run.
constexpr long kChatterSteps = 2;
constexpr int kMaxChatteringRoots = 100;

// ---- SUNDIALS objects, owned -------------------------------------------------------------------

struct ContextFree {
  void operator()(SUNContext context) const { SUNContext_Free(&context); }
};
struct VectorFree {
  void operator()(N_Vector vector) const { N_VDestroy(vector); }
};
struct MatrixFree {
  void operator()(SUNMatrix matrix) const { SUNMatDestroy(matrix); }
};
struct SolverFree {
  void operator()(SUNLinearSolver solver) const { SUNLinSolFree(solver); }
};
struct CvodeFree {
  void operator()(void* memory) const { CVodeFree(&memory); }
};
using ContextPtr = std::unique_ptr<std::remove_pointer_t<SUNContext>, ContextFree>;
using VectorPtr = std::unique_ptr<std::remove_pointer_t<N_Vector>, VectorFree>;
using MatrixPtr = std::unique_ptr<std::remove_pointer_t<SUNMatrix>, MatrixFree>;
using SolverPtr = std::unique_ptr<std::remove_pointer_t<SUNLinearSolver>, SolverFree>;
using CvodePtr = std::unique_ptr<void, CvodeFree>;

// ---- Errors ------------------------------------------------------------------------------------

std::string flag_name(int flag) {
  char* name = CVodeGetReturnFlagName(flag);  // malloc'ed by SUNDIALS
  std::string result = name != nullptr ? name : fmt::format("flag {}", flag);
  std::free(name);
  return result;
}

std::string linear_flag_name(int flag) {
  char* name = CVodeGetLinReturnFlagName(flag);
  std::string result = name != nullptr ? name : fmt::format("flag {}", flag);
  std::free(name);
  return result;
}

void check(int flag, std::string_view call) {
  if (flag < 0) throw SolverError(fmt::format("cvode_bdf: {} failed ({})", call, flag_name(flag)));
}

void check_linear(int flag, std::string_view call) {
  if (flag < 0) throw SolverError(fmt::format("cvode_bdf: {} failed ({})", call, linear_flag_name(flag)));
}

template <class T>
T check_created(T object, std::string_view call) {
  if (object == nullptr) throw SolverError(fmt::format("cvode_bdf: {} failed (out of memory)", call));
  return object;
}

// ---- C callbacks -------------------------------------------------------------------------------

/// What the C callbacks share with the driver (CVODE's user data and error-handler data).
struct CallbackData {
  const OdeSystem* system = nullptr;
  std::exception_ptr exception;  // thrown by a user callback; rethrown once CVODE has returned
  std::string nonfinite;         // which callback last returned non-finite values, and when
  std::string message;           // CVODE's last error message
};

bool all_finite(const double* values, int size) {
  return std::all_of(values, values + size, [](double v) { return std::isfinite(v); });
}

int rhs_callback(sunrealtype t, N_Vector y, N_Vector ydot, void* user_data) {
  auto& data = *static_cast<CallbackData*>(user_data);
  try {
    data.system->rhs(t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot));
  } catch (...) {
    data.exception = std::current_exception();
    return -1;
  }
  if (!all_finite(N_VGetArrayPointer(ydot), data.system->size)) {
    data.nonfinite = fmt::format("the right-hand side returned a non-finite value at t = {}", format_value(t));
    return 1;  // recoverable: CVODE retries with a smaller step
  }
  return 0;
}

int jacobian_callback(sunrealtype t, N_Vector y, N_Vector /*fy*/, SUNMatrix jacobian, void* user_data,
                      N_Vector /*tmp1*/, N_Vector /*tmp2*/, N_Vector /*tmp3*/) {
  auto& data = *static_cast<CallbackData*>(user_data);
  const int n = data.system->size;
  double* entries = SUNDenseMatrix_Data(jacobian);  // column-major n x n, as OdeSystem::jacobian
  std::fill(entries, entries + n * n, 0.0);
  try {
    data.system->jacobian(t, N_VGetArrayPointer(y), entries);
  } catch (...) {
    data.exception = std::current_exception();
    return -1;
  }
  if (!all_finite(entries, n * n)) {
    data.nonfinite = fmt::format("the Jacobian returned a non-finite value at t = {}", format_value(t));
    return 1;  // recoverable: CVODE retries with a smaller step
  }
  return 0;
}

int switches_callback(sunrealtype t, N_Vector y, sunrealtype* g, void* user_data) {
  auto& data = *static_cast<CallbackData*>(user_data);
  try {
    data.system->switches(t, N_VGetArrayPointer(y), g);
  } catch (...) {
    data.exception = std::current_exception();
    return -1;
  }
  if (!all_finite(g, data.system->switch_count)) {
    data.nonfinite = fmt::format("the switching functions returned a non-finite value at t = {}", format_value(t));
    return -1;  // the root finder cannot recover from this
  }
  return 0;
}

void error_handler(int error_code, const char* /*module*/, const char* function, char* message, void* user_data) {
  if (error_code == CV_WARNING) return;
  static_cast<CallbackData*>(user_data)->message = fmt::format("{}: {}", function, message);
}

// ---- The driver --------------------------------------------------------------------------------

/// Why CVODE stopped, in the user's terms.
std::string explain(int flag) {
  switch (flag) {
    case CV_TOO_MUCH_ACC:
      return "the requested accuracy is out of reach in double precision; loosen integrator.rtol or "
             "integrator.atol";
    case CV_ERR_FAILURE:
      return "step-size collapse: the error test failed repeatedly or at the smallest step; the right-hand side "
             "may be discontinuous here or the solution singular";
    case CV_CONV_FAILURE:
      return "step-size collapse: the Newton iterations failed repeatedly or at the smallest step; check the "
             "Jacobian, or a discontinuity of the right-hand side";
    case CV_LSETUP_FAIL:
    case CV_LSOLVE_FAIL:
      return "the dense linear solver failed (singular Newton matrix)";
    default:
      return "CVODE stopped";
  }
}

/// Counters of one CVODE segment (they restart from zero at every CVodeReInit).
void add_counters(void* cvode, Stats& stats) {
  long steps = 0, rhs = 0, rhs_jacobian = 0, jacobians = 0, error_fails = 0, solve_fails = 0;
  check(CVodeGetNumSteps(cvode, &steps), "CVodeGetNumSteps");
  check(CVodeGetNumRhsEvals(cvode, &rhs), "CVodeGetNumRhsEvals");
  check(CVodeGetNumErrTestFails(cvode, &error_fails), "CVodeGetNumErrTestFails");
  check(CVodeGetNumStepSolveFails(cvode, &solve_fails), "CVodeGetNumStepSolveFails");
  check_linear(CVodeGetNumLinRhsEvals(cvode, &rhs_jacobian), "CVodeGetNumLinRhsEvals");
  check_linear(CVodeGetNumJacEvals(cvode, &jacobians), "CVodeGetNumJacEvals");
  stats.steps += steps;
  stats.rhs_evaluations += rhs + rhs_jacobian;
  stats.jacobian_evaluations += jacobians;
  stats.error_test_failures += error_fails;
  stats.nonlinear_failures += solve_fails;
}

long segment_steps(void* cvode) {
  long steps = 0;
  check(CVodeGetNumSteps(cvode, &steps), "CVodeGetNumSteps");
  return steps;
}

}  // namespace

Stats integrate_cvode(const OdeSystem& system, VecX& x, double t0, const std::vector<double>& output_times,
                      const Options& options, const Observer& observe) {
  const int n = system.size;
  const double t_end = output_times.back();
  std::size_t next = 0;  // the next output time to serve
  for (; next < output_times.size() && output_times[next] <= t0; ++next)
    if (observe) observe(t0, x.data());
  Stats stats;
  if (next == output_times.size()) return stats;
  // CVODE refuses a span of a couple of ulps ("tout too close to t0", CV_TOO_CLOSE) and one below ~1e-154 s (its
  // direction test multiplies two spans, which underflow to 0: "tstop is behind current t"). Such a sliver is one
  // rodas4 step with the same tolerances, as the Rosenbrock methods take it (a controller's advance_to(t + dt) with
  // accumulated round-off).
  if (t_end - t0 <= 4.0 * std::numeric_limits<double>::epsilon() * std::max(std::abs(t0), std::abs(t_end)) ||
      t_end - t0 < 1e-150) {
    Options sliver = options;
    sliver.method = Method::rodas4;
    // The output times not yet served (those at t0 were, above).
    const std::vector<double> rest(output_times.begin() + static_cast<std::ptrdiff_t>(next), output_times.end());
    Stats s = integrate_rosenbrock(system, x, t0, rest, sliver, observe);
    s.method_used = Method::rodas4;
    return s;
  }

  CallbackData data;
  data.system = &system;
  SUNContext raw_context = nullptr;
  check(SUNContext_Create(nullptr, &raw_context), "SUNContext_Create");
  const ContextPtr context(raw_context);
  const VectorPtr y(check_created(N_VNew_Serial(n, context.get()), "N_VNew_Serial"));
  const VectorPtr dky(check_created(N_VNew_Serial(n, context.get()), "N_VNew_Serial"));
  std::copy(x.data(), x.data() + n, N_VGetArrayPointer(y.get()));
  const CvodePtr cvode(check_created(CVodeCreate(CV_BDF, context.get()), "CVodeCreate"));
  void* const mem = cvode.get();
  check(CVodeSetErrHandlerFn(mem, error_handler, &data), "CVodeSetErrHandlerFn");
  check(CVodeInit(mem, rhs_callback, t0, y.get()), "CVodeInit");
  check(CVodeSetUserData(mem, &data), "CVodeSetUserData");
  VectorPtr abstol;
  if (options.atol_per_component.empty()) {
    check(CVodeSStolerances(mem, options.rtol, options.atol), "CVodeSStolerances");
  } else {
    abstol.reset(check_created(N_VNew_Serial(n, context.get()), "N_VNew_Serial"));
    std::copy(options.atol_per_component.begin(), options.atol_per_component.end(), N_VGetArrayPointer(abstol.get()));
    check(CVodeSVtolerances(mem, options.rtol, abstol.get()), "CVodeSVtolerances");
  }
  const MatrixPtr matrix(check_created(SUNDenseMatrix(n, n, context.get()), "SUNDenseMatrix"));
  const SolverPtr solver(check_created(SUNLinSol_Dense(y.get(), matrix.get(), context.get()), "SUNLinSol_Dense"));
  check_linear(CVodeSetLinearSolver(mem, solver.get(), matrix.get()), "CVodeSetLinearSolver");
  if (system.jacobian) check_linear(CVodeSetJacFn(mem, jacobian_callback), "CVodeSetJacFn");
  if (system.switch_count > 0) check(CVodeRootInit(mem, system.switch_count, switches_callback), "CVodeRootInit");
  if (options.max_dt_s > 0.0) check(CVodeSetMaxStep(mem, options.max_dt_s), "CVodeSetMaxStep");
  if (options.initial_dt_s > 0.0) check(CVodeSetInitStep(mem, options.initial_dt_s), "CVodeSetInitStep");
  check(CVodeSetStopTime(mem, t_end), "CVodeSetStopTime");

  double t = t0;
  double smallest = std::numeric_limits<double>::infinity();
  std::vector<int> roots_found(static_cast<std::size_t>(system.switch_count));
  long steps_at_last_root = 0;
  int chattering = 0;            // roots in a row at most kChatterSteps steps apart
  double chattering_since = t0;  // time of the first of them
  while (next < output_times.size()) {
    poll_interrupt(static_cast<unsigned long>(n));  // core/interrupt.hpp: between CVode's steps, never inside its callbacks
    const long segment_before = segment_steps(mem);
    if (stats.steps + segment_before >= options.max_steps)
      throw SolverError(fmt::format("cvode_bdf: step budget exhausted at t = {}: {} = {} steps taken before "
                                    "reaching t = {}",
                                    format_value(t), options.max_steps_key, options.max_steps, format_value(t_end)));
    double min_step = kMinStepRelative * std::abs(t);
    if (options.max_dt_s > 0.0) min_step = std::min(min_step, options.max_dt_s);
    check(CVodeSetMinStep(mem, min_step), "CVodeSetMinStep");
    data.nonfinite.clear();
    data.message.clear();
    const int flag = CVode(mem, t_end, y.get(), &t, CV_ONE_STEP);
    if (data.exception) std::rethrow_exception(data.exception);
    if (flag < 0) {
      const std::string detail = data.nonfinite.empty() ? explain(flag) : data.nonfinite;
      throw SolverError(fmt::format("cvode_bdf failed at t = {} ({}): {}{}", format_value(t), flag_name(flag), detail,
                                    data.message.empty() ? "" : fmt::format(" [CVODE: {}]", data.message)));
    }
    const long segment_after = segment_steps(mem);
    if (segment_after > segment_before) {
      double h = 0.0;
      check(CVodeGetLastStep(mem, &h), "CVodeGetLastStep");
      smallest = std::min(smallest, std::abs(h));
      stats.largest_step = std::max(stats.largest_step, std::abs(h));
    }
    const double* state = N_VGetArrayPointer(y.get());
    if (!all_finite(state, n))
      throw SolverError(fmt::format("cvode_bdf: non-finite state at t = {}", format_value(t)));

    for (; next < output_times.size() && output_times[next] <= t; ++next) {
      const double t_out = output_times[next];
      const double* served = state;
      if (t_out < t) {
        check(CVodeGetDky(mem, t_out, 0, dky.get()), "CVodeGetDky");
        served = N_VGetArrayPointer(dky.get());
      }
      std::copy(served, served + n, x.data());
      if (observe) observe(t_out, x.data());
    }

    if (flag != CV_ROOT_RETURN) continue;
    check(CVodeGetRootInfo(mem, roots_found.data()), "CVodeGetRootInfo");
    const long steps_now = stats.steps + segment_after;
    chattering = steps_now - steps_at_last_root <= kChatterSteps ? chattering + 1 : 1;
    if (chattering == 1) chattering_since = t;
    steps_at_last_root = steps_now;
    if (chattering >= kMaxChatteringRoots) {
      const auto found = std::find_if(roots_found.begin(), roots_found.end(), [](int r) { return r != 0; });
      throw SolverError(fmt::format(
          "cvode_bdf: switching function g[{}] chatters at t = {}: {} sign changes in a row, at most {} steps apart, "
          "since t = {}; the right-hand side is probably discontinuous across it (e.g. a sliding mode), regularise "
          "it",
          found - roots_found.begin(), format_value(t), chattering, kChatterSteps, format_value(chattering_since)));
    }
    const bool restart = next < output_times.size() && segment_after >= 2 &&
                         t_end - t > kEndRoundoff * std::max(std::abs(t), std::abs(t_end));
    if (restart) {
      add_counters(mem, stats);
      check(CVodeReInit(mem, t, y.get()), "CVodeReInit");
      check(CVodeSetInitStep(mem, 0.0), "CVodeSetInitStep");  // a fresh estimate after the kink
      check(CVodeSetStopTime(mem, t_end), "CVodeSetStopTime");
      ++stats.restarts;
    }
  }
  add_counters(mem, stats);
  stats.smallest_step = stats.largest_step > 0.0 ? smallest : 0.0;
  return stats;
}

}  // namespace bristle::integrate::detail
