// Fits of a transient patch (kind = "patch_transient", fit/patch_transient.hpp): recovery of the truth from noisy
// simulated F_y(t) with interval coverage over 20 noise seeds, and the difference Jacobian against a
// Richardson-extrapolated one.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/fit/patch_transient.hpp"
#include "bristle/io/patch_scenario.hpp"
#include "support/test_support.hpp"

namespace {

using namespace bristle;
using ::testing::HasSubstr;

// A coarse patch (20 x 4 cells, rectangle 0.1 x 0.05 m, uniform pressure, F_z = 3000 N) rolling at V_r = 16 m/s
// from an unloaded contact, with a lateral slip v_y = 1.5 sin(300 t) m/s; FrBD law of paper 1, Table 2, elastic
// roller k0 = 240 /m on a rigid ground.
const char* const kTransient = R"(name = "transient"
kind = "patch_transient"
[law]
type = "frbd"
mu_s = 1.2
mu_d = 0.7
v_s = 3.49
delta_s = 0.6
eps = 1e-12
[body1]
type = "elastic"
k0 = 240.0
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
vy_mps = { type = "sine", amplitude = 1.5, omega = 300.0 }
[time]
t_end_s = 0.012
output_dt_s = 0.0005
)";

std::vector<double> times() {
  std::vector<double> t;
  for (int i = 0; i <= 24; ++i) t.push_back(0.0005 * i);  // 12 ms: F_y rises to saturation and turns
  return t;
}

fit::TransientExperiment experiment(const std::vector<double>& Fy) {
  fit::TransientExperiment e;
  e.label = "simulated";
  e.scenario = io::parse_patch_transient_string(kTransient, "transient");
  e.times = times();
  fit::Target t;
  t.output = "Fy_N";
  t.data_column = "Fy_N";
  t.values = Fy;
  e.targets.push_back(t);
  return e;
}

std::vector<fit::ParameterSpec> parameters(double mu_d0, double k00) {
  return {{"law.mu_d", mu_d0, 0.3, 1.1, fit::Scale::linear}, {"body1.k0", k00, 50.0, 2000.0, fit::Scale::log}};
}

std::vector<double> truth_Fy() {
  const std::vector<fit::TransientExperiment> e{experiment(std::vector<double>(times().size(), 0.0))};
  return fit::transient_model(e, parameters(0.7, 240.0), (VecX(2) << 0.7, 240.0).finished()).front().column("Fy_N");
}

TEST(FitPatchTransient, RecoversMuDAndK0AndIntervalsCoverTheTruth) {
  BRISTLE_SKIP_LONG_STUDY_UNDER_SANITIZERS("recovery over 20 seeds of fits");
  const std::vector<double> clean = truth_Fy();
  double peak = 0.0;
  for (double f : clean) peak = std::max(peak, std::abs(f));
  ASSERT_GT(peak, 500.0);  // the slip reaches the saturation of F_y, so mu_d is visible, and its rise shows k0
  EXPECT_EQ(clean.front(), 0.0);  // unloaded at the first sample
  const double sigma = 10.0;      // N
  const double truth[2] = {0.7, 240.0};
  int covered[2] = {0, 0};
  const int seeds = 20;
  for (int seed = 1; seed <= seeds; ++seed) {
    std::mt19937_64 rng(static_cast<unsigned>(seed));
    std::normal_distribution<double> noise(0.0, sigma);
    std::vector<double> Fy = clean;
    for (double& f : Fy) f += noise(rng);
    const fit::Result r = fit::fit({experiment(Fy)}, parameters(0.85, 180.0));
    ASSERT_TRUE(r.converged) << "seed " << seed << ": " << r.termination;
    EXPECT_EQ(r.jacobian, fit::JacobianMethod::sensitivities);  // automatic: law and bristle keys, F_y
    ASSERT_TRUE(r.rms_N.has_value());
    EXPECT_NEAR(*r.rms_N, sigma, 0.45 * sigma) << "seed " << seed;
    for (int j = 0; j < 2; ++j) {
      const fit::ParameterResult& p = r.parameters[static_cast<std::size_t>(j)];
      EXPECT_LT(std::abs(p.value - truth[j]), 5.0 * p.std_error) << p.key << " seed " << seed;
      EXPECT_LT(p.std_error, 0.05 * truth[j]) << p.key << " seed " << seed;  // the data determine it
      if (p.ci95_low <= truth[j] && truth[j] <= p.ci95_high) ++covered[j];
    }
  }
  std::printf("95 %% intervals containing the truth over %d seeds: law.mu_d %d, body1.k0 %d\n", seeds, covered[0],
              covered[1]);
  EXPECT_GE(covered[0], 17) << "law.mu_d";
  EXPECT_GE(covered[1], 17) << "body1.k0";
}

