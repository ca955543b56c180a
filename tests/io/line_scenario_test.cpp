// Line-contact scenarios (kind = "line_steady", "line_transient"): fields land in the library structs,
// the [[case]] x [sweep] expansion, eq. 58, the field output, and every class of bad input with the
// exact one-line InvalidInput message that names the TOML key.
#include "bristle/io/line_scenario.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/output.hpp"
#include "support/test_support.hpp"

namespace bristle::io {
namespace {

namespace fs = std::filesystem;

// Table 1 of paper 1, trimmed to what the tests need.
const std::string kLaw = "[law]\ntype = \"frbd\"\nmu_s = 1.0\nmu_d = 0.7\nv_s = 6.0\ndelta_s = 2.0\n";
const std::string kBody1 = "[body1]\ntype = \"gkv\"\nk0 = 240.0\nc = [100.0, 50.0]\ntau = [0.1, 0.1]\n";
const std::string kBody2 = "[body2]\ntype = \"gkv\"\nc = \"eq58\"\ntau = [0.1, 0.1]\n";
const std::string kPair = "[pair]\ns = 0.4\n";
const std::string kLine = "[line]\nL_m = 0.2\nnormal_load_N = 10.0\n";

struct Steady {
  std::string top = "kind = \"line_steady\"\n";
  std::string law = kLaw, body1 = kBody1, body2 = kBody2, pair = kPair, line = kLine;
  std::string kinematics = "[kinematics]\nmode = \"sliding\"\nV_mps = [0.1, 1.0, 10.0]\n";
  std::string extra;
  std::string text() const { return top + law + body1 + body2 + pair + line + kinematics + extra; }
};

struct Transient {
  std::string top = "kind = \"line_transient\"\n";
  std::string law = kLaw, body1 = kBody1, body2 = kBody2, pair = kPair;
  std::string line = kLine + "cells = 20\n";
  std::string kinematics = "[kinematics]\nmode = \"sliding\"\nVx = 0.1\n";
  std::string time = "[time]\nt_end_s = 0.5\noutputs = 11\n";
  std::string extra;
  std::string text() const { return top + law + body1 + body2 + pair + line + kinematics + time + extra; }
};

std::string error_of(const std::string& toml) {
  try {
    parse_scenario_string(toml, "t");
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(no error)";
}

const LineSteadyStudy& steady_study(const std::unique_ptr<Scenario>& s) {
  return dynamic_cast<const LineSteadyStudy&>(*s);
}
const LineTransientStudy& transient_study(const std::unique_ptr<Scenario>& s) {
  return dynamic_cast<const LineTransientStudy&>(*s);
}

std::string read(const fs::path& p) { return test::read_text(p); }

using test::TempDir;

// ---------------------------------------------------------------------------------------------
// Fields

TEST(LineScenario, SteadyFieldsLandInTheLibraryStructs) {
  const auto s = parse_scenario_string(Steady{}.text(), "t");
  EXPECT_EQ(s->kind(), "line_steady");
  ASSERT_EQ(s->case_count(), 1u);
  const LineSteadyScenario& sc = steady_study(s).cases().front();
  EXPECT_EQ(sc.name, "t");
  EXPECT_EQ(sc.law.kind, laws::LawKind::frbd);
  EXPECT_DOUBLE_EQ(sc.law.M.axis1.v_s, 6.0);
  EXPECT_EQ(sc.mode, LineMode::sliding);
  EXPECT_FALSE(sc.allow_reversal);
  EXPECT_EQ(sc.velocities, (std::vector<double>{0.1, 1.0, 10.0}));
  EXPECT_DOUBLE_EQ(sc.s, 0.4);
  EXPECT_EQ(sc.n1, 2);
  EXPECT_EQ(sc.n2, 2);
  EXPECT_DOUBLE_EQ(sc.line.L_m, 0.2);
  EXPECT_DOUBLE_EQ(sc.line.normal_load_N, 10.0);
  EXPECT_EQ(sc.line.pressure.kind, transport::PressureKind::uniform);
  // k02 = k01 (1 - s)/s and eq. 58: c_i,2 = tau_i,2 k02.
  EXPECT_DOUBLE_EQ(sc.body2.k_elastic(0, 0), 360.0);
  ASSERT_EQ(sc.body2.branches.size(), 2u);
  EXPECT_DOUBLE_EQ(sc.body2.branches[0].c(0, 0), 36.0);
  EXPECT_DOUBLE_EQ(sc.body2.branches[0].k(0, 0), 360.0);
  EXPECT_TRUE(sc.body2_c_eq58);
  EXPECT_EQ(sc.column_names(),
            (std::vector<std::string>{"s", "n1", "n2", "V_mps", "mu", "Fx_N", "Fx_norm", "Fx_abs_N", "Fx_norm_abs"}));
  EXPECT_EQ(sc.output.plot_x, "V_mps");
  EXPECT_EQ(sc.output.plot_y, (std::vector<std::string>{"Fx_abs_N", "Fx_norm_abs"}));
}

TEST(LineScenario, VelocityGridsLinearAndLog) {
  Steady p;
  p.kinematics =
      "[kinematics]\nmode = \"sliding\"\nV_mps = { from = 0.01, to = 30, points = 200, spacing = \"log\" }\n";
  auto s = parse_scenario_string(p.text(), "t");
  const auto& v = steady_study(s).cases().front().velocities;
  ASSERT_EQ(v.size(), 200u);
  EXPECT_EQ(v.front(), 0.01);
  EXPECT_EQ(v.back(), 30.0);
  EXPECT_NEAR(v[1] / v[0], std::pow(3000.0, 1.0 / 199.0), 1e-12);
  EXPECT_TRUE(steady_study(s).cases().front().log_x);

  p.kinematics = "[kinematics]\nmode = \"rolling\"\nVr_mps = 16\nvx_mps = { from = -1, to = 1, points = 5 }\n";
  s = parse_scenario_string(p.text(), "t");
  const LineSteadyScenario& sc = steady_study(s).cases().front();
  EXPECT_EQ(sc.mode, LineMode::rolling);
  EXPECT_EQ(sc.Vr_mps, 16.0);
  EXPECT_EQ(sc.velocities, (std::vector<double>{-1.0, -0.5, 0.0, 0.5, 1.0}));
  EXPECT_FALSE(sc.log_x);
  EXPECT_EQ(sc.column_names(), (std::vector<std::string>{"s", "n1", "n2", "vx_mps", "Vr_mps", "Vx_mps", "mu", "Fx_N",
                                                         "Fx_norm", "Fx_abs_N", "Fx_norm_abs"}));
}

TEST(LineScenario, SweepIsAProductWithEq58PerCase) {
  Steady p;
  p.extra = "[sweep]\ns = [0.2, 0.8]\nn2 = [0, 1, 2]\n";
  const auto s = parse_scenario_string(p.text(), "t");
  const auto& cases = steady_study(s).cases();
  ASSERT_EQ(cases.size(), 6u);
  // s varies slowest.
  EXPECT_EQ(cases[0].label, "s = 0.2, n2 = 0");
  EXPECT_EQ(cases[1].label, "s = 0.2, n2 = 1");
  EXPECT_EQ(cases[5].label, "s = 0.8, n2 = 2");
  EXPECT_EQ(cases[0].body2.kind, rheology::RheologyKind::elastic);
  EXPECT_EQ(cases[0].n2, 0);
  EXPECT_EQ(cases[0].n1, 2);  // n2 leaves the block alone
  EXPECT_EQ(cases[1].n2, 1);
  EXPECT_EQ(cases[5].n2, 2);
  // eq. 58 with each case's s: c = tau k01 (1 - s)/s.
  EXPECT_DOUBLE_EQ(cases[1].body2.branches[0].c(0, 0), 0.1 * 240.0 * 0.8 / 0.2);
  EXPECT_DOUBLE_EQ(cases[5].body2.branches[1].c(0, 0), 0.1 * 240.0 * 0.2 / 0.8);
  EXPECT_EQ(cases[3].columns, (std::vector<std::pair<std::string, double>>{{"s", 0.8}, {"n1", 2}, {"n2", 0}}));
}

TEST(LineScenario, SweepOverNAndTauKeepsTheFirstBranches) {
  Steady p;
  p.body2 = "[body2]\ntype = \"gkv\"\nc = [18.0, 21.6]\ntau = [0.3, 0.3]\n";
  p.extra = "[sweep]\nn = [0, 1]\ntau2 = [0.1, 0.6]\n";
  const auto s = parse_scenario_string(p.text(), "t");
  const auto& cases = steady_study(s).cases();
  ASSERT_EQ(cases.size(), 4u);
  EXPECT_EQ(cases[0].body1.kind, rheology::RheologyKind::elastic);
  EXPECT_EQ(cases[0].body2.kind, rheology::RheologyKind::elastic);
  ASSERT_EQ(cases[3].body1.branches.size(), 1u);
  EXPECT_DOUBLE_EQ(cases[3].body1.branches[0].c(0, 0), 100.0);
  ASSERT_EQ(cases[3].body2.branches.size(), 1u);
  EXPECT_DOUBLE_EQ(cases[3].body2.branches[0].c(0, 0), 18.0);
  EXPECT_DOUBLE_EQ(cases[3].body2.branches[0].k(0, 0), 18.0 / 0.6);  // tau2 = 0.6 with c kept
  EXPECT_EQ(cases[2].label, "n = 1, tau2 = 0.1");
  EXPECT_EQ(cases[2].columns,
            (std::vector<std::pair<std::string, double>>{{"s", 0.4}, {"n1", 1}, {"n2", 1}, {"n", 1}, {"tau2", 0.1}}));
}

TEST(LineScenario, TheSweepOfEveryKindVariesAnyNumericKeyByKeyPath) {
  // [sweep] parameter/values/column (issue 15: one sweep syntax): each parsed case times the values, set by key path;
  // each case equals the file with that value (bitwise CSV rows), and the swept value is the first CSV column.
  const auto with = [](double mu_d, double tau2) {
    Steady p;
    p.law = "[law]\ntype = \"frbd\"\nmu_s = 1.0\nmu_d = " + std::to_string(mu_d) + "\nv_s = 6.0\ndelta_s = 2.0\n";
    p.body2 = "[body2]\ntype = \"gkv\"\nc = \"eq58\"\ntau = [" + std::to_string(tau2) + ", 0.1]\n";
    return p;
  };
  for (const auto& [key, column, values] :
       std::vector<std::tuple<std::string, std::string, std::vector<double>>>{
           {"law.mu_d", "mu_d", {0.5, 0.6}}, {"body2.tau[0]", "tau", {0.05, 0.2}}}) {
    Steady p = with(0.7, 0.1);
    p.extra = fmt::format("[sweep]\nparameter = \"{}\"\nvalues = [{}, {}]\n", key, values[0], values[1]);
    const auto s = parse_scenario_string(p.text(), "t");
    const auto& cases = steady_study(s).cases();
    ASSERT_EQ(cases.size(), 2u) << key;
    // the swept key is the sweep's to set: refused, and so is the whole list of a swept entry
    const std::string whole = key.substr(0, key.find('['));
    for (const std::string& k : {key, whole}) {
      try {
        set_number(*s, k, 0.3);
        ADD_FAILURE() << "no error for " << k;
      } catch (const InvalidInput& e) {
        EXPECT_EQ(std::string(e.what()),
                  k + ": is the parameter of the sweep (sweep.parameter = \"" + key + "\"); set it in one case");
      }
    }
    const std::string csv = csv_text(s->run());
    EXPECT_EQ(csv.substr(0, csv.find('\n')), column + ",s,n1,n2,V_mps,mu,Fx_N,Fx_norm,Fx_abs_N,Fx_norm_abs");
    for (std::size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(cases[i].label, fmt::format("{} = {}", key, values[i]));
      EXPECT_EQ(cases[i].columns.front(), (std::pair<std::string, double>{column, values[i]}));
      const Steady one = key == "law.mu_d" ? with(values[i], 0.1) : with(0.7, values[i]);
      const std::string alone = csv_text(parse_scenario_string(one.text(), "t")->run());
      // the rows of case i (3 velocities) are the file's rows with the sweep column in front
      std::istringstream all(csv), single(alone);
      std::string line, expected;
      std::getline(single, expected);  // headers
      for (int r = 0; r <= static_cast<int>(3 * i); ++r) std::getline(all, line);
      for (int r = 0; r < 3; ++r) {
        std::getline(all, line);
        std::getline(single, expected);
        EXPECT_EQ(line, fmt::format("{},{}", values[i], expected)) << key << " case " << i;
      }
    }
  }
  // A transient run, with [[case]] tables: 2 cases x 2 values, the bad value named with its case.
  Transient t;
  t.extra = "[[case]]\nlabel = \"slow\"\n[[case]]\nlabel = \"fast\"\nkinematics.Vx = 0.3\n"
            "[sweep]\nparameter = \"line.normal_load_N\"\nvalues = [10.0, 20.0]\ncolumn = \"Fz_N\"\n";
  const auto ts = parse_scenario_string(t.text(), "t");
  const auto& tc = dynamic_cast<const LineTransientStudy&>(*ts).cases();
  ASSERT_EQ(tc.size(), 4u);
  EXPECT_EQ(tc[1].label, "slow, line.normal_load_N = 20");
  EXPECT_EQ(tc[2].label, "fast, line.normal_load_N = 10");
  EXPECT_EQ(tc[3].line.normal_load_N, 20.0);
  EXPECT_EQ(tc[3].columns, (std::vector<std::pair<std::string, double>>{
                               {"Fz_N", 20.0}, {"s", 0.4}, {"n1", 2}, {"n2", 2}, {"case", 2}}));
  t.extra = "[sweep]\nparameter = \"line.normal_load_N\"\nvalues = [10.0, -1.0]\n";
  EXPECT_EQ(error_of(t.text()), "sweep case 2 of 2 (line.normal_load_N = -1): line.normal_load_N = -1: must be > 0");
  // The two syntaxes do not mix; a column that clashes is refused.
  t.extra = "[sweep]\nparameter = \"law.mu_d\"\nvalues = [0.5]\ns = [0.4]\n";
  EXPECT_EQ(error_of(t.text()).substr(0, 20), "unknown key \"sweep.s");
  t.extra = "[sweep]\nparameter = \"law.mu_d\"\nvalues = [0.5]\ncolumn = \"Fx_N\"\n";
  EXPECT_EQ(error_of(t.text()),
            "sweep.column = \"Fx_N\": clashes with a column of the same name; give sweep.column another name");
}

TEST(LineScenario, CasesOverrideKeysAndMultiplyWithTheSweep) {
  Transient p;
  p.extra =
      "[[case]]\nlabel = \"slow\"\nkinematics.Vx = 0.1\n[[case]]\nlabel = \"fast\"\n"
      "kinematics.Vx = 0.3\nline.cells = 30\n[sweep]\ns = [0.4, 0.8]\n";
  const auto s = parse_scenario_string(p.text(), "t");
  const auto& cases = transient_study(s).cases();
  ASSERT_EQ(cases.size(), 4u);
  EXPECT_EQ(cases[0].label, "slow, s = 0.4");
  EXPECT_EQ(cases[3].label, "fast, s = 0.8");
  EXPECT_DOUBLE_EQ(cases[0].line.V2(1.0), 0.1);
  EXPECT_DOUBLE_EQ(cases[3].line.V2(1.0), 0.3);
  EXPECT_EQ(cases[0].line.cells, 20);
  EXPECT_EQ(cases[3].line.cells, 30);
  EXPECT_EQ(cases[3].columns,
            (std::vector<std::pair<std::string, double>>{{"s", 0.8}, {"n1", 2}, {"n2", 2}, {"case", 2}}));
}

// The CSV rows of a run without their first `skip` columns (the case columns).
std::vector<std::string> rows_after(const std::string& csv, std::size_t skip) {
  std::vector<std::string> rows;
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // headers
  while (std::getline(in, line)) {
    std::size_t at = 0;
    for (std::size_t i = 0; i < skip; ++i) at = line.find(',', at) + 1;
    rows.push_back(line.substr(at));
  }
  return rows;
}

TEST(LineScenario, EveryCaseIsTheFileWrittenWithItsValues) {
  // [[case]] keys (case a: numbers and a list of numbers by key path; case b: with a flag, merged and parsed) times the
  // sweep lists (s by key path, n2 and tau1 by the rheology): each case runs exactly as the file written with its
  // values (bitwise CSV rows).
  Steady p;
  p.kinematics = "[kinematics]\nmode = \"sliding\"\nV_mps = [0.1, 1.0, 10.0]\n";
  p.extra =
      "[[case]]\nlabel = \"a\"\nlaw.mu_d = 0.6\nbody1.k0 = 300\nline.normal_load_N = 20\nbody2.tau = [0.15, 0.1]\n"
      "[[case]]\nlabel = \"b\"\nbody2.tau = [0.2, 0.05]\nkinematics.allow_reversal = true\n"
      "[sweep]\ns = [0.3, 0.6]\nn2 = [1, 2]\ntau1 = [0.2]\n";
  const auto s = parse_scenario_string(p.text(), "t");
  const auto& cases = steady_study(s).cases();
  ASSERT_EQ(cases.size(), 8u);
  const RunResult all = s->run();
  std::size_t i = 0;
  for (const char* label : {"a", "b"})
    for (const double sv : {0.3, 0.6})
      for (const int n2 : {1, 2}) {
        Steady one;
        one.kinematics = p.kinematics;
        const bool a = std::string(label) == "a";
        one.law = a ? "[law]\ntype = \"frbd\"\nmu_s = 1.0\nmu_d = 0.6\nv_s = 6.0\ndelta_s = 2.0\n" : kLaw;
        one.body1 = fmt::format("[body1]\ntype = \"gkv\"\nk0 = {}\nc = [100.0, 50.0]\ntau = [0.2, 0.2]\n", a ? 300 : 240);
        one.body2 = fmt::format("[body2]\ntype = \"gkv\"\nc = \"eq58\"\ntau = [{}]\n",
                                n2 == 1 ? (a ? "0.15" : "0.2") : (a ? "0.15, 0.1" : "0.2, 0.05"));
        one.pair = fmt::format("[pair]\ns = {}\n", sv);
        one.line = a ? "[line]\nL_m = 0.2\nnormal_load_N = 20\n" : kLine;
        if (!a) one.kinematics += "allow_reversal = true\n";
        const auto single = parse_scenario_string(one.text(), "t");
        const LineSteadyScenario& sc = steady_study(single).cases().front();
        EXPECT_EQ(cases[i].label, fmt::format("{}, s = {}, n2 = {}, tau1 = 0.2", label, sv, n2));
        EXPECT_EQ(cases[i].columns, (std::vector<std::pair<std::string, double>>{
                                        {"s", sv}, {"n1", 2.0}, {"n2", 1.0 * n2}, {"tau1", 0.2}, {"case", a ? 1.0 : 2.0}}));
        EXPECT_EQ(cases[i].body1.branches[1].k, sc.body1.branches[1].k) << cases[i].label;
        EXPECT_EQ(cases[i].body2.k_elastic, sc.body2.k_elastic) << cases[i].label;
        ASSERT_EQ(cases[i].body2.branches.size(), static_cast<std::size_t>(n2));
        EXPECT_EQ(cases[i].body2.branches.back().c, sc.body2.branches.back().c) << cases[i].label;
        EXPECT_EQ(cases[i].input_form.body_tau[0], sc.input_form.body_tau[0]);
        EXPECT_EQ(cases[i].allow_reversal, !a);
        const RunResult alone = single->run();
        RunResult mine = all;
        mine.cases = {all.cases[i]};
        mine.case_labels.clear();
        EXPECT_EQ(rows_after(csv_text(mine), 5), rows_after(csv_text(alone), 3)) << cases[i].label;
        ++i;
      }
  // A file may leave pair.s to the sweep (no [pair], no [body2]: an elastic substrate with k02 from s).
  Steady bare;
  bare.pair = "";
  bare.body2 = "";
  bare.extra = "[sweep]\ns = [0.2, 0.5]\n";
  const auto b = parse_scenario_string(bare.text(), "t");
  EXPECT_DOUBLE_EQ(steady_study(b).cases()[1].body2.k_elastic(0, 0), 240.0);
  EXPECT_EQ(steady_study(b).cases()[1].body2.kind, rheology::RheologyKind::elastic);
}

TEST(LineScenario, CaseKeysWrittenAsKeyPaths) {
  // A [[case]] key written as a key path sets one entry of a list (a merge of TOML tables cannot): the other entries
  // stay the file's.
  Steady p;
  p.extra = "[[case]]\nlabel = \"slow\"\n[[case]]\nlabel = \"second branch\"\n\"body2.tau[1]\" = 0.3\n";
  const auto s = parse_scenario_string(p.text(), "t");
  const auto& cases = steady_study(s).cases();
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[1].label, "second branch");
  EXPECT_EQ(cases[1].input_form.body_tau[1], (std::vector<double>{0.1, 0.3}));
  EXPECT_DOUBLE_EQ(cases[1].body2.branches[1].c(0, 0), 0.3 * 360.0);  // eq. 58: c = tau k02
  EXPECT_DOUBLE_EQ(cases[1].body2.branches[0].c(0, 0), 0.1 * 360.0);
  EXPECT_DOUBLE_EQ(cases[0].body2.branches[1].c(0, 0), 0.1 * 360.0);
  p.extra = "[[case]]\n\"body2.tau[2]\" = 0.3\n";
  // Its errors name the key as written in the [[case]], also in a file of one case.
  EXPECT_EQ(error_of(p.text()), "case[0].\"body2.tau[2]\": body2 has 2 branches (indices 0 to 1)");
  p.extra = "[[case]]\n\"body2.tau[1]\" = \"fast\"\n[[case]]\n";
  EXPECT_EQ(error_of(p.text()), "case[0].\"body2.tau[1]\" = \"fast\": a key path in a [[case]] takes a number");
  p.extra = "[[case]]\n[[case]]\n\"law.mu_d\" = -1\n";
  EXPECT_EQ(error_of(p.text()), "case 2 of 2 (case 2): case[1].\"law.mu_d\" = -1: must be > 0");
}

// A [[case]] of numbers the file writes is set by key path where that is what writing the keys gives: Dahl's mu, mu_s
// and mu_d depend on the keys written, so such a case is its table over the file's, parsed.
TEST(LineScenarioCases, DahlMuKeysOfACaseFollowTheFilesRules) {
  const std::string dahl = "[law]\ntype = \"dahl\"\nmu = 0.5\n";
  const std::string dahl2 = "[law]\ntype = \"dahl\"\nmu_s = 0.5\nmu_d = 0.5\n";
  Steady p;
  p.law = dahl;
  p.extra = "[[case]]\nlaw.mu_s = 0.6\n";
  EXPECT_EQ(error_of(p.text()), "key \"law.mu_s\" cannot be combined with law.mu; give either mu or mu_s and mu_d");
  p.law = dahl2;
  EXPECT_EQ(error_of(p.text()), "law.mu_s = 0.6: the Dahl law has a constant friction coefficient, mu_s must equal "
                                "mu_d = 0.5 (use \"lugre\" for a Stribeck curve)");
  p.law = "[law]\ntype = \"dahl\"\n[law.axis1]\nmu = 0.5\n[law.axis2]\nmu_s = 0.4\nmu_d = 0.4\n";
  p.extra = "[[case]]\nlaw.axis2.mu_s = 0.6\n[[case]]\n";
  EXPECT_EQ(error_of(p.text()), "case 1 of 2 (case 1): law.axis2.mu_s = 0.6: the Dahl law has a constant friction "
                                "coefficient, mu_s must equal mu_d = 0.4 (use \"lugre\" for a Stribeck curve)");
  p.extra = "[[case]]\nlaw.axis1.mu_d = 0.6\n[[case]]\n";
  EXPECT_EQ(error_of(p.text()), "case 1 of 2 (case 1): key \"law.axis1.mu_d\" cannot be combined with law.axis1.mu; "
                                "give either mu or mu_s and mu_d");
  // Both written: accepted, as the file would be.
  p.law = dahl2;
  p.extra = "[[case]]\nlaw.mu_s = 0.6\nlaw.mu_d = 0.6\n[[case]]\n";
  const auto s = parse_scenario_string(p.text(), "t");
  const auto& cases = steady_study(s).cases();
  EXPECT_EQ(cases[0].law.M.axis1.mu_s, 0.6);
  EXPECT_EQ(cases[0].law.M.axis1.mu_d, 0.6);
  EXPECT_EQ(cases[1].law.M.axis1.mu_d, 0.5);
}

TEST(LineScenarioCases, IntegersBeyondTwoToThe53AreReadAsTheReaderReadsThem) {
  Steady p;
  p.extra = "[[case]]\nline.normal_load_N = 9007199254740993\n";
  auto s = parse_scenario_string(p.text(), "t");
  EXPECT_EQ(steady_study(s).cases().front().line.normal_load_N, 9007199254740992.0);
  p.extra = "[[case]]\nbody1.k0 = 9007199254740993\n[[case]]\n";
  s = parse_scenario_string(p.text(), "t");
  EXPECT_EQ(steady_study(s).cases().front().body1.k_elastic(0, 0), 9007199254740992.0);
  p.extra.clear();
  p.body1 = "[body1]\ntype = \"gkv\"\nk0 = 9007199254740993\nc = [100.0, 50.0]\ntau = [0.1, 0.1]\n";  // eq. 58
  s = parse_scenario_string(p.text(), "t");
  EXPECT_EQ(steady_study(s).cases().front().body1.k_elastic(0, 0), 9007199254740992.0);
}

TEST(LineScenarioCases, TheSweepAppliesToTheFileAsWritten) {
  // The sweep cuts branches and sets relaxation times on the parsed file: a file valid only with the sweep applied
  // (9eae582 wrote the values into the TOML first) is refused with the file's own message.
  Steady p;
  p.body2 = "[body2]\ntype = \"gkv\"\nc = \"eq58\"\n";  // no tau: elastic under n2 = 0
  p.extra = "[sweep]\nn2 = [0]\n";
  EXPECT_EQ(error_of(p.text()),
            "missing key \"body2.tau\" (required: branch relaxation times tau_i,2 (s), one per branch; body2.c = "
            "\"eq58\" gives c from them)");
  p.body2 = "[body2]\ntype = \"gkv\"\nc = \"eq58\"\ntau = [0.1, 0]\n";
  p.extra = "[sweep]\ntau2 = [0.5]\n";
  EXPECT_EQ(error_of(p.text()), "body2.tau[1] = 0: must be > 0");
  p.body2 = "[body2]\ntype = \"gkv\"\nk0 = 300\nc = [10.0, -5.0]\ntau = [0.1, 0.1]\n";
  p.pair.clear();
  p.extra = "[sweep]\nn2 = 1\n";
  EXPECT_EQ(error_of(p.text()), "body2.c[1] = -5: must be > 0");
  // The file's errors come before the sweep's.
  p = Steady{};
  p.line = "[line]\nL_m = -1\nnormal_load_N = 10.0\n";
  p.extra = "[sweep]\nn2 = [3]\n";
  EXPECT_EQ(error_of(p.text()), "line.L_m = -1: must be > 0");
  p.line = Steady{}.line;
  EXPECT_EQ(error_of(p.text()),
            "sweep.n2[0] = 3: body2 has only 2 branches (2 entries in body2.tau); the sweep asks for 3");
  // A valid file: GM's n1 = 0 leaves K0 = K_inf.
  p = Steady{};
  p.body2 = "[body2]\ntype = \"elastic\"\nk0 = 300.0\n";
  p.pair.clear();
  p.body1 = "[body1]\ntype = \"gm\"\nk_inf = 240.0\nk = [100.0, 50.0]\ntau = [0.1, 0.1]\n";
  p.extra = "[sweep]\nn1 = 0\n";
  auto s = parse_scenario_string(p.text(), "t");
  EXPECT_EQ(steady_study(s).cases().front().body1.kind, rheology::RheologyKind::elastic);
  EXPECT_EQ(steady_study(s).cases().front().body1.k_elastic(0, 0), 240.0);
  // A [[case]]'s pair.s is applied before the sweep's s replaces it.
  p = Steady{};
  p.extra = "[sweep]\ns = [0.3, 0.6]\n[[case]]\npair.s = 0.5\n";
  s = parse_scenario_string(p.text(), "t");
  ASSERT_EQ(steady_study(s).cases().size(), 2u);
  EXPECT_EQ(steady_study(s).cases()[0].pair_s, 0.3);
  EXPECT_EQ(steady_study(s).cases()[1].pair_s, 0.6);
  p.extra = "[sweep]\ns = [0.3, 0.6]\n[[case]]\npair.s = 1.5\n";
  EXPECT_EQ(error_of(p.text()), "case 1 of 2 (case 1, s = 0.3): pair.s = 1.5: must lie in (0, 1)");
  // The [[case]] tables are read first; a file without [body2] cannot have its branches swept.
  p = Steady{};
  p.extra = "[[case]]\nkind = \"line_steady\"\n[sweep]\ns = [2]\n";
  EXPECT_EQ(error_of(p.text()),
            "key \"case[0].kind\" cannot be set in a [[case]] (it applies to the whole scenario)");
  // The case count is checked before it is formed (four lists of 2^16 values would wrap a 64-bit count to 0).
  p = Steady{};
  const auto many = [](std::string_view value) {
    std::string list = "[";
    for (int i = 0; i < 65536; ++i) list += fmt::format("{}{}", i ? ", " : "", value);
    return list + "]";
  };
  p.extra = "[sweep]\ns = " + many("0.5") + "\nn1 = " + many("1") + "\nn2 = " + many("1") + "\ntau2 = " +
            many("0.5") + "\n";
  EXPECT_EQ(error_of(p.text()),
            "the [[case]] tables and [sweep] give 18446744073709551616 cases; at most 10000 are allowed");
  // The messages name the case's own [body2] table where the case gives one.
  p = Steady{};
  p.body2.clear();
  p.extra = "[[case]]\nbody2 = { type = \"elastic\" }\n[sweep]\nn2 = [1]\n";
  EXPECT_EQ(error_of(p.text()),
            "sweep.n2[0] = 1: body2.type = \"elastic\" has no dissipative branches; give body2.type = \"gkv\" (or "
            "\"gm\") with at least 1 entry in its branch lists");
  p.extra = "[[case]]\nbody2 = { type = \"elastic\" }\n[sweep]\ntau2 = [0.2]\n";
  EXPECT_EQ(error_of(p.text()),
            "sweep.tau2[0] = 0.2: body2 has no dissipative branches (body2.type = \"elastic\"); the relaxation times "
            "apply to type \"gkv\" or \"gm\"");
  p.extra = "[sweep]\nn2 = [1]\n";
  EXPECT_EQ(error_of(p.text()),
            "sweep.n2[0] = 1: needs a [body2] table of type \"gkv\" (or \"gm\") with at least 1 branch");
}

TEST(LineScenarioCases, AKeyPathNamesAOneEntryListAsItsKeyPath) {
  // kinematics.V_mps = [1.0]: the key path is kinematics.V_mps (V_mps[0] is refused), and so is its message.
  Steady p;
  p.kinematics = "[kinematics]\nmode = \"sliding\"\nV_mps = [1.0]\n";
  const auto s = parse_scenario_string(p.text(), "t");
  LineSteadyScenario sc = steady_study(s).cases().front();
  try {
    set_number(sc, "kinematics.V_mps", -1.0);
    ADD_FAILURE() << "accepted";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()).substr(0, 45), "kinematics.V_mps = -1: negative sliding speed");
  }
  EXPECT_EQ(sc.velocities.front(), 1.0);
}

