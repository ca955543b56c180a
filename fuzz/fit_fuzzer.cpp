// libFuzzer target: a fit scenario text through the path of `bristle check` for fit scenarios (the reader of
// its kind: the scenario, [fit], its data file, [[fit.experiment]] and [[fit.model]]), then `<name>_fitted.toml`
// written at the start values (lumped and steady-map kinds; every kind writes it with the same functions) and
// read again. CI runs it seeded from fuzz/corpus/fit/ (the fit examples). Data files resolve against the examples
// directory.
//
// The contract checked: bad input is an InvalidInput of the reader and nothing else; a fit scenario the reader
// accepted gives a fitted scenario without an error (an InvalidInput there is a file that passes `check` and fails
// after the fit's iterations, as a string with three quotes once did), and the scenario reader takes that text or
// refuses it with an InvalidInput (a start value may break a cross-check that the fit meets only at its solves).
// Any other exception, a crash, a leak, a sanitizer report or a timeout is a finding.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bristle/core/error.hpp"
#include "bristle/io/fit_map_scenario.hpp"
#include "bristle/io/fit_scenario.hpp"
#include "bristle/io/scenario.hpp"

namespace {

namespace io = bristle::io;
const std::string kDir = BRISTLE_EXAMPLES_DIR;

// A result at the start values: what the fitted scenario writes, without an optimisation.
template <class Scenario>
bristle::fit::Result start_values(const Scenario& scenario) {
  bristle::fit::Result result;
  for (const auto& p : scenario.parameters) {
    bristle::fit::ParameterResult r;
    r.key = p.key;
    r.scale = p.scale;
    r.initial = r.value = p.initial;
    r.min = p.min;
    r.max = p.max;
    result.parameters.push_back(r);
  }
  for (std::size_t i = 0; i < scenario.experiments.size(); ++i) {
    bristle::fit::ExperimentResult e;
    e.u0 = bristle::VecX::Zero(2);  // the initial contact state (f, and z or a body's) the file writes
    result.experiments.push_back(std::move(e));
  }
  return result;
}

void read_back(const std::string& toml) {
  try {
    (void)io::parse_scenario_string(toml, "fitted", kDir)->case_count();
  } catch (const bristle::InvalidInput&) {
  }
}

// The reader's outcome: the scenario, or nullopt for bad input (an InvalidInput).
template <class F>
auto read(F&& parse) -> std::optional<decltype(parse())> {
  try {
    return parse();
  } catch (const bristle::InvalidInput&) {
    return std::nullopt;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string kind = io::scenario_kind_of_text(text);
  if (kind == "line_steady") {
    (void)read([&] { return io::parse_line_steady_fit_string(text, "fuzz", kDir); });
  } else if (kind == "line_transient") {
    (void)read([&] { return io::parse_line_transient_fit_string(text, "fuzz", kDir); });
  } else if (kind == "patch_transient") {
    (void)read([&] { return io::parse_transient_fit_string(text, "fuzz", kDir); });
  } else if (io::is_structure_fit_kind(kind)) {
    (void)read([&] { return io::parse_structure_fit_string(text, "fuzz", kDir); });
  } else if (io::is_map_fit_kind(kind)) {
    if (const auto scenario = read([&] { return io::parse_map_fit_string(text, "fuzz", kDir); }))
      read_back(io::map_fitted_toml(*scenario, start_values(*scenario), 0));
  } else if (const auto scenario = read([&] { return io::parse_fit_string(text, "fuzz", kDir); })) {
    read_back(io::fitted_toml(*scenario, start_values(*scenario), 0, kDir));
    // as `bristle check`: with [[fit.model]] the comparison too
    if (text.find("model") != std::string_view::npos)
      (void)read([&] { return io::parse_fit_comparison_string(text, {}, "fuzz", kDir); });
  }
  return 0;
}
