// The scenario of a fit's experiment (src/io/fit_internal.hpp, fit_scenario): its window and numeric `set` by key
// path, else the `set` written into the TOML and parsed. What the reader accepts and refuses is what it did when
// every experiment was parsed from its TOML: the whole-scenario checks of the lumped kind after the window and
// `set`, a file that is valid only with its `set`, a `set` that replaces a list or signal by a number, and
// patch_transient's default load following a set patch.normal_load_N; a `set` of the window is the window.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bristle/contact/signal.hpp"
#include "bristle/io/fit_map_scenario.hpp"
#include "bristle/io/fit_scenario.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/patch_scenario.hpp"
#include "fit_fixtures.hpp"
#include "support/test_support.hpp"

namespace {

using bristle::test::message_of;
using bristle::test::read_text;
using bristle::test::TempDir;

const std::string kExamples = std::string(BRISTLE_SOURCE_DIR) + "/examples";

// A LuGre contact driven at a prescribed velocity under 10 N (fit_fixtures.hpp); [bench.input] and the experiments
// are added.
const std::string& kLumped = bristle::test::fit::kLugreVelocityBench;

const char* const kSine = R"([bench.input]
type = "sine"
amplitude = 1e-3
omega = 2e5
)";

const char* const kLumpedFit = R"([fit]
data = "d.csv"
time_column = "t_s"
[fit.targets]
F_N = "F_N"
[fit.parameters]
"law.mu_d" = { initial = 0.3, min = 0.05, max = 1.0 }
)";

class FitExperimentSet : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.write("d.csv", "t_s,F_N\n0,0\n0.0005,0.1\n0.001,0.2\n");  // 1 ms: 32 periods of omega = 2e5 rad/s
    dir_.write("long.csv", "t_s,F_N\n0,0\n30,0.1\n60,0.2\n");        // 60 s: 1.9e6 periods
  }
  bristle::io::FitScenario lumped(const std::string& toml) const {
    return bristle::io::parse_fit_string(toml, "sine", dir_.path());
  }
  TempDir dir_{"bristle_fit_set"};
};

// 1. The lumped kind's whole-scenario checks (LumpedScenario::validate: here the sine periods over the run) hold
// after the window and the `set`: a second experiment's longer window, or a set omega, is refused as before. (The
// first was blamed on "fit.experiment[1].set", which that experiment does not have; helper-53.)
TEST_F(FitExperimentSet, ALumpedExperimentPastTheSinePeriodLimitIsRefusedAfterItsWindow) {
  const std::string toml = std::string(kLumped) + kSine + kLumpedFit +
                           "[[fit.experiment]]\ndata = \"d.csv\"\n[[fit.experiment]]\ndata = \"long.csv\"\n";
  EXPECT_EQ(message_of([&] { (void)lumped(toml); }),
            "fit.experiment[1]: bench.input.omega = 200000: the run (time.t_start_s .. time.t_end_s) spans "
            "1909859.317102744 of its periods; at most 1000000 (Limits in docs/scenarios.md)");
}

TEST_F(FitExperimentSet, ALumpedExperimentPastTheSinePeriodLimitIsRefusedAfterItsSet) {
  const std::string toml = std::string(kLumped) + kSine + kLumpedFit +
                           "[[fit.experiment]]\ndata = \"d.csv\"\nset = { \"bench.input.omega\" = 1e11 }\n";
  EXPECT_EQ(message_of([&] { (void)lumped(toml); }),
            "fit.experiment[0] (with fit.experiment[0].set): bench.input.omega = 100000000000: the run "
            "(time.t_start_s .. time.t_end_s) spans 15915494.309189534 of its periods; at most 1000000 (Limits in "
            "docs/scenarios.md)");
}