TEST(LineScenario, TransientModesAndDefaults) {
  Transient p;
  auto s = parse_scenario_string(p.text(), "t");
  const LineTransientScenario& sc = transient_study(s).cases().front();
  EXPECT_EQ(sc.mode, LineMode::sliding);
  EXPECT_EQ(sc.line.V1(0.3), 0.0);
  EXPECT_EQ(sc.line.V2(0.3), 0.1);
  EXPECT_EQ(sc.line.cells, 20);
  EXPECT_DOUBLE_EQ(sc.line.cfl, 0.9);
  EXPECT_EQ(sc.line.dt_s, 0.0);
  EXPECT_EQ(sc.line.limiter, transport::Limiter::van_leer);
  EXPECT_EQ(sc.line.source_scheme, transport::SourceScheme::automatic);
  EXPECT_EQ(sc.output_times().size(), 11u);

  p.kinematics = "[kinematics]\nmode = \"rolling\"\nVr = 16\nVx = 12.8\n";
  p.time = "[time]\nt_end_s = 0.5\noutputs = 11\nfield_times_s = [0.07, 0.1]\n";
  s = parse_scenario_string(p.text(), "t");
  const LineTransientScenario& r = transient_study(s).cases().front();
  EXPECT_EQ(r.line.V1(0.0), 16.0);
  EXPECT_EQ(r.line.V2(0.0), 12.8);
  EXPECT_FALSE(r.allow_reversal);
  // 0.07 joins the grid, 0.1 is on it.
  EXPECT_EQ(r.output_times().size(), 12u);

  p.kinematics =
      "[kinematics]\nmode = \"general\"\nV1 = 0\n[kinematics.V2]\ntype = \"sine\"\namplitude = 0.2\nomega = 3\n";
  s = parse_scenario_string(p.text(), "t");
  EXPECT_TRUE(transient_study(s).cases().front().allow_reversal);  // the default of mode "general"
}

