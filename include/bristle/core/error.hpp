#pragma once
// Errors and validation helpers. Every parameter is checked where it enters; the message names the
// key, the value and the rule, e.g. "law.mu_s = -1: must be > 0".
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/core/types.hpp"

namespace bristle {

/// `message` with its control characters written as escapes (\n, \t, \r, \u0000): a NUL in a key the user wrote ended
/// the message where it was printed (what() is a C string: `unknown key "law.mu`), a newline broke it over lines.
std::string escape_controls(std::string_view message);

/// Thrown for every invalid user input (parameters, scenario files, tables). One line (escape_controls).
class InvalidInput : public std::runtime_error {
 public:
  explicit InvalidInput(const std::string& message) : std::runtime_error(escape_controls(message)) {}
};

/// Thrown when a numerical solve fails (step-size collapse, non-finite state, too many steps).
class SolverError : public std::runtime_error {
 public:
  explicit SolverError(const std::string& message) : std::runtime_error(message) {}
};

/// Formats a number the way error messages quote it (shortest round-trip form; nan and inf spelled out).
std::string format_value(double value);
std::string format_matrix(const Mat2& m);

// Each require_* throws InvalidInput("<key> = <value>: <rule>") when the rule is broken.
// All of them reject NaN and infinity first ("must be finite").
/// The largest magnitude of any number a parameter or input may have (as a scenario's): products of two such
/// stay finite.
inline constexpr double kMaxMagnitude = 1e150;
/// |value| <= kMaxMagnitude and not subnormal (0 is fine), with the scenario reader's messages: the rule of a
/// parameter. require_positive, require_non_negative and the intervals apply it after their own rule (-1e300 is
/// "must be > 0"); require_finite (of a number, a vector, a matrix: also inputs such as a velocity, which may be
/// subnormal) applies only the magnitude.
void require_normal_magnitude(std::string_view key, double value);
void require_finite(std::string_view key, double value);
void require_positive(std::string_view key, double value);         // value > 0
void require_non_negative(std::string_view key, double value);     // value >= 0
void require_open_interval(std::string_view key, double value, double lo, double hi);  // lo < value < hi
void require_closed_interval(std::string_view key, double value, double lo, double hi);
void require_finite(std::string_view key, const Mat2& m);
void require_finite(std::string_view key, const Vec2& v);
/// Symmetric (to 1e-12 relative) and positive definite.
void require_spd(std::string_view key, const Mat2& m);
/// require_spd's rule without its messages (for a caller that words its own: a matrix derived from the user's).
bool is_spd(const Mat2& m);
/// Symmetric positive semidefinite.
void require_spsd(std::string_view key, const Mat2& m);

/// The candidate nearest to `word` by edit distance, or "" if none is close (used for unknown keys).
std::string nearest_word(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace bristle
