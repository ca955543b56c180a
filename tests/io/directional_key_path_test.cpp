// Key paths of the directional kinds (io/key_path.hpp): directional_coefficients, directional_loop and
// directional_crawler. Set then run equals parsing the file with the value (bitwise the same CSV and parameter
// echo); the reader's cross-checks run after a set (io::validate); bad paths and values are errors naming the key
// that leave the scenario unchanged; a parsed Scenario takes them too, and refuses the key its [sweep] varies.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/io/directional_scenario.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/output.hpp"
#include "io/key_path_test_support.hpp"

namespace bristle::io {
namespace {

using ::testing::HasSubstr;

// Paper 2, Fig. 4 (slanted spring on a sine surface, omega_+- = +-0.1): 20 angles over the admissible range.
const std::string kCoefficients = R"(
kind = "directional_coefficients"
[profile]
kind = "sine"
amplitude = 0.015915494309189534
[mechanism]
kind = "slanted"
[range]
points = 20
)";

// The slanted spring of examples/directional_loop_slanted.toml, shortened: one eps and the limit, 200 outputs.
const std::string kLoop = R"(
kind = "directional_loop"
[profile]
kind = "sine"
amplitude = 0.07957747154594767
[mechanism]
kind = "slanted"
k = 1.0
height_m = 1.0
rest_length_m = 1.5
theta_rad = 0.5
[drive]
k_h_N_per_m = 1.0
amplitude_m = 0.8
period_s = 2.0
cycles = 1.0
[epsilon]
values_m = [0.1]
gamma = 1.0
[time]
outputs = 200
[integrator]
rtol = 1e-8
)";

// The 2-foot crawler of examples/directional_crawler_2_feet.toml, shortened: eps = 0.1 and the limit, 2 cycles.
const std::string kCrawler = R"(
kind = "directional_crawler"
[profile]
kind = "sine"
amplitude = 0.07957747154594767
[mechanism]
kind = "angular"
k = 1.0
height_m = 1.0
length_m = 1.25
theta_rest_rad = 0.0
[crawler]
feet = 2
k_a_N_per_m = 10.0
stroke_m = 0.2
[epsilon]
values_m = [0.1]
[run]
cycles = 2
samples_per_cycle = 20
limit_steps_per_cycle = 200
)";

using test::edited;

DirectionalCoefficientsScenario parse(const std::string& toml, const DirectionalCoefficientsScenario*) {
  return parse_directional_coefficients_string(toml, "d");
}
DirectionalLoopScenario parse(const std::string& toml, const DirectionalLoopScenario*) {
  return parse_directional_loop_string(toml, "d");
}
DirectionalCrawlerScenario parse(const std::string& toml, const DirectionalCrawlerScenario*) {
  return parse_directional_crawler_string(toml, "d");
}
RunResult run(const DirectionalCoefficientsScenario& sc) { return DirectionalCoefficientsStudy(sc).run(); }
RunResult run(const DirectionalLoopScenario& sc) { return DirectionalLoopStudy(sc).run(); }
RunResult run(const DirectionalCrawlerScenario& sc) { return DirectionalCrawlerStudy(sc).run(); }

template <class Sc>
Sc parse_as(const std::string& toml) {
  return parse(toml, static_cast<const Sc*>(nullptr));
}

using Case = test::KeyCase;

template <class Sc>
void check_cases(const std::string& text, const std::vector<Case>& cases) {
  test::check_set_equals_file(text, cases, [](const std::string& t) { return parse_as<Sc>(t); },
                              [](const Sc& sc) { return run(sc); });
}

TEST(DirectionalKeyPath, CoefficientsSetThenRunEqualsParsingTheFileWithThatValue) {
  check_cases<DirectionalCoefficientsScenario>(
      kCoefficients,
      {{"profile.amplitude", 0.03, "amplitude = 0.03", "amplitude ="},  // the defaulted ends follow the profile
       {"range.points", 7, "points = 7", "points ="},
       {"range.from_rad", 0.2, "points = 20\nfrom_rad = 0.2", "points ="},  // a given end is sampled
       {"range.to_rad", 1.2, "points = 20\nto_rad = 1.2", "points ="}});
}

