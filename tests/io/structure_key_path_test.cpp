// Key paths of kind = "structure_stick_slip" (io/key_path.hpp): set then run equals parsing the file with the
// value (bitwise the same CSV and parameter echo), for the keys of [law], [body1], [pair], [friction],
// [structure], [contact], [model] and [run]; bad paths and values are errors that leave the scenario unchanged.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "bristle/core/error.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/output.hpp"
#include "bristle/io/structures_scenario.hpp"
#include "io/key_path_test_support.hpp"

namespace bristle::io {
namespace {

using ::testing::HasSubstr;

// A taut string (4 modes of the truncated modal model) on a belt with LuGre friction on an elastic bristle
// and a substrate from pair.s: 0.3 s of stick-slip in 300 steps.
const std::string kDynamic = R"(
kind = "structure_stick_slip"
[structure]
type = "taut_string"
damping_ratio = 0.05
contact_positions_m = [0.3]
[contact]
normal_load_N = 1.0
belt_speed_m_per_s = 0.1
[law]
type = "lugre"
mu_s = 0.5
mu_d = 0.3
v_s = 0.1
delta_s = 2.0
[body1]
type = "elastic"
k0 = 1e4
[pair]
s = 0.8
[model]
type = "modal"
modes = 4
[run]
dt_s = 1e-3
t_end_s = 0.3
)";

// The same structure with set-valued Coulomb-Stribeck friction through the reduced model.
const std::string kCoulomb = R"(
kind = "structure_stick_slip"
[structure]
type = "taut_string"
damping_ratio = 0.1
contact_positions_m = [0.3]
[contact]
normal_load_N = 1.0
belt_speed_m_per_s = 0.1
[friction]
type = "coulomb_stribeck"
mu_s = 0.5
mu_d = 0.3
v_s = 0.1
[run]
dt_s = 2e-3
t_end_s = 2.5
)";

using test::edited;

StructureStickSlipScenario parse(const std::string& toml) { return parse_structure_stick_slip_string(toml, "s"); }
RunResult run(const StructureStickSlipScenario& sc) { return StructureStickSlipStudy(sc).run(); }

using Case = test::KeyCase;

void check_cases(const std::string& text, const std::vector<Case>& cases) {
  test::check_set_equals_file(text, cases, parse, [](const StructureStickSlipScenario& sc) { return run(sc); });
}

TEST(StructureKeyPath, SetThenRunEqualsParsingTheFileWithThatValue) {
  check_cases(kDynamic, {{"law.mu_s", 0.6, "mu_s = 0.6", "mu_s ="},
                         {"law.v_s", 0.05, "v_s = 0.05", "v_s ="},
                         {"body1.k0", 5e3, "k0 = 5e3", "k0 ="},  // body2.k0 follows pair.s
                         {"pair.s", 0.5, "s = 0.5", "s ="},
                         {"structure.damping_ratio", 0.2, "damping_ratio = 0.2", "damping_ratio ="},
                         {"structure.wave_speed_m_per_s", 1.5, "[structure]\nwave_speed_m_per_s = 1.5", "[structure]"},
                         {"contact.normal_load_N", 2.0, "normal_load_N = 2.0", "normal_load_N ="},
                         {"contact.belt_speed_m_per_s", 0.05, "belt_speed_m_per_s = 0.05", "belt_speed_m_per_s ="},
                         {"model.modes", 6, "modes = 6", "modes ="},
                         {"run.t_end_s", 0.2, "t_end_s = 0.2", "t_end_s ="}});
  check_cases(kCoulomb, {{"friction.mu_s", 0.45, "mu_s = 0.45", "mu_s ="},
                         {"friction.mu_d", 0.25, "mu_d = 0.25", "mu_d ="},
                         {"structure.damping_ratio", 0.05, "damping_ratio = 0.05", "damping_ratio ="},
                         {"model.far_tolerance", 1e-4, "[model]\nfar_tolerance = 1e-4\n[run]", "[run]"}});
}

