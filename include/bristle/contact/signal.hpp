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
#include <cstddef>
#include <limits>
#include <string_view>
#include <vector>

#include "bristle/core/schema.hpp"

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
  double t_end = std::numeric_limits<double>::infinity();  // ramp: end time (s); inf: never ends
  double offset = 0.0, amplitude = 0.0, omega = 0.0, phase = 0.0;  // sine (omega in rad/s)
  std::vector<double> times, values;              // table

  /// Throws InvalidInput naming `prefix`.key.
  void validate(std::string_view prefix) const;
  double operator()(double t) const;
  /// The same value as operator()(t), bit for bit, for reading a table at non-decreasing times: `hint` is the
  /// knot index of the previous call (start with 0) and the search walks forward from it (a binary search only
  /// when t moved back or far ahead), so a pass over n sorted times costs O(n + knots), not O(n log knots).
  /// Other kinds ignore `hint`.
  double at(double t, std::size_t& hint) const;
  /// Times where the signal has a kink or jump (step time, ramp ends, table knots).
  std::vector<double> breakpoints() const;

  static Signal constant_value(double v);
  static Signal step(double t0, double before, double after);
  static Signal ramp(double start, double rate, double t0 = 0.0,
                      double t_end = std::numeric_limits<double>::infinity());
  static Signal sine(double amplitude, double omega, double offset = 0.0, double phase = 0.0);  // omega in rad/s
};

/// The times in [a, b] where `s` may take its extreme values there: a and b, each breakpoint in (a, b] and the
/// instant before it (a step's two sides), a sine's crests and troughs (only the first two when there are more than
/// 1e6: the global extremes are then reached). Unsorted; may hold times outside [a, b].
std::vector<double> extreme_candidates(const Signal& s, double a, double b);
/// The extremes of `s` over [a, b] and the first times they are reached: exact for every kind.
struct SignalExtremes {
  double min = 0.0, t_min = 0.0, max = 0.0, t_max = 0.0;
};
SignalExtremes extremes(const Signal& s, double a, double b);

/// The schema of a Signal given as a table with a type (core/schema.hpp); a bare number is a constant.
/// Units "(signal)" are those of the quantity the signal drives.
template <class Archive, schema::Of<Signal> Self>
void serialize(Archive& a, Self& s) {
  using schema::Type;
  const SignalKind k = s.kind;
  const bool step = k == SignalKind::step, ramp = k == SignalKind::ramp, sine = k == SignalKind::sine;
  const bool table = k == SignalKind::table;
  a.choice(s.kind, {.key = "type", .type = Type::choice, .default_value = "required", .doc = "signal type",
                    .choices = "constant, step, ramp, sine, table"});
  a.number(s.value, {.key = "value", .unit = "(signal)", .default_value = "required", .range = schema::finite(),
                     .doc = "the constant value", .used_by = "constant"},
           k == SignalKind::constant);
  a.number(s.t0, {.key = "t0", .unit = "s", .default_value = "0", .range = schema::finite(),
                  .doc = "start time of the step or ramp", .used_by = "step, ramp"},
           step || ramp);
  a.number(s.before, {.key = "before", .unit = "(signal)", .default_value = "0", .range = schema::finite(),
                      .doc = "value before t0", .used_by = "step"},
           step);
  a.number(s.after, {.key = "after", .unit = "(signal)", .default_value = "required", .range = schema::finite(),
                     .doc = "the value from t0 on", .used_by = "step"},
           step);
  a.number(s.start, {.key = "start", .unit = "(signal)", .default_value = "0", .range = schema::finite(),
                     .doc = "value at t0", .used_by = "ramp"},
           ramp);
  a.number(s.rate, {.key = "rate", .unit = "(signal)/s", .default_value = "required", .range = schema::finite(),
                    .doc = "the slope of the ramp, per s", .used_by = "ramp"},
           ramp);
  a.number(s.t_end, {.key = "t_end", .unit = "s", .default_value = "inf", .range = schema::finite_or_inf(),
                     .doc = "end of the ramp (> t0; held after)", .used_by = "ramp"},
           ramp);
  a.number(s.offset, {.key = "offset", .unit = "(signal)", .default_value = "0", .range = schema::finite(),
                      .doc = "offset of the sine", .used_by = "sine"},
           sine);
  a.number(s.amplitude, {.key = "amplitude", .unit = "(signal)", .default_value = "required",
                         .range = schema::finite(), .doc = "the amplitude of the sine", .used_by = "sine"},
           sine);
  a.number(s.omega, {.key = "omega", .unit = "rad/s", .default_value = "required", .range = schema::finite(),
                     .doc = "the angular frequency of the sine", .used_by = "sine"},
           sine);
  a.number(s.phase, {.key = "phase", .unit = "rad", .default_value = "0", .range = schema::finite(),
                     .doc = "phase of the sine", .used_by = "sine"},
           sine);
  a.declared({.key = "times", .type = Type::number_list, .unit = "s", .default_value = "required (or file)",
              .range = schema::finite(), .doc = "the table's times, strictly increasing, at least two",
              .used_by = "table"},
             table);
  a.declared({.key = "values", .type = Type::number_list, .unit = "(signal)", .default_value = "required (or file)",
              .range = schema::finite(), .doc = "the table's values, one per time", .used_by = "table"},
             table);
  a.declared({.key = "file", .type = Type::text, .default_value = "-",
              .doc = "a CSV file with a header row (relative to the scenario's directory), instead of times/values",
              .used_by = "table"},
             table);
  a.declared({.key = "time_column", .type = Type::text, .default_value = "the first column",
              .doc = "the CSV column of the times", .used_by = "table (file)"},
             table);
  a.declared({.key = "value_column", .type = Type::text, .default_value = "the second column",
              .doc = "the CSV column of the values", .used_by = "table (file)"},
             table);
}

}  // namespace bristle::contact
