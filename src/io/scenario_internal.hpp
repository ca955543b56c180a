#pragma once
// Private: pieces shared by the dispatcher (scenario.cpp) and the kinds (lumped.cpp).
#include <toml++/toml.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/io/scenario.hpp"
#include "toml_reader.hpp"

namespace bristle::io::detail {

/// A scenario name must be usable as a file stem: not empty, no '/' or control characters, not "." or "..".
void validate_name(const std::string& key, const std::string& name);

/// Reads the [sweep] table (if any) of `root`: parameter, values (kept as TOML nodes so that
/// integers stay integers) and column.
struct SweepSpec {
  Sweep sweep;
  toml::array value_nodes;
};
std::optional<SweepSpec> read_sweep(const toml::table& root);

/// Sets the value at dotted `path` (components may carry [i] indices into existing arrays) of `root`
/// to `value`, creating missing tables. The existing value there, if any, must be a number.
void substitute(toml::table& root, const std::string& path, const toml::node& value);

/// Calls `parse_case` once (no [sweep]), or once per sweep value on a copy of `root` with the value
/// substituted; an InvalidInput of a sweep case is prefixed "sweep case i (parameter = value): ".
using CaseParser = std::function<void(const toml::table& root, const std::optional<Sweep>& sweep,
                                      std::optional<double> value)>;
void for_each_case(const toml::table& root, const CaseParser& parse_case);

/// The lumped kind's parser on an already parsed TOML table.
std::vector<LumpedScenario> parse_lumped(const toml::table& root, std::string_view name,
                                         const ScenarioSource& source);

}  // namespace bristle::io::detail