// ---------------------------------------------------------------------------------------------
// Runs

TEST(LineScenario, SteadyRunWritesTheContractColumns) {
  Steady p;
  p.extra = "[sweep]\nn2 = [0, 2]\n";
  const auto s = parse_scenario_string(p.text(), "t");
  const RunResult r = s->run();
  ASSERT_EQ(r.cases.size(), 2u);
  EXPECT_EQ(r.case_labels, (std::vector<std::string>{"n2 = 0", "n2 = 2"}));
  const std::string csv = csv_text(r);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "s,n1,n2,V_mps,mu,Fx_N,Fx_norm,Fx_abs_N,Fx_norm_abs");
  // eq. 57 at V = 0.1 m/s (n2 = 0), mu(0.1) from eq. 53.
  const double mu = 0.7 + 0.3 * std::exp(-(0.1 / 6.0) * (0.1 / 6.0));
  const double a = 0.6 * 240.0 * 0.2 / (0.4 * mu);
  const double expected = -(a + std::expm1(-a)) / a;
  EXPECT_NEAR(r.cases[0].series.column("Fx_norm")[0], expected, 1e-10 * std::abs(expected));
  EXPECT_NEAR(r.cases[0].series.column("Fx_N")[0], expected * mu * 10.0, 1e-10 * std::abs(expected * mu * 10.0));
  // More branches, smaller force.
  EXPECT_LT(r.cases[1].series.column("Fx_abs_N")[0], r.cases[0].series.column("Fx_abs_N")[0]);
  EXPECT_EQ(r.report.find("kind")->dump(0), "\"line_steady\"");
  // The plot: one line per case with its label; a linear axis for a list of velocities.
  const std::string script = gnuplot_script(r, "/tmp/x.png");
  EXPECT_NE(script.find("title 'n2 = 0'"), std::string::npos);
  EXPECT_NE(script.find("title 'n2 = 2'"), std::string::npos);
  EXPECT_NE(script.find("set ylabel 'Fx_norm_abs'"), std::string::npos);
  EXPECT_EQ(script.find("set logscale x"), std::string::npos);
  p.kinematics = "[kinematics]\nmode = \"sliding\"\nV_mps = { from = 0.1, to = 10, points = 3, spacing = \"log\" }\n";
  EXPECT_NE(gnuplot_script(parse_scenario_string(p.text(), "t")->run(), "/tmp/x.png").find("set logscale x"),
            std::string::npos);
}