TEST(FitPatchTransient, TheDifferenceJacobianAgreesWithRichardsonExtrapolation) {
  const std::vector<fit::TransientExperiment> e{experiment(truth_Fy())};
  const auto specs = parameters(0.7, 240.0);
  const VecX p = (VecX(2) << 0.75, 300.0).finished();
  const Eigen::MatrixXd J = fit::jacobian(e, specs, p);  // the fit's differences (step 1e-4 relative)
  const Eigen::MatrixXd ref = (4.0 * fit::jacobian(e, specs, p, 2e-4) - fit::jacobian(e, specs, p, 4e-4)) / 3.0;
  for (Eigen::Index j = 0; j < J.cols(); ++j) {
    ASSERT_GT(ref.col(j).norm(), 0.0);
    const double error = (J.col(j) - ref.col(j)).norm() / ref.col(j).norm();
    std::printf("%s: |J - J_richardson| / |J_richardson| = %.2e\n", specs[static_cast<std::size_t>(j)].key.c_str(),
                error);
    EXPECT_LT(error, 1e-6) << specs[static_cast<std::size_t>(j)].key;
  }
}

// ---- exact Jacobian ------------------------------------------------------------------------------------

/// kTransient with its [law] and [body1] tables replaced (and `extra` after [kinematics]' first line).
std::string variant(const std::string& law_and_body, const std::string& kinematics_extra = "") {
  std::string text = kTransient;
  const std::size_t law = text.find("[law]"), patch = text.find("[patch]");
  text = text.substr(0, law) + law_and_body + text.substr(patch);
  const std::size_t kin = text.find("[kinematics]\n") + 13;
  return text.substr(0, kin) + kinematics_extra + text.substr(kin);
}

fit::TransientExperiment experiment_of(const std::string& text, const std::vector<std::string>& outputs) {
  fit::TransientExperiment e;
  e.label = "simulated";
  e.scenario = io::parse_patch_transient_string(text, "transient");
  e.times = times();
  for (const std::string& o : outputs) {
    fit::Target t;
    t.output = t.data_column = o;
    t.values.assign(e.times.size(), 0.0);
    e.targets.push_back(t);
  }
  return e;
}

/// Max over columns of |J_exact.col(j) - J_fd.col(j)| / |J_fd.col(j)|, J_fd by central differences of whole runs
/// with relative step h; prints each column.
double exact_against_differences(const fit::TransientExperiment& e, const std::vector<fit::ParameterSpec>& ps,
                                 const Eigen::MatrixXd& exact, double h) {
  VecX p(static_cast<Eigen::Index>(ps.size()));
  for (std::size_t j = 0; j < ps.size(); ++j) p[static_cast<Eigen::Index>(j)] = ps[j].initial;
  const Eigen::MatrixXd fd = fit::jacobian({e}, ps, p, fit::JacobianMethod::finite_differences, h);
  double worst = 0.0;
  for (Eigen::Index j = 0; j < p.size(); ++j) {
    EXPECT_GT(fd.col(j).norm(), 0.0);
    const double d = (exact.col(j) - fd.col(j)).norm() / fd.col(j).norm();
    std::printf("  %-12s |J_exact - J_fd(%g)| / |J_fd| = %.3g\n", ps[static_cast<std::size_t>(j)].key.c_str(), h, d);
    worst = std::max(worst, d);
  }
  return worst;
}

