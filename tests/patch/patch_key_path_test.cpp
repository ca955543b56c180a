// Key paths (io/key_path.hpp) and the [sweep] of the patch kinds: get/set by the TOML key with the reader's
// checks, the nearest valid key for a wrong path, and a sweep of pair.s or body2.tau in a patch_steady_map
// (applied by key path) that gives, case by case, what the file with that value gives.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <tuple>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/output.hpp"
#include "bristle/io/patch_scenario.hpp"
#include "support/test_support.hpp"

namespace bristle::io {
namespace {

// A GKV substrate given by c and tau, so that body2.tau is a key; pair.s sets body2.k0.
std::string map_toml(const std::string& s = "0.4", const std::string& tau2 = "0.002", const std::string& extra = "") {
  return "kind = \"patch_steady_map\"\n"
         "[law]\ntype = \"frbd\"\nmu_s = 1.2\nmu_d = 0.7\nv_s = 3.49\ndelta_s = 0.6\n"
         "[body1]\ntype = \"elastic\"\nk0 = 240.0\n"
         "[body2]\ntype = \"gkv\"\nc = [0.5]\ntau = [" + tau2 + "]\n"
         "[pair]\ns = " + s + "\n"
         "[patch]\nlength_m = 0.1\nwidth_m = 0.05\nnormal_load_N = 3000.0\nnx = 24\nny = 6\n"
         "[kinematics]\nVr_mps = 16.0\nvx_mps = [-1.0, 0.5, 2.0]\nvy_mps = 0.2\n" + extra;
}

PatchMapScenario parse_map(const std::string& toml) { return parse_patch_steady_map_string(toml, "t"); }

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(no InvalidInput)";
}

std::vector<std::vector<double>> rows_of(const TimeSeries& s) {
  std::vector<std::vector<double>> out;
  for (const auto& name : s.names) out.push_back(s.column(name));
  return out;
}

TEST(PatchKeyPath, GetAndSetApplyWhatTheFileWouldGive) {
  PatchMapScenario sc = parse_map(map_toml());
  EXPECT_EQ(get_number(sc, "pair.s"), 0.4);
  EXPECT_DOUBLE_EQ(get_number(sc, "body2.k0"), 240.0 * 0.6 / 0.4);
  EXPECT_EQ(get_number(sc, "body2.tau"), 0.002);
  EXPECT_EQ(get_number(sc, "patch.nx"), 24.0);
  EXPECT_EQ(get_number(sc, "kinematics.vy_mps"), 0.2);
  EXPECT_EQ(get_number(sc, "kinematics.Vr_mps"), 16.0);
  // Set by key path, then run: bitwise what the file with the value gives.
  set_number(sc, "pair.s", 0.55);
  set_number(sc, "body2.tau", 0.004);
  set_number(sc, "patch.nx", 30);
  set_number(sc, "kinematics.vy_mps", -0.1);
  EXPECT_DOUBLE_EQ(get_number(sc, "body2.k0"), 240.0 * 0.45 / 0.55);
  std::string file = map_toml("0.55", "0.004");
  file.replace(file.find("nx = 24"), 7, "nx = 30");
  file.replace(file.find("vy_mps = 0.2"), 12, "vy_mps = -0.1");
  const RunResult by_key = PatchSteadyMapStudy(sc).run();
  const RunResult by_file = PatchSteadyMapStudy(parse_map(file)).run();
  ASSERT_EQ(by_key.cases.size(), 1u);
  EXPECT_EQ(rows_of(by_key.cases[0].series), rows_of(by_file.cases[0].series));
  const std::vector<std::string> keys = numeric_keys(sc);
  for (const char* k : {"law.mu_s", "body1.k0", "body2.c", "body2.tau", "pair.s", "patch.length_m", "patch.nx",
                        "patch.tolerance", "patch.threads", "kinematics.Vr_mps", "kinematics.vy_mps"})
    EXPECT_NE(std::find(keys.begin(), keys.end(), k), keys.end()) << k;
  EXPECT_EQ(std::find(keys.begin(), keys.end(), "kinematics.vx_mps"), keys.end());  // a list: not a number
  const KeyInfo info = key_info(sc, "patch.length_m");
  EXPECT_EQ(info.unit, "m");
  EXPECT_EQ(info.range, "> 0");
}

TEST(PatchKeyPath, BadValuesAndPathsNameTheKeyAndLeaveTheScenarioUnchanged) {
  PatchMapScenario sc = parse_map(map_toml());
  const auto set = [&](const char* key, double v) { return error_of([&] { set_number(sc, key, v); }); };
  EXPECT_EQ(set("patch.nx", 3), "patch.nx = 3: must be >= 4");  // PatchParams::validate, as the reader
  EXPECT_EQ(set("patch.nx", 2.5), "patch.nx = 2.5: must be an integer");
  EXPECT_EQ(set("patch.width_m", 0), "patch.width_m = 0: must be > 0");
  EXPECT_EQ(set("patch.normal_load_N", 1e12),
            "patch.normal_load_N = 1000000000000: must be in (0, 1000000000] N (Limits in docs/scenarios.md)");
  EXPECT_EQ(set("patch.tolerance", 0.1), "patch.tolerance = 0.1: must be in (0, 0.001]");
  EXPECT_EQ(set("patch.threads", 2000), "patch.threads = 2000: must be in [0, 1024]");
  EXPECT_EQ(set("kinematics.Vr_mps", -1), "kinematics.Vr_mps = -1: must be >= 0");
  EXPECT_EQ(set("kinematics.vy_mps", std::nan("")), "kinematics.vy_mps = nan: must be finite");
  EXPECT_EQ(set("pair.s", 1.5), "pair.s = 1.5: must lie in (0, 1)");
  EXPECT_EQ(set("patch.lenght_m", 1), "unknown key \"patch.lenght_m\"; did you mean \"patch.length_m\"?");
  EXPECT_EQ(set("kinematic.Vr_mps", 1), "unknown key \"kinematic.Vr_mps\"; did you mean \"kinematics.Vr_mps\"?");
  EXPECT_EQ(set("patch.shape", 1), "patch.shape: is a string, not a number");
  EXPECT_EQ(set("kinematics.vx_mps", 1).rfind("key \"kinematics.vx_mps\" does not apply to this scenario", 0), 0u)
      << set("kinematics.vx_mps", 1);
  EXPECT_EQ(set("kinematics.slip_angle_deg", 1).rfind("key \"kinematics.slip_angle_deg\" does not apply", 0), 0u);
  // The cross-checks of the reader: a degenerate patch.
  EXPECT_EQ(set("patch.length_m", 1000),
            "patch.length_m = 1000 and patch.width_m = 0.05: degenerate patch (length/width = 20000 must be in "
            "[1e-3, 1e3])");
  EXPECT_EQ(get_number(sc, "patch.nx"), 24.0);
  EXPECT_EQ(get_number(sc, "patch.length_m"), 0.1);
  EXPECT_EQ(get_number(sc, "pair.s"), 0.4);
  EXPECT_EQ(error_of([&] { (void)get_number(sc, "patch.nxx"); }),
            "unknown key \"patch.nxx\"; did you mean \"patch.nx\"?");
}

TEST(PatchKeyPath, TransientSignalsAndTablesByKey) {
  const std::string toml =
      "kind = \"patch_transient\"\n"
      "[law]\ntype = \"frbd\"\nmu_s = 1.2\nmu_d = 0.7\nv_s = 3.49\ndelta_s = 0.6\n"
      "[body1]\ntype = \"elastic\"\nk0 = 240.0\n[body2]\ntype = \"elastic\"\n[pair]\ns = 0.4\n"
      "[patch]\nlength_m = 0.1\nwidth_m = 0.05\nnormal_load_N = 3000.0\nnx = 12\nny = 4\n"
      "[kinematics]\nVr_mps = 16.0\nvx_mps = { type = \"ramp\", start = 0.0, rate = 100.0, t0 = 0.0, t_end = 0.01 }\n"
      "[time]\nt_end_s = 0.004\noutputs = 5\n";
  PatchTransientScenario sc = parse_patch_transient_string(toml, "t");
  EXPECT_EQ(get_number(sc, "kinematics.Vr_mps"), 16.0);
  EXPECT_EQ(get_number(sc, "kinematics.Vr_mps.value"), 16.0);
  EXPECT_EQ(get_number(sc, "kinematics.vx_mps.rate"), 100.0);
  EXPECT_EQ(get_number(sc, "transient.cfl"), 0.4);
  set_number(sc, "kinematics.vx_mps.rate", 50.0);
  set_number(sc, "time.t_end_s", 0.008);  // outputs = 5 kept: output_dt_s follows
  EXPECT_EQ(get_number(sc, "time.output_dt_s"), 0.002);
  EXPECT_EQ(sc.vx_mps.rate, 50.0);
  const auto set = [&](const char* key, double v) { return error_of([&] { set_number(sc, key, v); }); };
  EXPECT_EQ(set("transient.cfl", 0.6), "transient.cfl = 0.6: must be in (0, 0.5]");
  EXPECT_EQ(set("patch.size_exponent", 2), "patch.size_exponent = 2: must lie in [0, 1]");
  EXPECT_EQ(set("kinematics.Vr_mps", -1), "kinematics.Vr_mps at t = 0 s is -1: must be >= 0");
  EXPECT_EQ(set("kinematics.vx_mps", 1).rfind("kinematics.vx_mps: is a signal that is not constant", 0), 0u);
  EXPECT_EQ(set("patch.tolerance", 1e-8).rfind("key \"patch.tolerance\" does not apply to this scenario (used by: "
                                               "patch_steady_map)", 0),
            0u)
      << set("patch.tolerance", 1e-8);
  EXPECT_EQ(get_number(sc, "transient.cfl"), 0.4);
}

TEST(PatchKeyPath, TheDefaultLoadFollowsTheReferenceLoadSetByKeyPath) {
  // Without load.Fz_N the reader takes F_z(t) = patch.normal_load_N; set by key path it must follow (9eae582 kept
  // 3000 N: a sweep or fit of patch.normal_load_N ran at the old load with the patch scaled, found by the fit
  // readers' refactoring). With load.Fz_N written, the load stays the file's.
  const std::string toml =
      "kind = \"patch_transient\"\n"
      "[law]\ntype = \"frbd\"\nmu_s = 1.2\nmu_d = 0.7\nv_s = 3.49\ndelta_s = 0.6\n"
      "[body1]\ntype = \"elastic\"\nk0 = 240.0\n[body2]\ntype = \"elastic\"\n[pair]\ns = 0.4\n"
      "[patch]\nlength_m = 0.1\nwidth_m = 0.05\nnormal_load_N = 3000.0\nnx = 12\nny = 4\n"
      "[kinematics]\nVr_mps = 16.0\nvx_mps = 0.5\n"
      "[time]\nt_end_s = 0.004\noutputs = 5\n";
  const auto csv = [](const PatchTransientScenario& sc) { return csv_text(PatchTransientStudy(sc).run()); };
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string t = toml;
    t.replace(t.find(from), from.size(), to);
    return parse_patch_transient_string(t, "t");
  };
  PatchTransientScenario sc = parse_patch_transient_string(toml, "t");
  set_number(sc, "patch.normal_load_N", 3100.0);
  EXPECT_EQ(sc.Fz_N(0.0), 3100.0);
  EXPECT_EQ(csv(sc), csv(with("normal_load_N = 3000.0", "normal_load_N = 3100.0")));
  // A failed set leaves the load as it was.
  EXPECT_THROW(set_number(sc, "patch.normal_load_N", 1e12), InvalidInput);
  EXPECT_EQ(sc.Fz_N(0.0), 3100.0);
  // A load set by key path is given: the reference load no longer moves it.
  set_number(sc, "load.Fz_N", 2000.0);
  set_number(sc, "patch.normal_load_N", 3000.0);
  EXPECT_EQ(sc.Fz_N(0.0), 2000.0);
  EXPECT_EQ(csv(sc), csv(with("[time]", "[load]\nFz_N = 2000.0\n[time]")));
  // Written in the file: the same.
  PatchTransientScenario given = with("[time]", "[load]\nFz_N = 2000.0\n[time]");
  set_number(given, "patch.normal_load_N", 3100.0);
  EXPECT_EQ(given.Fz_N(0.0), 2000.0);
  std::string both = toml;
  both.replace(both.find("normal_load_N = 3000.0"), 22, "normal_load_N = 3100.0");
  both.replace(both.find("[time]"), 6, "[load]\nFz_N = 2000.0\n[time]");
  EXPECT_EQ(csv(given), csv(parse_patch_transient_string(both, "t")));
}