// helper-48: a fitted key in an experiment's `set` was overwritten by the fit's value without a word (the experiment
// became a copy of the other and the standard errors shrank by sqrt 2).
TEST_F(FitExperimentSet, AFittedKeyCannotBeSetByAnExperiment) {
  const std::string toml = std::string(kLumped) + kSine + kLumpedFit +
                           "[[fit.experiment]]\ndata = \"d.csv\"\n[[fit.experiment]]\ndata = \"d.csv\"\n"
                           "set = { \"law.mu_d\" = 0.3 }\n";
  EXPECT_EQ(message_of([&] { (void)lumped(toml); }),
            "fit.experiment[1].set: \"law.mu_d\" is a fitted parameter (fit.parameters); the fit gives its value in "
            "every experiment: remove it from set or from fit.parameters");
  // written as a TOML dotted key or a table, it is the same key (helper-49); another key of the table is not
  const std::string head = std::string(kLumped) + kSine + kLumpedFit + "[[fit.experiment]]\ndata = \"d.csv\"\n";
  for (const char* set : {"set = { law.mu_d = 0.3 }\n", "set = { law = { mu_d = 0.3 } }\n"})
    EXPECT_EQ(message_of([&] { (void)lumped(head + set); }).substr(0, 57),
              "fit.experiment[0].set: \"law.mu_d\" is a fitted parameter (") << set;
  EXPECT_EQ(lumped(head + "set = { law.mu_s = 0.9 }\n").experiments.size(), 1u);
}

// 2. A required key given only in an experiment's `set`.
TEST_F(FitExperimentSet, ALumpedInputGivenOnlyInTheSetIsRead) {
  const std::string toml = std::string(kLumped) + kLumpedFit +
                           "[[fit.experiment]]\ndata = \"d.csv\"\nset = { \"bench.input\" = 0.01 }\n";
  const bristle::io::FitScenario f = lumped(toml);
  ASSERT_EQ(f.experiments.size(), 1u);
  const bristle::contact::Signal& input = f.experiments[0].scenario.bench.input_x;
  EXPECT_EQ(input.kind, bristle::contact::SignalKind::constant);
  EXPECT_EQ(input.value, 0.01);
}

TEST_F(FitExperimentSet, AStructureNormalLoadGivenOnlyInTheSetIsRead) {
  std::string toml = read_text(kExamples + "/fit_structure_stick_slip.toml");
  const std::string load = "normal_load_N = 1.0\n";
  ASSERT_NE(toml.find(load), std::string::npos);
  toml.erase(toml.find(load), load.size());
  toml += "[[fit.experiment]]\nset = { \"contact.normal_load_N\" = 2.5 }\n";
  const bristle::io::StructureFitScenario f = bristle::io::parse_structure_fit_string(toml, "s", kExamples);
  ASSERT_EQ(f.experiments.size(), 1u);
  EXPECT_EQ(f.experiments[0].scenario.contact.normal_load_N, 2.5);
}

// 3. A `set` number replacing a list (a steady map's axis) or a signal that is not constant.
TEST_F(FitExperimentSet, ASteadyMapAxisListSetToANumberIsThatNumber) {
  // a list of one too: it stayed a list, an axis the fit refuses (helper-54)
  for (const char* list : {"vx_mps = [1.0, 2.0]\n", "vx_mps = [1.0]\n"}) {
    SCOPED_TRACE(list);
    std::string toml = read_text(kExamples + "/fit_patch_steady_map.toml");
    const std::string vr = "Vr_mps = 16.0\n";
    ASSERT_NE(toml.find(vr), std::string::npos);
    toml.insert(toml.find(vr) + vr.size(), list);
    toml += "[[fit.experiment]]\nset = { \"kinematics.vx_mps\" = 2.0 }\n";
    const bristle::io::MapFitScenario f = bristle::io::parse_map_fit_string(toml, "m", kExamples);
    ASSERT_EQ(f.experiments.size(), 1u);
    EXPECT_EQ(f.experiments[0].scenario.vx.values, std::vector<double>{2.0});
    EXPECT_FALSE(f.experiments[0].scenario.vx.list);
  }
}