Eigen::MatrixXd exact_jacobian(const fit::TransientExperiment& e, const std::vector<fit::ParameterSpec>& ps) {
  VecX p(static_cast<Eigen::Index>(ps.size()));
  for (std::size_t j = 0; j < ps.size(); ++j) p[static_cast<Eigen::Index>(j)] = ps[j].initial;
  const auto start = std::chrono::steady_clock::now();
  Eigen::MatrixXd J = fit::jacobian({e}, ps, p, fit::JacobianMethod::sensitivities);
  std::printf("  exact Jacobian: %.3f s\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return J;
}

TEST(FitPatchTransient, ExactJacobianOfAnElasticRollerMatchesCentralDifferences) {
  // kTransient (FrBD, elastic roller on a rigid ground, m = 2: the closed-form exp/phi1 step, v_r independent of
  // the state), F_x, F_y and M_z at 25 times, the law's and the bristle's keys at a point off the truth.
  const fit::TransientExperiment e = experiment_of(kTransient, {"Fx_N", "Fy_N", "Mz_Nm"});
  const std::vector<fit::ParameterSpec> ps = {{"law.mu_s", 1.1, 0.5, 2.0, fit::Scale::linear},
                                              {"law.mu_d", 0.75, 0.3, 1.1, fit::Scale::linear},
                                              {"law.v_s", 3.0, 0.5, 10.0, fit::Scale::log},
                                              {"law.delta_s", 0.7, 0.1, 2.0, fit::Scale::linear},
                                              {"body1.k0", 300.0, 50.0, 2000.0, fit::Scale::log}};
  // Measured, max over the columns (mu_s, mu_d, v_s, delta_s, k0): relative step 1e-3: 5.2e-7 (truncation, v_s);
  // 1e-4: 6.8e-9; 1e-5: 3.8e-9 (mu_s 2.0e-10, k0 2.3e-10); 1e-6: 1.1e-8 (rounding grows). The quotients converge
  // to the exact Jacobian as the step shrinks until rounding takes over: 1e-5 is asserted.
  const Eigen::MatrixXd exact = exact_jacobian(e, ps);
  for (const double h : {1e-4, 1e-6}) (void)exact_against_differences(e, ps, exact, h);
  EXPECT_LT(exact_against_differences(e, ps, exact, 1e-5), 1e-6);
}

TEST(FitPatchTransient, ExactJacobianOfTheMomentAndEnergyOutputsMatchesCentralDifferences) {
  // Each further output the exact Jacobian covers as the only target (the columns' norms would otherwise be the
  // forces'), on the elastic roller with spin 3 rad/s and the S-corrections (M_z without phi and the storage see
  // the shift of the contact points), relative step 1e-5. Measured: <= 2.1e-9 (P_dissipated_W, v_s; W_J 1.4e-9).
  const std::string text = variant(R"([law]
type = "frbd"
mu_s = 1.2
mu_d = 0.7
v_s = 3.49
delta_s = 0.6
eps = 1e-12
[body1]
type = "elastic"
k0 = 240.0
)",
                                   "spin_radps = 3.0\n");
  const std::vector<fit::ParameterSpec> ps = {{"law.mu_d", 0.75, 0.3, 1.1, fit::Scale::linear},
                                              {"law.v_s", 3.0, 0.5, 10.0, fit::Scale::log},
                                              {"body1.k0", 300.0, 50.0, 2000.0, fit::Scale::log}};
  for (const char* output : {"Mz_no_phi_Nm", "W_J", "P_supplied_W", "P_dissipated_W"}) {
    std::printf(" %s:\n", output);
    const fit::TransientExperiment e = experiment_of(text, {output});
    EXPECT_LT(exact_against_differences(e, ps, exact_jacobian(e, ps), 1e-5), 1e-6) << output;
  }
}

