// `bristle fit` of a kind = "patch_steady_map" scenario: the [fit] table with fit.grid_column, the four outputs,
// the fitted scenario reproducing the fit's RMS under `bristle run`, and the bad input of the steady kinds (exit 2,
// the key or file:line named, nothing written).
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

// A coarse patch (20 x 4 cells), FrBD law of paper 1, Table 2, elastic roller k0 on a rigid ground.
std::string model(double mu_d, double k0) {
  return fmt::format(R"(name = "map"
kind = "patch_steady_map"
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
Vr_mps = 16.0
)",
                     mu_d, k0);
}

const char* const kFit = R"(slip_angle_deg = 0.0
[fit]
data = "d.csv"
grid_column = "slip_angle_deg"
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

class FitSteadyMapCli : public bristle::test::CliTest {
 protected:
  /// d.csv: the truth's map (mu_d = 0.7, k0 = 240) from `bristle run` at 17 slip angles, plus noise of 10 N.
  void write_data() {
    write("truth.toml", model(0.7, 240.0) + "slip_angle_deg = { from = -8.0, to = 8.0, points = 17 }\n");
    const CliResult r = run("run truth.toml --out truth --quiet --no-plot");
    ASSERT_EQ(r.code, 0) << r.err;
    std::istringstream in(bristle::test::read_text(dir_ / "truth" / "map.csv"));
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> header = split(line);
    ASSERT_EQ(header.size(), 4u) << line;
    ASSERT_EQ(header[0], "slip_angle_deg");
    ASSERT_EQ(header[2], "Fy_N");
    std::mt19937_64 rng(3);
    std::normal_distribution<double> noise(0.0, 10.0);
    // The rows in reverse order and one repeated: rows are matched on the grid, not on their order.
    std::vector<std::string> rows;
    while (std::getline(in, line)) {
      const std::vector<std::string> c = split(line);
      rows.insert(rows.begin(), fmt::format("{},{}", c[0], std::stod(c[2]) + noise(rng)));
    }
    rows.push_back(fmt::format("{},{}", split(rows.front())[0], std::stod(split(rows.front())[1]) + noise(rng)));
    std::string csv = "slip_angle_deg,Fy_N\n";
    for (const auto& r2 : rows) csv += r2 + "\n";
    write("d.csv", csv);
  }
};

TEST_F(FitSteadyMapCli, FitsWritesTheFourFilesAndTheFittedMapReproducesTheFit) {
  write_data();
  write("map.toml", model(0.7, 240.0) + kFit);
  const CliResult r = run("fit map.toml --out out");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* f : {"map_fit.json", "map_fit.csv", "map_fit.png", "map_fitted.toml"})
    EXPECT_TRUE(fs::exists(dir_ / "out" / f)) << f;
  const std::string json = bristle::test::read_text(dir_ / "out" / "map_fit.json");
  EXPECT_NE(json.find("\"converged\": true"), std::string::npos) << json;
  EXPECT_NE(json.find("\"jacobian\": \"sensitivities\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"grid_column\": \"slip_angle_deg\""), std::string::npos) << json;
  const double rms = bristle::test::fit::json_number(json, "rms_N");
  EXPECT_NEAR(rms, 10.0, 4.5);
  const std::string csv = bristle::test::read_text(dir_ / "out" / "map_fit.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "slip_angle_deg,Fy_N_measured,Fy_N_fitted,Fy_N_residual");

  // The fitted scenario's map at the data's 17 distinct slip angles against the 18 data rows: the fit's RMS.
  const CliResult again = run("run out/map_fitted.toml --out rerun --quiet --no-plot");
  ASSERT_EQ(again.code, 0) << again.err;
  std::istringstream fitted(bristle::test::read_text(dir_ / "rerun" / "map_fitted.csv"));
  std::string line;
  std::getline(fitted, line);
  std::vector<std::pair<double, double>> curve;
  while (std::getline(fitted, line)) curve.emplace_back(std::stod(split(line)[0]), std::stod(split(line)[2]));
  EXPECT_EQ(curve.size(), 17u);
  std::istringstream data(bristle::test::read_text(dir_ / "d.csv"));
  std::getline(data, line);
  double sum = 0.0;
  int n = 0;
  while (std::getline(data, line)) {
    const double a = std::stod(split(line)[0]), d = std::stod(split(line)[1]);
    for (const auto& [alpha, Fy] : curve)
      if (alpha == a) {
        sum += (Fy - d) * (Fy - d);
        ++n;
      }
  }
  EXPECT_EQ(n, 18);
  EXPECT_NEAR(std::sqrt(sum / n), rms, 1e-6 * rms);

  const CliResult check = run("check map.toml");
  EXPECT_EQ(check.code, 0) << check.err;
  EXPECT_NE(check.out.find("2 parameter(s) (body1.k0, law.mu_d) to Fy_N over 1 experiment(s), 18 rows of "
                           "slip_angle_deg"),
            std::string::npos)
      << check.out;
}

