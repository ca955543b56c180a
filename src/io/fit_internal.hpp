#pragma once
// Private to src/io: the pieces of the lumped [fit] reader (fit_scenario.cpp) that the readers of the other kinds'
// [fit] tables share (fit_map_scenario.cpp).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bristle/fit/fit.hpp"
#include "toml_reader.hpp"

namespace bristle::io::detail {

/// [fit.parameters] of `root` (key path = { initial, min, max[, scale] }; quoted or nested keys), with the
/// lumped reader's messages; `initial` receives each given start value (nullopt: the scenario's value). Also
/// refuses a key path that names a non-numeric value of the file.
void read_fit_parameters(const toml::table& root, std::vector<fit::ParameterSpec>& out,
                         std::vector<std::optional<double>>& initial);
/// Sets `path` (dotted) of `root` to `value`, creating missing tables; `key` names it in messages.
void set_toml_path(toml::table& root, const std::string& path, const toml::node& value, const std::string& key);
std::string toml_text(const toml::table& table);

}  // namespace bristle::io::detail