TEST(LineScenario, TransientFieldsGoToAnExtraCsvWithEveryCase) {
  Transient p;
  p.line = kLine + "cells = 4\n";
  p.time = "[time]\nt_end_s = 0.2\noutputs = 3\nfield_times_s = [0.05, 0.2]\n";
  p.extra = "[sweep]\nn = [0, 1]\n";
  const auto s = parse_scenario_string(p.text(), "t");
  const RunResult r = s->run();
  ASSERT_EQ(r.cases.size(), 2u);
  EXPECT_EQ(r.cases[0].series.rows(), 4u);  // 0, 0.05, 0.1, 0.2
  const std::string csv = csv_text(r);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "s,n1,n2,n,t_s,V1_mps,V2_mps,vr_mps,vr_y_mps,Fx_N,Fy_N,W_J,P_supplied_W,E_supplied_J,P_dissipated_W,"
            "Fx_abs_N");
  ASSERT_EQ(r.extra_files.size(), 1u);
  EXPECT_EQ(r.extra_files[0].suffix, "_fields.csv");
  const std::string& fields = r.extra_files[0].text;
  std::istringstream in(fields);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "s,n1,n2,n,t_s,xi_m,p_N_per_m,f_x,f_y,z1_1_x_m,z1_1_y_m,z2_1_x_m,z2_1_y_m");
  int rows = 0, empty_branch_cells = 0;
  while (std::getline(in, line)) {
    ++rows;
    if (line.size() >= 4 && line.substr(line.size() - 4) == ",,,,") ++empty_branch_cells;
  }
  EXPECT_EQ(rows, 2 * 2 * 4);            // cases x field times x cells
  EXPECT_EQ(empty_branch_cells, 2 * 4);  // n = 0 has no branch columns
  // Written atomically with the others.
  TempDir dir;
  WriteOptions o;
  o.plot = false;
  const auto files = write_outputs(r, dir.path(), o);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(read(dir.path() / "t_fields.csv"), fields);
  const fs::path failed = dir.path() / "failed";
  o.plot = true;
  o.gnuplot = "/nonexistent/gnuplot";
  EXPECT_THROW(write_outputs(r, failed, o), OutputError);
  EXPECT_FALSE(fs::exists(failed));
  // A field time within 1e-9 of an output time adds none: its field is the output time's, on either side (the
  // library takes fields at output times only; helper-47 found 0.1 + 1e-11 refused after check passed).
  for (const char* near : {"0.10000000001", "0.09999999999"}) {
    p.time = std::string("[time]\nt_end_s = 0.2\noutputs = 3\nfield_times_s = [") + near + "]\n";
    const RunResult n = parse_scenario_string(p.text(), "t")->run();
    EXPECT_EQ(n.cases[0].series.rows(), 3u) << near;  // 0, 0.1, 0.2
    const std::string& f = n.extra_files.at(0).text;
    EXPECT_NE(f.find("\n0.4,0,0,0,0.1,0.025,"), std::string::npos) << near << ": " << f.substr(0, 300);
  }
}

