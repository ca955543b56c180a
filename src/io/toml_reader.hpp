#pragma once
// Private helpers for reading scenario TOML: typed access to keys of one table with error messages
// that name the full dotted key, and checks for unknown keys.
#include <toml++/toml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/core/types.hpp"

namespace bristle::io::detail {

/// Deepest nesting of a scenario's TOML (tables, dotted keys, arrays, inline tables together): a
/// scenario needs ~6, and toml++ overflows the stack on dotted keys tens of thousands deep.
inline constexpr std::size_t kMaxTomlDepth = 64;

/// Longest list a scenario key may hold (numbers or strings): 100,000 entries. Lists that imply more
/// work per entry (branches, snapshots, sweep values) have smaller limits where they are read.
inline constexpr std::size_t kMaxListEntries = 100'000;

/// Largest magnitude of a scenario number: 1e150 (a stiffness of 1e300 made the pair's S1 NaN, a wave
/// speed of 1e300 exhausted memory, a load of 1e300 hung the patch solver).
using bristle::kMaxMagnitude;  // core/error.hpp: the rule of every number

/// A number read from a scenario: finite (unless allow_infinite; NaN never), |x| <= kMaxMagnitude and
/// not subnormal (0 < |x| < 2.2e-308 makes every problem that divides by it degenerate). Throws naming `key`.
void require_scenario_number(const std::string& key, double value, bool allow_infinite = false);

/// Parses TOML text; a syntax error becomes InvalidInput "<source>:<line>:<column>: invalid TOML: ...",
/// and so does nesting deeper than kMaxTomlDepth (checked before toml++ sees the text). A user's text has the
/// scenario file's size limit (kMaxScenarioBytes); `generated`: a text the library wrote from one that passed it
/// (the fitted scenario: reformatted, it may be larger).
toml::table parse_toml(std::string_view text, const std::string& source_name, bool generated = false);

/// Longest key path, bytes. The longest of any kind is under 50 (structure.mass_per_length_kg_per_m with an index);
/// a key path comes from the user (sweep.parameter, a [[case]]'s quoted key, fit.parameters, fit.experiment[i].set,
/// get and set: require_key_path_size, scenario_internal.hpp) and is repeated in messages, which a 100 kB one filled.
inline constexpr std::size_t kMaxKeyPathBytes = 200;

/// A key of the user's as a message shows it (Section::key gives every key so): whole up to kMaxKeyPathBytes, else
/// its first 40 bytes (whole UTF-8 characters) and "...", so that a 100 kB key does not fill the message.
std::string shown_key(std::string_view key);

/// Copies `value` under `key` into `table` (replacing what was there).
void put(toml::table& table, std::string_view key, const toml::node& value);
/// Merges `from` into `into`: tables merge key by key, everything else replaces, as if `from`'s keys were written
/// into `into` (a line kind's [[case]] over the file, a fit experiment's `set`). With `inline_replaces`, a table
/// written inline ({ ... }) replaces too, and only tables of dotted keys (a.b = 1) merge.
void deep_merge(toml::table& into, const toml::table& from, bool inline_replaces = false);

/// A TOML value as it would be quoted in an error message (strings quoted, arrays in brackets).
std::string format_node(const toml::node& node);

/// How a matrix value was written: k (k I), [a, b] (diag) or [[a, b], [c, d]].
enum class MatrixForm { scalar, diagonal, full };
struct MatrixValue {
  Mat2 m = Mat2::Identity();
  MatrixForm form = MatrixForm::scalar;
};
/// Rule checked on a matrix value: symmetric positive definite or semidefinite.
enum class MatrixRule { spd, spsd };

/// One table of the scenario, with the dotted path of its keys.
class Section {
 public:
  Section() = default;
  Section(const toml::table* table, std::string path) : table_(table), path_(std::move(path)) {}

  bool present() const { return table_ != nullptr; }
  const std::string& path() const { return path_; }
  /// The full dotted key for `key` in this section, as messages show it (shown_key: a key of more than
  /// kMaxKeyPathBytes, never a valid one, by its first 40 bytes).
  std::string key(std::string_view key) const;
  bool has(std::string_view key) const;
  const toml::node* node(std::string_view key) const;
  std::vector<std::string> keys() const;

  /// Rejects keys not in `valid`. Keys in `known` but not in `valid` are reported as not applying
  /// in `context` (e.g. `law.type = "frbd"`); others as unknown, with the nearest valid key.
  void check_keys(const std::vector<std::string>& valid, const std::vector<std::string>& known = {},
                  std::string_view context = {}) const;

  // Typed access. Absent keys give nullopt; a value of the wrong type throws naming the key. Numbers
  // (integers or floats) must be finite unless allow_infinite (NaN is never accepted).
  std::optional<double> number(std::string_view key, bool allow_infinite = false) const;
  double number_or(std::string_view key, double fallback) const;
  double required_number(std::string_view key, std::string_view description) const;
  std::optional<std::int64_t> integer(std::string_view key) const;
  std::optional<std::string> string(std::string_view key) const;
  std::string required_string(std::string_view key, std::string_view description) const;
  std::optional<bool> boolean(std::string_view key) const;
  /// Arrays of numbers (a single number is a one-entry list when `allow_scalar`).
  std::optional<std::vector<double>> numbers(std::string_view key, bool allow_scalar = false) const;
  std::optional<std::vector<std::string>> strings(std::string_view key, bool allow_scalar = false) const;
  /// A 2-vector: a number x (y = 0) or [x, y].
  std::optional<Vec2> vec2(std::string_view key) const;
  /// A 2x2 matrix (k, [a, b] or [[a, b], [c, d]]), checked with `rule` under the key's name.
  std::optional<MatrixValue> matrix(std::string_view key, MatrixRule rule) const;
  /// An array of matrices (or one bare matrix value when it is a number): branch parameters.
  std::optional<std::vector<MatrixValue>> matrices(std::string_view key, MatrixRule rule) const;

  /// A sub-table; an absent key gives an absent section, a non-table value throws.
  Section table(std::string_view key) const;

  [[noreturn]] void missing(std::string_view key, std::string_view description) const;
  [[noreturn]] void wrong_type(std::string_view key, std::string_view expected) const;

 private:
  const toml::table* table_ = nullptr;
  std::string path_;
};

/// Parses one matrix value (k, [a, b], [[a, b], [c, d]]) under `key`; checks `rule`.
MatrixValue read_matrix(const toml::node& node, const std::string& key, MatrixRule rule);

}  // namespace bristle::io::detail