TEST(DirectionalKeyPath, LoopSetThenRunEqualsParsingTheFileWithThatValue) {
  check_cases<DirectionalLoopScenario>(kLoop, {{"mechanism.theta_rad", 0.4, "theta_rad = 0.4", "theta_rad ="},
                                               {"mechanism.k", 2.0, "k = 2.0", "k = 1.0"},
                                               {"profile.amplitude", 0.05, "amplitude = 0.05", "amplitude ="},
                                               {"drive.k_h_N_per_m", 3.0, "k_h_N_per_m = 3.0", "k_h_N_per_m ="},
                                               {"drive.amplitude_m", 0.6, "amplitude_m = 0.6", "amplitude_m ="},
                                               {"epsilon.gamma", 1.5, "gamma = 1.5", "gamma ="},
                                               {"time.outputs", 150, "outputs = 150", "outputs ="},
                                               {"integrator.rtol", 1e-9, "rtol = 1e-9", "rtol ="}});
}

TEST(DirectionalKeyPath, CrawlerSetThenRunEqualsParsingTheFileWithThatValue) {
  check_cases<DirectionalCrawlerScenario>(
      kCrawler, {{"crawler.k_a_N_per_m", 5.0, "k_a_N_per_m = 5.0", "k_a_N_per_m ="},
                 {"crawler.stroke_m", 0.3, "stroke_m = 0.3", "stroke_m ="},
                 {"mechanism.length_m", 1.3, "length_m = 1.3", "length_m ="},
                 {"run.samples_per_cycle", 10, "samples_per_cycle = 10", "samples_per_cycle ="},
                 {"run.limit_steps_per_cycle", 300, "limit_steps_per_cycle = 300", "limit_steps_per_cycle ="}});
}

bool has(const std::vector<std::string>& keys, const std::string& k) {
  return std::find(keys.begin(), keys.end(), k) != keys.end();
}

TEST(DirectionalKeyPath, NumericKeysAreThoseOfTheKindAndItsChoices) {
  const auto c = parse_as<DirectionalCoefficientsScenario>(kCoefficients);
  const auto l = parse_as<DirectionalLoopScenario>(kLoop);
  const auto w = parse_as<DirectionalCrawlerScenario>(kCrawler);
  EXPECT_EQ(numeric_keys(c), (std::vector<std::string>{"profile.amplitude", "range.points", "range.from_rad",
                                                       "range.to_rad"}));
  for (const char* k : {"profile.amplitude", "mechanism.k", "mechanism.theta_rad", "drive.k_h_N_per_m",
                        "drive.cycles", "epsilon.gamma", "integrator.rtol", "integrator.max_steps", "time.outputs"})
    EXPECT_TRUE(has(numeric_keys(l), k)) << k;
  EXPECT_FALSE(has(numeric_keys(l), "mechanism.length_m"));  // angular only
  EXPECT_FALSE(has(numeric_keys(l), "profile.asymmetry"));   // ratchet only
  EXPECT_FALSE(has(numeric_keys(l), "epsilon.values_m"));    // a list
  for (const char* k : {"mechanism.length_m", "mechanism.theta_rest_rad", "crawler.feet", "crawler.phase_lag",
                        "run.cycles"})
    EXPECT_TRUE(has(numeric_keys(w), k)) << k;
  EXPECT_FALSE(has(numeric_keys(w), "mechanism.theta_rad"));
  // every listed key reads and sets its own value; a defaulted end of [range] set to the bound it reads stays
  // defaulted (not sampled, so the set does not fail on the admissible range's open end)
  for (const std::string& k : numeric_keys(c)) {
    DirectionalCoefficientsScenario copy = c;
    set_number(copy, k, get_number(c, k));
    EXPECT_EQ(get_number(copy, k), get_number(c, k)) << k;
    EXPECT_FALSE(copy.from_included || copy.to_included) << k;
  }
  for (const std::string& k : numeric_keys(l)) {
    DirectionalLoopScenario copy = l;
    set_number(copy, k, get_number(l, k));
    EXPECT_EQ(get_number(copy, k), get_number(l, k)) << k;
  }
  for (const std::string& k : numeric_keys(w)) {
    DirectionalCrawlerScenario copy = w;
    set_number(copy, k, get_number(w, k));
    EXPECT_EQ(get_number(copy, k), get_number(w, k)) << k;
  }
  // a defaulted end reads as the admissible bound it follows (eq. 3.9: arccot(0.1))
  EXPECT_EQ(get_number(c, "range.from_rad"), 0.0);
  EXPECT_DOUBLE_EQ(get_number(c, "range.to_rad"), std::atan(1.0 / 0.1));
  EXPECT_EQ(key_info(l, "drive.k_h_N_per_m").unit, "N/m");
  EXPECT_TRUE(key_info(l, "drive.k_h_N_per_m").log_scale);
  EXPECT_EQ(key_info(c, "range.points").range, "[2, 1000000] (integer)");
}

template <class Sc>
std::string set_error(const Sc& sc, const std::string& key, double value) {
  return test::set_error_of(sc, key, value, [](const Sc& s) { return run(s); });
}