TEST(LineScenario, TransientEndsAtTheSteadyValue) {
  Transient p;
  p.time = "[time]\nt_end_s = 3\noutputs = 7\n";
  const auto s = parse_scenario_string(p.text(), "t");
  const RunResult r = s->run();
  const double final_fx = r.cases[0].series.column("Fx_N").back();
  const Json* steady = r.report.find("cases");
  ASSERT_NE(steady, nullptr);
  const LineTransientScenario& sc = transient_study(s).cases().front();
  const contact::ContactModel model(sc.law, sc.body1, sc.body2);
  const double expected = transport::steady_state(model, sc.line, 0.0, 0.1).force_N[0];
  EXPECT_NEAR(final_fx, expected, 0.01 * std::abs(expected));
}

// The "steps" count of the first case in a report's JSON text.
long steps_in(const std::string& json) {
  const std::string key = "\"steps\": ";
  const auto at = json.find(key);
  return at == std::string::npos ? -1 : std::stol(json.substr(at + key.size()));
}

TEST(LineScenario, InterpolatedOutputsKeepTheSolverSteps) {
  // 101 outputs 5 ms apart, CFL step 90 ms: landing on every output shortens the steps.
  Transient landing;
  landing.time = "[time]\nt_end_s = 0.5\noutputs = 101\n";
  Transient interpolated = landing;
  interpolated.line = kLine + "cells = 20\ninterpolate_outputs = true\n";
  const auto s_landing = parse_scenario_string(landing.text(), "t");
  const auto s_interpolated = parse_scenario_string(interpolated.text(), "t");
  EXPECT_FALSE(transient_study(s_landing).cases().front().line.interpolate_outputs);
  EXPECT_TRUE(transient_study(s_interpolated).cases().front().line.interpolate_outputs);
  const RunResult a = s_landing->run();
  const RunResult b = s_interpolated->run();
  const std::string json_a = a.report.dump(), json_b = b.report.dump();
  EXPECT_NE(json_b.find("\"interpolate_outputs\": true"), std::string::npos);
  EXPECT_NE(json_a.find("\"interpolate_outputs\": false"), std::string::npos);
  const long steps_a = steps_in(json_a), steps_b = steps_in(json_b);
  EXPECT_GE(steps_a, 100);
  EXPECT_GT(steps_b, 0);
  EXPECT_LT(steps_b, steps_a / 5);
  const auto& fa = a.cases[0].series.column("Fx_N");
  const auto& fb = b.cases[0].series.column("Fx_N");
  ASSERT_EQ(fa.size(), fb.size());
  double scale = 0.0, diff = 0.0;
  for (std::size_t i = 0; i < fa.size(); ++i) {
    scale = std::max(scale, std::abs(fa[i]));
    diff = std::max(diff, std::abs(fa[i] - fb[i]));
  }
  EXPECT_GT(scale, 0.0);
  EXPECT_LT(diff, 0.05 * scale);  // two second-order solutions on 20 cells, different steps
  EXPECT_GT(diff, 0.0);           // and they are different solutions
  interpolated.line = kLine + "interpolate_outputs = \"yes\"\n";
  EXPECT_EQ(error_of(interpolated.text()), "line.interpolate_outputs = \"yes\": must be true or false");
}

