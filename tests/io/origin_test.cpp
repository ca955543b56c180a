// Scenario::origin(): the TOML text a scenario was parsed from, with its default name and source, so that
// parse_scenario(origin) makes the same scenario again (the Python module pickles the kinds without their own
// Python class by it).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "bristle/io/output.hpp"
#include "bristle/io/scenario.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using namespace bristle;

TEST(ScenarioOrigin, KeepsTheTextNameAndSourceAndParsesAgainToTheSameScenario) {
  const fs::path path = fs::path(BRISTLE_SOURCE_DIR) / "examples" / "string_kernel.toml";
  const auto loaded = io::load_scenario(path);
  ASSERT_NE(loaded->origin(), nullptr);
  EXPECT_EQ(loaded->origin()->toml, test::read_text(path));
  EXPECT_EQ(loaded->origin()->name, "string_kernel");
  EXPECT_EQ(loaded->origin()->source.display_name(), io::ScenarioSource::of_file(path).display_name());

  const auto again = io::parse_scenario(loaded->origin()->toml, loaded->origin()->name, loaded->origin()->source);
  EXPECT_EQ(again->kind(), loaded->kind());
  EXPECT_EQ(again->name(), loaded->name());
  EXPECT_EQ(again->summary(), loaded->summary());
  EXPECT_EQ(io::csv_text(again->run()), io::csv_text(loaded->run()));

  const auto parsed = io::parse_scenario_string(test::read_text(path), "x", path.parent_path());
  ASSERT_NE(parsed->origin(), nullptr);
  EXPECT_EQ(parsed->origin()->name, "x");
  EXPECT_EQ(parsed->origin()->source.directory, path.parent_path());
}

TEST(ScenarioOrigin, IsNullForAStudyBuiltFromItsCases) {
  const fs::path path = fs::path(BRISTLE_SOURCE_DIR) / "examples" / "lugre_breakaway.toml";
  const io::LumpedStudy study(io::parse_lumped_file(path));
  EXPECT_EQ(study.origin(), nullptr);
}

}  // namespace
