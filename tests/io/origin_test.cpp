// Scenario::origin(): the TOML text a scenario was parsed from, with its default name and source, so that
// parse_scenario(origin) makes the same scenario again (the Python module pickles the kinds without their own
// Python class by it).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "bristle/core/error.hpp"
#include "bristle/io/key_path.hpp"
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

TEST(ScenarioOrigin, KeepsTheSetsInOrderOneEntryForARepeatedKeyAndNoneForAFailedSet) {
  const fs::path path = fs::path(BRISTLE_SOURCE_DIR) / "examples" / "fig4_slanted_spring.toml";
  const auto s = io::load_scenario(path);
  const io::Scenario::Origin* origin = s->origin();
  using Sets = std::vector<std::pair<std::string, double>>;
  for (int points = 20; points <= 2000; ++points) io::set_number(*s, "range.points", points);  // a loop over one key
  EXPECT_EQ(s->origin_sets(), (Sets{{"range.points", 2000.0}}));
  EXPECT_EQ(s->origin(), origin);  // the text is shared, not copied by a set
  const double amplitude = io::get_number(*s, "profile.amplitude");
  io::set_number(*s, "profile.amplitude", 0.5 * amplitude);
  io::set_number(*s, "range.points", 30);
  EXPECT_EQ(s->origin_sets(), (Sets{{"range.points", 2000.0}, {"profile.amplitude", 0.5 * amplitude}, {"range.points", 30.0}}));
  EXPECT_THROW(io::set_number(*s, "range.points", -1), InvalidInput);
  EXPECT_THROW(io::set_number(*s, "profile.no_such_key", 1.0), InvalidInput);
  EXPECT_EQ(s->origin_sets().size(), 3u);
  EXPECT_EQ(s->origin(), origin);

  // parse_scenario(origin) then the sets make it again
  const auto again = io::parse_scenario(origin->toml, origin->name, origin->source);
  for (const auto& [key, value] : s->origin_sets()) io::set_number(*again, key, value);
  EXPECT_EQ(again->summary(), s->summary());
  EXPECT_EQ(io::get_number(*again, "range.points"), 30.0);
}

TEST(ScenarioOrigin, IsNullForAStudyBuiltFromItsCases) {
  const fs::path path = fs::path(BRISTLE_SOURCE_DIR) / "examples" / "lugre_breakaway.toml";
  const io::LumpedStudy study(io::parse_lumped_file(path));
  EXPECT_EQ(study.origin(), nullptr);
}

}  // namespace
