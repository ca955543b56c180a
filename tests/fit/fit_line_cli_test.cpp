// `bristle fit` of kind = "line_steady" and "line_transient" scenarios: the four outputs, the fitted scenario
// reproducing the fit's RMS under `bristle run`, `bristle check`, and bad input (exit 2, the key or file:line named,
// nothing written), one case each.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "fit_fixtures.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using bristle::test::CliResult;

// FrBD on a soft elastic block over a one-branch GKV substrate (eq. 58), as tests/fit/fit_line_test.cpp.
std::string model(const std::string& kind, double mu_d, double k0) {
  return fmt::format(R"(name = "line"
kind = "{}"
[law]
type = "frbd"
mu_s = 1.0
mu_d = {}
v_s = 6.0
delta_s = 2.0
[body1]
type = "elastic"
k0 = {}
[body2]
type = "gkv"
c = "eq58"
tau = [0.05]
[pair]
s = 0.4
[line]
L_m = 0.1
normal_load_N = 10.0
)",
                     kind, mu_d, k0);
}

const char* const kParameters = R"([fit.parameters]
"law.mu_d" = { initial = 0.85, min = 0.3, max = 1.5 }
"body1.k0" = { initial = 40.0, min = 5.0, max = 500.0, scale = "log" }
)";
const std::string kSteadyFit = std::string(R"([kinematics]
mode = "sliding"
V_mps = 1.0
[fit]
data = "d.csv"
grid_column = "V_mps"
[fit.targets]
Fx_N = "Fx_N"
)") + kParameters;
const std::string kTransientFit = std::string(R"(cells = 20
[kinematics]
mode = "sliding"
Vx = { type = "sine", amplitude = 0.5, omega = 4.0, offset = 0.6 }
[time]
t_end_s = 1.0
[fit]
data = "d.csv"
time_column = "t_s"
window_s = [0.0, 1.5]
[fit.targets]
Fx_N = "Fx_N"
)") + kParameters;

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

class FitLineCli : public bristle::test::CliTest {
 protected:
  std::vector<double> x_, F_;
  /// d.csv: `bristle run` of the truth (mu_d = 0.7, k0 = 30) plus noise of 0.02 N; `axis` the grid or time column.
  void write_data(const std::string& truth_tail, const std::string& axis) {
    const std::string kind = axis == "t_s" ? "line_transient" : "line_steady";
    write("truth.toml", model(kind, 0.7, 30.0) + truth_tail);
    const CliResult r = run("run truth.toml --out truth --quiet --no-plot");
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string csv = bristle::test::read_text(dir_ / "truth" / "line.csv");
    x_ = column(csv, axis);
    F_ = column(csv, "Fx_N");
    std::mt19937_64 rng(7);
    std::normal_distribution<double> noise(0.0, 0.02);
    std::string d = axis + ",Fx_N\n";
    for (std::size_t i = 0; i < x_.size(); ++i) {
      F_[i] += noise(rng);
      d += fmt::format("{},{}\n", x_[i], F_[i]);
    }
    write("d.csv", d);
  }
};

