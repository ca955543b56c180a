// The line-contact scenario kinds through the `bristle` command line: bad inputs (exit code, one error
// line naming the key, no output), and the paper-figure examples (contract columns, eq. 57, the trends
// of Figs. 5-9, transients reaching the steady solver's value).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bristle/contact/contact_model.hpp"
#include "bristle/laws/stribeck.hpp"
#include "bristle/rheology/contact_pair.hpp"
#include "bristle/transport/line_contact.hpp"

#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;

using bristle::test::CliResult;
std::string read(const fs::path& p) { return bristle::test::read_text(p); }

/// A CSV file as named columns (all numeric).
struct Csv {
  std::vector<std::string> names;
  std::map<std::string, std::vector<double>> columns;
  std::size_t rows = 0;
  const std::vector<double>& operator[](const std::string& name) const { return columns.at(name); }
  bool has(const std::string& name) const { return columns.count(name) > 0; }
};

Csv read_csv(const fs::path& p) {
  Csv csv;
  std::istringstream in(read(p));
  std::string line;
  std::getline(in, line);
  std::istringstream header(line);
  for (std::string cell; std::getline(header, cell, ',');) csv.names.push_back(cell);
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::size_t k = 0;
    for (std::string cell; std::getline(row, cell, ',') && k < csv.names.size(); ++k)
      csv.columns[csv.names[k]].push_back(cell.empty() ? std::nan("") : std::stod(cell));
    ++csv.rows;
  }
  return csv;
}

class LineCli : public bristle::test::CliTest {
 protected:
  /// Runs an example of examples/ into DIR/out (without the plot unless asked) and reads its CSV.
  Csv run_example(const std::string& stem, bool plot = false) const {
    const fs::path file = fs::path(BRISTLE_SOURCE_DIR) / "examples" / (stem + ".toml");
    const CliResult r = run(fmt::format("run '{}' --out out --quiet{}", file.string(), plot ? "" : " --no-plot"));
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    return read_csv(dir_ / "out" / (stem + ".csv"));
  }
};

// ---------------------------------------------------------------------------------------------
// Bad input: exit code 2, one line naming the key, nothing written (and `check` agrees).

const char* kSteady =
    "kind = \"line_steady\"\n"
    "[law]\ntype = \"frbd\"\nmu_s = 1.0\nmu_d = 0.7\nv_s = 6.0\n"
    "[body1]\ntype = \"gkv\"\nk0 = 240.0\nc = [100.0, 50.0]\ntau = [0.1, 0.1]\n"
    "[body2]\ntype = \"gkv\"\nc = \"eq58\"\ntau = [0.1, 0.1]\n"
    "[line]\nL_m = 0.2\nnormal_load_N = 10.0\n"
    "[kinematics]\nmode = \"sliding\"\nV_mps = [0.1, 1.0]\n";
const char* kTransient =
    "kind = \"line_transient\"\n"
    "[law]\ntype = \"frbd\"\nmu_s = 1.0\nmu_d = 0.7\nv_s = 6.0\n"
    "[body1]\ntype = \"gkv\"\nk0 = 240.0\nc = [100.0, 50.0]\ntau = [0.1, 0.1]\n"
    "[body2]\ntype = \"gkv\"\nc = \"eq58\"\ntau = [0.1, 0.1]\n"
    "[kinematics]\nmode = \"sliding\"\nVx = 0.1\n"
    "[time]\nt_end_s = 0.5\n";

struct BadInput {
  const char* label;
  std::string toml;
  std::string in_message;
};

