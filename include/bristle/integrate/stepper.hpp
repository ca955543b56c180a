#pragma once
// One step at a time of a fixed-step method (sdirk2, implicit_euler, rk4), for callers that drive their
// own time loop (operator splitting, real-time loops). integrate() with a fixed-step method takes its
// steps with this same stepper; see ode.hpp and docs/integrators.md for the methods.
#include <memory>
#include <numbers>

#include "bristle/integrate/ode.hpp"

namespace bristle::integrate {

/// gamma = 1 - 1/sqrt(2) of sdirk2 (Alexander 1977; the tableau in src/integrate/fixed_step.cpp), the one
/// definition for every SDIRK2 stepper (FixedStepper, contact::Contact::step).
inline constexpr double kSdirk2Gamma = 1.0 - 0.5 * std::numbers::sqrt2;

class FixedStepper {
 public:
  /// Validates `options` under the prefix "integrator" (method must be a fixed-step one; options.dt_s and
  /// max_steps are not used: each step is given its own h) and the system. `system` and `stats` must
  /// outlive the stepper; every step adds to `stats` (steps, evaluations, smallest and largest step).
  FixedStepper(const OdeSystem& system, const Options& options, Stats& stats);
  ~FixedStepper();
  FixedStepper(const FixedStepper&) = delete;
  FixedStepper& operator=(const FixedStepper&) = delete;

  /// Advances x (system.size entries) from t to t + h, h > 0. Throws SolverError, naming the time, when
  /// the Newton iterations do not converge or the state becomes non-finite.
  void step(double t, double h, VecX& x);

 private:
  class Stages;
  std::unique_ptr<Stages> stages_;
  Stats& stats_;
  int size_;
};

}  // namespace bristle::integrate
