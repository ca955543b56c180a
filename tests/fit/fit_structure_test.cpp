// Identification of kind = "structure_stick_slip" (fit/structure_stick_slip.hpp, io/fit_map_scenario.hpp):
// recovery of LuGre friction and the string's damping from simulated stick-slip with noise, the accuracy of the
// central-difference Jacobian, and the kind's bad input.
#include "bristle/fit/structure_stick_slip.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/io/fit_map_scenario.hpp"
#include "fit_fixtures.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using bristle::InvalidInput;
using bristle::VecX;
using namespace bristle::fit;
using ::testing::HasSubstr;

// A taut string (rho = c = l = 1, damping D) through its 2-mode modal model, pressed with 1 N on a belt at
// 0.1 m/s; LuGre friction (mu_s, mu_d, v_s = 0.1 m/s) on an elastic bristle of 1e4 /m. 2.5 s: one stick-slip
// cycle and the next stick (period ~2 s), 2500 steps of 1 ms.
std::string model(double mu_s, double mu_d, double damping, int modes = 2) {
  return fmt::format(R"(kind = "structure_stick_slip"
name = "ss"
[structure]
type = "taut_string"
damping_ratio = {}
contact_positions_m = [0.3]
[contact]
normal_load_N = 1.0
belt_speed_m_per_s = 0.1
[law]
type = "lugre"
mu_s = {}
mu_d = {}
v_s = 0.1
delta_s = 2.0
[body1]
type = "elastic"
k0 = 1e4
[model]
type = "modal"
modes = {}
[run]
dt_s = 1e-3
t_end_s = 2.5
)",
                     damping, mu_s, mu_d, modes);
}

const double kMuS = 0.5, kMuD = 0.3, kD = 0.05, kNoise = 0.005;

std::vector<ParameterSpec> parameters(double mu_s, double mu_d, double damping) {
  return {{"law.mu_s", mu_s, 0.2, 1.0, Scale::linear},
          {"law.mu_d", mu_d, 0.1, 0.45, Scale::linear},
          {"structure.damping_ratio", damping, 0.005, 0.3, Scale::log}};
}

const double kNoiseW = 5e-4;

/// One experiment of the model at the truth: F_N and w_m every 10 ms over [0, 2.5] s (251 samples), plus noise of
/// 5 mN and 0.5 mm; w_m weighted by 10 = 5 mN / 0.5 mm (both targets then carry the same noise).
StructureExperiment experiment(unsigned seed, int modes = 2) {
  StructureExperiment e;
  e.label = "sim";
  e.scenario = bristle::io::parse_structure_stick_slip_string(model(kMuS, kMuD, kD, modes), "ss");
  for (int i = 0; i <= 250; ++i) e.times.push_back(0.01 * i);
  const std::vector<ParameterSpec> truth = parameters(kMuS, kMuD, kD);
  VecX p(3);
  p << kMuS, kMuD, kD;
  Target F, w;
  F.output = F.data_column = "F_N";
  w.output = w.data_column = "w_m";
  w.weight = kNoise / kNoiseW;
  F.values.assign(e.times.size(), 0.0);
  w.values = F.values;
  e.targets = {F, w};
  const std::vector<bristle::TimeSeries> clean = structure_model({e}, truth, p);
  e.targets[0].values = bristle::test::fit::with_noise(clean[0].column("F_N"), kNoise, seed);
  e.targets[1].values = bristle::test::fit::with_noise(clean[0].column("w_m"), kNoiseW, 1000 + seed);
  return e;
}

TEST(FitStructure, TheModelAtTheDataTimesIsTheRunItself) {
  // Data on the step grid: the fit's model equals `bristle run`'s rows (no interpolation error).
  StructureExperiment e = experiment(1);
  const auto sc = bristle::io::parse_structure_stick_slip_string(model(kMuS, kMuD, kD), "ss");
  const bristle::io::RunResult run = bristle::io::StructureStickSlipStudy(sc).run();
  const bristle::TimeSeries& s = run.cases.front().series;
  VecX p(3);
  p << kMuS, kMuD, kD;
  const std::vector<bristle::TimeSeries> m = structure_model({e}, parameters(kMuS, kMuD, kD), p);
  const std::vector<double>& F = s.column("F_N");
  const std::vector<double>& t = s.column("t_s");
  ASSERT_EQ(t.size(), 2501u);
  for (std::size_t i = 0; i < e.times.size(); ++i) {
    EXPECT_NEAR(t[10 * i], e.times[i], 1e-12);
    EXPECT_NEAR(m[0].column("F_N")[i], F[10 * i], 1e-12 * std::max(1.0, std::abs(F[10 * i]))) << i;
  }
  // and the run sticks and slips in the window (the data carry the friction law's two levels)
  double lo = 1e9, hi = -1e9;
  for (double f : F) lo = std::min(lo, f), hi = std::max(hi, f);
  EXPECT_GT(hi - lo, 0.1);
}