TEST(LineScenario, FixedStepAtTheStabilityLimitIsAccepted) {
  Transient p;
  // dx = 0.01 m, fastest speed V_x = 0.1 m/s: dx/|c| = 0.1 s.
  p.line = kLine + "cells = 20\ndt_s = 0.1\n";
  p.time = "[time]\nt_end_s = 0.5\noutputs = 6\n";
  const auto s = parse_scenario_string(p.text(), "t");
  EXPECT_NO_THROW(s->run());
}

// ---------------------------------------------------------------------------------------------
// Exact error messages

TEST(LineScenarioErrors, SOutsideTheOpenUnitInterval) {
  Steady p;
  for (const char* s : {"0", "1", "1.2"}) {
    p.pair = std::string("[pair]\ns = ") + s + "\n";
    EXPECT_EQ(error_of(p.text()), std::string("pair.s = ") + s + ": must lie in (0, 1)");
  }
  p.pair = kPair;
  p.extra = "[sweep]\ns = [0.2, 1.2]\n";
  EXPECT_EQ(error_of(p.text()), "sweep.s[1] = 1.2: must lie in (0, 1)");
  // Without s and without a substrate stiffness.
  p = Steady{};
  p.pair = "";
  p.body2 = "";
  EXPECT_EQ(error_of(p.text()),
            "missing key \"pair.s\" (required: stiffness ratio s = k01/(k01 + k02) in (0, 1) of the "
            "line contact; or give [body2] with its k0)");
  p.body2 = "[body2]\ntype = \"elastic\"\nk0 = 360\n";
  EXPECT_EQ(error_of(p.text()), "(no error)");
}

TEST(LineScenarioErrors, LengthAndCells) {
  Steady p;
  p.line = "[line]\nL_m = 0\nnormal_load_N = 10.0\n";
  EXPECT_EQ(error_of(p.text()), "line.L_m = 0: must be > 0");
  p.line = "[line]\nL_m = -0.2\nnormal_load_N = 10.0\n";
  EXPECT_EQ(error_of(p.text()), "line.L_m = -0.2: must be > 0");
  p.line = "[line]\nL_m = nan\nnormal_load_N = 10.0\n";
  EXPECT_EQ(error_of(p.text()), "line.L_m = nan: must be finite");
  p.line = "[line]\nnormal_load_N = 10.0\n";
  EXPECT_EQ(error_of(p.text()), "missing key \"line.L_m\" (required: contact length L, m)");
  Transient t;
  t.line = kLine + "cells = 1\n";
  EXPECT_EQ(error_of(t.text()), "line.cells = 1: must be >= 2");
  t.line = kLine + "cells = 2.5\n";
  EXPECT_EQ(error_of(t.text()), "line.cells = 2.5: must be an integer");
  p = Steady{};
  p.line = kLine + "cells = 10\n";
  EXPECT_EQ(error_of(p.text()),
            "key \"line.cells\" does not apply to kind = \"line_steady\" (valid keys here: L_m, "
            "normal_load_N, pressure, pressure_table)");
}

