// libFuzzer target: a scenario text through the path of `bristle check` (parse, validate, summary,
// case count) for every kind. CI runs it once per kind, each run seeded from fuzz/corpus/scenario_<kind>/
// (the examples of that kind); a mutated `kind` key may lead a run into another kind's reader.
//
// The contract checked: bad input is an InvalidInput and nothing else. Any other exception (e.g.
// std::bad_alloc from a size `check` accepted), a crash, a leak, a sanitizer report or a timeout is a
// finding. Relative table files resolve against the examples directory.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bristle/core/error.hpp"
#include "bristle/io/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto scenario = bristle::io::parse_scenario_string(text, "fuzz", BRISTLE_EXAMPLES_DIR);
    (void)scenario->summary();
    (void)scenario->case_count();
  } catch (const bristle::InvalidInput&) {
    // refused with a message: the expected outcome for bad input
  }
  return 0;
}