TEST_F(FitExperimentSet, ASineInputSetToANumberIsConstantAndTheOtherExperimentsKeepTheSine) {
  const std::string toml = std::string(kLumped) + kSine + kLumpedFit +
                           "[[fit.experiment]]\ndata = \"d.csv\"\nset = { \"bench.input\" = 0.01 }\n"
                           "[[fit.experiment]]\ndata = \"d.csv\"\n";
  const bristle::io::FitScenario f = lumped(toml);
  ASSERT_EQ(f.experiments.size(), 2u);
  const bristle::contact::Signal& set = f.experiments[0].scenario.bench.input_x;
  EXPECT_EQ(set.kind, bristle::contact::SignalKind::constant);
  EXPECT_EQ(set.value, 0.01);
  const bristle::contact::Signal& kept = f.experiments[1].scenario.bench.input_x;
  EXPECT_EQ(kept.kind, bristle::contact::SignalKind::sine);
  EXPECT_EQ(kept.omega, 2e5);
}

// A `set` of what the fit sets from the data (here [time]) is replaced by the window, as when written into the
// file before the window; the rest of the `set` applies.
TEST_F(FitExperimentSet, ASetOfTheTimeWindowIsReplacedByTheData) {
  const std::string toml = std::string(kLumped) + kSine + kLumpedFit +
                           "[[fit.experiment]]\ndata = \"d.csv\"\n"
                           "set = { \"time.t_end_s\" = 5.0, \"time.output_dt_s\" = 0.1, \"law.mu_s\" = 0.7 }\n";
  const bristle::io::FitScenario f = lumped(toml);
  ASSERT_EQ(f.experiments.size(), 1u);
  const bristle::io::LumpedScenario& sc = f.experiments[0].scenario;
  EXPECT_EQ(sc.time.t_start_s, 0.0);
  EXPECT_EQ(sc.time.t_end_s, 0.001);
  EXPECT_EQ(bristle::io::get_number(sc, "law.mu_s"), 0.7);
}

// 4. patch.normal_load_N set by key path without load.Fz_N: F_z(t) follows it, as the reader makes it; the other
// experiment (a copy of the same parse) keeps the file's load.
TEST_F(FitExperimentSet, APatchTransientNormalLoadSetWithoutALoadIsTheConstantLoad) {
  std::string toml = read_text(kExamples + "/fit_patch_transient.toml");
  ASSERT_EQ(toml.find("[load]"), std::string::npos);
  toml += "[[fit.experiment]]\nset = { \"patch.normal_load_N\" = 2500.0 }\n[[fit.experiment]]\n";
  const bristle::io::TransientFitScenario f = bristle::io::parse_transient_fit_string(toml, "p", kExamples);
  ASSERT_EQ(f.experiments.size(), 2u);
  for (const auto& [i, load] : {std::pair{0, 2500.0}, std::pair{1, 3000.0}}) {
    const bristle::io::PatchTransientScenario& sc = f.experiments[static_cast<std::size_t>(i)].scenario;
    EXPECT_EQ(sc.transient.patch.normal_load_N, load) << i;
    EXPECT_EQ(sc.Fz_N.kind, bristle::contact::SignalKind::constant) << i;
    EXPECT_EQ(sc.Fz_N.value, load) << i;
  }
}

// 5. An experiment's table read by a kind other than lumped (read_experiment_table): a `set` key path nested past the
// depth limit of a scenario's text is refused with that limit's message, as when the table was read from its text;
// one within the limit with the reader's message.
TEST_F(FitExperimentSet, ASetOfDottedKeysMergesIntoTheScenariosTableAndAnInlineTableReplacesIt) {
  // `set = { integrator.max_steps = 1e7 }` is a table of dotted keys once parsed: it replaced the file's [integrator]
  // whole, so the experiment silently ran the default method instead of the file's sdirk2. It merges now, as if its
  // keys were written into the file; a table written inline ({ ... }) still replaces the table.
  const std::string head = kLumped + kSine + "[integrator]\nmethod = \"sdirk2\"\ndt_s = 1e-6\n" + kLumpedFit +
                           "[[fit.experiment]]\ndata = \"d.csv\"\n";
  const bristle::io::FitScenario merged =
      lumped(head + "set = { integrator.max_steps = 10000000, bench.input.amplitude = 2e-3 }\n");
  const bristle::io::LumpedScenario& sc = merged.experiments.at(0).scenario;
  EXPECT_EQ(sc.integrator.method, bristle::integrate::Method::sdirk2);
  EXPECT_EQ(sc.integrator.dt_s, 1e-6);
  EXPECT_EQ(sc.integrator.max_steps, 10'000'000);
  EXPECT_EQ(bristle::io::get_number(sc, "bench.input.amplitude"), 2e-3);  // the sine's other keys kept
  EXPECT_EQ(bristle::io::get_number(sc, "bench.input.omega"), 2e5);
  const bristle::io::FitScenario replaced = lumped(head + "set = { integrator = { method = \"rodas5p\" } }\n");
  EXPECT_EQ(replaced.experiments.at(0).scenario.integrator.method, bristle::integrate::Method::rodas5p);
}