TEST(FitPatchTransient, ExactJacobianOfAViscoelasticRollerWithSpinMatchesCentralDifferences) {
  // A one-branch GKV roller (m = 4: the augmented matrix exponential) on a rigid ground with spin and the
  // S-corrections (v_r depends on the state: the cell step's state derivative by differences of the step map),
  // LuGre with micro-damping (output terms in the friction); F_x, F_y and M_z; law and body keys.
  const std::string text = variant(R"([law]
type = "lugre"
mu_s = 1.2
mu_d = 0.7
v_s = 3.49
delta_s = 0.6
sigma0 = 300.0
sigma1 = 0.002
eps = 1e-12
[body1]
type = "gkv"
k0 = 240.0
c = [1.2]
tau = [0.002]
)",
                                   "spin_radps = 3.0\n");
  const fit::TransientExperiment e = experiment_of(text, {"Fx_N", "Fy_N", "Mz_Nm"});
  // Measured with law.sigma0 and body1.k0 too, max over the five columns: relative step 1e-3: 4.1e-7 (truncation,
  // tau); 1e-4: 4.2e-9; 1e-5: 4.8e-9; 1e-6: 5.7e-8 (rounding, sigma1). Three columns here (1e-4: 3.9e-9, 1e-5:
  // 4.9e-9): every cell's 5 x 5 exponential at its own v_r makes this run ~10x the elastic one's cost, and its
  // tangent more (2 m + 4 P exponentials per cell and half step against the primal's 2).
  const std::vector<fit::ParameterSpec> ps = {{"law.mu_d", 0.75, 0.3, 1.1, fit::Scale::linear},
                                              {"law.sigma1", 0.0025, 1e-4, 0.1, fit::Scale::log},
                                              {"body1.tau", 0.0025, 1e-4, 0.1, fit::Scale::log}};
  const Eigen::MatrixXd exact = exact_jacobian(e, ps);
  (void)exact_against_differences(e, ps, exact, 1e-4);
  EXPECT_LT(exact_against_differences(e, ps, exact, 1e-5), 1e-6);
}

TEST(FitPatchTransient, AFitWithTheExactJacobianRecoversMuDAndK0WhereTheDifferenceFitLands) {
  // F_y with noise 10 N (seed 3) from (0.85, 180): the fit takes the exact Jacobian by itself (automatic) and lands
  // where the fit by differences lands, within a tenth of a standard error, the truth within 4 standard errors.
  std::vector<double> Fy = truth_Fy();
  std::mt19937_64 rng(3);
  std::normal_distribution<double> noise(0.0, 10.0);
  for (double& f : Fy) f += noise(rng);
  const std::vector<fit::TransientExperiment> e{experiment(Fy)};
  fit::Options options;
  const fit::Result exact = fit::fit(e, parameters(0.85, 180.0), options);
  ASSERT_TRUE(exact.converged) << exact.termination;
  EXPECT_EQ(exact.jacobian, fit::JacobianMethod::sensitivities);
  options.jacobian = fit::JacobianMethod::finite_differences;
  const fit::Result fd = fit::fit(e, parameters(0.85, 180.0), options);
  ASSERT_TRUE(fd.converged) << fd.termination;
  EXPECT_EQ(fd.jacobian, fit::JacobianMethod::finite_differences);
  const double truth[2] = {0.7, 240.0};
  for (std::size_t j = 0; j < 2; ++j) {
    const fit::ParameterResult& pr = exact.parameters[j];
    EXPECT_NEAR(pr.value, truth[j], 4.0 * pr.std_error) << pr.key;
    EXPECT_NEAR(pr.value, fd.parameters[j].value, 0.1 * pr.std_error) << pr.key;
    EXPECT_NEAR(pr.std_error, fd.parameters[j].std_error, 1e-3 * pr.std_error) << pr.key;
    std::printf("%s = %.6g +- %.3g (differences: %.6g +- %.3g)\n", pr.key.c_str(), pr.value, pr.std_error,
                fd.parameters[j].value, fd.parameters[j].std_error);
  }
  std::printf("rms %.4g N; exact: %d iterations, %ld Jacobians, %.3f s; differences: %d iterations, %ld Jacobians, "
              "%.3f s\n",
              *exact.rms_N, exact.iterations, exact.jacobian_evaluations, exact.fit_seconds, fd.iterations,
              fd.jacobian_evaluations, fd.fit_seconds);
}