std::vector<BadInput> bad_inputs() {
  const std::string steady = kSteady, transient = kTransient;
  const std::string line = "[line]\nL_m = 0.2\nnormal_load_N = 10.0\n";
  std::string reversed = transient;
  reversed.replace(reversed.find("Vx = 0.1"), 8, "Vx = -0.1");
  return {
      {"s_0", steady + "[pair]\ns = 0\n", "pair.s = 0: must lie in (0, 1)"},
      {"s_1", steady + "[pair]\ns = 1\n", "pair.s = 1: must lie in (0, 1)"},
      {"s_1_2", steady + "[pair]\ns = 1.2\n", "pair.s = 1.2: must lie in (0, 1)"},
      {"sweep_s_0", steady + "[pair]\ns = 0.4\n[sweep]\ns = [0.2, 0]\n", "sweep.s[1] = 0: must lie in (0, 1)"},
      {"no_s", steady, "body2.c = \"eq58\": needs pair.s"},
      {"L_0", transient + "[pair]\ns = 0.4\n[line]\nL_m = 0\nnormal_load_N = 10\n", "line.L_m = 0: must be > 0"},
      {"L_negative", transient + "[pair]\ns = 0.4\n[line]\nL_m = -0.2\nnormal_load_N = 10\n",
       "line.L_m = -0.2: must be > 0"},
      {"one_cell", transient + "[pair]\ns = 0.4\n" + line + "cells = 1\n", "line.cells = 1: must be >= 2"},
      {"branch_lists", transient + "[pair]\ns = 0.4\n" + line + "[sweep]\nn2 = [2, 3]\n",
       "sweep.n2[1] = 3: body2 has only 2 branches"},
      {"unstable_dt", transient + "[pair]\ns = 0.4\n" + line + "cells = 200\ndt_s = 0.05\n",
       "line.dt_s = 0.05: beyond the stability limit"},
      {"negative_velocity", reversed + "[pair]\ns = 0.4\n" + line,
       "kinematics.Vx = -0.1: negative velocity; reversals are forbidden by kinematics.allow_reversal = false"},
      {"unknown_key", steady + "[pair]\ns = 0.4\nss = 1\n", "unknown key \"pair.ss\"; did you mean \"pair.s\"?"},
  };
}

class LineCliBadInput : public LineCli, public ::testing::WithParamInterface<BadInput> {};