// helper-53: a `set` of a list entry ("body1.c[0]", "bench.x0_m[0]") or of a list of one by its bare name ("body1.c")
// was written into the first experiment's TOML as a key "c[0]", refused as an unknown key (a bad value too, as
// `unknown key "body1.c[0]"`). It goes into the file's list now, which reads back.
TEST_F(FitExperimentSet, AListEntryInASetIsWrittenIntoTheFilesList) {
  std::string model = kLumped + "x0_m = [0.0, 0.0]\n" + kSine;
  const std::string elastic = "type = \"elastic\"\nk0 = 1e4";
  model.replace(model.find(elastic), elastic.size(), "type = \"gkv\"\nk0 = 1e4\nc = [50.0]\ntau = [0.05]");
  const std::string head = model + kLumpedFit + "[[fit.experiment]]\ndata = \"d.csv\"\n";
  for (const auto& [set, key, value] : {std::tuple{"\"body1.c[0]\" = 60.0", "body1.c[0]", 60.0},
                                        std::tuple{"\"body1.c\" = 70.0", "body1.c[0]", 70.0},
                                        std::tuple{"body1.c = 80.0", "body1.c[0]", 80.0},
                                        std::tuple{"\"bench.x0_m[1]\" = 1e-4", "bench.x0_m[1]", 1e-4}}) {
    SCOPED_TRACE(set);
    const bristle::io::FitScenario f = lumped(head + "set = { " + set + " }\n");
    EXPECT_EQ(bristle::io::get_number(f.experiments[0].scenario, key), value);
    const auto back = bristle::io::parse_lumped_string(f.scenario_toml.front());  // the base of <name>_fitted.toml
    EXPECT_EQ(bristle::io::get_number(back.front(), key), value);
    EXPECT_EQ(bristle::io::get_number(back.front(), "body1.tau"), 0.05);  // the rest of the list as written
  }
  EXPECT_EQ(message_of([&] { (void)lumped(head + "set = { \"body1.c[0]\" = -60.0 }\n"); }),
            "fit.experiment[0] (with fit.experiment[0].set): body1.c[0] = -60: must be > 0");
  // a list the file does not write goes in whole, as the experiment's scenario holds it, in every experiment (the
  // later ones were refused for it: helper-54); a key path get/set refuse is refused as the reader says it
  const std::string one = std::string(kLumped) + kSine + kLumpedFit + "[[fit.experiment]]\ndata = \"d.csv\"\n";
  for (const std::string& toml : {one + "set = { \"bench.x0_m[1]\" = 1e-4 }\n",
                                  one + "[[fit.experiment]]\ndata = \"d.csv\"\nset = { \"bench.x0_m[1]\" = 1e-4 }\n"}) {
    const bristle::io::FitScenario f = lumped(toml);
    const std::size_t last = f.experiments.size() - 1;
    EXPECT_EQ(bristle::io::get_number(f.experiments[last].scenario, "bench.x0_m[1]"), 1e-4);
    const auto back = bristle::io::parse_lumped_string(f.scenario_toml[last]);
    EXPECT_EQ(bristle::io::get_number(back.front(), "bench.x0_m[1]"), 1e-4);
    EXPECT_EQ(bristle::io::get_number(back.front(), "bench.x0_m[0]"), 0.0);
  }
  for (const char* key : {"body1.c[3]", "law.v_s[0]", "body1.k0[0]"})
    EXPECT_EQ(message_of([&] { (void)lumped(head + "set = { \"" + key + "\" = 60.0 }\n"); }).substr(0, 59),
              std::string("fit.experiment[0] (with fit.experiment[0].set): unknown key")) << key;
}

