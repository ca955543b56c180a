// `bristle fit` of a kind = "patch_transient" scenario: the four outputs, the fitted scenario reproducing the fit's
// RMS under `bristle run`, and bad input of the kind (exit 2, the key or file:line named, nothing written).
#include <fmt/format.h>
#include <gtest/gtest.h>

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

// A coarse patch (20 x 4) rolling at 16 m/s from rest with v_y = 1.5 sin(300 t); FrBD of paper 1, Table 2.
std::string model(double mu_d, double k0) {
  return fmt::format(R"(name = "tr"
kind = "patch_transient"
[law]
type = "frbd"
mu_s = 1.2
mu_d = {}
v_s = 3.49
delta_s = 0.6
eps = 1e-12
[body1]
type = "elastic"
k0 = {}
[patch]
shape = "rectangle"
length_m = 0.1
width_m = 0.05
pressure = "uniform"
normal_load_N = 3000.0
nx = 20
ny = 4
[kinematics]
mode = "rolling"
Vr_mps = 16.0
vy_mps = {{ type = "sine", amplitude = 1.5, omega = 300.0 }}
[time]
t_end_s = 0.012
output_dt_s = 0.0005
)",
                     mu_d, k0);
}

const char* const kFit = R"(
[fit]
data = "d.csv"
time_column = "t_s"
window_s = [0.0, 0.012]
[fit.targets]
Fy_N = "Fy_N"
[fit.parameters]
"law.mu_d" = { initial = 0.85, min = 0.3, max = 1.1 }
"body1.k0" = { initial = 180.0, min = 50.0, max = 2000.0, scale = "log" }
)";

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::istringstream s(line);
  std::string c;
  while (std::getline(s, c, ',')) cells.push_back(c);
  return cells;
}

/// Column `name` of a CSV text.
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

class FitPatchTransientCli : public bristle::test::CliTest {
 protected:
  std::vector<double> t_, Fy_;
  void write_data() {
    write("truth.toml", model(0.7, 240.0));
    const CliResult r = run("run truth.toml --out truth --quiet --no-plot");
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string csv = bristle::test::read_text(dir_ / "truth" / "tr.csv");
    t_ = column(csv, "t_s");
    Fy_ = column(csv, "Fy_N");
    ASSERT_EQ(t_.size(), 25u);
    std::mt19937_64 rng(5);
    std::normal_distribution<double> noise(0.0, 10.0);
    std::string d = "t_s,Fy_N\n";
    for (std::size_t i = 0; i < t_.size(); ++i) {
      Fy_[i] += noise(rng);
      d += fmt::format("{},{}\n", t_[i], Fy_[i]);
    }
    write("d.csv", d);
  }
};

TEST_F(FitPatchTransientCli, FitsWritesTheFourFilesAndTheFittedScenarioReproducesTheFit) {
  write_data();
  write("tr.toml", model(0.7, 240.0) + kFit);
  const CliResult r = run("fit tr.toml --out out");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* f : {"tr_fit.json", "tr_fit.csv", "tr_fit.png", "tr_fitted.toml"})
    EXPECT_TRUE(fs::exists(dir_ / "out" / f)) << f;
  const std::string json = bristle::test::read_text(dir_ / "out" / "tr_fit.json");
  EXPECT_NE(json.find("\"converged\": true"), std::string::npos) << json;
  EXPECT_NE(json.find("\"jacobian\": \"sensitivities\""), std::string::npos) << json;  // law and body keys
  const double rms = bristle::test::fit::json_number(json, "rms_N");
  EXPECT_NEAR(rms, 10.0, 4.5);
  const std::string csv = bristle::test::read_text(dir_ / "out" / "tr_fit.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "t_s,Fy_N_measured,Fy_N_fitted,Fy_N_residual");

  const CliResult again = run("run out/tr_fitted.toml --out rerun --quiet --no-plot");
  ASSERT_EQ(again.code, 0) << again.err;
  const std::string rerun = bristle::test::read_text(dir_ / "rerun" / "tr_fitted.csv");
  const std::vector<double> t = column(rerun, "t_s"), Fy = column(rerun, "Fy_N");
  ASSERT_EQ(t.size(), t_.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    EXPECT_NEAR(t[i], t_[i], 1e-12);
    sum += (Fy[i] - Fy_[i]) * (Fy[i] - Fy_[i]);
  }
  EXPECT_NEAR(std::sqrt(sum / static_cast<double>(t.size())), rms, 1e-6 * rms);
  const CliResult check = run("check tr.toml");
  EXPECT_EQ(check.code, 0) << check.err;
  EXPECT_NE(check.out.find("2 parameter(s) (body1.k0, law.mu_d) to Fy_N over 1 experiment(s), 25 samples"),
            std::string::npos)
      << check.out;
}

struct BadTransientFit {
  const char* label;
  std::string from, to;
  const char* in_message;
};

class FitPatchTransientCliBadInput : public bristle::test::CliTest,
                                     public ::testing::WithParamInterface<BadTransientFit> {};

TEST_P(FitPatchTransientCliBadInput, ExitsWith2NamingTheKeyAndWritesNothing) {
  const BadTransientFit& bad = GetParam();
  write("d.csv", "t_s,Fy_N\n0,0\n0.004,-500\n0.008,-900\n0.012,-1000\n");
  write("dec.csv", "t_s,Fy_N\n0,0\n0.008,-500\n0.004,-900\n0.012,-1000\n");
  std::string fit = kFit;
  const std::size_t at = fit.find(bad.from);
  ASSERT_NE(at, std::string::npos) << bad.from;
  fit.replace(at, bad.from.size(), bad.to);
  write("bad.toml", model(0.7, 240.0) + fit);
  bristle::test::fit::expect_bad_input(run("fit bad.toml --out out"), bad.in_message, dir_ / "out");
}

INSTANTIATE_TEST_SUITE_P(
    AllCases, FitPatchTransientCliBadInput,
    ::testing::Values(
        BadTransientFit{"target_not_an_output", "Fy_N = \"Fy_N\"", "F_N = \"Fy_N\"",
                        "fit.targets.F_N: the model does not output a column \"F_N\" (outputs of patch_transient: "},
        BadTransientFit{"no_such_column", "Fy_N = \"Fy_N\"", "Fy_N = \"Fy\"", "fit.targets.Fy_N = \"Fy\": "},
        BadTransientFit{"non_increasing_times", "data = \"d.csv\"", "data = \"dec.csv\"",
                        "dec.csv:4:1: time 0.004 is not greater than the previous time 0.008"},
        BadTransientFit{"window_outside_data", "window_s = [0.0, 0.012]", "window_s = [0.0, 0.02]",
                        "fit.window_s = [0, 0.02]: outside the data's times [0, 0.012]"},
        BadTransientFit{"too_few_samples", "window_s = [0.0, 0.012]", "window_s = [0.0, 0.005]",
                        "fit.window_s: the window holds 2 sample(s)"},
        BadTransientFit{"initial_state_not_rest", "window_s", "initial_state = \"steady\"\nwindow_s",
                        "fit.initial_state = \"steady\": kind = \"patch_transient\" starts from the unloaded contact"},
        BadTransientFit{"unknown_key_path", "\"law.mu_d\"", "\"law.mu_z\"",
                        "fit.parameters.\"law.mu_z\": unknown key \"law.mu_z\""}),
    [](const ::testing::TestParamInfo<BadTransientFit>& info) { return std::string(info.param.label); });

}  // namespace
