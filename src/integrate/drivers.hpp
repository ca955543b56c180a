#pragma once
// Private to the integrate module: the drivers behind integrate() and what they share.
// integrate() has validated everything before a driver is called: options, sizes, and output times
// that are finite, non-decreasing and >= t0.
#include <vector>

#include "bristle/integrate/ode.hpp"

namespace bristle::integrate::detail {

/// Adaptive BDF by SUNDIALS CVODE, with restarts at located switches (cvode_bdf.cpp).
Stats integrate_cvode(const OdeSystem& system, VecX& x, double t0, const std::vector<double>& output_times,
                      const Options& options, const Observer& observe);

/// Adaptive Rosenbrock RODAS4 or Rodas5P (options.method) with dense output and switches landed on
/// (rosenbrock.cpp).
Stats integrate_rosenbrock(const OdeSystem& system, VecX& x, double t0, const std::vector<double>& output_times,
                       const Options& options, const Observer& observe);

/// sdirk2, implicit_euler and rk4 on a fixed grid that lands on every output time (fixed_step.cpp).
Stats integrate_fixed_step(const OdeSystem& system, VecX& x, double t0, const std::vector<double>& output_times,
                           const Options& options, const Observer& observe);

}  // namespace bristle::integrate::detail
