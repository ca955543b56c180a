#include "bristle/core/error.hpp"
#include "bristle/core/enum_names.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace bristle {

std::string escape_controls(std::string_view message) {
  const auto control = [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; };
  if (std::none_of(message.begin(), message.end(), control)) return std::string(message);
  std::string out;
  out.reserve(message.size() + 16);
  for (const char c : message) {
    if (!control(c)) out += c;
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else out += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
  }
  return out;
}

std::string format_value(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return fmt::format("{}", value);
}

std::string format_matrix(const Mat2& m) {
  return fmt::format("[[{}, {}], [{}, {}]]", format_value(m(0, 0)), format_value(m(0, 1)),
                     format_value(m(1, 0)), format_value(m(1, 1)));
}

namespace {
[[noreturn]] void fail(std::string_view key, const std::string& value, std::string_view rule) {
  throw InvalidInput(fmt::format("{} = {}: {}", key, value, rule));
}
void require_magnitude(std::string_view key, double value) {
  if (std::abs(value) > kMaxMagnitude)
    fail(key, format_value(value),
         fmt::format("magnitude above {}; no scenario quantity is that large (products of two such would overflow to "
                     "inf or NaN)",
                     format_value(kMaxMagnitude)));
}
}  // namespace

void require_normal_magnitude(std::string_view key, double value) {
  require_magnitude(key, value);
  if (std::fpclassify(value) == FP_SUBNORMAL)
    fail(key, format_value(value),
         fmt::format("a subnormal number; give 0 or a magnitude of at least {} (the smallest normal double)",
                     format_value(std::numeric_limits<double>::min())));
}

void require_finite(std::string_view key, double value) {
  if (!std::isfinite(value)) fail(key, format_value(value), "must be finite");
  require_magnitude(key, value);  // an input (a velocity) may be subnormal: a controller's difference can be
}
void require_positive(std::string_view key, double value) {
  if (!std::isfinite(value)) fail(key, format_value(value), "must be finite");
  if (!(value > 0.0)) fail(key, format_value(value), "must be > 0");
  require_normal_magnitude(key, value);
}
void require_non_negative(std::string_view key, double value) {
  if (!std::isfinite(value)) fail(key, format_value(value), "must be finite");
  if (!(value >= 0.0)) fail(key, format_value(value), "must be >= 0");
  require_normal_magnitude(key, value);
}
void require_open_interval(std::string_view key, double value, double lo, double hi) {
  if (!std::isfinite(value)) fail(key, format_value(value), "must be finite");
  if (!(value > lo && value < hi))
    fail(key, format_value(value), fmt::format("must lie in ({}, {})", format_value(lo), format_value(hi)));
  require_normal_magnitude(key, value);
}
void require_closed_interval(std::string_view key, double value, double lo, double hi) {
  if (!std::isfinite(value)) fail(key, format_value(value), "must be finite");
  if (!(value >= lo && value <= hi))
    fail(key, format_value(value), fmt::format("must lie in [{}, {}]", format_value(lo), format_value(hi)));
  require_normal_magnitude(key, value);
}
void require_finite(std::string_view key, const Mat2& m) {
  if (!m.allFinite()) fail(key, format_matrix(m), "must be finite");
  for (const double x : m.reshaped()) require_magnitude(key, x);
}
void require_finite(std::string_view key, const Vec2& v) {
  if (!v.allFinite()) fail(key, fmt::format("[{}, {}]", format_value(v[0]), format_value(v[1])), "must be finite");
  for (const double x : v) require_magnitude(key, x);
}
namespace {
double max_entry(const Mat2& m) { return std::max(1e-300, m.cwiseAbs().maxCoeff()); }
bool symmetric(const Mat2& m) { return std::abs(m(0, 1) - m(1, 0)) <= 1e-12 * max_entry(m); }
/// The determinant of m / max|m_ij| (entries <= 1): of m itself it underflowed for entries below ~1.5e-162, and
/// k0 = 1e-200 was "not positive definite".
double scaled_determinant(const Mat2& m) {
  const Mat2 n = m / max_entry(m);
  return n(0, 0) * n(1, 1) - n(0, 1) * n(1, 0);
}
}  // namespace

bool is_spd(const Mat2& m) { return m.allFinite() && symmetric(m) && m(0, 0) > 0.0 && scaled_determinant(m) > 0.0; }
void require_spd(std::string_view key, const Mat2& m) {
  require_finite(key, m);
  if (!symmetric(m)) fail(key, format_matrix(m), "must be symmetric");
  if (!(m(0, 0) > 0.0 && scaled_determinant(m) > 0.0)) fail(key, format_matrix(m), "must be positive definite");
}
void require_spsd(std::string_view key, const Mat2& m) {
  require_finite(key, m);
  if (!symmetric(m)) fail(key, format_matrix(m), "must be symmetric");
  if (!(m(0, 0) >= 0.0 && m(1, 1) >= 0.0 && scaled_determinant(m) >= -1e-12))
    fail(key, format_matrix(m), "must be positive semidefinite");
}

void throw_unknown_name(std::string_view key, std::string_view name, std::string_view what,
                        const std::vector<std::string>& valid) {
  std::string list;
  for (const auto& v : valid) list += (list.empty() ? "" : ", ") + v;
  const std::string near = nearest_word(name, valid);
  throw InvalidInput(fmt::format("{} = \"{}\": unknown {} (valid: {}){}", key, name, what, list,
                                 near.empty() ? "" : fmt::format("; did you mean \"{}\"?", near)));
}

std::string nearest_word(std::string_view word, const std::vector<std::string>& candidates) {
  auto distance = [](std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      std::size_t diagonal = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= b.size(); ++j) {
        const std::size_t up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0u : 1u)});
        diagonal = up;
      }
    }
    return row[b.size()];
  };
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(3, word.size() / 2) + 1;
  bool best_completes = false;  // best starts with word
  if (word.size() > 256) return best;  // no suggestion for a long word (the distance is quadratic in the lengths)
  for (const auto& candidate : candidates) {
    // The length difference bounds the distance from below: a candidate it rules out is not computed (a header of
    // 10^6 columns is searched in linear time).
    const std::size_t gap = word.size() > candidate.size() ? word.size() - candidate.size() : candidate.size() - word.size();
    if (gap > best_distance) continue;
    const std::size_t d = distance(word, candidate);
    // At equal distance a completion of the word wins ("rodas5": "rodas5p" rather than "rodas4"), else the
    // first candidate.
    const bool completes = candidate.starts_with(word);
    if (d < best_distance || (d == best_distance && completes && !best_completes && !best.empty())) {
      best_distance = d;
      best = candidate;
      best_completes = completes;
    }
  }
  return best;
}

}  // namespace bristle