TEST(StructureKeyPath, NumericKeysAreThoseOfTheFrictionAtHand) {
  const StructureStickSlipScenario d = parse(kDynamic), c = parse(kCoulomb);
  const std::vector<std::string> dk = numeric_keys(d), ck = numeric_keys(c);
  const auto has = [](const std::vector<std::string>& keys, const std::string& k) {
    return std::find(keys.begin(), keys.end(), k) != keys.end();
  };
  for (const char* k : {"law.mu_s", "law.sigma1", "body1.k0", "pair.s", "structure.damping_ratio", "contact.normal_load_N",
                        "model.modes", "run.dt_s"})
    EXPECT_TRUE(has(dk, k)) << k;
  EXPECT_FALSE(has(dk, "friction.mu_s"));
  EXPECT_FALSE(has(dk, "model.far_tolerance"));  // a modal model
  EXPECT_FALSE(has(dk, "body2.k0"));             // derived from pair.s
  for (const char* k : {"friction.mu_s", "friction.v_s", "model.far_tolerance", "model.window_steps"})
    EXPECT_TRUE(has(ck, k)) << k;
  EXPECT_FALSE(has(ck, "law.mu_s"));
  EXPECT_FALSE(has(ck, "pair.s"));
  // every listed key reads and sets its own value
  for (const std::string& k : dk) {
    StructureStickSlipScenario copy = d;
    set_number(copy, k, get_number(d, k));
    EXPECT_EQ(get_number(copy, k), get_number(d, k)) << k;
  }
  EXPECT_EQ(key_info(d, "structure.damping_ratio").range, ">= 0");
  EXPECT_EQ(key_info(d, "contact.normal_load_N").unit, "N");
  EXPECT_TRUE(key_info(d, "body1.k0").log_scale);
}

std::string set_error(const StructureStickSlipScenario& sc, const std::string& key, double value) {
  return test::set_error_of(sc, key, value, [](const StructureStickSlipScenario& s) { return run(s); });
}

TEST(StructureKeyPath, BadPathsAndValuesAreErrorsNamingTheKeyAndLeaveTheScenarioUnchanged) {
  const StructureStickSlipScenario d = parse(kDynamic), c = parse(kCoulomb);
  EXPECT_EQ(set_error(d, "law.mu_z", 0.5), "unknown key \"law.mu_z\"; did you mean \"law.mu_s\"?");
  EXPECT_THAT(set_error(d, "friction.mu_s", 0.5),
              HasSubstr("key \"friction.mu_s\" does not apply to a dynamic [law] (law.type = \"lugre\""));
  EXPECT_THAT(set_error(c, "law.mu_s", 0.5), HasSubstr("key \"law.mu_s\" does not apply to [friction]"));
  EXPECT_EQ(set_error(d, "law.mu_s", -1.0), "law.mu_s = -1: must be > 0");
  EXPECT_THAT(set_error(d, "structure.damping_ratio", 1.5), HasSubstr("damping_ratio = 1.5"));
  // the reader's limit on a tiny damping ratio (its memory window), not only the schema's range
  EXPECT_EQ(set_error(d, "structure.damping_ratio", 1e-9),
            "structure.damping_ratio = 1e-09: must be 0 or >= 1e-06 (Limits in docs/scenarios.md)");
  EXPECT_THAT(set_error(d, "contact.normal_load_N", std::nan("")), HasSubstr("contact.normal_load_N"));
  EXPECT_THAT(set_error(d, "contact.contact_index", 1), HasSubstr("contact.contact_index = 1: must lie in [0, 0]"));
  EXPECT_THAT(set_error(d, "run.dt_s", 1000.0), HasSubstr("run.dt_s = 1000: the structure's slowest mode"));
  EXPECT_THAT(set_error(d, "body2.k0", 1e3), HasSubstr("derived from pair.s = 0.8"));
  EXPECT_THAT(set_error(d, "structure.type", 1.0), HasSubstr("structure.type: is a string, not a number"));
  EXPECT_THAT(set_error(d, "model.modes", 2.5), HasSubstr("model.modes = 2.5"));
  // a parsed Scenario (load_scenario) takes them too
  std::unique_ptr<Scenario> s = parse_scenario_string(kDynamic, "s");
  set_number(*s, "law.mu_d", 0.25);
  EXPECT_EQ(get_number(*s, "law.mu_d"), 0.25);
  EXPECT_EQ(csv_text(s->run()), csv_text(run(parse(edited(kDynamic, "mu_d =", "mu_d = 0.25")))));
}

}  // namespace
}  // namespace bristle::io