TEST_F(FitLineCli, SteadyFitsWritesTheFourFilesAndTheFittedMapReproducesTheFit) {
  write_data("[kinematics]\nmode = \"sliding\"\nV_mps = { from = 0.05, to = 30.0, points = 15, spacing = \"log\" }\n",
             "V_mps");
  write("line.toml", model("line_steady", 0.7, 30.0) + kSteadyFit);
  const CliResult r = run("fit line.toml --out out");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* f : {"line_fit.json", "line_fit.csv", "line_fit.png", "line_fitted.toml"})
    EXPECT_TRUE(fs::exists(dir_ / "out" / f)) << f;
  const std::string json = bristle::test::read_text(dir_ / "out" / "line_fit.json");
  EXPECT_NE(json.find("\"converged\": true"), std::string::npos) << json;
  EXPECT_NE(json.find("\"kind\": \"line_steady\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"grid_column\": \"V_mps\""), std::string::npos) << json;
  EXPECT_NEAR(bristle::test::fit::json_number(json, "value", json.find("\"law.mu_d\"")), 0.7, 0.035);
  const double rms = bristle::test::fit::json_number(json, "rms_N");
  EXPECT_NEAR(rms, 0.02, 0.01);
  const std::string csv = bristle::test::read_text(dir_ / "out" / "line_fit.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "V_mps,Fx_N_measured,Fx_N_fitted,Fx_N_residual");

  // The fitted scenario's map at the data's speeds: the fit's RMS.
  const CliResult again = run("run out/line_fitted.toml --out rerun --quiet --no-plot");
  ASSERT_EQ(again.code, 0) << again.err;
  const std::string rerun = bristle::test::read_text(dir_ / "rerun" / "line_fitted.csv");
  const std::vector<double> V = column(rerun, "V_mps"), F = column(rerun, "Fx_N");
  ASSERT_EQ(V.size(), x_.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < V.size(); ++i) {
    EXPECT_NEAR(V[i], x_[i], 1e-12 * x_[i]);
    sum += (F[i] - F_[i]) * (F[i] - F_[i]);
  }
  EXPECT_NEAR(std::sqrt(sum / static_cast<double>(V.size())), rms, 1e-6 * rms);
  const CliResult check = run("check line.toml");
  EXPECT_EQ(check.code, 0) << check.err;
  EXPECT_NE(check.out.find("2 parameter(s) (body1.k0, law.mu_d) to Fx_N over 1 experiment(s), 15 rows of V_mps"),
            std::string::npos)
      << check.out;
}

// numeric_keys lists a single-branch list by its bare name (body2.tau for tau = [0.05]), and get/set take it so: the
// fit took it too. It was refused as "not a numeric key: the scenario has body2.tau = [0.05]". The fitted value is
// written into the file's list, which reads back.
TEST_F(FitLineCli, FitsASingleBranchListByItsBareNameAndWritesItIntoTheList) {
  write_data("[kinematics]\nmode = \"sliding\"\nV_mps = { from = 0.05, to = 30.0, points = 15, spacing = \"log\" }\n",
             "V_mps");
  const std::string parameters = R"([fit.parameters]
"law.mu_d" = { initial = 0.85, min = 0.3, max = 1.5 }
"body2.tau" = { initial = 0.1, min = 0.005, max = 1.0, scale = "log" }
)";
  write("line.toml", model("line_steady", 0.7, 30.0) + kSteadyFit.substr(0, kSteadyFit.find("[fit.parameters]")) +
                         parameters);
  const CliResult r = run("fit line.toml --out out --quiet --no-plot");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string json = bristle::test::read_text(dir_ / "out" / "line_fit.json");
  EXPECT_NE(json.find("\"converged\": true"), std::string::npos) << json;
  EXPECT_NEAR(bristle::test::fit::json_number(json, "value", json.find("\"body2.tau\"")), 0.05, 0.01) << json;
  const std::string fitted = bristle::test::read_text(dir_ / "out" / "line_fitted.toml");
  const std::string body2 = fitted.substr(fitted.find("[body2]"));
  EXPECT_EQ(body2.find("tau = ["), body2.find("tau")) << fitted;  // still a list of one
  const CliResult again = run("check out/line_fitted.toml");
  EXPECT_EQ(again.code, 0) << again.err;
}

