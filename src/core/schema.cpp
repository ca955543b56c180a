// The parameter schema's ranges: their documentation text and the reader's checks (core/schema.hpp).
#include "bristle/core/schema.hpp"

#include <fmt/format.h>

#include "bristle/core/error.hpp"

namespace bristle::schema {

std::string_view to_string(Type type) {
  switch (type) {
    case Type::number: return "number";
    case Type::integer: return "integer";
    case Type::matrix: return "matrix";
    case Type::matrix_list: return "array of matrices";
    case Type::vector: return "vector";
    case Type::text: return "string";
    case Type::text_list: return "string or array of strings";
    case Type::number_list: return "array of numbers";
    case Type::choice: return "string";
    case Type::flag: return "boolean";
    case Type::signal: return "signal";
    case Type::table: return "table";
  }
  return "";
}

std::string Range::text() const {
  switch (rule) {
    case Rule::any: return "";
    case Rule::finite: return "finite";
    case Rule::finite_or_inf: return "finite or inf";
    case Rule::positive: return "> 0";
    case Rule::non_negative: return ">= 0";
    case Rule::open_interval: return fmt::format("({}, {})", format_value(lo), format_value(hi));
    case Rule::at_least: return fmt::format(">= {} (integer)", format_value(lo));
    case Rule::spd: return "SPD (a number: > 0)";
    case Rule::spsd: return "SPSD (a number: >= 0)";
    case Rule::closed_interval: return fmt::format("[{}, {}]", format_value(lo), format_value(hi));
    case Rule::half_open: return fmt::format("({}, {}]", format_value(lo), format_value(hi));
    case Rule::integer_in: return fmt::format("[{}, {}] (integer)", format_value(lo), format_value(hi));
  }
  return "";
}

void require_integer(std::string_view key, double v, std::string_view shown) {
  const std::string text = shown.empty() ? format_value(v) : std::string(shown);
  if (v != std::trunc(v)) throw InvalidInput(fmt::format("{} = {}: must be an integer", key, text));
  if (!(std::abs(v) < kMaxIntegerMagnitude))
    throw InvalidInput(fmt::format("{} = {}: must be an integer of magnitude below 9e15 (a double holds every integer "
                                   "exactly only below 2^53)",
                                   key, text));
}

void Range::check(std::string_view key, double v, std::string_view shown) const {
  switch (rule) {
    case Rule::any: return;
    case Rule::finite: return require_finite(key, v);
    case Rule::finite_or_inf:
      if (!std::isinf(v)) require_finite(key, v);
      return;
    case Rule::positive:
    case Rule::spd: return require_positive(key, v);
    case Rule::non_negative:
    case Rule::spsd: return require_non_negative(key, v);
    case Rule::open_interval:  // the library's wording (integrate::Options::validate): one bound at a time
      require_finite(key, v);
      if (!(v > lo)) throw InvalidInput(fmt::format("{} = {}: must be > {}", key, format_value(v), format_value(lo)));
      if (!(v < hi)) throw InvalidInput(fmt::format("{} = {}: must be < {}", key, format_value(v), format_value(hi)));
      return;
    case Rule::at_least:
      require_finite(key, v);
      require_integer(key, v, shown);
      if (v < lo) throw InvalidInput(fmt::format("{} = {}: must be >= {}", key, format_value(v), format_value(lo)));
      return;
    case Rule::closed_interval: return require_closed_interval(key, v, lo, hi);
    case Rule::half_open:
      require_finite(key, v);
      if (!(v > lo && v <= hi))
        throw InvalidInput(fmt::format("{} = {}: must be in ({}, {}]", key, format_value(v), format_value(lo), format_value(hi)));
      return;
    case Rule::integer_in:
      require_finite(key, v);
      require_integer(key, v, shown);
      if (!(v >= lo && v <= hi))
        throw InvalidInput(fmt::format("{} = {}: must be in [{}, {}]", key, format_value(v), format_value(lo), format_value(hi)));
      return;
  }
}

double Range::min() const {
  switch (rule) {
    case Rule::positive:
    case Rule::non_negative:
    case Rule::spd:
    case Rule::spsd: return 0.0;
    case Rule::open_interval:
    case Rule::closed_interval:
    case Rule::half_open:
    case Rule::integer_in:
    case Rule::at_least: return lo;
    default: return -std::numeric_limits<double>::infinity();
  }
}

double Range::max() const {
  const bool bounded = rule == Rule::open_interval || rule == Rule::closed_interval || rule == Rule::half_open ||
                       rule == Rule::integer_in;
  return bounded ? hi : std::numeric_limits<double>::infinity();
}

}  // namespace bristle::schema