TEST(PatchSweep, PairSAndBody2TauSweepByKeyPathWithTheValueAsAColumn) {
  for (const auto& [key, column, values] :
       std::vector<std::tuple<std::string, std::string, std::vector<std::string>>>{
           {"pair.s", "s", {"0.3", "0.5", "0.7"}}, {"body2.tau", "tau2_s", {"0.001", "0.01"}}}) {
    const std::string sweep = fmt::format("[sweep]\nparameter = \"{}\"\nvalues = [{}]\n{}", key,
                                          fmt::join(values, ", "),
                                          column == "s" ? "" : fmt::format("column = \"{}\"\n", column));
    const auto study = parse_scenario_string(map_toml("0.4", "0.002", sweep), "t");
    EXPECT_EQ(study->case_count(), values.size());
    const RunResult r = study->run();
    EXPECT_EQ(r.sweep_column, column);
    ASSERT_EQ(r.cases.size(), values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      EXPECT_EQ(r.cases[i].sweep_value, std::stod(values[i]));
      // The case is what the file with the value gives.
      const std::string file = key == "pair.s" ? map_toml(values[i]) : map_toml("0.4", values[i]);
      const RunResult one = PatchSteadyMapStudy(parse_map(file)).run();
      EXPECT_EQ(rows_of(r.cases[i].series), rows_of(one.cases[0].series)) << key << " = " << values[i];
    }
    // The values change the forces.
    EXPECT_NE(r.cases[0].series.column("Fx_N"), r.cases[1].series.column("Fx_N")) << key;
    ASSERT_NE(r.report.find("sweep"), nullptr);  // the JSON names the sweep
    EXPECT_NE(r.report.find("sweep")->find("parameter"), nullptr);
  }
}