TEST(LineScenarioErrors, BranchCountsThatDoNotMatchTheLists) {
  Steady p;
  p.body2 = "[body2]\ntype = \"gkv\"\nc = [18.0, 21.6]\ntau = [0.3]\n";
  EXPECT_EQ(error_of(p.text()), "body2.tau has 1 entry but body2.c has 2; give one per branch");
  p.extra = "[sweep]\nn2 = [1]\n";  // checked before the lists are cut
  EXPECT_EQ(error_of(p.text()), "body2.tau has 1 entry but body2.c has 2; give one per branch");
  p = Steady{};
  p.extra = "[sweep]\nn2 = [0, 1, 3]\n";
  EXPECT_EQ(error_of(p.text()),
            "case 3 of 3 (n2 = 3): sweep.n2[2] = 3: body2 has only 2 branches (2 entries in "
            "body2.tau); the sweep asks for 3");
  p.extra = "[sweep]\nn = [2, 3]\n";
  EXPECT_EQ(error_of(p.text()),
            "case 2 of 2 (n = 3): sweep.n[1] = 3: body1 has only 2 branches (2 entries in "
            "body1.c and body1.tau); the sweep asks for 3");
  p.body2 = "[body2]\ntype = \"elastic\"\n";
  p.extra = "[sweep]\nn2 = [0, 1]\n";
  EXPECT_EQ(error_of(p.text()),
            "case 2 of 2 (n2 = 1): sweep.n2[1] = 1: body2.type = \"elastic\" has no dissipative "
            "branches; give body2.type = \"gkv\" (or \"gm\") with at least 1 entry in its branch "
            "lists");
  p = Steady{};
  p.extra = "[sweep]\nn2 = [1.5]\n";
  EXPECT_EQ(error_of(p.text()), "sweep.n2[0] = 1.5: must be a whole number of branches >= 0");
}

TEST(LineScenarioErrors, Eq58) {
  Steady p;
  p.body2 = "[body2]\ntype = \"gkv\"\nc = \"eq57\"\ntau = [0.1]\n";
  EXPECT_EQ(error_of(p.text()),
            "body2.c = \"eq57\": must be an array of branch dampings (s/m) or \"eq58\" (c_i,2 = "
            "tau_i,2 k01 (1 - s)/s, paper 1 eq. 58); did you mean \"eq58\"?");
  p.body2 = "[body2]\ntype = \"gkv\"\nc = \"eq58\"\n";
  EXPECT_EQ(error_of(p.text()),
            "missing key \"body2.tau\" (required: branch relaxation times tau_i,2 (s), one per "
            "branch; body2.c = \"eq58\" gives c from them)");
  p.body2 = "[body2]\ntype = \"gkv\"\nc = \"eq58\"\ntau = [0.1, 0]\n";
  EXPECT_EQ(error_of(p.text()), "body2.tau[1] = 0: must be > 0");
  p.body2 = "[body2]\ntype = \"gkv\"\nk0 = 360\nc = \"eq58\"\ntau = 0.2\n";
  p.pair = "";
  const auto s = parse_scenario_string(p.text(), "t");
  EXPECT_DOUBLE_EQ(steady_study(s).cases().front().body2.branches[0].c(0, 0), 72.0);
}

TEST(LineScenarioErrors, FixedStepBeyondStability) {
  Transient p;
  p.line = kLine + "cells = 20\ndt_s = 0.2\n";
  EXPECT_EQ(
      error_of(p.text()),
      "line.dt_s = 0.2: beyond the stability limit of the transport scheme: at t = 0 s the fastest characteristic "
      "moves at 0.1 m/s, so the largest stable step is dx / |c| = 0.09999999999999999 s (dx = line.L_m / "
      "line.cells = 0.01 m); use a smaller line.dt_s, or line.dt_s = 0 for the automatic step");
  // The fastest moment of a ramp is found (here its end, 0.1 + 0.5 = 0.6 m/s at t = 0.5 s).
  p.line = kLine + "cells = 20\ndt_s = 0.05\n";
  p.kinematics = "[kinematics]\nmode = \"sliding\"\n[kinematics.Vx]\ntype = \"ramp\"\nstart = 0.1\nrate = 1\n";
  const std::string e = error_of(p.text());
  EXPECT_EQ(e.rfind("line.dt_s = 0.05: beyond the stability limit of the transport scheme: at t = 0.5 s the fastest "
                    "characteristic moves at 0.6 m/s",
                    0),
            0u)
      << e;
  // Rolling: the body-1 family at V_r = 16 m/s is the fastest.
  p.kinematics = "[kinematics]\nmode = \"rolling\"\nVr = 16\nVx = 12.8\n";
  p.line = kLine + "cells = 20\ndt_s = 0.001\n";
  EXPECT_NE(error_of(p.text()).find("moves at 16 m/s"), std::string::npos);
}

TEST(LineScenarioErrors, NegativeVelocityWhereForbidden) {
  const std::string rule_sliding =
      "reversals are forbidden by kinematics.allow_reversal = false (the default for "
      "kinematics.mode = \"sliding\"); set kinematics.allow_reversal = true to allow them";
  Steady p;
  p.kinematics = "[kinematics]\nmode = \"sliding\"\nV_mps = [0.1, -1.0]\n";
  EXPECT_EQ(error_of(p.text()), "kinematics.V_mps[1] = -1: negative sliding speed; " + rule_sliding);
  p.kinematics = "[kinematics]\nmode = \"sliding\"\nV_mps = { from = -1, to = 1, points = 3 }\n";
  EXPECT_EQ(error_of(p.text()), "kinematics.V_mps.from = -1: negative sliding speed; " + rule_sliding);
  p.kinematics = "[kinematics]\nmode = \"sliding\"\nV_mps = [0.1, -1.0]\nallow_reversal = true\n";
  EXPECT_EQ(error_of(p.text()), "(no error)");
  p.kinematics = "[kinematics]\nmode = \"rolling\"\nVr_mps = 16\nvx_mps = { from = -20, to = 5, points = 6 }\n";
  EXPECT_EQ(error_of(p.text()),
            "kinematics.vx_mps.from = -20: gives V_x = V_r + v_x = -4 m/s < 0; reversals are "
            "forbidden by kinematics.allow_reversal = false (the default for kinematics.mode = "
            "\"rolling\"); set kinematics.allow_reversal = true to allow them");

  Transient t;
  t.kinematics = "[kinematics]\nmode = \"sliding\"\nVx = -0.1\n";
  EXPECT_EQ(error_of(t.text()), "kinematics.Vx = -0.1: negative velocity; " + rule_sliding);
  t.kinematics =
      "[kinematics]\nmode = \"sliding\"\n[kinematics.Vx]\ntype = \"table\"\ntimes = [0, 1]\nvalues = [0.1, -0.1]\n";
  EXPECT_EQ(error_of(t.text()), "kinematics.Vx.values[1] = -0.1: negative velocity; " + rule_sliding);
  t.kinematics = "[kinematics]\nmode = \"sliding\"\n[kinematics.Vx]\ntype = \"step\"\nbefore = 0.1\nafter = -0.2\n";
  EXPECT_EQ(error_of(t.text()), "kinematics.Vx.after = -0.2: negative velocity; " + rule_sliding);
  t.kinematics = "[kinematics]\nmode = \"sliding\"\n[kinematics.Vx]\ntype = \"ramp\"\nstart = 0.1\nrate = -1\n";
  EXPECT_EQ(error_of(t.text()), "kinematics.Vx (ramp) reaches -0.4 at t = 0.5 s: negative velocity; " + rule_sliding);
  // A sine: its minimum inside the run (omega t = 3 pi/2 at t = 0.5 pi) counts, not outside it.
  t.time = "[time]\nt_end_s = 2\n";
  t.kinematics =
      "[kinematics]\nmode = \"sliding\"\n[kinematics.Vx]\ntype = \"sine\"\noffset = 0.05\namplitude = 0.1\n"
      "omega = 3\n";
  EXPECT_EQ(error_of(t.text()),
            "kinematics.Vx (sine) reaches -0.05 at t = 1.5707963267948966 s: negative velocity; " + rule_sliding);
  t.time = "[time]\nt_end_s = 1\n";
  EXPECT_EQ(error_of(t.text()), "(no error)");
  t.kinematics = "[kinematics]\nmode = \"rolling\"\nVr = 16\nVx = -12.8\n";
  EXPECT_EQ(error_of(t.text()),
            "kinematics.Vx = -12.8: negative velocity; reversals are forbidden by "
            "kinematics.allow_reversal = false (the default for kinematics.mode = \"rolling\"); set "
            "kinematics.allow_reversal = true to allow them");
  t.kinematics = "[kinematics]\nmode = \"general\"\nallow_reversal = false\nV1 = -1\nV2 = 0.1\n";
  EXPECT_EQ(error_of(t.text()),
            "kinematics.V1 = -1: negative velocity; reversals are forbidden by "
            "kinematics.allow_reversal = false; set kinematics.allow_reversal = true to allow them");
}

