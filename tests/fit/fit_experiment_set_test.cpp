// The scenario of a fit's experiment (src/io/fit_internal.hpp, fit_scenario): its window and numeric `set` by key
// path. What the reader accepts and refuses is what it did when every experiment was parsed from its TOML: the
// whole-scenario checks of the lumped kind after the window and `set`.
#include <gtest/gtest.h>

#include <string>

#include "bristle/io/fit_scenario.hpp"
#include "support/test_support.hpp"

namespace {

using bristle::test::message_of;
using bristle::test::TempDir;

// A LuGre contact driven at a prescribed velocity under 10 N; [bench.input] and the experiments are added.
const char* const kLumped = R"(name = "sine"
[law]
type = "lugre"
mu_s = 0.6
mu_d = 0.4
v_s = 1e-3
[body1]
type = "elastic"
k0 = 1e4
[bench]
drive = "velocity"
normal_load_N = 10.0
)";

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
// after the window and the `set`: a second experiment's longer window, or a set omega, is refused as before.
TEST_F(FitExperimentSet, ALumpedExperimentPastTheSinePeriodLimitIsRefusedAfterItsWindow) {
  const std::string toml = std::string(kLumped) + kSine + kLumpedFit +
                           "[[fit.experiment]]\ndata = \"d.csv\"\n[[fit.experiment]]\ndata = \"long.csv\"\n";
  EXPECT_EQ(message_of([&] { (void)lumped(toml); }),
            "fit.experiment[1] (with fit.experiment[1].set): bench.input.omega = 200000: the run (time.t_start_s .. "
            "time.t_end_s) spans 1909859.317102744 of its periods; at most 1000000 (Limits in docs/scenarios.md)");
}

TEST_F(FitExperimentSet, ALumpedExperimentPastTheSinePeriodLimitIsRefusedAfterItsSet) {
  const std::string toml = std::string(kLumped) + kSine + kLumpedFit +
                           "[[fit.experiment]]\ndata = \"d.csv\"\nset = { \"bench.input.omega\" = 1e11 }\n";
  EXPECT_EQ(message_of([&] { (void)lumped(toml); }),
            "fit.experiment[0] (with fit.experiment[0].set): bench.input.omega = 100000000000: the run "
            "(time.t_start_s .. time.t_end_s) spans 15915494.309189534 of its periods; at most 1000000 (Limits in "
            "docs/scenarios.md)");
}

}  // namespace
