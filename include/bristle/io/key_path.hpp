#pragma once
// Numeric scenario keys addressed by their dotted TOML key path ("law.mu_s", "body1.k0"): read, set (validated
// like the reader), list and describe them.
//
// INTERIM (branch `fit`): a minimal private version of the interface the parameter-schema issue (15) provides,
// covering the keys identification needs on kind = "lumped": the Stribeck and LuGre/Bouc-Wen scalars of [law]
// (isotropic friction), the stiffness k0 of elastic bodies and the bench's mass, spring and constant normal
// load. It is replaced by the schema's version (same declarations) when that lands.
#include <string>
#include <string_view>
#include <vector>

#include "bristle/io/scenario.hpp"

namespace bristle::io {

/// The value at `key_path`; InvalidInput if the key is unknown or not a number in this scenario.
double get_number(const LumpedScenario& sc, std::string_view key_path);
/// Sets the value at `key_path` and validates the scenario as the reader does (InvalidInput naming the key,
/// the value and the rule; `sc` is then unchanged).
void set_number(LumpedScenario& sc, std::string_view key_path, double value);
/// The numeric keys of this scenario (those get_number accepts).
std::vector<std::string> numeric_keys(const LumpedScenario& sc);

struct KeyInfo {
  std::string key, unit, doc, equation, default_value, range;
  double min, max;  // the allowed range (open or closed as `range` says)
  bool log_scale;   // the parameter typically spans decades
};
KeyInfo key_info(const LumpedScenario& sc, std::string_view key_path);

}  // namespace bristle::io
