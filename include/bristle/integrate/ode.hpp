#pragma once
// Time integration of x' = rhs(t, x). Integrators know no physics: a system is a right-hand side,
// an optional dense Jacobian and optional switching functions; output goes to an observer.
//
// Methods
//   auto        the default: chooses per problem the method that is fastest at the requested tolerance
//               among those that apply (resolve_method(); the rule and the measurements it rests on are in
//               docs/integrators.md): rodas5p or rodas4 for small systems, cvode_bdf for large ones.
//               Stats::method_used says which ran.
//   cvode_bdf   adaptive variable-order BDF (SUNDIALS CVODE, orders 1-5) with Newton iterations on a
//               dense Jacobian (analytic if given, else difference quotients); error control on
//               rtol |x| + atol. Switching functions are located by CVODE's root finder and the
//               integration is restarted there, so that kinks of the right-hand side (|v| at v = 0)
//               never sit inside a step. For large stiff systems.
//   rodas4      adaptive 6-stage Rosenbrock method of order 4(3) (Hairer & Wanner's RODAS), L-stable and
//               stiffly accurate: one LU factorisation and six linear solves per step, no Newton
//               iterations; the Jacobian is analytic if given, else difference quotients. Output
//               times are served by RODAS's continuous extension of order 3 (no steps land on them);
//               switching functions are located on it and the step is retaken to end at the root.
//               Fixed-size (allocation-free) for small systems: the fastest for lumped friction benches.
//               The driver is a template on the system (integrate/rosenbrock.hpp) for callers with a
//               statically typed right-hand side.
//   rodas5p     adaptive 8-stage Rosenbrock method of order 5(4) (Steinebach's Rodas5P, 2023), L-stable and
//               stiffly accurate, the same driver as rodas4 with another tableau: one LU and eight solves per
//               step, fewer steps at tight tolerances; dense output with the order-5 midpoint terms.
//   sdirk2      fixed step, 2-stage L-stable SDIRK (gamma = 1 - 1/sqrt(2)), order 2, Newton
//               iterations; for embedding in real-time loops (no step rejection).
//   implicit_euler  fixed step, order 1, L-stable.
//   rk4         fixed step, classical explicit Runge-Kutta, order 4; non-stiff problems only.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/core/schema.hpp"
#include "bristle/core/types.hpp"

namespace bristle::integrate {

struct OdeSystem {
  int size = 0;
  /// dxdt = f(t, x); x and dxdt have `size` entries.
  std::function<void(double t, const double* x, double* dxdt)> rhs;
  /// Optional: dense Jacobian d(rhs)/dx, column-major size x size.
  std::function<void(double t, const double* x, double* jacobian)> jacobian;
  /// True if rhs does not depend on t explicitly (rodas4 then skips df/dt; other methods ignore it).
  bool autonomous = false;
  /// rodas4: number of components its RMS error norm averages over; 0 means `size`. A system reduced by
  /// components that stay exactly zero (contact::Bench::x_system) gives the full system's size here, so
  /// that its error estimates, and hence its steps, are those of the full system.
  int error_norm_count = 0;
  /// Optional: switching functions g(t, x) whose sign changes mark kinks of rhs.
  int switch_count = 0;
  std::function<void(double t, const double* x, double* g)> switches;
};

/// `auto_` is "auto" in TOML, JSON and Python (auto is a C++ keyword).
enum class Method { auto_, cvode_bdf, rodas4, rodas5p, sdirk2, implicit_euler, rk4 };
std::string_view to_string(Method method);
/// Throws InvalidInput naming `key` (and suggesting the nearest name) for an unknown method.
Method method_from_string(std::string_view key, std::string_view name);
/// True for the adaptive methods and auto (which chooses one).
bool is_adaptive(Method method);
/// rodas4 or rodas5p: the Rosenbrock driver of integrate/rosenbrock.hpp.
bool is_rosenbrock(Method method);

struct Options {
  Method method = Method::auto_;
  double rtol = 1e-8;           // relative tolerance (adaptive)
  double atol = 1e-12;          // absolute tolerance (adaptive), same units as the state
  std::vector<double> atol_per_component;  // optional, overrides atol when non-empty
  double dt_s = 0.0;            // fixed step (s) for fixed-step methods; > 0 required there
  double max_dt_s = 0.0;        // adaptive: largest step (s; 0 = unlimited)
  double initial_dt_s = 0.0;    // adaptive: first step (s; 0 = solver's estimate)
  long max_steps = 50'000'000;  // total step budget over the whole run
  /// What max_steps is, as the step-budget message names it: the user's key, or the rule of a budget the
  /// library set (an eps-system's, directional/epsilon_system.hpp). Not a scenario key.
  std::string max_steps_key = "integrator.max_steps";

