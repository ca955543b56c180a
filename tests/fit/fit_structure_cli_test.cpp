// `bristle fit` of a kind = "structure_stick_slip" scenario: the four outputs, the fitted scenario reproducing the
// fit's RMS under `bristle run`, `bristle check` of the example, and bad input of the kind (exit 2, the key named,
// nothing written).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "fit_fixtures.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using bristle::test::CliResult;

// The string of fit_structure_test.cpp (4 modes, LuGre, 2 s), recorded every 10 ms.
std::string model(double mu_d) {
  return fmt::format(R"(kind = "structure_stick_slip"
name = "ss"
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
mu_d = {}
v_s = 0.1
delta_s = 2.0
[body1]
type = "elastic"
k0 = 1e4
[model]
type = "modal"
modes = 4
[run]
dt_s = 1e-3
t_end_s = 2.0
output_every = 10
)",
                     mu_d);
}

const char* const kFit = R"(
[fit]
data = "d.csv"
time_column = "t_s"
[fit.targets]
F_N = "F_N"
[fit.parameters]
"law.mu_d" = { initial = 0.25, min = 0.1, max = 0.45 }
)";

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::istringstream s(line);
  std::string c;
  while (std::getline(s, c, ',')) cells.push_back(c);
  return cells;
}

std::vector<double> column(const std::string& csv, const std::string& name) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = split(line);
  const auto at = static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  std::vector<double> out;
  while (std::getline(in, line))
    if (at < split(line).size()) out.push_back(std::stod(split(line)[at]));
  return out;
}

class FitStructureCli : public bristle::test::CliTest {
 protected:
  std::vector<double> t_, F_;
  void write_data() {
    write("truth.toml", model(0.3));
    const CliResult r = run("run truth.toml --out truth --quiet --no-plot");
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string csv = bristle::test::read_text(dir_ / "truth" / "ss.csv");
    t_ = column(csv, "t_s");
    F_ = column(csv, "F_N");
    ASSERT_EQ(t_.size(), 201u);
    std::mt19937_64 rng(11);
    std::normal_distribution<double> noise(0.0, 0.005);
    std::string d = "t_s,F_N\n";
    for (std::size_t i = 0; i < t_.size(); ++i) {
      F_[i] += noise(rng);
      d += fmt::format("{},{}\n", t_[i], F_[i]);
    }
    write("d.csv", d);
  }
};

TEST_F(FitStructureCli, FitsWritesTheFourFilesAndTheFittedScenarioReproducesTheFit) {
  write_data();
  write("ss.toml", model(0.3) + kFit);
  const CliResult r = run("fit ss.toml --out out");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* f : {"ss_fit.json", "ss_fit.csv", "ss_fit.png", "ss_fitted.toml"})
    EXPECT_TRUE(fs::exists(dir_ / "out" / f)) << f;
  const std::string json = bristle::test::read_text(dir_ / "out" / "ss_fit.json");
  EXPECT_NE(json.find("\"converged\": true"), std::string::npos) << json;
  EXPECT_NE(json.find("\"kind\": \"structure_stick_slip\""), std::string::npos) << json;
  // law.mu_d, a key of the contact: the exact Jacobian (structures::StickSlipSensitivity)
  EXPECT_NE(json.find("\"jacobian\": \"sensitivities\""), std::string::npos) << json;
  const double rms = bristle::test::fit::json_number(json, "rms_N");
  EXPECT_NEAR(rms, 0.005, 0.001);
  EXPECT_NEAR(bristle::test::fit::json_number(json, "value"), 0.3, 0.01);
  const std::string csv = bristle::test::read_text(dir_ / "out" / "ss_fit.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "t_s,F_N_measured,F_N_fitted,F_N_residual");

  const CliResult again = run("run out/ss_fitted.toml --out rerun --quiet --no-plot");
  ASSERT_EQ(again.code, 0) << again.err;
  const std::string rerun = bristle::test::read_text(dir_ / "rerun" / "ss_fitted.csv");
  const std::vector<double> t = column(rerun, "t_s"), F = column(rerun, "F_N");
  ASSERT_EQ(t.size(), t_.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    EXPECT_NEAR(t[i], t_[i], 1e-9);
    sum += (F[i] - F_[i]) * (F[i] - F_[i]);
  }
  EXPECT_NEAR(std::sqrt(sum / static_cast<double>(t.size())), rms, 1e-6 * rms);
  const CliResult check = run("check ss.toml");
  EXPECT_EQ(check.code, 0) << check.err;
  EXPECT_NE(check.out.find("1 parameter(s) (law.mu_d) to F_N over 1 experiment(s), 201 samples"), std::string::npos)
      << check.out;
  const CliResult refused = run("run ss.toml --out r2");
  EXPECT_EQ(refused.code, 2) << refused.err;
}