TEST(FitStructure, RecoversLuGreFrictionAndStructuralDampingFromNoisyStickSlip) {
  BRISTLE_SKIP_LONG_STUDY_UNDER_SANITIZERS("recovery over 20 seeds of fits");
  // Starts 20-60 % off; the 95 % intervals contain the truth in at least 3 of 4 seeds (each fit ~1 s CPU). With
  // the 4-mode model the same data and starts (even 4-10 % off) end in a local minimum at mu_s = 0.514,
  // mu_d = 0.286, D = 0.059 with 3.5 times the noise (docs/fitting.md); the 2- and 8-mode models recover the truth.
  int covered[3] = {0, 0, 0};
  const int seeds = 4;
  for (int seed = 1; seed <= seeds; ++seed) {
    const StructureExperiment e = experiment(static_cast<unsigned>(seed));
    Options options;
    options.max_iterations = 60;
    const Result r = fit({e}, parameters(0.6, 0.25, 0.08), options);
    ASSERT_TRUE(r.converged) << seed << ": " << r.termination;
    EXPECT_EQ(r.jacobian, JacobianMethod::finite_differences);
    const double truth[3] = {kMuS, kMuD, kD};
    for (int j = 0; j < 3; ++j) {
      const ParameterResult& pr = r.parameters[static_cast<std::size_t>(j)];
      EXPECT_NEAR(pr.value, truth[j], 5.0 * pr.std_error) << pr.key << " seed " << seed;
      EXPECT_NEAR(pr.value, truth[j], 0.05 * truth[j]) << pr.key << " seed " << seed;
      covered[j] += pr.ci95_low <= truth[j] && truth[j] <= pr.ci95_high;
    }
    ASSERT_TRUE(r.rms_N.has_value());
    EXPECT_NEAR(*r.rms_N, kNoise, 0.15 * kNoise) << seed;
  }
  for (int j = 0; j < 3; ++j) EXPECT_GE(covered[j], seeds - 1) << j;
}

TEST(FitStructure, CentralDifferenceJacobianIsConsistentAcrossSteps) {
  // Not exact: central differences of whole runs. The fixed-step model is smooth in p except where the relative
  // velocity crosses zero (|v_r| in the LuGre source and in mu(|v_r|)): during stick v_r oscillates about 0, so the
  // discrete model is only piecewise differentiable and a quotient that straddles a crossing is a secant. Measured
  // on the 4-mode string: the quotients at relative steps 1e-4 (the fit's) and 1e-5 agree to ~1e-5 (truncation
  // ~h^2, Newton noise ~1e-11 / h); at 1e-3 the friction columns differ by 14 % (curvature of the sharp
  // break-away). On the 2-mode string of the recovery test, whose stick phases cross v_r = 0 within the steps,
  // 1e-4 and 1e-5 differ by 1-4 % (printed below; docs/fitting.md).
  for (const int modes : {4, 2}) {
    const StructureExperiment e = experiment(3, modes);
    const std::vector<ParameterSpec> ps = parameters(kMuS, kMuD, kD);
    VecX p(3);
    p << kMuS, kMuD, kD;
    const Eigen::MatrixXd J3 = jacobian({e}, ps, p, 1e-3), J4 = jacobian({e}, ps, p, 1e-4),
                          J5 = jacobian({e}, ps, p, 1e-5);
    for (Eigen::Index j = 0; j < 3; ++j) {
      const double scale = J4.col(j).norm();
      ASSERT_GT(scale, 0.0);
      const double d34 = (J3.col(j) - J4.col(j)).norm() / scale, d45 = (J4.col(j) - J5.col(j)).norm() / scale;
      std::printf("%d modes, column %s: |J(1e-3) - J(1e-4)| / |J| = %.3g, |J(1e-4) - J(1e-5)| / |J| = %.3g\n", modes,
                  ps[j].key.c_str(), d34, d45);
      if (modes == 4) {
        EXPECT_LT(d45, 5e-5) << ps[j].key;  // measured 9e-6 (mu_s, mu_d), 4e-8 (D)
        EXPECT_LT(d34, 0.5) << ps[j].key;   // measured 0.14 (mu_s, mu_d), 3e-6 (D)
      } else {
        EXPECT_LT(d45, 0.1) << ps[j].key;   // measured 0.014-0.038: kinks at v_r = 0
      }
    }
  }
}