  /// Throws InvalidInput naming `prefix`.key.
  void validate(std::string_view prefix) const;
};

/// The schema of Options, the [integrator] table (core/schema.hpp). The TOML keys are the field names
/// (with the unit: dt_s, max_dt_s, initial_dt_s); atol_per_component is not a scenario key.
template <class Archive, schema::Of<Options> Self>
void serialize(Archive& a, Self& o) {
  using schema::Type;
  const bool adaptive = is_adaptive(o.method);
  a.choice(o.method, {.key = "method", .type = Type::choice, .default_value = "auto",
                      .doc = "the integration method (docs/integrators.md; auto chooses per problem)",
                      .choices = "auto, cvode_bdf, rodas4, rodas5p, sdirk2, implicit_euler, rk4"});
  a.number(o.rtol, {.key = "rtol", .default_value = "1e-08", .range = schema::open(0, 1),
                    .doc = "relative tolerance", .used_by = "auto, cvode_bdf, rodas4, rodas5p",
                    .log_scale = true, .numerics = true},
           adaptive);
  a.number(o.atol, {.key = "atol", .unit = "state units", .default_value = "1e-12", .range = schema::positive(),
                    .doc = "absolute tolerance", .used_by = "auto, cvode_bdf, rodas4, rodas5p",
                    .log_scale = true, .numerics = true},
           adaptive);
  a.number(o.max_dt_s, {.key = "max_dt_s", .unit = "s", .default_value = "0 (unlimited)",
                        .range = schema::non_negative(), .doc = "largest step",
                        .used_by = "auto, cvode_bdf, rodas4, rodas5p", .numerics = true},
           adaptive);
  a.number(o.initial_dt_s, {.key = "initial_dt_s", .unit = "s", .default_value = "0 (the solver's estimate)",
                            .range = schema::non_negative(), .doc = "first step",
                            .used_by = "auto, cvode_bdf, rodas4, rodas5p", .numerics = true},
           adaptive);
  a.number(o.dt_s, {.key = "dt_s", .unit = "s", .default_value = "required", .range = schema::positive(),
                    .doc = "the fixed step", .used_by = "sdirk2, implicit_euler, rk4",
                    .log_scale = true, .numerics = true},
           !adaptive);
  a.integer(o.max_steps, {.key = "max_steps", .type = Type::integer, .default_value = "50000000",
                          .range = schema::at_least(1),
                          .doc = "step budget for the whole run (exhausting it is a solver failure, exit code 3)",
                          .log_scale = true});
}

struct Stats {
  long steps = 0;
  long rhs_evaluations = 0;
  long jacobian_evaluations = 0;
  long error_test_failures = 0;
  long nonlinear_failures = 0;
  long restarts = 0;            // restarts at located switches
  double smallest_step = 0.0;   // smallest step taken (s)
  double largest_step = 0.0;
  Method method_used = Method::auto_;  // the method that ran (never auto_ after a run; auto_ before any)
};

/// The method that `options.method` stands for on a system of `size` components: itself, or for auto_ the
/// fastest that applies at options.rtol (docs/integrators.md, "auto"). Never returns auto_.
Method resolve_method(const Options& options, int size);

/// Called at each requested output time with the state there.
using Observer = std::function<void(double t, const double* x)>;

/// Absolute tolerance of each state component: atol_per_component if given (it must then have `size`
/// entries), else atol for all.
VecX absolute_tolerances(const Options& options, int size);

/// The checks integrate() makes before it integrates, for drivers called directly (rodas4() of
/// integrate/rosenbrock.hpp): valid options, a finite initial state of `size` components, per-component
/// tolerances (if any) of that size, and finite output times, non-decreasing and >= t0. Throws InvalidInput.
void validate_run(const Options& options, int size, const VecX& x, double t0, const std::vector<double>& output_times);

/// Integrates from (t0, x) through the increasing `output_times` (each >= t0), calling `observe` at
/// each. On return x holds the state at the last output time. Throws SolverError on step-size
/// collapse, a non-finite state, or an exhausted step budget, naming the time reached.
Stats integrate(const OdeSystem& system, VecX& x, double t0, const std::vector<double>& output_times,
                const Options& options, const Observer& observe);

}  // namespace bristle::integrate