TEST(DirectionalKeyPath, BadPathsAndValuesAreErrorsNamingTheKeyAndLeaveTheScenarioUnchanged) {
  const auto c = parse_as<DirectionalCoefficientsScenario>(kCoefficients);
  const auto l = parse_as<DirectionalLoopScenario>(kLoop);
  const auto w = parse_as<DirectionalCrawlerScenario>(kCrawler);
  EXPECT_EQ(set_error(l, "drive.k_h_N_per_n", 2.0),
            "unknown key \"drive.k_h_N_per_n\"; did you mean \"drive.k_h_N_per_m\"?");
  EXPECT_THAT(set_error(l, "mechanism.length_m", 1.3),
              HasSubstr("key \"mechanism.length_m\" does not apply to mechanism.kind = \"slanted\""));
  EXPECT_THAT(set_error(c, "mechanism.k", 2.0), HasSubstr("unknown key \"mechanism.k\""));  // only its kind here
  EXPECT_THAT(set_error(l, "epsilon.values_m", 0.1), HasSubstr("epsilon.values_m: is a"));
  EXPECT_THAT(set_error(l, "epsilon.values_m", 0.1), HasSubstr("epsilon.values_m: is an array of numbers, not a number"));
  EXPECT_THAT(set_error(l, "profile.kind", 1.0), HasSubstr("profile.kind: is a string, not a number"));
  EXPECT_THAT(set_error(l, "drive.cycles", std::nan("")), HasSubstr("drive.cycles"));
  EXPECT_THAT(set_error(l, "drive.cycles", 20000), HasSubstr("drive.cycles = 20000: at most 10000 cycles"));
  EXPECT_THAT(set_error(l, "time.outputs", 2.5), HasSubstr("time.outputs = 2.5: must be an integer"));
  EXPECT_THAT(set_error(l, "time.outputs", 1), HasSubstr("time.outputs = 1"));
  // the reader's cross-checks: the slant against the surface (eq. 3.9), eps against the mechanism
  EXPECT_THAT(set_error(l, "mechanism.theta_rad", 1.5), HasSubstr("mechanism"));
  EXPECT_THAT(set_error(l, "epsilon.gamma", -1.0), HasSubstr("epsilon.gamma = -1"));
  EXPECT_THAT(set_error(w, "crawler.feet", 4), HasSubstr("crawler.feet = 4"));
  EXPECT_THAT(set_error(c, "range.from_rad", 2.0),
              HasSubstr("range.from_rad = 2: must lie in (0, 1.4711"));
  EXPECT_THAT(set_error(c, "range.points", 1), HasSubstr("range.points = 1"));
  {  // a failed set of a defaulted end leaves it defaulted (not sampled)
    DirectionalCoefficientsScenario copy = c;
    EXPECT_THROW(set_number(copy, "range.to_rad", -1.0), InvalidInput);
    EXPECT_FALSE(copy.to_included);
    EXPECT_EQ(copy.to_rad, c.to_rad);
  }
  // a parsed Scenario (load_scenario) takes them too
  std::unique_ptr<Scenario> s = parse_scenario_string(kCrawler, "d");
  set_number(*s, "crawler.stroke_m", 0.25);
  EXPECT_EQ(get_number(*s, "crawler.stroke_m"), 0.25);
  EXPECT_EQ(csv_text(s->run()),
            csv_text(run(parse_as<DirectionalCrawlerScenario>(edited(kCrawler, "stroke_m =", "stroke_m = 0.25")))));
  EXPECT_THAT(key_info(*s, "crawler.stroke_m").doc, HasSubstr("amplitude"));
}

TEST(DirectionalKeyPath, AStudyRefusesTheKeyItsSweepVaries) {
  std::unique_ptr<Scenario> s =
      parse_scenario_string(kCoefficients + "[sweep]\nparameter = \"profile.amplitude\"\nvalues = [0.01, 0.02]\n", "d");
  EXPECT_EQ(s->case_count(), 2u);
  try {
    set_number(*s, "profile.amplitude", 0.03);
    ADD_FAILURE() << "set the swept key";
  } catch (const InvalidInput& e) {
    EXPECT_THAT(e.what(), HasSubstr("is the parameter of the sweep (sweep.parameter = \"profile.amplitude\")"));
  }
  set_number(*s, "range.points", 5);  // another key: every case
  const RunResult r = s->run();
  ASSERT_EQ(r.cases.size(), 2u);
  EXPECT_EQ(r.cases[1].series.rows(), 5u);
  EXPECT_EQ(r.sweep_column, "amplitude");
}

}  // namespace
}  // namespace bristle::io
