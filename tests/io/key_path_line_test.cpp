// Key paths of the line kinds (kind = "line_steady", "line_transient"; io/key_path.hpp): set then run equals
// parsing the file with the value (the same CSV and parameter echo; s, n1, n2 and eq. 58 re-derived), the reader's
// cross-checks run, and bad paths and values are errors naming the key.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <string>

#include "bristle/core/error.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/line_scenario.hpp"
#include "bristle/io/output.hpp"
#include "io/key_path_test_support.hpp"
#include "support/test_support.hpp"

namespace bristle::io {
namespace {

// Table 1 of paper 1 (FrBD, GKV block given by tau, substrate dampings from eq. 58), a short map and a short run.
const std::string kModel = R"(
[law]
type = "frbd"
mu_s = 1.0
mu_d = 0.7
v_s = 6.0
delta_s = 2.0
[body1]
type = "gkv"
k0 = 240.0
c = [100.0, 50.0]
tau = [0.1, 0.1]
[body2]
type = "gkv"
c = "eq58"
tau = [0.1, 0.3]
[pair]
s = 0.4
[line]
L_m = 0.2
normal_load_N = 10.0
)";
const std::string kSteady = "kind = \"line_steady\"\n" + kModel +
                            "[kinematics]\nmode = \"sliding\"\nV_mps = [0.1, 1.0, 10.0]\n";
const std::string kTransient = "kind = \"line_transient\"\n" + kModel +
                               "cells = 20\n[kinematics]\nmode = \"sliding\"\nVx = 0.1\n[time]\nt_end_s = 0.2\n"
                               "outputs = 11\n";

using test::edited;

struct Case {
  std::string key;
  double value;
  std::string file_line, replaces;
};

template <class Study>
void check_cases(const std::string& text, const std::vector<Case>& cases) {
  std::unique_ptr<Scenario> parsed = parse_scenario_string(text, "k");
  const auto base = dynamic_cast<const Study&>(*parsed).cases().front();
  const std::string base_csv = csv_text(Study({base}).run());
  for (const Case& c : cases) {
    auto sc = base;
    set_number(sc, c.key, c.value);
    std::unique_ptr<Scenario> file_parsed = parse_scenario_string(edited(text, c.replaces, c.file_line), "k");
    const auto file = dynamic_cast<const Study&>(*file_parsed).cases().front();
    EXPECT_EQ(get_number(sc, c.key), get_number(file, c.key)) << c.key;
    const RunResult a = Study({sc}).run(), b = Study({file}).run();
    EXPECT_TRUE(csv_text(a) == csv_text(b)) << c.key << ": not the CSV of the file with the value";
    EXPECT_EQ(a.report.find("parameters")->dump(), b.report.find("parameters")->dump()) << c.key;
    EXPECT_TRUE(csv_text(a) != base_csv) << c.key << ": the value had no effect";
  }
}

std::string error_of(const std::string& text) {
  return bristle::test::message_of([&] { parse_scenario_string(text, "k"); });
}

std::string set_error(auto sc, const std::string& key, double value) {
  try {
    set_number(sc, key, value);
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(KeyPathLine, SteadySetThenRunEqualsParsingTheFileWithThatValue) {
  check_cases<LineSteadyStudy>(kSteady, {
                                            {"law.mu_d", 0.6, "mu_d = 0.6", "mu_d = 0.7"},
                                            {"body1.k0", 300.0, "k0 = 300.0", "k0 = 240.0"},  // body2.k0, eq. 58 follow
                                            {"pair.s", 0.6, "s = 0.6", "s = 0.4"},  // the CSV's s column too
                                            {"body2.tau[1]", 0.2, "tau = [0.1, 0.2]", "tau = [0.1, 0.3]"},
                                            {"body1.c[0]", 80.0, "c = [80.0, 50.0]", "c = [100.0, 50.0]"},
                                            {"line.L_m", 0.15, "L_m = 0.15", "L_m = 0.2"},
                                            {"line.normal_load_N", 12.0, "normal_load_N = 12.0",
                                             "normal_load_N = 10.0"},
                                        });
  // A map of one velocity: its velocity is a number.
  check_cases<LineSteadyStudy>(edited(kSteady, "V_mps = [0.1, 1.0, 10.0]", "V_mps = 2.0"),
                               {{"kinematics.V_mps", 3.0, "V_mps = 3.0", "V_mps = 2.0"}});
}

TEST(KeyPathLine, TransientSetThenRunEqualsParsingTheFileWithThatValue) {
  check_cases<LineTransientStudy>(kTransient, {
                                                  {"law.mu_s", 1.2, "mu_s = 1.2", "mu_s = 1.0"},
                                                  {"pair.s", 0.6, "s = 0.6", "s = 0.4"},
                                                  {"kinematics.Vx", 0.3, "Vx = 0.3", "Vx = 0.1"},
                                                  {"line.cells", 30, "cells = 30", "cells = 20"},
                                                  {"time.t_end_s", 0.1, "t_end_s = 0.1", "t_end_s = 0.2"},
                                              });
}

TEST(KeyPathLine, NumericKeysListTheKindsOwnNumbers) {
  std::unique_ptr<Scenario> s = parse_scenario_string(kSteady, "k");
  const std::vector<std::string> keys = numeric_keys(*s);
  for (const char* k : {"law.mu_d", "body1.k0", "body1.tau[1]", "body2.tau[0]", "pair.s", "line.L_m",
                        "line.normal_load_N"})
    EXPECT_NE(std::find(keys.begin(), keys.end(), k), keys.end()) << k;
  EXPECT_EQ(std::find(keys.begin(), keys.end(), "line.cells"), keys.end());  // transient only
  std::unique_ptr<Scenario> t = parse_scenario_string(kTransient, "k");
  const std::vector<std::string> tkeys = numeric_keys(*t);
  for (const char* k : {"line.cells", "line.cfl", "kinematics.Vx", "time.t_end_s"})
    EXPECT_NE(std::find(tkeys.begin(), tkeys.end(), k), tkeys.end()) << k;
  EXPECT_EQ(key_info(*s, "line.L_m").unit, "m");
  EXPECT_EQ(get_number(*s, "line.L_m"), 0.2);
}

TEST(KeyPathLine, BadPathsAndValuesNameTheKeyAndLeaveTheCaseUnchanged) {
  std::unique_ptr<Scenario> parsed = parse_scenario_string(kSteady, "k");
  const LineSteadyScenario sc = dynamic_cast<const LineSteadyStudy&>(*parsed).cases().front();
  EXPECT_EQ(set_error(sc, "line.L_m", -1.0), "line.L_m = -1: must be > 0");
  EXPECT_EQ(set_error(sc, "line.L_m", std::numeric_limits<double>::quiet_NaN()), "line.L_m = nan: must be finite");
  EXPECT_EQ(set_error(sc, "line.L_mm", 1.0), "unknown key \"line.L_mm\"; did you mean \"line.L_m\"?");
  EXPECT_EQ(set_error(sc, "pair.s", 1.2), "pair.s = 1.2: must lie in (0, 1)");
  EXPECT_NE(set_error(sc, "line.cells", 50.0).find("key \"line.cells\" does not apply"), std::string::npos)
      << set_error(sc, "line.cells", 50.0);
  EXPECT_NE(set_error(sc, "kinematics.V_mps", 1.0).find("kinematics.V_mps"), std::string::npos);
  EXPECT_EQ(set_error(sc, "body1.tau[2]", 0.1), "body1.tau[2]: body1 has 2 branches (indices 0 to 1)");
  // The reader's cross-check: a steady map refuses a negative speed.
  std::unique_ptr<Scenario> one = parse_scenario_string(edited(kSteady, "V_mps = [0.1, 1.0, 10.0]", "V_mps = 2.0"), "k");
  const LineSteadyScenario single = dynamic_cast<const LineSteadyStudy&>(*one).cases().front();
  EXPECT_EQ(set_error(single, "kinematics.V_mps", -1.0),
            "kinematics.V_mps = -1: negative sliding speed; reversals are forbidden by kinematics.allow_reversal = "
            "false (the default for kinematics.mode = \"sliding\"); set kinematics.allow_reversal = true to allow "
            "them");
  LineSteadyScenario kept = single;
  EXPECT_THROW(set_number(kept, "pair.s", 0.0), InvalidInput);
  EXPECT_EQ(get_number(kept, "pair.s"), 0.4);
  EXPECT_EQ(kept.columns.front().second, 0.4);
  // The transient's checks: a fixed step beyond the CFL limit, a negative constant velocity.
  std::unique_ptr<Scenario> tp = parse_scenario_string(kTransient, "k");
  const LineTransientScenario t = dynamic_cast<const LineTransientStudy&>(*tp).cases().front();
  EXPECT_NE(set_error(t, "line.dt_s", 1.0).find("line.dt_s = 1: beyond the stability limit"), std::string::npos)
      << set_error(t, "line.dt_s", 1.0);
  EXPECT_NE(set_error(t, "kinematics.Vx", -0.1).find("kinematics.Vx = -0.1: negative velocity"), std::string::npos)
      << set_error(t, "kinematics.Vx", -0.1);
}

// The transient kind's checks, shared by the reader and a key path (rederive_and_validate): the same messages, but for
// a constant signal given as a table, which the reader names as written (kinematics.Vx.value) and a key path as it
// sets it (kinematics.Vx).
TEST(KeyPathLine, TheTransientChecksOfTheReaderAndOfAKeyPath) {
  const auto case_of = [](const std::string& text) {
    return dynamic_cast<const LineTransientStudy&>(*parse_scenario_string(text, "k")).cases().front();
  };
  const LineTransientScenario t = case_of(kTransient);
  EXPECT_EQ(error_of(edited(kTransient, "cells = 20", "cells = 2000000")), "line.cells = 2000000: at most 1000000 cells");
  EXPECT_EQ(set_error(t, "line.cells", 2e6), "line.cells = 2000000: at most 1000000 cells");
  const std::string fields = edited(kTransient, "outputs = 11", "outputs = 11\nfield_times_s = [0.05, 0.15]");
  EXPECT_EQ(error_of(edited(fields, "t_end_s = 0.2", "t_end_s = 0.1")),
            "time.field_times_s[1] = 0.15: must lie in [time.t_start_s, time.t_end_s] = [0, 0.1]");
  EXPECT_EQ(set_error(case_of(fields), "time.t_end_s", 0.1),
            "time.field_times_s[1] = 0.15: must lie in [time.t_start_s, time.t_end_s] = [0, 0.1]");
  const std::string rule =
      ": negative velocity; reversals are forbidden by kinematics.allow_reversal = false (the default for "
      "kinematics.mode = \"sliding\"); set kinematics.allow_reversal = true to allow them";
  EXPECT_EQ(error_of(edited(kTransient, "Vx = 0.1", "Vx = -0.1")), "kinematics.Vx = -0.1" + rule);
  EXPECT_EQ(set_error(t, "kinematics.Vx", -0.1), "kinematics.Vx = -0.1" + rule);
  const std::string table = edited(kTransient, "Vx = 0.1", "Vx = { type = \"constant\", value = 0.1 }");
  EXPECT_EQ(error_of(edited(table, "Vx = ", "Vx = { type = \"constant\", value = -0.1 }")),
            "kinematics.Vx.value = -0.1" + rule);
  EXPECT_EQ(set_error(case_of(table), "kinematics.Vx.value", -0.1), "kinematics.Vx = -0.1" + rule);
}

// A map whose characteristic speeds turn negative needs the exact steady solver; the nonlinear one (a pressure table)
// refuses it naming the velocity, in the reader and after a key path.
TEST(KeyPathLine, ANegativeCharacteristicSpeedNamesTheVelocity) {
  const std::string rolling = edited(edited(kSteady, "mode = ", "mode = \"rolling\"\nallow_reversal = true\nVr_mps = 1"),
                                     "V_mps = ", "vx_mps = [1.0, 2.0]");
  const std::string table = edited(rolling, "normal_load_N = ",
                                   "normal_load_N = 10.0\npressure = \"table\"\n"
                                   "pressure_table = { xi_m = [0.0, 0.2], values = [1.0, 1.0] }");
  const std::string solver = "the nonlinear steady solver integrates from xi = 0 and needs every speed >= 0";
  EXPECT_EQ(error_of(edited(table, "vx_mps = ", "vx_mps = [-30.0, 2.0]")),
            "kinematics.vx_mps[0] = -30: component 0 moves towards the leading edge (speed -11.000000000000002 m/s); " +
                solver);
  const LineSteadyScenario sc = dynamic_cast<const LineSteadyStudy&>(*parse_scenario_string(table, "k")).cases().front();
  EXPECT_EQ(set_error(sc, "kinematics.Vr_mps", -40.0),
            "kinematics.vx_mps[0] = 1: component 0 moves towards the leading edge (speed -39.6 m/s); " + solver);
}

TEST(KeyPathLine, AStudyIsSetInEveryCaseAndRefusesWhatItsSweepVaries) {
  std::unique_ptr<Scenario> study = parse_scenario_string(kSteady + "[sweep]\ns = [0.4, 0.6]\n", "k");
  ASSERT_EQ(study->case_count(), 2u);
  set_number(*study, "law.mu_d", 0.65);
  for (const auto& c : dynamic_cast<const LineSteadyStudy&>(*study).cases()) EXPECT_EQ(get_number(c, "law.mu_d"), 0.65);
  EXPECT_EQ(get_number(*study, "law.mu_d"), 0.65);
  EXPECT_EQ(bristle::test::message_of([&] { set_number(*study, "pair.s", 0.5); }),
            "pair.s: is varied by the sweep (sweep.s); set it in the sweep");
  EXPECT_EQ(bristle::test::message_of([&] { (void)get_number(*study, "pair.s"); }),
            "pair.s: differs between the 2 cases of the study (0.4 in case 1, 0.6 in case 2); read it from one case");
  EXPECT_EQ(bristle::test::message_of([&] { set_number(*study, "law.mu_d", -1.0); }), "case 1 of 2 (s = 0.4): law.mu_d = -1: must be > 0");
  EXPECT_EQ(get_number(*study, "law.mu_d"), 0.65);
}

// helper-44: a set on a study with [[case]] tables overwrote the cases' own values (the "slow" and "fast" cases ran
// alike), and refused Vx = -1 although the file with it is valid (every case overrides it). A case keeps the keys
// its [[case]] gives, as the file with the value does; a key every case gives is refused.
TEST(KeyPathLine, ASetOnAStudyLeavesTheKeysACaseGivesToTheCase) {
  const std::string text = kTransient + "[[case]]\nlabel = \"slow\"\nkinematics.Vx = 0.05\n[[case]]\nlabel = \"file\"\n";
  std::unique_ptr<Scenario> study = parse_scenario_string(text, "k");
  set_number(*study, "kinematics.Vx", 0.2);
  const auto& cases = dynamic_cast<const LineTransientStudy&>(*study).cases();
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(get_number(cases[0], "kinematics.Vx"), 0.05);  // its own
  EXPECT_EQ(get_number(cases[1], "kinematics.Vx"), 0.2);   // the file's, set
  const std::unique_ptr<Scenario> file = parse_scenario_string(edited(text, "Vx = 0.1", "Vx = 0.2"), "k");
  EXPECT_EQ(csv_text(study->run()), csv_text(file->run()));
  const std::string every = kTransient + "[[case]]\nlabel = \"slow\"\nkinematics.Vx = 0.05\n[[case]]\nlabel = \"fast\"\n"
                                         "\"kinematics.Vx\" = 0.3\n";
  study = parse_scenario_string(every, "k");
  EXPECT_EQ(bristle::test::message_of([&] { set_number(*study, "kinematics.Vx.value", -1.0); }),
            "kinematics.Vx.value: every [[case]] gives its own value (2 of 2, e.g. slow), which a set on the study "
            "leaves to the case; set it in the [[case]] tables");
  set_number(*study, "line.normal_load_N", 12.0);  // a key no case gives: set in both
  for (const auto& c : dynamic_cast<const LineTransientStudy&>(*study).cases())
    EXPECT_EQ(get_number(c, "line.normal_load_N"), 12.0);
}

}  // namespace
}  // namespace bristle::io