TEST(FitPatchTransient, AKeyThatMovesTheTransportTakesDifferencesAndSaysWhyWhenExactIsAsked) {
  const std::vector<fit::TransientExperiment> e{experiment(truth_Fy())};
  // The patch's length scales the transport velocities and the stable step: a key outside law/body/pair.
  const std::vector<fit::ParameterSpec> ps = {{"law.mu_d", 0.75, 0.3, 1.1, fit::Scale::linear},
                                              {"patch.length_m", 0.1, 0.05, 0.2, fit::Scale::linear}};
  const VecX p = (VecX(2) << 0.75, 0.1).finished();
  try {
    (void)fit::jacobian(e, ps, p, fit::JacobianMethod::sensitivities);
    ADD_FAILURE() << "no error";
  } catch (const InvalidInput& error) {
    EXPECT_THAT(error.what(), HasSubstr("fit: exact Jacobian requested, but it does not apply: "
                                        "fit.parameters.\"patch.length_m\" (the exact Jacobian takes keys of law"));
  }
  EXPECT_EQ(fit::jacobian(e, ps, p, fit::JacobianMethod::automatic), fit::jacobian(e, ps, p, 1e-4));
  fit::Options options;
  options.jacobian = fit::JacobianMethod::sensitivities;
  try {
    (void)fit::fit(e, ps, options);
    ADD_FAILURE() << "no error";
  } catch (const InvalidInput& error) {
    EXPECT_THAT(error.what(), HasSubstr("fit.parameters.\"patch.length_m\""));
  }

  // pair.s is a key of the pair but sets S1 = (1 - s) I: the Riemann families' velocities move with it.
  const std::string deformable = variant(R"([law]
type = "frbd"
mu_s = 1.2
mu_d = 0.7
v_s = 3.49
delta_s = 0.6
eps = 1e-12
[body1]
type = "elastic"
k0 = 240.0
[body2]
type = "elastic"
[pair]
s = 0.4
)");
  const std::vector<fit::TransientExperiment> d{experiment_of(deformable, {"Fy_N"})};
  const std::vector<fit::ParameterSpec> with_s = {{"body1.k0", 240.0, 50.0, 2000.0, fit::Scale::log},
                                                  {"pair.s", 0.4, 0.1, 0.9, fit::Scale::linear}};
  const VecX q = (VecX(2) << 240.0, 0.4).finished();
  try {
    (void)fit::jacobian(d, with_s, q, fit::JacobianMethod::sensitivities);
    ADD_FAILURE() << "no error";
  } catch (const InvalidInput& error) {
    EXPECT_THAT(error.what(), HasSubstr("fit.parameters.\"pair.s\": it changes the pair's S1"));
  }
  // body1.k0 alone under pair.s (body2.k0 follows, S1 stays): exact.
  EXPECT_NO_THROW((void)fit::jacobian(d, {with_s[0]}, q.head(1), fit::JacobianMethod::sensitivities));

  // Bouc-Wen takes the sdirk2 source step.
  const std::string bouc_wen = variant(R"([law]
type = "bouc_wen"
[body1]
type = "elastic"
k0 = 240.0
)");
  const std::vector<fit::TransientExperiment> b{experiment_of(bouc_wen, {"Fy_N"})};
  const std::vector<fit::ParameterSpec> gain = {{"law.A", 1.0, 0.5, 2.0, fit::Scale::linear}};
  try {
    (void)fit::jacobian(b, gain, VecX::Constant(1, 1.0), fit::JacobianMethod::sensitivities);
    ADD_FAILURE() << "no error";
  } catch (const InvalidInput& error) {
    EXPECT_THAT(error.what(), HasSubstr("law.type = \"bouc_wen\" takes the sdirk2 source step"));
  }
}

TEST(FitPatchTransient, RefusesATargetTheKindDoesNotOutputAndAnotherInitialState) {
  auto e = experiment(truth_Fy());
  e.targets.front().output = "F_N";
  try {
    fit::validate({e}, parameters(0.7, 240.0));
    ADD_FAILURE() << "no error";
  } catch (const InvalidInput& error) {
    EXPECT_NE(std::string(error.what()).find("fit.targets.F_N: the model does not output a column \"F_N\" (outputs "
                                             "of patch_transient: Fz_N"),
              std::string::npos)
        << error.what();
  }
  fit::Options options;
  options.initial_state = fit::InitialState::steady;
  try {
    (void)fit::fit({experiment(truth_Fy())}, parameters(0.7, 240.0), options);
    ADD_FAILURE() << "no error";
  } catch (const InvalidInput& error) {
    EXPECT_NE(std::string(error.what()).find("fit.initial_state = \"steady\": kind = \"patch_transient\" starts from "
                                             "the unloaded contact"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