// ---- exact Jacobian ------------------------------------------------------------------------------------

/// The scenario with Coulomb-Stribeck friction in place of LuGre (the [law] and [body1] tables replaced).
std::string coulomb_model(int modes) {
  std::string m = model(kMuS, kMuD, kD, modes);
  m = m.substr(0, m.find("[law]")) + "[friction]\ntype = \"coulomb_stribeck\"\nmu_s = 0.5\nmu_d = 0.3\nv_s = 0.1\n" +
      m.substr(m.find("[model]"));
  return m;
}

/// Max over columns of |J_exact - J_fd| / |J_fd| for the contact's keys on `text`, F_N, w_m and v_mps targets
/// every 10 ms, the fd step `h`.
double exact_against_differences(const std::string& text, const std::vector<ParameterSpec>& ps, double h) {
  StructureExperiment e;
  e.label = "sim";
  e.scenario = bristle::io::parse_structure_stick_slip_string(text, "ss");
  for (int i = 0; i <= 250; ++i) e.times.push_back(0.01 * i + 0.003);  // off the step grid: interpolated
  for (const char* o : {"F_N", "w_m", "v_mps"}) {
    Target t;
    t.output = t.data_column = o;
    t.values.assign(e.times.size(), 0.0);
    e.targets.push_back(t);
  }
  VecX p(static_cast<Eigen::Index>(ps.size()));
  for (std::size_t j = 0; j < ps.size(); ++j) p[static_cast<Eigen::Index>(j)] = ps[j].initial;
  const Eigen::MatrixXd exact = jacobian({e}, ps, p, JacobianMethod::sensitivities);
  const Eigen::MatrixXd fd = jacobian({e}, ps, p, JacobianMethod::finite_differences, h);
  double worst = 0.0;
  for (Eigen::Index j = 0; j < p.size(); ++j) {
    const double d = (exact.col(j) - fd.col(j)).norm() / fd.col(j).norm();
    std::printf("  %-28s |J_exact - J_fd(%g)| / |J_fd| = %.3g\n", ps[static_cast<std::size_t>(j)].key.c_str(), h, d);
    worst = std::max(worst, d);
  }
  return worst;
}

TEST(FitStructure, ExactJacobianOfADynamicLawMatchesCentralDifferences) {
  // LuGre on the 4-mode string (stick and slip in the window); the law's, the bristle's and the belt's keys.
  // Measured: <= 6.1e-8 at relative step 1e-5.
  const std::vector<ParameterSpec> ps = {{"law.mu_s", kMuS, 0.2, 1.0, Scale::linear},
                                         {"law.mu_d", kMuD, 0.1, 0.45, Scale::linear},
                                         {"law.v_s", 0.1, 0.01, 1.0, Scale::log},
                                         {"body1.k0", 1e4, 1e3, 1e5, Scale::log},
                                         {"contact.normal_load_N", 1.0, 0.5, 2.0, Scale::linear},
                                         {"contact.belt_speed_m_per_s", 0.1, 0.05, 0.2, Scale::linear}};
  EXPECT_LT(exact_against_differences(model(kMuS, kMuD, kD, 4), ps, 1e-5), 1e-6);
}