struct BadMapFit {
  const char* label;
  std::string from, to;  // a replacement in kFit
  const char* in_message;
};

std::vector<BadMapFit> bad_map_fits() {
  return {
      {"no_such_target_column", "Fy_N = \"Fy_N\"", "Fy_N = \"Fy\"", "fit.targets.Fy_N = \"Fy\": "},
      {"no_such_grid_column", "grid_column = \"slip_angle_deg\"\n", "grid_column = \"spin_radps\"\n",
       "fit.grid_column = \"spin_radps\": "},
      {"grid_not_an_axis", "grid_column = \"slip_angle_deg\"", "grid_column = \"alpha\"",
       "fit.grid_column = \"alpha\": must be a kinematics axis: slip_angle_deg, vy_mps, vx_mps, spin_radps"},
      {"grid_value_outside_the_map", "data = \"d.csv\"", "data = \"far.csv\"",
       "far.csv:3:1: slip_angle_deg = 95 is not an operating point of the map: kinematics.slip_angle_deg = 95: "
       "must be in (-89, 89)"},
      {"target_not_an_output", "Fy_N = \"Fy_N\"", "F_N = \"Fy_N\"",
       "fit.targets.F_N: the model does not output a column \"F_N\" (outputs of patch_steady_map: Fx_N, Fy_N, "
       "Mz_Nm, Mz_no_phi_Nm)"},
      {"fewer_rows_than_parameters", "data = \"d.csv\"", "data = \"two.csv\"",
       "two.csv has 2 data row(s); fitting 2 parameter(s) needs more residuals than parameters"},
      {"time_column_of_a_steady_kind", "grid_column", "time_column = \"t_s\"\ngrid_column",
       "fit.time_column: does not apply to kind = \"patch_steady_map\" (a steady map has no time"},
      {"missing_data", "data = \"d.csv\"", "data = \"none.csv\"", "fit.data = \"none.csv\": cannot read "},
      {"nan_cell", "data = \"d.csv\"", "data = \"nan.csv\"", "nan.csv:3:2: \"nan\" is not a number (column \"Fy_N\")"},
      {"unknown_key_path", "\"law.mu_d\"", "\"law.mu_z\"", "fit.parameters.\"law.mu_z\": unknown key \"law.mu_z\""},
      {"initial_outside_bounds", "initial = 0.85", "initial = 3",
       "fit.parameters.\"law.mu_d\".initial = 3: must lie in [min, max] = [0.3, 1.1]"},
      {"lateral_axis_mismatch", "grid_column = \"slip_angle_deg\"", "grid_column = \"vy_mps\"",
       "fit.grid_column = \"vy_mps\": the scenario gives the lateral axis as kinematics.slip_angle_deg"},
  };
}

class FitSteadyMapCliBadInput : public bristle::test::CliTest, public ::testing::WithParamInterface<BadMapFit> {};

TEST_P(FitSteadyMapCliBadInput, ExitsWith2NamingTheKeyAndWritesNothing) {
  const BadMapFit& bad = GetParam();
  write("d.csv", "slip_angle_deg,Fy_N\n-2,800\n-1,400\n0,0\n1,-400\n2,-800\n");
  write("far.csv", "slip_angle_deg,Fy_N\n-2,800\n95,0\n1,-400\n");
  write("two.csv", "slip_angle_deg,Fy_N\n-1,400\n1,-400\n");
  write("nan.csv", "slip_angle_deg,Fy_N\n-1,400\n0,nan\n1,-400\n");
  std::string fit = kFit;
  const std::size_t at = fit.find(bad.from);
  ASSERT_NE(at, std::string::npos) << bad.from;
  fit.replace(at, bad.from.size(), bad.to);
  write("bad.toml", model(0.7, 240.0) + fit);
  bristle::test::fit::expect_bad_input(run("fit bad.toml --out out"), bad.in_message, dir_ / "out");
}

INSTANTIATE_TEST_SUITE_P(AllCases, FitSteadyMapCliBadInput, ::testing::ValuesIn(bad_map_fits()),
                         [](const ::testing::TestParamInfo<BadMapFit>& info) { return std::string(info.param.label); });

}  // namespace