TEST(LineScenarioErrors, UnknownKeysWithSuggestion) {
  Steady p;
  p.top = "kind = \"line_steady\"\nlines = 1\n";
  EXPECT_EQ(error_of(p.text()), "unknown key \"lines\"; did you mean \"line\"?");
  p = Steady{};
  p.line = kLine + "L_mm = 1\n";
  EXPECT_EQ(error_of(p.text()), "unknown key \"line.L_mm\"; did you mean \"line.L_m\"?");
  p = Steady{};
  p.kinematics = "[kinematics]\nmode = \"sliding\"\nV_mpss = [1]\n";
  EXPECT_EQ(error_of(p.text()), "unknown key \"kinematics.V_mpss\"; did you mean \"kinematics.V_mps\"?");
  p.kinematics = "[kinematics]\nmode = \"sliding\"\nVr_mps = 1\nV_mps = [1]\n";
  EXPECT_EQ(error_of(p.text()),
            "key \"kinematics.Vr_mps\" does not apply to kinematics.mode = \"sliding\" (valid keys "
            "here: mode, allow_reversal, V_mps)");
  p.kinematics = "[kinematics]\nmode = \"slidng\"\nV_mps = [1]\n";
  EXPECT_EQ(error_of(p.text()),
            "kinematics.mode = \"slidng\": unknown mode (valid: sliding, rolling); did you mean "
            "\"sliding\"?");
  p = Steady{};
  p.extra = "[sweep]\ntau3 = [1]\n";
  EXPECT_EQ(error_of(p.text()), "unknown key \"sweep.tau3\"; did you mean \"sweep.tau1\"?");
  p.extra = "[output]\nplot_y = \"Fx_abs\"\n";
  EXPECT_EQ(error_of(p.text()),
            "output.plot_y[0] = \"Fx_abs\": unknown column; did you mean \"Fx_abs_N\"? (columns: s, "
            "n1, n2, V_mps, mu, Fx_N, Fx_norm, Fx_abs_N, Fx_norm_abs)");
  Transient t;
  t.time = "[time]\nt_end_s = 1\nfield_time_s = [0.5]\n";
  EXPECT_EQ(error_of(t.text()), "unknown key \"time.field_time_s\"; did you mean \"time.field_times_s\"?");
  t = Transient{};
  t.extra = "[[case]]\nline.cels = 3\n";
  EXPECT_EQ(error_of(t.text()), "unknown key \"line.cels\"; did you mean \"line.cells\"?");
  t.extra = "[[case]]\nname = \"x\"\n";
  EXPECT_EQ(error_of(t.text()), "key \"case[0].name\" cannot be set in a [[case]] (it applies to the whole scenario)");
}

TEST(LineScenarioErrors, LibraryMessagesNameTheTomlKeys) {
  Steady p;
  p.line = kLine + "pressure = \"table\"\n[line.pressure_table]\nxi_m = [0, 0.1]\nvalues = [1, 1]\n";
  EXPECT_EQ(error_of(p.text()),
            "line.pressure_table.xi_m: the table covers [0, 0.1] m; it must cover the contact "
            "[0, 0.2] m");
  p.line = kLine + "pressure = \"table\"\n[line.pressure_table]\nxi_m = [0, 0.3]\nvalues = [1, -1]\n";
  EXPECT_EQ(error_of(p.text()), "line.pressure_table.values[1] = -1: must be >= 0");
  p.line = kLine + "pressure = \"parabola\"\n";
  EXPECT_EQ(error_of(p.text()),
            "line.pressure = \"parabola\": unknown pressure distribution (valid: uniform, "
            "parabolic, table); did you mean \"parabolic\"?");
  p.line = kLine + "[line.pressure_table]\nxi_m = [0, 0.3]\nvalues = [1, 1]\n";
  EXPECT_EQ(error_of(p.text()),
            "key \"line.pressure_table\" applies only with line.pressure = \"table\" (line.pressure "
            "is \"uniform\")");
  Transient t;
  t.line = kLine + "limiter = \"vanleer\"\n";
  EXPECT_EQ(error_of(t.text()),
            "line.limiter = \"vanleer\": unknown slope limiter (valid: none, minmod, van_leer, mc); "
            "did you mean \"van_leer\"?");
  t.line = kLine + "source_scheme = \"exact\"\n";
  EXPECT_EQ(error_of(t.text()).rfind("line.source_scheme = \"exact\": unknown", 0), 0u) << error_of(t.text());
  t.law = "[law]\ntype = \"bouc_wen\"\n";
  t.line = kLine + "source_scheme = \"exponential\"\n";
  EXPECT_EQ(error_of(t.text()),
            "line.source_scheme = \"exponential\": needs a source affine in the state; law.type = "
            "\"bouc_wen\" is not (use \"sdirk2\" or \"automatic\")");
  t.law = kLaw;
  t.line = kLine + "cfl = 1.5\n";
  EXPECT_EQ(error_of(t.text()), "line.cfl = 1.5: must lie in (0, 1] (the scheme is stable for Courant numbers <= 1)");
  t = Transient{};
  t.time = "[time]\nt_end_s = 1\nfield_times_s = [0.5, 2]\n";
  EXPECT_EQ(error_of(t.text()), "time.field_times_s[1] = 2: must lie in [time.t_start_s, time.t_end_s] = [0, 1]");
  t.time = "[time]\nt_end_s = 1\n";
  t.kinematics = "[kinematics]\nmode = \"sliding\"\n";
  EXPECT_EQ(error_of(t.text()),
            "missing key \"kinematics.Vx\" (required: sliding speed V_x(t) (m/s): a number or a "
            "signal table)");
}

}  // namespace
}  // namespace bristle::io