TEST(PatchSweep, CliWritesTheSweptValueAsTheFirstCsvColumn) {
  test::TempDir dir("bristle_patch_sweep");
  std::ofstream(dir.path() / "m.toml") << map_toml("0.4", "0.002", "[sweep]\nparameter = \"pair.s\"\nvalues = [0.3, 0.6]\n");
  const test::CliResult ok = test::run_cli(dir.path(), "run m.toml --out out --quiet --no-plot");
  ASSERT_EQ(ok.code, 0) << ok.err;
  std::ifstream in(dir.path() / "out" / "m.csv");
  std::string header, first;
  std::getline(in, header);
  std::getline(in, first);
  EXPECT_EQ(header, "s,vx_mps,Fx_N,Fy_N,Mz_Nm");
  EXPECT_EQ(first.rfind("0.3,-1,", 0), 0u) << first;
  // A bad value: exit 2 naming the case and the key, nothing written.
  std::ofstream(dir.path() / "bad.toml") << map_toml("0.4", "0.002", "[sweep]\nparameter = \"pair.s\"\nvalues = [0.3, 2]\n");
  const test::CliResult bad = test::run_cli(dir.path(), "run bad.toml --out out2 --quiet --no-plot");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err, "bristle: error: sweep case 2 of 2 (pair.s = 2): pair.s = 2: must lie in (0, 1)\n");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "out2"));
  std::ofstream(dir.path() / "typo.toml")
      << map_toml("0.4", "0.002", "[sweep]\nparameter = \"body2.tua\"\nvalues = [0.3]\n");
  const test::CliResult typo = test::run_cli(dir.path(), "check typo.toml");
  EXPECT_EQ(typo.code, 2);
  EXPECT_EQ(typo.err, "bristle: error: sweep case 1 of 1 (body2.tua = 0.3): unknown key \"body2.tua\"; did you mean "
                      "\"body2.tau\"?\n");
}