TEST(FitStructure, ExactJacobianOfCoulombStribeckMatchesCentralDifferences) {
  // Set-valued stick: the run is piecewise smooth, not differentiable where a perturbation moves a stick/slip
  // switch by a step. Measured on this run: the quotients of relative step 1e-7 agree with the exact Jacobian to
  // <= 9.6e-8 (1e-8: <= 1.1e-6, rounding); at 1e-6 and larger a switch moves for mu_s, N and v_b (0.03-0.18 at 1e-6,
  // 0.5-0.7 at 1e-4, the secants across it), while mu_d and v_s, which do not set the stick threshold, agree to
  // 1.5e-8 at 1e-6. The exact Jacobian is the branch derivative a fit wants.
  const std::vector<ParameterSpec> ps = {{"friction.mu_s", kMuS, 0.2, 1.0, Scale::linear},
                                         {"friction.mu_d", kMuD, 0.1, 0.45, Scale::linear},
                                         {"friction.v_s", 0.1, 0.01, 1.0, Scale::log},
                                         {"contact.normal_load_N", 1.0, 0.5, 2.0, Scale::linear},
                                         {"contact.belt_speed_m_per_s", 0.1, 0.05, 0.2, Scale::linear}};
  EXPECT_LT(exact_against_differences(coulomb_model(4), ps, 1e-7), 1e-6);
}

TEST(FitStructure, AFitWithTheExactJacobianRecoversTheFrictionLaw) {
  // The contact's keys only: the fit takes the exact Jacobian by itself (automatic) and lands where the fit by
  // differences lands, within a tenth of a standard error. Measured: rms 5.09 mN (the noise: 5 mN), 17 iterations
  // each, 0.27 s exact against 0.48 s by differences. From (0.6, 0.25) instead, with the damping held, both end in
  // the same local minimum (mu_s = 0.513, mu_d = 0.284, rms 26 mN; 18 and 24 iterations).
  const StructureExperiment e = experiment(2);
  const std::vector<ParameterSpec> ps = {{"law.mu_s", 0.52, 0.2, 1.0, Scale::linear},
                                         {"law.mu_d", 0.29, 0.1, 0.45, Scale::linear}};
  Options options;
  options.max_iterations = 60;
  const Result exact = fit({e}, ps, options);
  ASSERT_TRUE(exact.converged) << exact.termination;
  EXPECT_EQ(exact.jacobian, JacobianMethod::sensitivities);
  options.jacobian = JacobianMethod::finite_differences;
  const Result fd = fit({e}, ps, options);
  ASSERT_TRUE(fd.converged) << fd.termination;
  const double truth[2] = {kMuS, kMuD};
  for (std::size_t j = 0; j < 2; ++j) {
    const ParameterResult& pr = exact.parameters[j];
    EXPECT_NEAR(pr.value, truth[j], 4.0 * pr.std_error) << pr.key;
    EXPECT_NEAR(pr.value, fd.parameters[j].value, 0.1 * pr.std_error) << pr.key;
  }
  std::printf("rms %.4g N; exact: %d iterations, %ld Jacobians, %.3f s; differences: %d iterations, %.3f s\n",
              *exact.rms_N, exact.iterations, exact.jacobian_evaluations, exact.fit_seconds, fd.iterations,
              fd.fit_seconds);
}

TEST(FitStructure, AStructureKeyTakesDifferencesAndSaysWhyWhenExactIsAsked) {
  StructureExperiment e = experiment(1);
  const std::vector<ParameterSpec> ps = parameters(kMuS, kMuD, kD);
  VecX p(3);
  p << kMuS, kMuD, kD;
  try {
    (void)jacobian({e}, ps, p, JacobianMethod::sensitivities);
    ADD_FAILURE() << "no error";
  } catch (const InvalidInput& error) {
    EXPECT_THAT(error.what(), HasSubstr("fit.parameters.\"structure.damping_ratio\" (the exact Jacobian takes keys of "
                                        "law, body1, body2, pair, friction, contact.normal_load_N and "
                                        "contact.belt_speed_m_per_s)"));
  }
  EXPECT_EQ(jacobian({e}, ps, p, JacobianMethod::automatic), jacobian({e}, ps, p, 1e-4));
}

// ---- bad input of the kind ------------------------------------------------------------------------------

class FitStructureBadInput : public ::testing::Test {
 protected:
  bristle::test::TempDir dir_{"fit_structure"};
  void SetUp() override {
    dir_.write("d.csv", "t_s,F_N\n0,0\n0.1,0.2\n0.2,0.4\n0.3,0.45\n0.4,0.5\n");
    dir_.write("neg.csv", "t_s,F_N\n-0.1,0\n0.1,0.2\n0.2,0.4\n0.3,0.45\n0.4,0.5\n");
  }
  std::string error(const std::string& scenario, const std::string& fit) const {
    try {
      (void)bristle::io::parse_structure_fit_string(scenario + fit, "ss", dir_.path());
    } catch (const InvalidInput& e) {
      return e.what();
    }
    return "(no error)";
  }
};