TEST_F(FitLineCli, TransientFitsWritesTheFourFilesAndTheFittedScenarioReproducesTheFit) {
  write_data("cells = 20\n[kinematics]\nmode = \"sliding\"\nVx = { type = \"sine\", amplitude = 0.5, omega = 4.0, "
             "offset = 0.6 }\n[time]\nt_end_s = 1.5\noutputs = 31\n",
             "t_s");
  write("line.toml", model("line_transient", 0.7, 30.0) + kTransientFit);
  const CliResult r = run("fit line.toml --out out");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* f : {"line_fit.json", "line_fit.csv", "line_fit.png", "line_fitted.toml"})
    EXPECT_TRUE(fs::exists(dir_ / "out" / f)) << f;
  const std::string json = bristle::test::read_text(dir_ / "out" / "line_fit.json");
  EXPECT_NE(json.find("\"converged\": true"), std::string::npos) << json;
  EXPECT_NE(json.find("\"kind\": \"line_transient\""), std::string::npos) << json;
  // law.mu_d and body1.k0 (with pair.s): the exact Jacobian (transport::LineSensitivity)
  EXPECT_NE(json.find("\"jacobian\": \"sensitivities\""), std::string::npos) << json;
  const double rms = bristle::test::fit::json_number(json, "rms_N");
  EXPECT_NEAR(rms, 0.02, 0.01);
  const CliResult again = run("run out/line_fitted.toml --out rerun --quiet --no-plot");
  ASSERT_EQ(again.code, 0) << again.err;
  const std::string rerun = bristle::test::read_text(dir_ / "rerun" / "line_fitted.csv");
  const std::vector<double> t = column(rerun, "t_s"), F = column(rerun, "Fx_N");
  ASSERT_EQ(t.size(), x_.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    EXPECT_NEAR(t[i], x_[i], 1e-12);
    sum += (F[i] - F_[i]) * (F[i] - F_[i]);
  }
  EXPECT_NEAR(std::sqrt(sum / static_cast<double>(t.size())), rms, 1e-6 * rms);
}

struct BadLineFit {
  const char* label;
  bool transient;
  std::string from, to;
  const char* in_message;
};

class FitLineCliBadInput : public bristle::test::CliTest, public ::testing::WithParamInterface<BadLineFit> {};

TEST_P(FitLineCliBadInput, ExitsWith2NamingTheKeyAndWritesNothing) {
  const BadLineFit& bad = GetParam();
  if (bad.transient) {
    write("d.csv", "t_s,Fx_N\n0,0\n0.5,-5\n1.0,-6\n1.5,-6.5\n");
    write("dec.csv", "t_s,Fx_N\n0,0\n1.0,-5\n0.5,-6\n1.5,-6.5\n");
    write("nan.csv", "t_s,Fx_N\n0,0\n0.5,nan\n1.0,-6\n1.5,-6.5\n");
  } else {
    write("d.csv", "V_mps,Fx_N\n0.1,-6\n1.0,-6.2\n10.0,-5.5\n");
    write("nan.csv", "V_mps,Fx_N\n0.1,-6\n1.0,nan\n10.0,-5.5\n");
    write("neg.csv", "V_mps,Fx_N\n0.1,-6\n-1.0,-6.2\n10.0,-5.5\n");
  }
  std::string fit = bad.transient ? kTransientFit : kSteadyFit;
  const std::size_t at = fit.find(bad.from);
  ASSERT_NE(at, std::string::npos) << bad.from;
  fit.replace(at, bad.from.size(), bad.to);
  write("bad.toml", model(bad.transient ? "line_transient" : "line_steady", 0.7, 30.0) + fit);
  bristle::test::fit::expect_bad_input(run("fit bad.toml --out out"), bad.in_message, dir_ / "out");
  bristle::test::fit::expect_bad_input(run("check bad.toml"), bad.in_message, dir_ / "out");
}

