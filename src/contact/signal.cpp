#include "bristle/contact/signal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "bristle/core/enum_names.hpp"
#include "bristle/core/error.hpp"

namespace bristle::contact {

namespace {
constexpr NameTable<SignalKind, 5> kNames{{
    {SignalKind::constant, "constant"},
    {SignalKind::step, "step"},
    {SignalKind::ramp, "ramp"},
    {SignalKind::sine, "sine"},
    {SignalKind::table, "table"},
}};
}  // namespace

std::string_view to_string(SignalKind kind) { return name_of(kNames, kind); }

SignalKind signal_kind_from_string(std::string_view key, std::string_view name) {
  return parse_name(kNames, key, name, "signal");
}

Signal Signal::constant_value(double v) {
  Signal s;
  s.value = v;
  return s;
}

Signal Signal::step(double t0, double before, double after) {
  Signal s;
  s.kind = SignalKind::step;
  s.t0 = t0;
  s.before = before;
  s.after = after;
  return s;
}

Signal Signal::ramp(double start, double rate, double t0, double t_end) {
  Signal s;
  s.kind = SignalKind::ramp;
  s.start = start;
  s.rate = rate;
  s.t0 = t0;
  s.t_end = t_end;
  return s;
}

Signal Signal::sine(double amplitude, double omega, double offset, double phase) {
  Signal s;
  s.kind = SignalKind::sine;
  s.amplitude = amplitude;
  s.omega = omega;
  s.offset = offset;
  s.phase = phase;
  return s;
}

void Signal::validate(std::string_view prefix) const {
  const std::string p(prefix);
  switch (kind) {
    case SignalKind::constant:
      require_finite(p + ".value", value);
      break;
    case SignalKind::step:
      require_finite(p + ".t0", t0);
      require_finite(p + ".before", before);
      require_finite(p + ".after", after);
      break;
    case SignalKind::ramp:
      require_finite(p + ".t0", t0);
      require_finite(p + ".start", start);
      require_finite(p + ".rate", rate);
      if (std::isnan(t_end) || !(t_end > t0))
        throw InvalidInput(fmt::format("{}.t_end = {}: must be > t0 = {}", p, format_value(t_end), format_value(t0)));
      break;
    case SignalKind::sine:
      require_finite(p + ".offset", offset);
      require_finite(p + ".amplitude", amplitude);
      require_finite(p + ".omega", omega);
      require_finite(p + ".phase", phase);
      break;
    case SignalKind::table:
      if (times.size() < 2 || times.size() != values.size())
        throw InvalidInput(fmt::format("{}.times: {} times and {} values; a table needs at least 2 points and "
                                       "one value per time",
                                       p, times.size(), values.size()));
      for (std::size_t i = 0; i < times.size(); ++i) {
        // The key is formatted only for a failing entry: a table read from a measured CSV file has ~1e4-1e5
        // entries, and formatting two keys per entry made each validation cost ~50 ms (bristle fit validates
        // the scenario at every evaluation).
        if (!std::isfinite(times[i])) require_finite(fmt::format("{}.times[{}]", p, i), times[i]);
        if (!std::isfinite(values[i])) require_finite(fmt::format("{}.values[{}]", p, i), values[i]);
        if (i > 0 && !(times[i] > times[i - 1]))
          throw InvalidInput(fmt::format("{}.times[{}] = {}: times must be strictly increasing (previous {})", p, i,
                                         format_value(times[i]), format_value(times[i - 1])));
      }
      break;
  }
}

double Signal::operator()(double t) const {
  std::size_t hint = 0;
  return at(t, hint);
}

double Signal::at(double t, std::size_t& hint) const {
  switch (kind) {
    case SignalKind::constant:
      return value;
    case SignalKind::step:
      return t < t0 ? before : after;
    case SignalKind::ramp:
      return start + rate * (std::clamp(t, t0, t_end) - t0);
    case SignalKind::sine:
      return offset + amplitude * std::sin(omega * t + phase);
    case SignalKind::table: {
      if (t <= times.front()) return values.front();
      if (t >= times.back()) return values.back();
      // i: the first knot after t (times[i - 1] <= t < times[i], as upper_bound), walked forward from the hint
      // for a few knots, else found by binary search.
      std::size_t i = hint;
      constexpr std::size_t kWalk = 8;
      if (i == 0 || i >= times.size() || times[i - 1] > t) {
        i = static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), t) - times.begin());
      } else {
        for (std::size_t k = 0; k < kWalk && times[i] <= t; ++k) ++i;
        if (times[i] <= t)
          i = static_cast<std::size_t>(std::upper_bound(times.begin() + static_cast<std::ptrdiff_t>(i), times.end(), t) -
                                       times.begin());
      }
      hint = i;
      const double w = (t - times[i - 1]) / (times[i] - times[i - 1]);
      return values[i - 1] + w * (values[i] - values[i - 1]);
    }
  }
  return 0.0;
}

std::vector<double> extreme_candidates(const Signal& s, double a, double b) {
  std::vector<double> t{a, b};
  for (const double bp : s.breakpoints())
    if (bp > a && bp <= b) {
      t.push_back(bp);
      t.push_back(std::nextafter(bp, -std::numeric_limits<double>::infinity()));
    }
  if (s.kind == SignalKind::sine && s.omega != 0.0 && s.amplitude != 0.0) {
    // omega t + phase = pi/2 + k pi
    const double period = std::numbers::pi / std::abs(s.omega);
    const double first = (std::numbers::pi / 2.0 - s.phase) / s.omega;
    const double k0 = std::ceil((a - first) / period);
    const double count = std::floor((b - first) / period) - k0 + 1.0;
    if (count > 1e6) {  // many periods: the global extremes are reached
      t.push_back(first + k0 * period);
      t.push_back(first + (k0 + 1.0) * period);
    } else {
      for (double k = k0; first + k * period <= b; k += 1.0) t.push_back(first + k * period);
    }
  }
  return t;
}

SignalExtremes extremes(const Signal& s, double a, double b) {
  SignalExtremes e{std::numeric_limits<double>::infinity(), a, -std::numeric_limits<double>::infinity(), a};
  for (const double t : extreme_candidates(s, a, b)) {
    if (t < a || t > b) continue;
    const double v = s(t);
    if (v < e.min) e = {v, t, e.max, e.t_max};
    if (v > e.max) e = {e.min, e.t_min, v, t};
  }
  return e;
}

std::vector<double> Signal::breakpoints() const {
  switch (kind) {
    case SignalKind::step:
      return {t0};
    case SignalKind::ramp:
      return std::isfinite(t_end) ? std::vector<double>{t0, t_end} : std::vector<double>{t0};
    case SignalKind::table:
      return times;
    default:
      return {};
  }
}

}  // namespace bristle::contact
