// Fits of a transient patch (kind = "patch_transient", fit/patch_transient.hpp): recovery of the truth from noisy
// simulated F_y(t) with interval coverage over 20 noise seeds, and the difference Jacobian against a
// Richardson-extrapolated one.
#include <gtest/gtest.h>

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
    EXPECT_EQ(r.jacobian, fit::JacobianMethod::finite_differences);
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
  const Eigen::MatrixXd J = fit::jacobian(e, specs, p);  // what fit() forms (step 1e-4 relative)
  const Eigen::MatrixXd ref = (4.0 * fit::jacobian(e, specs, p, 2e-4) - fit::jacobian(e, specs, p, 4e-4)) / 3.0;
  for (Eigen::Index j = 0; j < J.cols(); ++j) {
    ASSERT_GT(ref.col(j).norm(), 0.0);
    const double error = (J.col(j) - ref.col(j)).norm() / ref.col(j).norm();
    std::printf("%s: |J - J_richardson| / |J_richardson| = %.2e\n", specs[static_cast<std::size_t>(j)].key.c_str(),
                error);
    EXPECT_LT(error, 1e-6) << specs[static_cast<std::size_t>(j)].key;
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