TEST_F(FitStructureCli, TheExampleChecks) {
  const fs::path example = fs::path(BRISTLE_SOURCE_DIR) / "examples" / "fit_structure_stick_slip.toml";
  const CliResult check = run(fmt::format("check '{}'", example.string()));
  EXPECT_EQ(check.code, 0) << check.err;
  EXPECT_NE(check.out.find("4 parameter(s) (law.mu_d, law.mu_s, law.v_s, structure.damping_ratio) to F_N, w_m over 1 "
                           "experiment(s), 401 samples"),
            std::string::npos)
      << check.out;
}

struct BadStructureFit {
  const char* label;
  std::string from, to;
  const char* in_message;
};

class FitStructureCliBadInput : public bristle::test::CliTest, public ::testing::WithParamInterface<BadStructureFit> {};

TEST_P(FitStructureCliBadInput, ExitsWith2NamingTheKeyAndWritesNothing) {
  const BadStructureFit& bad = GetParam();
  write("d.csv", "t_s,F_N\n0,0\n0.1,0.2\n0.2,0.4\n0.3,0.45\n0.4,0.5\n");
  write("nan.csv", "t_s,F_N\n0,0\n0.1,0.2\n0.2,nan\n0.3,0.45\n0.4,0.5\n");
  write("long.csv", "t_s,F_N\n0,0\n0.1,0.2\n0.2,0.4\n0.3,0.45\n1e8,0.5\n");
  std::string fit = kFit;
  const std::size_t at = fit.find(bad.from);
  ASSERT_NE(at, std::string::npos) << bad.from;
  fit.replace(at, bad.from.size(), bad.to);
  write("bad.toml", model(0.3) + fit);
  bristle::test::fit::expect_bad_input(run("fit bad.toml --out out"), bad.in_message, dir_ / "out");
}

INSTANTIATE_TEST_SUITE_P(
    AllCases, FitStructureCliBadInput,
    ::testing::Values(
        BadStructureFit{"target_not_an_output", "F_N = \"F_N\"", "x_m = \"F_N\"",
                        "fit.targets.x_m: the model does not output a column \"x_m\" (outputs of structure_stick_slip: "},
        BadStructureFit{"no_such_column", "F_N = \"F_N\"", "F_N = \"Fy\"", "fit.targets.F_N = \"Fy\": "},
        BadStructureFit{"nan_cell", "data = \"d.csv\"", "data = \"nan.csv\"", "nan.csv:4:2"},
        BadStructureFit{"missing_data", "data = \"d.csv\"", "data = \"none.csv\"", "fit.data = \"none.csv\""},
        BadStructureFit{"parameter_does_not_apply", "\"law.mu_d\"", "\"friction.mu_d\"",
                        "fit.parameters.\"friction.mu_d\": key \"friction.mu_d\" does not apply to a dynamic [law]"},
        // The window's end becomes run.t_end_s: the reader's message named only that, a value the file does not
        // write (it writes t_end_s = 2), so it now says where it came from.
        BadStructureFit{"data_too_long_for_the_step", "data = \"d.csv\"", "data = \"long.csv\"",
                        "the times of \"long.csv\" (no fit.window_s) set run.t_end_s = 100000000 (the run covers the "
                        "window's 5 data rows): run.t_end_s = 100000000: more than 1000000000 steps of run.dt_s = "
                        "0.001"},
        BadStructureFit{"window_too_long_for_the_step", "data = \"d.csv\"",
                        "data = \"long.csv\"\nwindow_s = [0.0, 1e8]",
                        "fit.window_s = [0, 100000000] sets run.t_end_s = 100000000 (the run covers the window's 5 data "
                        "rows): run.t_end_s = 100000000: more than"},
        BadStructureFit{"initial_state_not_rest", "time_column", "initial_state = \"steady\"\ntime_column",
                        "fit.initial_state = \"steady\": kind = \"structure_stick_slip\" starts from the structure at "
                        "rest"}),
    [](const ::testing::TestParamInfo<BadStructureFit>& info) { return std::string(info.param.label); });

}  // namespace