// helper-53: [initial] in a `set` was accepted and did nothing (each window starts from fit.initial_state), as a
// fitted initial.f[0] did; and an error of the file itself was blamed on experiment 0's `set`.
TEST_F(FitExperimentSet, InitialInASetIsRefusedAndTheFilesOwnErrorIsNotBlamedOnASet) {
  const std::string head = std::string(kLumped) + kSine + kLumpedFit + "[[fit.experiment]]\ndata = \"d.csv\"\n";
  for (const auto& [set, key] : {std::pair{"\"initial.f[0]\" = 0.3", "initial.f[0]"},
                                 std::pair{"initial.f = [0.3, 0.0]", "initial.f"},
                                 std::pair{"initial = { steady = true }", "initial"}})
    EXPECT_EQ(message_of([&] { (void)lumped(head + "set = { " + set + " }\n"); }),
              fmt::format("fit.experiment[0].set: \"{}\": the fit starts each window from fit.initial_state "
                          "(\"rest\", \"match_first_sample\" or \"steady\"), not from [initial]: remove it from set",
                          key))
        << set;
  std::string broken = std::string(kLumped) + kSine + kLumpedFit;
  broken.replace(broken.find("k0 = 1e4"), 8, "k0 = -1e4");
  EXPECT_EQ(message_of([&] {
              (void)lumped(broken + "[[fit.experiment]]\ndata = \"d.csv\"\nset = { \"bench.normal_load_N\" = 3.0 }\n");
            }),
            "fit.experiment[0]: body1.k0 = -10000: must be > 0");
}

// helper-53: a parameter without `initial` starts at the scenario's value; a ramp that never ends has t_end = inf
// (it read as 1e+300, quoted as the "initial" the user never wrote).
TEST_F(FitExperimentSet, AParameterWhoseScenarioValueIsInfiniteNeedsAnInitialValue) {
  const std::string toml = kLumped + "[bench.input]\ntype = \"ramp\"\nrate = 1e-3\n" + kLumpedFit +
                           "\"bench.input.t_end\" = { min = 0.1, max = 10.0 }\n";
  EXPECT_EQ(message_of([&] { (void)lumped(toml); }),
            "fit.parameters.\"bench.input.t_end\": the scenario's value is inf, which is no start: give initial (a "
            "value in [min, max])");
}

TEST_F(FitExperimentSet, ASetKeyPathOfMorePartsThanTheNestingLimitIsRefusedWhereItIsRead) {
  // Each part of a key path nests a table; 200,000 parts overflowed the stack (a segmentation fault) before the
  // count was bounded where the key is read.
  const std::string toml = read_text(kExamples + "/fit_patch_transient.toml");
  const auto with_set = [&](int components) {
    std::string key = "z";
    for (int i = 1; i < components; ++i) key += ".z";
    return toml + "[[fit.experiment]]\nset = { \"" + key + "\" = \"x\" }\n";
  };
  const auto message = [&](int components) {
    return message_of([&] { (void)bristle::io::parse_transient_fit_string(with_set(components), "p", kExamples); });
  };
  for (const int components : {65, 70, 200000})
    EXPECT_EQ(message(components),
              fmt::format("fit.experiment[0].set: key path \"z.z.z...\" has {} "
                          "parts; at most 64 (the nesting limit of a scenario file)",
                          components))
        << components;
  const std::string head = "fit.experiment[0] (with fit.experiment[0].set): ";
  for (const int components : {31, 40, 64})  // within the limit: the reader's own message
    EXPECT_EQ(message(components), head + "unknown key \"z\"; did you mean \"law\"?") << components;
}

}  // namespace