TEST(PatchSweep, ASweepWithTwoKinematicsListsIsRefused) {
  const std::string two = map_toml("0.4", "0.002", "spin_radps = [0.0, 1.0]\n[sweep]\nparameter = \"pair.s\"\nvalues = [0.3]\n");
  EXPECT_EQ(error_of([&] { (void)parse_scenario_string(two, "t"); }),
            "sweep.parameter = \"pair.s\": kinematics already has two lists (rows and cases); with a [sweep] at most "
            "one of vx_mps, vy_mps/slip_angle_deg and spin_radps may be a list");
}

// One mechanism for every kind: a [law] / [body] key of a patch scenario gives the message the lumped kind
// gives for the same contact (the same walk, the same conversions and the same cross-checks).
TEST(PatchKeyPath, ContactKeysBehaveAsInTheLumpedKind) {
  const PatchMapScenario map = parse_map(map_toml());
  const std::string lumped_toml =
      "[law]\ntype = \"frbd\"\nmu_s = 1.2\nmu_d = 0.7\nv_s = 3.49\ndelta_s = 0.6\n"
      "[body1]\ntype = \"elastic\"\nk0 = 240.0\n"
      "[body2]\ntype = \"gkv\"\nc = [0.5]\ntau = [0.002]\n"
      "[pair]\ns = 0.4\n"
      "[bench]\ndrive = \"velocity\"\ninput = 0.1\n[time]\nt_end_s = 0.01\n";
  const LumpedScenario lumped = parse_lumped_string(lumped_toml, "t").front();
  for (const auto& [key, value] : std::vector<std::pair<std::string, double>>{
           {"law.A", 1.0}, {"law.sigma0", 1.0}, {"law.mu_z", 1.0}, {"law.axis1.mu_s", 1.0}, {"law.delta_s", -1.0},
           {"body1.c", 1.0}, {"body2.k0", 1.0}, {"body2.k", 1.0}, {"body2.tau[1]", 1.0}, {"pair.s", 0.0}}) {
    PatchMapScenario m = map;
    LumpedScenario l = lumped;
    const std::string by_map = error_of([&] { set_number(m, key, value); });
    EXPECT_EQ(by_map, error_of([&] { set_number(l, key, value); })) << key;
    EXPECT_NE(by_map, "(no InvalidInput)") << key;
  }
  EXPECT_EQ(error_of([&] { PatchMapScenario m = map; set_number(m, "law.A", 1.0); }),
            "key \"law.A\" does not apply to law.type = \"frbd\" (numeric keys here: law.eps, law.mu_s, law.mu_d, "
            "law.v_s, law.delta_s, law.mu_v)");
  // The derivations are the same too: a substrate branch by tau, body2.k0 from pair.s.
  PatchMapScenario m = map;
  LumpedScenario l = lumped;
  for (const auto& [key, value] : std::vector<std::pair<std::string, double>>{{"body2.tau", 0.005}, {"pair.s", 0.3},
                                                                             {"body1.k0", 300.0}}) {
    set_number(m, key, value);
    set_number(l, key, value);
  }
  EXPECT_EQ(m.body2.k_elastic, l.body2.k_elastic);
  EXPECT_EQ(m.body2.branches[0].k, l.body2.branches[0].k);
  EXPECT_DOUBLE_EQ(get_number(m, "body2.k0"), 300.0 * 0.7 / 0.3);
}

}  // namespace
}  // namespace bristle::io
