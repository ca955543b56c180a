// kind = "patch_steady_map": parsing, bad input (clear error, nothing written), the examples' CSV.
#include <gtest/gtest.h>
#include <fmt/format.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/io/patch_scenario.hpp"

namespace bristle::io {
namespace {

namespace fs = std::filesystem;

const std::string kBase =
    "kind = \"patch_steady_map\"\n"
    "[law]\ntype = \"frbd\"\nmu_s = 1.2\nmu_d = 0.7\nv_s = 3.49\ndelta_s = 0.6\n"
    "[body1]\ntype = \"elastic\"\nk0 = 240.0\n"
    "[body2]\ntype = \"elastic\"\n"
    "[pair]\ns = 0.4\n";
const std::string kPatch =
    "[patch]\nlength_m = 0.1\nwidth_m = 0.05\nnormal_load_N = 3000.0\nnx = 40\nny = 8\n";
const std::string kKin = "[kinematics]\nVr_mps = 16.0\nvx_mps = [-1.0, 1.0]\n";

std::string error_of(const std::string& toml) {
  try {
    (void)parse_scenario_string(toml, "t");
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(no InvalidInput)";
}

TEST(PatchScenario, ParsesAndRunsAMap) {
  const auto sc = parse_scenario_string(kBase + kPatch +
                                            "[kinematics]\nVr_mps = 16.0\nslip_angle_deg = [-2.0, 2.0]\n"
                                            "spin_radps = [0.0, 5.0]\n[output]\ncolumns = [\"Mz_no_phi_Nm\"]\n",
                                        "t");
  EXPECT_EQ(sc->kind(), "patch_steady_map");
  EXPECT_EQ(sc->case_count(), 2u);
  const RunResult r = sc->run();
  ASSERT_EQ(r.cases.size(), 2u);
  EXPECT_EQ(r.sweep_column, "spin_radps");
  const TimeSeries& s = r.cases[0].series;
  EXPECT_EQ(s.names, (std::vector<std::string>{"slip_angle_deg", "Fx_N", "Fy_N", "Mz_Nm", "Mz_no_phi_Nm"}));
  // No spin: mirrored slip angles mirror F_y and M_z.
  EXPECT_NEAR(s.column("Fy_N")[0], -s.column("Fy_N")[1], 1e-9 * std::abs(s.column("Fy_N")[0]));
  EXPECT_NEAR(s.column("Mz_Nm")[0], -s.column("Mz_Nm")[1], 1e-9 * std::abs(s.column("Mz_Nm")[0]));
  EXPECT_GT(std::abs(s.column("Fy_N")[0]), 100.0);
}

TEST(PatchScenario, GridsAreReadAsInTheLineKinds) {
  // The operating-point axes share the line kinds' grid reader (number, list, { from, to, points, spacing }).
  const std::string grid = "[kinematics]\nVr_mps = 16.0\nvx_mps = { from = 0.01, to = 1.0, points = 3, spacing = ";
  EXPECT_EQ(error_of(kBase + kPatch + grid + "\"lin\" }\n"),
            "kinematics.vx_mps.spacing = \"lin\": unknown spacing (valid: linear, log); did you mean \"log\"?");
  EXPECT_EQ(error_of(kBase + kPatch + "[kinematics]\nVr_mps = 16.0\nvx_mps = { from = -1.0, to = 1.0, points = 3, "
                                      "spacing = \"log\" }\n"),
            "kinematics.vx_mps.from = -1: must be > 0 with kinematics.vx_mps.spacing = \"log\"");
  EXPECT_EQ(error_of(kBase + kPatch + "[kinematics]\nVr_mps = 16.0\nvx_mps = { from = 0.0, to = 1.0, points = 1 }\n"),
            "kinematics.vx_mps.points = 1: must be >= 2");
  EXPECT_EQ(error_of(kBase + kPatch + "[kinematics]\nVr_mps = 16.0\nvx_mps = []\n"),
            "kinematics.vx_mps = []: must list at least one value");
  // A log grid runs: 3 points 0.01, 0.1, 1 m/s.
  EXPECT_EQ(error_of(kBase + kPatch + grid + "\"log\" }\n"), "(no InvalidInput)");
}

TEST(PatchScenario, BadInputNamesTheKey) {
  EXPECT_EQ(error_of(kBase + "[patch]\nlength_m = 0.1\nwidth_m = 0.0\nnormal_load_N = 3000.0\n" + kKin),
            "patch.width_m = 0: must be > 0");
  EXPECT_EQ(error_of(kBase + kPatch + "peak_pressure_Pa = 1e5\n" + kKin),
            "patch.peak_pressure_Pa = 100000: the uniform pressure on this rectangle integrates to 500 N, not "
            "patch.normal_load_N = 3000 N (the pressure must integrate to the load; p_0 = 600000 Pa would)");
  EXPECT_EQ(error_of(kBase + kPatch + "[kinematics]\nVr_mps = 16.0\nvx_mps = nan\n"),
            "kinematics.vx_mps = nan: must be finite");
  EXPECT_EQ(error_of(kBase + kPatch + kKin + "vy_mps = 1.0\nslip_angle_deg = 1.0\n"),
            "kinematics.vy_mps and kinematics.slip_angle_deg: give one of them, not both");
  const std::string circle =
      "[patch]\nshape = \"ellipse\"\nlength_m = 0.1\nwidth_m = 0.1\nnormal_load_N = 3000.0\nnx = 8\nny = 8\n";
  EXPECT_EQ(error_of(kBase + circle + "[kinematics]\nVr_mps = 0.0\nspin_radps = 5.0\n")
                .rfind("kinematics (vx_mps = 0, vy_mps = 0, spin_radps = 5): the family f1 moves (max speed 0.15 "
                       "m/s) but has no leading edge",
                       0),
            0u);
  std::string indefinite = kBase;
  indefinite.replace(indefinite.find("k0 = 240.0"), 10, "k0 = [[240.0, 300.0], [300.0, 240.0]]");
  const std::string msg = error_of(indefinite + kPatch + kKin);
  EXPECT_NE(msg.find("body1.k0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("positive definite"), std::string::npos) << msg;
  EXPECT_EQ(error_of(kBase + kPatch + kKin + "[output]\ncolumns = [\"Mz\"]\n"),
            "output.columns[0] = \"Mz\": unknown column (valid: Mz_no_phi_Nm, W_J, P_supplied_W, P_dissipated_W, "
            "P_outflow_W, P_compression_W, P_residual_W, sweeps)");
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int run_cli(const fs::path& dir, const std::string& args) {
  const std::string command = fmt::format("cd '{}' && '{}' {} > .stdout 2> .stderr < /dev/null", dir.string(),
                                          BRISTLE_CLI_PATH, args);
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

fs::path temp_dir() {
  std::string pattern = (fs::temp_directory_path() / "bristle_patch_cli_XXXXXX").string();
  EXPECT_NE(mkdtemp(pattern.data()), nullptr);
  return pattern;
}

TEST(PatchScenario, CliBadInputWritesNothing) {
  const fs::path dir = temp_dir();
  std::ofstream(dir / "bad.toml") << kBase + kPatch + "peak_pressure_Pa = 1e5\n" + kKin;
  EXPECT_EQ(run_cli(dir, "run bad.toml --out out --quiet"), 2);
  EXPECT_NE(read(dir / ".stderr").find("patch.peak_pressure_Pa = 100000"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "out" / "bad.csv"));
  EXPECT_FALSE(fs::exists(dir / "out" / "bad.json"));
  fs::remove_all(dir);
}

TEST(PatchScenario, LongitudinalCreepExampleColumnsAndEq62) {
  const fs::path dir = temp_dir();
  const fs::path file = fs::path(BRISTLE_SOURCE_DIR) / "examples" / "patch_longitudinal_creep.toml";
  ASSERT_EQ(run_cli(dir, fmt::format("run '{}' --out out --quiet --no-plot", file.string())), 0)
      << read(dir / ".stderr");
  std::istringstream csv(read(dir / "out" / "patch_longitudinal_creep.csv"));
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header, "vx_mps,Fx_N,Fy_N,Mz_Nm");
  std::string line;
  int rows = 0;
  while (std::getline(csv, line)) {
    double vx, Fx, Fy, Mz;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lf,%lf,%lf,%lf", &vx, &Fx, &Fy, &Mz), 4);
    ++rows;
    if (vx == 0.0) continue;
    // Eq. 62 with mu(v_x) of eq. 53 (Table 2), s = 0.4, k01 = 240, L = 0.1, V_r = 16.
    const double mu = 0.7 + (1.2 - 0.7) * std::exp(-std::pow(std::abs(vx) / 3.49, 0.6));
    const double a = 0.6 * 240.0 * std::abs(vx) * 0.1 / ((16.0 + 0.4 * vx) * mu);
    const double expected = -(vx > 0 ? 1.0 : -1.0) * mu * 3000.0 * (a + std::expm1(-a)) / a;
    EXPECT_NEAR(Fx, expected, 1e-3 * std::abs(expected)) << vx;
    EXPECT_EQ(Fy, 0.0);
    EXPECT_NEAR(Mz, 0.0, 1e-9 * std::abs(expected));
  }
  EXPECT_EQ(rows, 161);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace bristle::io

namespace bristle::io {
namespace {

const std::string kTransient = "kind = \"patch_transient\"\n" + kBase.substr(kBase.find('\n') + 1) + kPatch +
                               "[kinematics]\nVr_mps = 16.0\nvx_mps = 0.5\nspin_radps = 3.0\n"
                               "[time]\nt_end_s = 0.01\noutput_dt_s = 0.002\n";

// The generic study (src/io/study.hpp): one case, its progress from 0 to 1 in order, its time in the header.
TEST(PatchScenario, TransientRunsThroughTheGenericStudy) {
  std::vector<double> fractions;
  const RunResult r = parse_scenario_string(kTransient, "t")->run([&](const Progress& p) {
    EXPECT_EQ(p.case_index, 0u);
    EXPECT_EQ(p.case_count, 1u);
    fractions.push_back(p.fraction);
  });
  ASSERT_GE(fractions.size(), 3u);
  EXPECT_EQ(fractions.front(), 0.0);
  EXPECT_EQ(fractions.back(), 1.0);
  EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.cases.front().solve_seconds, r.solve_seconds);
  EXPECT_GT(r.solve_seconds, 0.0);
  EXPECT_EQ(r.report.dump().find("\"kind\": \"patch_transient\""), r.report.dump().find("\"kind\""));
  EXPECT_EQ(r.name, "t");
  EXPECT_EQ(r.plot_y, (std::vector<std::string>{"Fz_N", "Fx_N", "Fy_N", "Mz_Nm"}));
}

TEST(PatchScenario, TransientRunsAndChecksTheLoad) {
  const auto sc = parse_scenario_string(
      kTransient + "[load]\nFz_N = { type = \"ramp\", t0 = 0.004, start = 3000.0, rate = 2e5, t_end = 0.006 }\n",
      "t");
  EXPECT_EQ(sc->kind(), "patch_transient");
  const RunResult r = sc->run();
  const TimeSeries& s = r.cases.front().series;
  EXPECT_EQ(s.rows(), 6u);
  EXPECT_EQ(s.column("Fz_N").back(), 3400.0);
  EXPECT_NEAR(s.column("scale").back(), std::cbrt(3400.0 / 3000.0), 1e-12);
  EXPECT_LT(s.column("Fx_N").back(), 0.0);
  EXPECT_EQ(error_of(kTransient + "[load]\nFz_N = { type = \"step\", t0 = 0.005, before = 3000.0, after = -1.0 }\n"),
            "load.Fz_N at t = 0.006 s is -1: must be finite and > 0");
  EXPECT_EQ(error_of(kTransient + "[transient]\ncfl = 0.9\n"), "transient.cfl = 0.9: must be in (0, 0.5]");
}

}  // namespace
}  // namespace bristle::io

namespace bristle::io {
namespace {

// The energy budget in the outputs: the map's extra columns close P_supplied = D + Phi_out - Gamma +
// residual row by row, the JSON reports the worst residual; the transient CSV carries the terms and
// their integrals (SI units) and the JSON the final residual. Threads do not change the CSV.
// The number after "key": in a dumped JSON report (NaN if absent).
double json_number(const std::string& json, const std::string& key) {
  const std::size_t at = json.find("\"" + key + "\":");
  if (at == std::string::npos) return std::nan("");
  return std::stod(json.substr(at + key.size() + 3));
}

TEST(PatchScenario, EnergyBudgetColumnsAndReport) {
  const std::string map = kBase + kPatch +
                          "[kinematics]\nVr_mps = 16.0\nvx_mps = [-1.0, 0.5, 1.0]\nspin_radps = [0.0, 4.0]\n"
                          "[output]\ncolumns = [\"P_supplied_W\", \"P_dissipated_W\", \"P_outflow_W\", "
                          "\"P_compression_W\", \"P_residual_W\"]\n";
  const RunResult r = parse_scenario_string(map, "t")->run();
  for (const CaseResult& c : r.cases) {
    const TimeSeries& s = c.series;
    for (std::size_t i = 0; i < s.rows(); ++i) {
      const double P = s.column("P_supplied_W")[i], D = s.column("P_dissipated_W")[i];
      const double out = s.column("P_outflow_W")[i], gam = s.column("P_compression_W")[i];
      EXPECT_NEAR(P - D - out + gam, s.column("P_residual_W")[i], 1e-9 * P);
      EXPECT_GE(D, 0.0);
      EXPECT_GE(out, 0.0);
      EXPECT_LT(std::abs(s.column("P_residual_W")[i]), 5e-3 * P);
    }
  }
  const std::string json = r.report.dump();
  EXPECT_NE(json.find("\"available\": true"), std::string::npos) << json;
  EXPECT_LT(json_number(json, "max_relative_residual"), 5e-3) << json;
  // One worker gives the same CSV as every core.
  const std::string one = kBase + kPatch.substr(0, kPatch.size()) + "threads = 1\n" +
                          map.substr(kBase.size() + kPatch.size());
  const RunResult r2 = parse_scenario_string(one, "t")->run();
  ASSERT_EQ(r2.cases.size(), r.cases.size());
  for (std::size_t c = 0; c < r.cases.size(); ++c)
    for (const std::string& name : r.cases[c].series.names)
      EXPECT_EQ(r2.cases[c].series.column(name), r.cases[c].series.column(name)) << name;
  EXPECT_EQ(error_of(kBase + kPatch + "threads = -1\n" + kKin),
            "patch.threads = -1: must be in [0, 1024] (0: every core)");

  const auto tr = parse_scenario_string(kTransient, "t")->run();
  const TimeSeries& s = tr.cases.front().series;
  for (const char* name : {"P_outflow_W", "P_compression_W", "P_load_W", "E_dissipated_J", "E_outflow_J",
                           "E_compression_J", "E_load_J", "E_residual_J"})
    EXPECT_NO_THROW((void)s.column(name)) << name;
  const double W = s.column("W_J").back(), E = s.column("E_supplied_J").back();
  EXPECT_NEAR(W, E - s.column("E_dissipated_J").back() - s.column("E_outflow_J").back() +
                     s.column("E_compression_J").back() + s.column("E_load_J").back() + s.column("E_residual_J").back(),
              1e-9 * E);
  EXPECT_LT(std::abs(s.column("E_residual_J").back()), 1e-2 * E);
  EXPECT_LT(json_number(tr.report.dump(), "relative_residual"), 1e-2);
}

TEST(PatchScenario, TransientTakesAnyLawThroughTheSourceScheme) {
  std::string bouc_wen = kTransient;
  const std::string frbd = "[law]\ntype = \"frbd\"\nmu_s = 1.2\nmu_d = 0.7\nv_s = 3.49\ndelta_s = 0.6\n";
  ASSERT_NE(bouc_wen.find(frbd), std::string::npos);
  bouc_wen.replace(bouc_wen.find(frbd), frbd.size(), "[law]\ntype = \"bouc_wen\"\nA = 1.0\nbeta1 = 2.0\nbeta2 = 1.0\n");
  const auto sc = parse_scenario_string(bouc_wen, "t");
  const RunResult r = sc->run();
  const TimeSeries& s = r.cases.front().series;
  EXPECT_EQ(s.rows(), 6u);
  EXPECT_LT(s.column("Fx_N").back(), 0.0);
  EXPECT_NE(r.report.dump().find("\"source_scheme\": \"automatic\""), std::string::npos);
  EXPECT_EQ(error_of(bouc_wen + "[transient]\nsource_scheme = \"exponential\"\n"),
            "transient.source_scheme = \"exponential\": needs a source affine in the state; law.type = "
            "\"bouc_wen\" is not (use \"sdirk2\" or \"automatic\")");
  EXPECT_EQ(error_of(kTransient + "[transient]\nsource_scheme = \"rk4\"\n").rfind(
                "transient.source_scheme = \"rk4\": unknown", 0),
            0u);
  // The affine law through the SDIRK2 step: the exponential step's forces to O(dt^2).
  const RunResult a = parse_scenario_string(kTransient, "t")->run();
  const RunResult b = parse_scenario_string(kTransient + "[transient]\nsource_scheme = \"sdirk2\"\n", "t")->run();
  const double fa = a.cases.front().series.column("Fx_N").back(), fb = b.cases.front().series.column("Fx_N").back();
  EXPECT_NEAR(fa, fb, 1e-4 * std::abs(fa));
  EXPECT_NE(fa, fb);
}

TEST(PatchScenario, ReportNamesTheScenarioFileByItsAbsolutePath) {
  const fs::path dir = temp_dir();
  fs::copy_file(fs::path(BRISTLE_SOURCE_DIR) / "examples" / "patch_longitudinal_creep.toml", dir / "steady.toml");
  std::ofstream(dir / "transient.toml") << kTransient;
  for (const char* stem : {"steady", "transient"}) {
    const fs::path out = dir / (std::string("out_") + stem);
    ASSERT_EQ(run_cli(dir, fmt::format("run {}.toml --out '{}' --quiet --no-plot", stem, out.string())), 0)
        << read(dir / ".stderr");
    std::string json;  // the one JSON file written (named after the scenario's name)
    for (const auto& e : fs::directory_iterator(out))
      if (e.path().extension() == ".json") json = read(e.path());
    EXPECT_NE(json.find(fmt::format("\"scenario\": \"{}\"", (dir / (std::string(stem) + ".toml")).string())),
              std::string::npos)
        << json.substr(0, 400);
    EXPECT_NE(json.find("\"bristle_version\""), std::string::npos);
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace bristle::io

namespace bristle::io {
namespace {

// patch.width_exponent: the width scales with (F_z/F_z0)^gamma_y (column scale_y appended after the
// existing columns, echoed in the JSON); unset it is size_exponent; bad values name the key.
TEST(PatchScenario, TransientWidthExponent) {
  const std::string ramp =
      "[load]\nFz_N = { type = \"ramp\", t0 = 0.004, start = 3000.0, rate = 2e5, t_end = 0.006 }\n";
  const std::string patch_line = "nx = 40\nny = 8\n";
  const auto with = [&](const std::string& extra) {
    std::string toml = kTransient;
    toml.insert(toml.find(patch_line) + patch_line.size(), extra);
    return toml + ramp;
  };
  const RunResult r = parse_scenario_string(with("size_exponent = 0.5\nwidth_exponent = 0.0\n"), "t")->run();
  const TimeSeries& s = r.cases.front().series;
  ASSERT_EQ(s.names.back(), "scale_y");
  EXPECT_EQ(s.names.at(s.names.size() - 2), "E_residual_J");
  EXPECT_NEAR(s.column("scale").back(), std::sqrt(3400.0 / 3000.0), 1e-12);
  EXPECT_EQ(s.column("scale_y").back(), 1.0);
  EXPECT_EQ(json_number(r.report.dump(), "width_exponent"), 0.0) << r.report.dump();
  const RunResult iso = parse_scenario_string(with("size_exponent = 0.5\n"), "t")->run();
  EXPECT_EQ(iso.cases.front().series.column("scale_y"), iso.cases.front().series.column("scale"));
  EXPECT_EQ(json_number(iso.report.dump(), "width_exponent"), 0.5);
  EXPECT_EQ(error_of(with("width_exponent = 1.5\n")), "patch.width_exponent = 1.5: must lie in [0, 1]");
  EXPECT_EQ(error_of(with("width_exponent = -0.5\n")), "patch.width_exponent = -0.5: must lie in [0, 1]");
  EXPECT_EQ(error_of(with("width_exponent = nan\n")), "patch.width_exponent = nan: must be finite");
  EXPECT_EQ(error_of(with("size_exponent = 2.0\n")), "patch.size_exponent = 2: must lie in [0, 1]");
  EXPECT_NE(error_of(with("width_exponent = \"flat\"\n")).find("patch.width_exponent"), std::string::npos);
  // The steady map has no load history: the key is unknown there.
  EXPECT_NE(error_of(kBase + kPatch + "width_exponent = 0.0\n" + kKin).find("width_exponent"), std::string::npos);
}

/// The columns of a CSV file with a header row, by name.
std::map<std::string, std::vector<double>> read_csv(const fs::path& file) {
  std::istringstream in(read(file));
  std::string line;
  std::getline(in, line);
  std::vector<std::string> names;
  for (std::istringstream header(line); std::getline(header, line, ',');) names.push_back(line);
  std::map<std::string, std::vector<double>> columns;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string cell;
    for (const std::string& name : names) {
      std::getline(row, cell, ',');
      columns[name].push_back(std::stod(cell));
    }
  }
  return columns;
}

TEST(PatchScenario, TyreExampleSettlesOnTheSteadyPatch) {
  // examples/patch_tyre_load_step.toml: the length grows with the load (size_exponent 1), the width stays
  // (width_exponent 0). Before the ramp and a transit time after it, the transient's forces are those of
  // the steady solver on the patch of that moment (0.1 x 0.15 m at 3000 N, 0.15 x 0.15 m at 4500 N).
  const fs::path dir = temp_dir();
  const fs::path file = fs::path(BRISTLE_SOURCE_DIR) / "examples" / "patch_tyre_load_step.toml";
  ASSERT_EQ(run_cli(dir, fmt::format("run '{}' --out out --quiet --no-plot", file.string())), 0)
      << read(dir / ".stderr");
  auto c = read_csv(dir / "out" / "patch_tyre_load_step.csv");
  const std::size_t n = c["t_s"].size();
  ASSERT_EQ(n, 101u);
  for (std::size_t k = 0; k < n; ++k) EXPECT_EQ(c["scale_y"][k], 1.0) << k;
  EXPECT_NEAR(c["scale"].back(), 1.5, 1e-12);
  EXPECT_EQ(c["Fz_N"].back(), 4500.0);
  auto steady = [](double length, double load) {
    const std::string toml = fmt::format(
        "kind = \"patch_steady_map\"\n"
        "[law]\ntype = \"frbd\"\nmu_s = 1.2\nmu_d = 0.7\nv_s = 3.49\ndelta_s = 0.6\nmu_v = 0.0\neps = 1e-12\n"
        "[body1]\ntype = \"elastic\"\nk0 = 240.0\n[body2]\ntype = \"elastic\"\n[pair]\ns = 0.4\n"
        "[patch]\nshape = \"rectangle\"\nlength_m = {}\nwidth_m = 0.15\npressure = \"parabolic\"\n"
        "normal_load_N = {}\nnx = 60\nny = 12\n"
        "[kinematics]\nmode = \"rolling\"\nVr_mps = 16.0\nvx_mps = 0.2\nvy_mps = 0.5\nspin_radps = 0.0\n",
        length, load);
    const RunResult r = parse_scenario_string(toml, "steady")->run();
    const TimeSeries& s = r.cases.front().series;
    return std::array<double, 3>{s.column("Fx_N")[0], s.column("Fy_N")[0], s.column("Mz_Nm")[0]};
  };
  const std::size_t before = 38, after = n - 1;  // t = 0.019 s (run in) and 0.05 s (25 ms after the ramp)
  ASSERT_NEAR(c["t_s"][before], 0.019, 1e-12);
  for (const auto& [row, length, load] : {std::tuple{before, 0.1, 3000.0}, std::tuple{after, 0.15, 4500.0}}) {
    const auto want = steady(length, load);
    SCOPED_TRACE(fmt::format("t = {} s, L = {} m, F_z = {} N", c["t_s"][row], length, load));
    EXPECT_NEAR(c["Fx_N"][row], want[0], 1e-5 * std::abs(want[0]));
    EXPECT_NEAR(c["Fy_N"][row], want[1], 1e-5 * std::abs(want[1]));
    EXPECT_NEAR(c["Mz_Nm"][row], want[2], 1e-5 * std::abs(want[2]));
  }
  // the longer patch: lateral force up 2.1x for 1.5x the load (the stiffness grows with L^2)
  EXPECT_GT(c["Fy_N"][after] / c["Fy_N"][before], 2.0);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace bristle::io