INSTANTIATE_TEST_SUITE_P(
    AllCases, FitLineCliBadInput,
    ::testing::Values(
        BadLineFit{"steady_missing_data", false, "data = \"d.csv\"", "data = \"none.csv\"",
                   "fit.data = \"none.csv\": cannot read "},
        BadLineFit{"steady_no_such_column", false, "Fx_N = \"Fx_N\"", "Fx_N = \"Fx\"", "fit.targets.Fx_N = \"Fx\": "},
        BadLineFit{"steady_nan_cell", false, "data = \"d.csv\"", "data = \"nan.csv\"",
                   "nan.csv:3:2: \"nan\" is not a number (column \"Fx_N\")"},
        BadLineFit{"steady_grid_column_of_the_other_mode", false, "grid_column = \"V_mps\"", "grid_column = \"vx_mps\"",
                   "fit.grid_column = \"vx_mps\": must be a kinematics axis: V_mps"},
        BadLineFit{"steady_negative_speed_row", false, "data = \"d.csv\"", "data = \"neg.csv\"",
                   "neg.csv:3:1: V_mps = -1 is not an operating point of the map: kinematics.V_mps"},
        BadLineFit{"steady_time_column", false, "grid_column", "time_column = \"t_s\"\ngrid_column",
                   "fit.time_column: does not apply to kind = \"line_steady\""},
        BadLineFit{"steady_target_not_an_output", false, "Fx_N = \"Fx_N\"", "Fy_N = \"Fx_N\"",
                   "fit.targets.Fy_N: the model does not output a column \"Fy_N\" (outputs of line_steady: Fx_N, "
                   "Fx_abs_N, Fx_norm, Fx_norm_abs, mu)"},
        BadLineFit{"steady_unknown_key_path", false, "\"law.mu_d\"", "\"law.mu_z\"",
                   "fit.parameters.\"law.mu_z\": unknown key \"law.mu_z\""},
        BadLineFit{"steady_min_not_below_max", false, "min = 0.3, max = 1.5", "min = 1.5, max = 1.5",
                   "fit.parameters.\"law.mu_d\".min = 1.5: must be < max = 1.5"},
        BadLineFit{"steady_initial_outside_bounds", false, "initial = 0.85", "initial = 3",
                   "fit.parameters.\"law.mu_d\".initial = 3: must lie in [min, max] = [0.3, 1.5]"},
        BadLineFit{"steady_parameter_listed_twice", false, "[fit.parameters]\n",
                   "[fit.parameters]\nlaw.mu_d = { initial = 0.8, min = 0.1, max = 1.0 }\n",
                   "fit.parameters.\"law.mu_d\": listed twice"},
        BadLineFit{"steady_too_few_rows", false, "\"body1.k0\"",
                   "\"law.mu_s\" = { initial = 1.0, min = 0.5, max = 2.0 }\n\"body1.k0\"",
                   "has 3 data row(s); fitting 3 parameter(s) needs more residuals than parameters"},
        BadLineFit{"transient_non_increasing_times", true, "data = \"d.csv\"", "data = \"dec.csv\"",
                   "dec.csv:4:1: time 0.5 is not greater than the previous time 1"},
        BadLineFit{"transient_nan_cell", true, "data = \"d.csv\"", "data = \"nan.csv\"",
                   "nan.csv:3:2: \"nan\" is not a number (column \"Fx_N\")"},
        BadLineFit{"transient_window_outside_data", true, "window_s = [0.0, 1.5]", "window_s = [0.0, 2.0]",
                   "fit.window_s = [0, 2]: outside the data's times [0, 1.5]"},
        BadLineFit{"transient_initial_state_not_rest", true, "window_s", "initial_state = \"steady\"\nwindow_s",
                   "fit.initial_state = \"steady\": kind = \"line_transient\" starts from the unloaded contact"},
        BadLineFit{"transient_target_not_an_output", true, "Fx_N = \"Fx_N\"", "Mz_Nm = \"Fx_N\"",
                   "fit.targets.Mz_Nm: the model does not output a column \"Mz_Nm\" (outputs of line_transient: "},
        BadLineFit{"transient_unknown_key_path", true, "\"law.mu_d\"", "\"line.L_mm\"",
                   "fit.parameters.\"line.L_mm\": unknown key \"line.L_mm\"; did you mean \"line.L_m\"?"},
        // A step or a Courant number is the method's, not the model's (schema::Field::numerics): fitted, it went to
        // a bound as integrator.dt_s did (helper-48).
        BadLineFit{"transient_numerics_key", true, "\"law.mu_d\"", "\"line.cfl\"",
                   "fit.parameters.\"line.cfl\": line.cfl is a setting of the numerical method (Courant number of "
                   "the automatic step), not a model parameter; set it in the scenario"}),
    [](const ::testing::TestParamInfo<BadLineFit>& info) { return std::string(info.param.label); });

}  // namespace
