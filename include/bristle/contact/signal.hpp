#pragma once
// Scalar input signals u(t): constant, step, ramp, sine, or a table (linear interpolation, held
// constant outside its range). Velocities, forces and loads of the mechanical benches are built
// from them.
//
//   constant  u = value
//   step      u = before for t < t0, after for t >= t0
//   ramp      u = start + rate (t - t0) for t0 <= t <= t_end (held outside; t_end = inf allowed)
//   sine      u = offset + amplitude sin(omega t + phase)
//   table     u = linear interpolation of (times, values), times strictly increasing
#include <string_view>
#include <vector>

namespace bristle::contact {

enum class SignalKind { constant, step, ramp, sine, table };
std::string_view to_string(SignalKind kind);
SignalKind signal_kind_from_string(std::string_view key, std::string_view name);

struct Signal {
  SignalKind kind = SignalKind::constant;
  double value = 0.0;                             // constant
  double t0 = 0.0;                                // step, ramp: start time (s)
  double before = 0.0, after = 0.0;               // step
  double start = 0.0, rate = 0.0;                 // ramp: value at t0 and slope (unit/s)
  double t_end = 1e300;                           // ramp: end time (s)
  double offset = 0.0, amplitude = 0.0, omega = 0.0, phase = 0.0;  // sine (omega in rad/s)
  std::vector<double> times, values;              // table

  /// Throws InvalidInput naming `prefix`.key.
  void validate(std::string_view prefix) const;
  double operator()(double t) const;
  /// Times where the signal has a kink or jump (step time, ramp ends, table knots).
  std::vector<double> breakpoints() const;

  static Signal constant_value(double v);
};

}  // namespace bristle::contact