const char* const kFit = R"(
[fit]
data = "d.csv"
[fit.targets]
F_N = "F_N"
[fit.parameters]
"law.mu_d" = { initial = 0.3, min = 0.1, max = 0.45 }
)";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST_F(FitStructureBadInput, EachCaseIsAnErrorNamingTheKey) {
  const std::string m = model(kMuS, kMuD, kD);
  EXPECT_EQ(error(m, kFit), "(no error)");
  EXPECT_THAT(error(m, replaced(kFit, "F_N = \"F_N\"", "x_m = \"F_N\"")),
              HasSubstr("fit.targets.x_m: the model does not output a column \"x_m\" (outputs of "
                        "structure_stick_slip: w_m, v_mps, vr_mps, F_N, f_state, E_belt_J"));
  EXPECT_THAT(error(m, replaced(kFit, "F_N = \"F_N\"", "stick = \"F_N\"")),
              HasSubstr("fit.targets.stick: the model does not output a column \"stick\""));
  EXPECT_THAT(error(m, replaced(kFit, "F_N = \"F_N\"", "D_modal_J = \"F_N\"")),
              HasSubstr("fit.targets.D_modal_J: the model does not output a column \"D_modal_J\" (the energy "
                        "columns need model.type = \"modal\" with track_energy = true; outputs of this "
                        "structure_stick_slip scenario: w_m, v_mps, vr_mps, F_N, f_state)"));
  // Coulomb-Stribeck has no contact state
  const std::string coulomb = replaced(
      replaced(m, "[law]\ntype = \"lugre\"", "[friction]\ntype = \"coulomb_stribeck\""),
      "delta_s = 2.0\n[body1]\ntype = \"elastic\"\nk0 = 1e4\n", "delta_s = 2.0\n");
  EXPECT_THAT(error(coulomb, replaced(replaced(kFit, "F_N = \"F_N\"", "f_state = \"F_N\""), "law.mu_d",
                                      "friction.mu_d")),
              HasSubstr("fit.targets.f_state: the model does not output a column \"f_state\" (f_state needs a "
                        "dynamic [law]"));
  EXPECT_EQ(error(coulomb, replaced(kFit, "law.mu_d", "friction.mu_d")), "(no error)");
  EXPECT_THAT(error(coulomb, kFit),
              HasSubstr("fit.parameters.\"law.mu_d\": key \"law.mu_d\" does not apply to [friction]"));
  EXPECT_THAT(error(m, replaced(kFit, "law.mu_d", "friction.mu_d")),
              HasSubstr("fit.parameters.\"friction.mu_d\": key \"friction.mu_d\" does not apply to a dynamic [law]"));
  EXPECT_THAT(error(m, replaced(kFit, "law.mu_d", "law.mu_z")),
              HasSubstr("fit.parameters.\"law.mu_z\": unknown key \"law.mu_z\"; did you mean"));
  EXPECT_THAT(error(m, replaced(kFit, "[fit.targets]", "initial_state = \"match_first_sample\"\n[fit.targets]")),
              HasSubstr("fit.initial_state = \"match_first_sample\": kind = \"structure_stick_slip\" starts from the "
                        "structure at rest and unloaded at t = 0: only \"rest\""));
  EXPECT_THAT(error(m, replaced(kFit, "d.csv", "neg.csv")),
              HasSubstr("the first time -0.1 is negative: the structure starts at rest at t = 0"));
  EXPECT_THAT(error(m, replaced(kFit, "[fit.targets]", "window_s = [0.0, 0.9]\n[fit.targets]")),
              HasSubstr("fit.window_s = [0, 0.9]: outside the data's times [0, 0.4]"));
  EXPECT_THAT(error(m, replaced(kFit, "[fit.targets]", "grid_column = \"t_s\"\n[fit.targets]")),
              HasSubstr("fit.grid_column: does not apply to kind = \"structure_stick_slip\""));
  EXPECT_THAT(error(m, replaced(kFit, "min = 0.1", "min = 0.35")), HasSubstr("law.mu_d"));
}

}  // namespace