TEST_P(LineCliBadInput, ExitsWith2NamingTheKeyAndWritesNothing) {
  const BadInput& bad = GetParam();
  write(std::string(bad.label) + ".toml", bad.toml);
  const CliResult r = run(fmt::format("run {}.toml --out out", bad.label));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("bristle: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(bad.in_message), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  const CliResult check = run(fmt::format("check {}.toml", bad.label));
  EXPECT_EQ(check.code, 2) << check.err;
  EXPECT_EQ(check.err, r.err);
}

INSTANTIATE_TEST_SUITE_P(AllClasses, LineCliBadInput, ::testing::ValuesIn(bad_inputs()),
                         [](const ::testing::TestParamInfo<BadInput>& info) { return std::string(info.param.label); });

// ---------------------------------------------------------------------------------------------
// The paper-figure examples

constexpr double kK01 = 240.0;

/// Eq. 57 written out independently: F_x/(mu F_z) for uniform pressure, with mu from eq. 53 (Table 1).
double table1_mu(double V) { return 0.7 + 0.3 * std::exp(-(V / 6.0) * (V / 6.0)); }
double eq57(double V, double s, double L) {
  const double mu = table1_mu(V);
  const double a = (1.0 - s) * kK01 * L / (s * mu);
  return -1.0 + (1.0 / a) * (1.0 - std::exp(-a));
}

/// Rows of a long-format CSV grouped by the values of `keys`, in file order.
std::map<std::vector<double>, std::vector<std::size_t>> group(const Csv& csv, const std::vector<std::string>& keys) {
  std::map<std::vector<double>, std::vector<std::size_t>> out;
  for (std::size_t r = 0; r < csv.rows; ++r) {
    std::vector<double> k;
    for (const auto& key : keys) k.push_back(csv[key][r]);
    out[k].push_back(r);
  }
  return out;
}

TEST_F(LineCli, Fig5ContractColumnsEq57AndTrends) {
  const Csv csv = run_example("fig5_sliding_steady", true);
  for (const char* ext : {".csv", ".json", ".png"})
    EXPECT_TRUE(fs::exists(dir_ / "out" / (std::string("fig5_sliding_steady") + ext))) << ext;
  for (const char* c : {"s", "n2", "V_mps", "Fx_N", "Fx_norm"}) EXPECT_TRUE(csv.has(c)) << c;
  ASSERT_EQ(csv.rows, 4u * 3u * 200u);
  // n2 = 0: eq. 57 to 1e-10 relative (F_x and F_x/(mu F_z)).
  std::size_t checked = 0;
  for (std::size_t r = 0; r < csv.rows; ++r) {
    if (csv["n2"][r] != 0.0) continue;
    const double V = csv["V_mps"][r], s = csv["s"][r];
    const double norm = eq57(V, s, 0.2);
    const double force = norm * table1_mu(V) * 10.0;
    EXPECT_NEAR(csv["Fx_norm"][r], norm, 1e-10 * std::abs(norm)) << "s = " << s << ", V = " << V;
    EXPECT_NEAR(csv["Fx_N"][r], force, 1e-10 * std::abs(force)) << "s = " << s << ", V = " << V;
    ++checked;
  }
  EXPECT_EQ(checked, 4u * 200u);
  // Trends of Fig. 5 at every velocity: |F_x| grows as s falls; more substrate branches lower it.
  const auto by_case = group(csv, {"s", "n2"});
  const std::vector<double> s_values{0.2, 0.4, 0.6, 0.8};
  for (double n2 : {0.0, 1.0, 2.0})
    for (std::size_t i = 0; i + 1 < s_values.size(); ++i) {
      const auto& a = by_case.at({s_values[i], n2});
      const auto& b = by_case.at({s_values[i + 1], n2});
      for (std::size_t k = 0; k < a.size(); ++k)
        EXPECT_GT(csv["Fx_abs_N"][a[k]], csv["Fx_abs_N"][b[k]]) << "n2 = " << n2 << ", V = " << csv["V_mps"][a[k]];
    }
  for (double s : s_values)
    for (double n2 : {0.0, 1.0}) {
      const auto& a = by_case.at({s, n2});
      const auto& b = by_case.at({s, n2 + 1.0});
      for (std::size_t k = 0; k < a.size(); ++k)
        EXPECT_GT(csv["Fx_abs_N"][a[k]], csv["Fx_abs_N"][b[k]]) << "s = " << s << ", V = " << csv["V_mps"][a[k]];
    }
}

TEST_F(LineCli, Fig6LongerRelaxationTimesRaiseTheForce) {
  const Csv csv = run_example("fig6_sliding_relaxation");
  for (const char* c : {"s", "n2", "tau2", "V_mps", "Fx_N", "Fx_norm"}) EXPECT_TRUE(csv.has(c)) << c;
  ASSERT_EQ(csv.rows, 4u * 2u * 3u * 200u);
  const auto by_case = group(csv, {"s", "n2", "tau2"});
  const std::vector<double> taus{0.1, 0.3, 0.6};
  for (double s : {0.2, 0.4, 0.6, 0.8})
    for (double n2 : {1.0, 2.0})
      for (std::size_t i = 0; i + 1 < taus.size(); ++i) {
        const auto& a = by_case.at({s, n2, taus[i]});
        const auto& b = by_case.at({s, n2, taus[i + 1]});
        for (std::size_t k = 0; k < a.size(); ++k)
          EXPECT_LT(csv["Fx_abs_N"][a[k]], csv["Fx_abs_N"][b[k]])
              << "s = " << s << ", n2 = " << n2 << ", V = " << csv["V_mps"][a[k]];
      }
}

TEST_F(LineCli, Fig8ContractColumnsAndTrends) {
  const Csv csv = run_example("fig8_rolling_steady");
  for (const char* c : {"s", "n", "vx_mps", "Vr_mps", "Fx_N", "Fx_norm"}) EXPECT_TRUE(csv.has(c)) << c;
  ASSERT_EQ(csv.rows, 4u * 3u * 201u);
  const auto by_case = group(csv, {"s", "n"});
  const std::vector<double> s_values{0.2, 0.4, 0.6, 0.8};
  for (double n : {0.0, 1.0, 2.0}) {
    for (std::size_t i = 0; i + 1 < s_values.size(); ++i) {
      const auto& a = by_case.at({s_values[i], n});
      const auto& b = by_case.at({s_values[i + 1], n});
      for (std::size_t k = 0; k < a.size(); ++k) {
        const double vx = csv["vx_mps"][a[k]];
        if (vx == 0.0) {
          // No relative velocity, no force (eq. 62).
          EXPECT_EQ(csv["Fx_N"][a[k]], 0.0);
          continue;
        }
        EXPECT_GT(csv["Fx_abs_N"][a[k]], csv["Fx_abs_N"][b[k]]) << "n = " << n << ", vx = " << vx;
        // The force opposes v_x.
        EXPECT_LT(csv["Fx_N"][a[k]] * vx, 0.0);
      }
    }
  }
  // Eq. 62 in the n = 0 rows (eps = 1e-12 changes it by far less than 1e-10 at |v_x| >= 0.1 m/s).
  for (std::size_t r = 0; r < csv.rows; ++r) {
    const double vx = csv["vx_mps"][r];
    if (csv["n"][r] != 0.0 || vx == 0.0) continue;
    const double s = csv["s"][r], Vr = csv["Vr_mps"][r];
    const double mu = 0.7 + 0.5 * std::exp(-std::pow(std::abs(vx) / 3.49, 0.6));
    const double a = (1.0 - s) * kK01 * std::abs(vx) * 0.1 / ((Vr + s * vx) * mu);
    const double norm = -(vx > 0 ? 1.0 : -1.0) * (1.0 - (1.0 - std::exp(-a)) / a);
    EXPECT_NEAR(csv["Fx_norm"][r], norm, 1e-9 * std::abs(norm)) << "s = " << s << ", vx = " << vx;
  }
}

/// The steady solver's F_x for the parameters of a transient case, built here from the paper's tables.
double steady_fx(bool rolling, double s, double tau2, double V1, double V2) {
  using namespace bristle;
  laws::LawParams law;
  law.kind = laws::LawKind::frbd;
  law.M.axis1 =
      rolling ? laws::StribeckParams{1.2, 0.7, 3.49, 0.6, 0.0} : laws::StribeckParams{1.0, 0.7, 6.0, 2.0, 0.0};
  law.eps = rolling ? 1e-12 : 0.0;
  const double k02 = rheology::substrate_stiffness_from_s("s", s, kK01);
  const rheology::RheologyParams body1 =
      rolling ? rheology::gkv(kK01, {72.0, 78.0}, {0.1, 0.1}) : rheology::gkv(kK01, {100.0, 50.0}, {0.1, 0.1});
  const rheology::RheologyParams body2 = rolling ? rheology::gkv(k02, {18.0, 21.6}, {tau2, tau2})
                                                 : rheology::gkv(k02, {tau2 * k02, tau2 * k02}, {tau2, tau2});
  const contact::ContactModel model(law, body1, body2);
  transport::LineContactParams line;
  line.L_m = rolling ? 0.1 : 0.2;
  line.normal_load_N = rolling ? 3000.0 : 10.0;
  return transport::steady_state(model, line, V1, V2).force_N[0];
}

TEST_F(LineCli, Fig7TransientsEndAtTheSteadyValues) {
  const Csv csv = run_example("fig7_sliding_transient");
  EXPECT_TRUE(fs::exists(dir_ / "out" / "fig7_sliding_transient_fields.csv"));
  const Csv fields = read_csv(dir_ / "out" / "fig7_sliding_transient_fields.csv");
  for (const char* c : {"t_s", "xi_m", "f_x", "z1_1_x_m", "z2_2_x_m"}) EXPECT_TRUE(fields.has(c)) << c;
  const auto by_case = group(csv, {"s", "tau2", "case"});
  ASSERT_EQ(by_case.size(), 8u);
  for (const auto& [key, rows] : by_case) {
    const double s = key[0], tau2 = key[1];
    const double Vx = csv["V2_mps"][rows.back()];
    EXPECT_EQ(Vx, key[2] == 1.0 ? 0.1 : 0.3);
    EXPECT_EQ(csv["Fx_N"][rows.front()], 0.0);  // unloaded at t = 0
    const double expected = steady_fx(false, s, tau2, 0.0, Vx);
    EXPECT_NEAR(csv["Fx_N"][rows.back()], expected, 0.01 * std::abs(expected))
        << "s = " << s << ", tau2 = " << tau2 << ", V_x = " << Vx;
  }
  // Fig. 7: larger force as s falls.
  EXPECT_GT(std::abs(csv["Fx_N"][by_case.at({0.4, 0.1, 1.0}).back()]),
            std::abs(csv["Fx_N"][by_case.at({0.8, 0.1, 1.0}).back()]));
}

TEST_F(LineCli, Fig9TransientsEndAtTheSteadyValues) {
  const Csv csv = run_example("fig9_rolling_transient");
  const auto by_case = group(csv, {"s", "tau2"});
  ASSERT_EQ(by_case.size(), 4u);
  for (const auto& [key, rows] : by_case) {
    EXPECT_EQ(csv["V1_mps"][rows.back()], 16.0);
    EXPECT_EQ(csv["V2_mps"][rows.back()], 12.8);
    const double expected = steady_fx(true, key[0], key[1], 16.0, 12.8);
    EXPECT_GT(expected, 0.0);  // v_x = -3.2 m/s: the force pushes forward
    EXPECT_NEAR(csv["Fx_N"][rows.back()], expected, 0.01 * std::abs(expected))
        << "s = " << key[0] << ", tau2 = " << key[1];
  }
}

}  // namespace
