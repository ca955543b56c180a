// The directional scenario kinds (src/io/directional_scenario.cpp): the example files parse and their data
// match the library (Figs. 4 and 6 against eqs. 3.14 and 3.24; loops and crawler against the library's
// own runs), bad input gives exact one-line messages naming the TOML key, and the CLI exits non-zero
// without writing anything.
#include "bristle/io/directional_scenario.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "bristle/core/error.hpp"
#include "bristle/io/output.hpp"
#include "support/test_support.hpp"

namespace bristle::io {
namespace {

namespace fs = std::filesystem;
namespace dir = bristle::directional;

std::string read(const fs::path& p) { return test::read_text(p); }

fs::path example(const std::string& name) { return fs::path(BRISTLE_SOURCE_DIR) / "examples" / name; }

std::string error_of(const std::string& toml) {
  try {
    parse_scenario_string(toml, "t");
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(no error)";
}

// ---- The figure examples ---------------------------------------------------------------------------

TEST(DirectionalScenario, Fig4ExampleMatchesEq314) {
  const auto scenario = load_scenario(example("fig4_slanted_spring.toml"));
  ASSERT_EQ(scenario->kind(), "directional_coefficients");
  const RunResult result = scenario->run();
  const TimeSeries& s = result.cases.at(0).series;
  EXPECT_EQ(s.names, (std::vector<std::string>{"theta_rad", "mu_plus", "mu_minus"}));
  EXPECT_GE(s.rows(), 50u);
  EXPECT_EQ(csv_text(result).substr(0, 27), "theta_rad,mu_plus,mu_minus\n");
  const double omega = 0.1;  // the paper's surface, omega_+ = -omega_- = 0.1
  const double upper = std::atan(1.0 / omega);  // eq. 3.9: theta < arccot(omega_+)
  for (std::size_t i = 0; i < s.rows(); ++i) {
    const double theta = s.columns[0][i];
    EXPECT_GT(theta, 0.0);
    EXPECT_LT(theta, upper);
    if (i > 0) {
      EXPECT_GT(theta, s.columns[0][i - 1]);
    }
    EXPECT_NEAR(s.columns[1][i], omega / (1.0 - omega * std::tan(theta)), 1e-14 * (1.0 + s.columns[1][i]));
    EXPECT_NEAR(s.columns[2][i], -omega / (1.0 + omega * std::tan(theta)), 1e-14);
    EXPECT_GT(s.columns[1][i], -s.columns[2][i]);  // §3.2: rho_+ > -rho_-
  }
  EXPECT_NEAR(s.columns[0].back(), upper * 60.0 / 61.0, 1e-12);  // the open interval's interior points
}

TEST(DirectionalScenario, Fig6ExampleMatchesEq324) {
  const auto scenario = load_scenario(example("fig6_angular_spring.toml"));
  const RunResult result = scenario->run();
  const TimeSeries& s = result.cases.at(0).series;
  EXPECT_EQ(s.names, (std::vector<std::string>{"theta_lim_rad", "mu_plus", "mu_minus"}));
  EXPECT_GE(s.rows(), 50u);
  const double omega = 0.1;
  for (std::size_t i = 0; i < s.rows(); ++i) {
    const double theta = s.columns[0][i];
    EXPECT_GT(theta, std::atan(omega));        // eq. 3.17 left
    EXPECT_LT(theta, std::atan(1.0 / omega));  // eq. 3.17 right
    const double cot = 1.0 / std::tan(theta);
    EXPECT_NEAR(s.columns[1][i], omega / (1.0 + omega * cot), 1e-14);
    EXPECT_NEAR(s.columns[2][i], -omega / (1.0 - omega * cot), 1e-14 * (1.0 - s.columns[2][i]));
    EXPECT_LT(s.columns[1][i], -s.columns[2][i]);  // errata: rho_+ < -rho_- for the angular spring
  }
}

TEST(DirectionalScenario, GivenRangeEndsAreSampledDefaultedOnesAreNot) {
  const std::string base = "kind = \"directional_coefficients\"\n[profile]\nkind = \"sine\"\namplitude = "
                           "0.015915494309189534\n[mechanism]\nkind = \"angular\"\n[range]\npoints = 11\n";
  const TimeSeries s = parse_scenario_string(base + "to_rad = 1.0\n")->run().cases.at(0).series;
  ASSERT_EQ(s.rows(), 11u);
  EXPECT_EQ(s.columns[0].back(), 1.0);
  const double lo = std::atan(0.1);  // eq. 3.17: the defaulted lower end, excluded
  EXPECT_NEAR(s.columns[0].front(), lo + (1.0 - lo) / 11.0, 1e-15);
  const TimeSeries both = parse_scenario_string(base + "from_rad = 0.5\nto_rad = 1.0\n")->run().cases.at(0).series;
  EXPECT_EQ(both.columns[0].front(), 0.5);
  EXPECT_EQ(both.columns[0].back(), 1.0);
  EXPECT_NEAR(both.columns[0][5], 0.75, 1e-15);
}

TEST(DirectionalScenario, LoopAndCrawlerExamplesParse) {
  for (const char* mech : {"vertical", "slanted", "angular"}) {
    const auto sc = load_scenario(example(fmt::format("directional_loop_{}.toml", mech)));
    EXPECT_EQ(sc->kind(), "directional_loop");
    EXPECT_EQ(sc->case_count(), 4u) << mech;  // eps = 0.1, 0.01, 0.001 and the limit
    const auto& loop = dynamic_cast<const DirectionalLoopStudy&>(*sc).scenario();
    EXPECT_EQ(dir::to_string(loop.mechanism.kind), mech);
    EXPECT_EQ(loop.epsilon.values_m, (std::vector<double>{0.1, 0.01, 0.001}));
  }
  for (const int feet : {2, 3}) {
    const auto sc = load_scenario(example(fmt::format("directional_crawler_{}_feet.toml", feet)));
    EXPECT_EQ(sc->kind(), "directional_crawler");
    EXPECT_EQ(dynamic_cast<const DirectionalCrawlerStudy&>(*sc).scenario().crawler.feet, feet);
  }
}

// ---- Runs of small inline scenarios against the library ---------------------------------------------

const std::string kSurface = "[profile]\nkind = \"sine\"\namplitude = 0.07957747154594767\n";
const std::string kAngular = "[mechanism]\nkind = \"angular\"\nlength_m = 1.25\n";

TEST(DirectionalScenario, LoopRunMatchesTheLibrary) {
  const std::string toml = "kind = \"directional_loop\"\nname = \"loop\"\n" + kSurface + kAngular +
                           "[drive]\namplitude_m = 1.5\nperiod_s = 2.0\ncycles = 1.0\n"
                           "[epsilon]\nvalues_m = 0.1\n[time]\noutputs = 201\n";
  const auto scenario = parse_scenario_string(toml, "loop");
  int inside = 0;  // progress reports from inside the eps-system's solve (case 0), not only its ends
  const RunResult result = scenario->run([&](const Progress& p) {
    if (p.case_index == 0 && p.fraction > 0.0 && p.fraction < 1.0) ++inside;
  });
  EXPECT_GE(inside, 100);  // 201 outputs, 0.5 % apart
  ASSERT_EQ(result.cases.size(), 2u);
  EXPECT_EQ(result.sweep_column, "epsilon_m");
  EXPECT_EQ(csv_text(result).substr(0, 50), "epsilon_m,t_s,q_m,u_m,p_m,angle_rad,F_N,D_J\n0.1,0,");
  EXPECT_EQ(result.case_labels, (std::vector<std::string>{"eps = 0.1 m", "limit"}));
  // The same runs through the library.
  dir::ProfileParams pp;
  pp.amplitude = 0.07957747154594767;
  dir::MechanismParams mp;
  mp.kind = dir::MechanismKind::angular;
  mp.length_m = 1.25;
  const dir::Mechanism m(mp, dir::Profile(pp));
  const auto q = dir::Loading::triangle(0.0, 1.5, 2.0, 1.0);
  std::vector<double> times;
  for (int i = 0; i < 201; ++i) times.push_back(2.0 * i / 200);
  const auto eps_loop = dir::epsilon_loop(m, {0.1, 1.0}, dir::DriveParams{}, q, times);
  const auto limit = dir::limit_loop(m, dir::DriveParams{}, q, times);
  EXPECT_EQ(result.cases[0].series.column("F_N"), eps_loop.series.column("F_N"));
  EXPECT_EQ(result.cases[1].series.column("F_N"), limit.series.column("F_N"));
  EXPECT_EQ(*result.cases[1].sweep_value, 0.0);
  const std::string json = result.report.dump();
  EXPECT_NE(json.find("\"rho_plus_N\""), std::string::npos);
  EXPECT_NE(json.find("against the nap the rod is compressed"), std::string::npos);
}

TEST(DirectionalScenario, CrawlerRunMatchesTheLibraryAndTheClosedForm) {
  const std::string toml = "kind = \"directional_crawler\"\n" + kSurface + kAngular +
                           "[crawler]\nfeet = 2\n[epsilon]\nvalues_m = [0.1]\n[run]\ncycles = 2\n";
  int inside = 0;  // progress reports from inside the eps-system's solve (case 0), not only its ends
  const RunResult result = parse_scenario_string(toml, "crawl")->run([&](const Progress& p) {
    if (p.case_index == 0 && p.fraction > 0.0 && p.fraction < 1.0) ++inside;
  });
  EXPECT_GE(inside, 100);
  ASSERT_EQ(result.cases.size(), 2u);
  const Json* closed = result.report.find("advance_per_cycle_closed_form_m");
  ASSERT_NE(closed, nullptr);
  const std::string json = result.report.dump();
  dir::ProfileParams pp;
  pp.amplitude = 0.07957747154594767;
  dir::MechanismParams mp;
  mp.kind = dir::MechanismKind::angular;
  const dir::Mechanism m(mp, dir::Profile(pp));
  const double expected = dir::two_foot_advance(m.limit().rho_plus, m.limit().rho_minus, 10.0, 0.2);
  EXPECT_NE(json.find(fmt::format("\"advance_per_cycle_closed_form_m\": {}", expected)), std::string::npos) << json;
  EXPECT_NE(json.find(fmt::format("\"advance_per_cycle_m\": {}", dir::crawl_limit(m, {}, 2).advance_per_cycle_m)),
            std::string::npos);
}

// ---- Bad input ----------------------------------------------------------------------------------

TEST(DirectionalScenarioErrors, ExactMessages) {
  const std::string coefficients = "kind = \"directional_coefficients\"\n";
  const std::string loop = "kind = \"directional_loop\"\n";
  // Unknown keys, with the nearest key suggested.
  EXPECT_EQ(error_of(coefficients + kSurface + "[mechanism]\nkind = \"slanted\"\n[range]\npoint = 60\n"),
            "unknown key \"range.point\"; did you mean \"range.points\"?");
  EXPECT_EQ(error_of(loop + kSurface + "[mechanism]\nkind = \"slanted\"\ntheta_rads = 0.3\n"),
            "unknown key \"mechanism.theta_rads\"; did you mean \"mechanism.theta_rad\"?");
  EXPECT_EQ(error_of(loop + kSurface + "[mechanism]\nkind = \"slanted\"\nlength_m = 2\n"),
            "key \"mechanism.length_m\" does not apply to mechanism.kind = \"slanted\" (valid keys here: kind, k, "
            "height_m, rest_length_m, theta_rad)");
  // integrator.method: a name is recognised (the nearest suggested), but only auto and cvode_bdf apply here.
  EXPECT_EQ(error_of(loop + kSurface + kAngular + "[integrator]\nmethod = \"rodas5p\"\n"),
            "integrator.method = \"rodas5p\": does not apply to kind = \"directional_loop\" (its epsilon-systems are "
            "integrated by cvode_bdf; valid here: auto, cvode_bdf)");
  EXPECT_EQ(error_of(loop + kSurface + kAngular + "[integrator]\nmethod = \"rodas5\"\n"),
            "integrator.method = \"rodas5\": unknown method (valid: auto, cvode_bdf, rodas4, rodas5p, sdirk2, "
            "implicit_euler, rk4); did you mean \"rodas5p\"?");
  EXPECT_EQ(error_of(loop + kSurface + kAngular + "[integrator]\nmethod = \"cvode_bdf\"\nrtol = -1\n"),
            "integrator.rtol = -1: must be > 0");  // cvode_bdf is accepted: the next key's check is reached
  EXPECT_EQ(error_of("kind = \"directional_lop\"\n"),
            "kind = \"directional_lop\": unknown scenario kind (valid: " +
                fmt::format("{}", fmt::join(scenario_kinds(), ", ")) + "); did you mean \"directional_loop\"?");
  // omega_+ >= cot(theta) (eq. 3.9).
  const std::string slanted_steep = error_of(loop + kSurface + "[mechanism]\nkind = \"slanted\"\ntheta_rad = 1.2\n");
  EXPECT_EQ(slanted_steep.rfind("mechanism.theta_rad = 1.2: must satisfy omega_+ < cot(theta) (paper 2, eq. 3.9), "
                                "but omega_+ = ",
                                0),
            0u)
      << slanted_steep;
  // L <= h (eq. 3.15) and theta_rest outside (-pi/2, theta_lim) (eq. 3.16).
  EXPECT_EQ(error_of(loop + kSurface + "[mechanism]\nkind = \"angular\"\nlength_m = 0.9\n"),
            "mechanism.length_m = 0.9: must be > mechanism.height_m = 1 (the rod must reach the surface, L > h; "
            "paper 2, eq. 3.15)");
  EXPECT_EQ(error_of(loop + kSurface + "[mechanism]\nkind = \"angular\"\ntheta_rest_rad = -2\n"),
            "mechanism.theta_rest_rad = -2: must lie in (-1.5707963267948966, " + format_value(std::acos(0.8)) +
                ") (paper 2, eq. 3.16: -pi/2 < theta_rest < theta_lim = arccos(h/L))");
  // Constant and non-periodic profiles.
  EXPECT_EQ(error_of(loop + "[profile]\nkind = \"fourier\"\ncos = [0.0]\n" + kAngular),
            "profile.cos = [0], profile.sin = []: every coefficient is zero, so the profile is constant; the surface "
            "must be a non-constant 1-periodic profile (eq. 3.5: omega_+ = max w' > 0 > omega_- = min w')");
  EXPECT_EQ(error_of(loop + "[profile]\nkind = \"table\"\nx = [0, 0.25, 0.5, 1]\nw = [0, 0.01, -0.01, 0.02]\n" +
                     kAngular),
            "profile.w[3] = 0.02: must equal profile.w[0] = 0 (the profile is not periodic; it must be 1-periodic: "
            "w(1) = w(0))");
  // eps <= 0, gamma <= 0, eps too large for the geometry.
  EXPECT_EQ(error_of(loop + kSurface + kAngular + "[epsilon]\nvalues_m = [0.1, 0.0]\n"),
            "epsilon.values_m[1] = 0: must be > 0 (the period of the surface wiggles, w_eps(x) = eps w(x/eps); paper "
            "2, eq. 3.4)");
  EXPECT_EQ(error_of(loop + kSurface + kAngular + "[epsilon]\ngamma = 0\n"),
            "epsilon.gamma = 0: must be > 0 (the viscosity eps^gamma must vanish as eps -> 0; paper 2, eq. 2.7)");
  const std::string too_large = error_of(loop + kSurface + kAngular + "[epsilon]\nvalues_m = 5\n");
  EXPECT_EQ(too_large.rfind("epsilon.values_m = 5: too large for this mechanism and surface (must be < ", 0), 0u)
      << too_large;
  // Non-convex Phi: the horizontal spring of eq. 3.3 must have k_h > 0.
  EXPECT_EQ(error_of(loop + kSurface + kAngular + "[drive]\nk_h_N_per_m = -1\n"),
            "drive.k_h_N_per_m = -1: must be > 0 (Phi = k_h/2 z^2 must be uniformly convex; paper 2, eqs. 2.1 and "
            "3.3)");
  EXPECT_EQ(error_of(coefficients + kSurface + "[mechanism]\nkind = \"slanted\"\n[range]\nto_rad = 1.6\n"),
            "range.to_rad = 1.6: must lie in (0, " + format_value(std::atan(1.0 / 0.5)) +
                "), the admissible range of theta, 0 < theta < arccot(omega_+) (eq. 3.9)");
  EXPECT_EQ(error_of(coefficients + kSurface + "[mechanism]\nkind = \"slanted\"\nk = 2\n"),
            "key \"mechanism.k\" does not apply to kind = \"directional_coefficients\" (mu_+- depend only on the "
            "slant and the surface) (valid keys here: kind)");
  EXPECT_EQ(error_of("kind = \"directional_crawler\"\n" + kSurface + kAngular + "[crawler]\nfeet = 4\n"),
            "crawler.feet = 4: must be 2 or 3");
}

// The readers walk the kinds' serialize() (schema): an integer beyond its storage is an error naming the key
// (it was narrowed to int before the library saw it), and the schema's integer ranges name the key.
TEST(DirectionalScenarioErrors, SchemaIntegersNameTheKey) {
  const std::string crawler = "kind = \"directional_crawler\"\n" + kSurface + kAngular;
  EXPECT_EQ(error_of(crawler + "[crawler]\nfeet = 4294967298\n"),
            "crawler.feet = 4294967298: must be in [-2147483648, 2147483647]");
  EXPECT_EQ(error_of(crawler + "[run]\ncycles = 1\n"), "run.cycles = 1: must be in [2, 1000]");
  EXPECT_EQ(error_of(crawler + "[run]\ncycles = 2.5\n").find("run.cycles"), 0u);
}

// ---- The command line ----------------------------------------------------------------------------

class DirectionalCli : public test::CliTest {
 protected:
  /// The exit code of `bristle ARGS` (and its stderr in *err).
  int run_code(const std::string& args, std::string* err = nullptr) const {
    const test::CliResult r = run(args);
    if (err) *err = r.err;
    return r.code;
  }
};

TEST_F(DirectionalCli, Fig4WritesCsvJsonAndPng) {
  std::string err;
  ASSERT_EQ(run_code(fmt::format("run '{}' --out out --quiet", example("fig4_slanted_spring.toml").string()), &err), 0)
      << err;
  for (const char* ext : {".csv", ".json", ".png"})
    EXPECT_TRUE(fs::exists(dir_ / "out" / fmt::format("fig4_slanted_spring{}", ext))) << ext;
  EXPECT_EQ(read(dir_ / "out" / "fig4_slanted_spring.csv").substr(0, 27), "theta_rad,mu_plus,mu_minus\n");
}

TEST_F(DirectionalCli, BadInputExitsWithCodeTwoAndWritesNothing) {
  const std::string bad =
      "kind = \"directional_loop\"\n" + kSurface + "[mechanism]\nkind = \"angular\"\nlength_m = 0.9\n";
  std::ofstream(dir_ / "bad.toml") << bad;
  std::string err;
  EXPECT_EQ(run_code("run bad.toml --out out", &err), 2);
  EXPECT_EQ(err,
            "bristle: error: mechanism.length_m = 0.9: must be > mechanism.height_m = 1 (the rod must reach the "
            "surface, L > h; paper 2, eq. 3.15)\n");
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

}  // namespace
}  // namespace bristle::io
