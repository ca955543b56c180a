// Fits of a steady patch map (kind = "patch_steady_map", fit/steady_map.hpp): recovery of the truth from noisy
// simulated F_y(alpha) with interval coverage over 20 noise seeds, and the exact Jacobian (the implicit-function
// derivative of the steady solve) against a Richardson-extrapolated difference of whole solves.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/fit/steady_map.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/patch_scenario.hpp"
#include "support/test_support.hpp"

namespace {

using namespace bristle;

// A coarse patch (20 x 4 cells) of paper 1, §4: FrBD law of Table 2, elastic roller on a rigid ground (Table 2's
// k01 = 240 /m), rectangle 0.1 x 0.05 m, uniform pressure, F_z = 3000 N, V_r = 16 m/s.
const char* const kMap = R"(name = "map"
kind = "patch_steady_map"
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
Vr_mps = 16.0
slip_angle_deg = 0.0
)";

std::vector<double> slip_angles() {
  std::vector<double> a;
  for (int i = -8; i <= 8; ++i) a.push_back(1.0 * i);  // deg
  return a;
}

fit::MapExperiment experiment(const std::vector<double>& Fy) {
  fit::MapExperiment e;
  e.label = "simulated";
  e.scenario = io::parse_patch_steady_map_string(kMap, "map");
  e.grid = "slip_angle_deg";
  e.grid_values = slip_angles();
  e.scenario.lateral.values = e.grid_values;
  e.scenario.lateral.list = true;
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
  const std::vector<fit::MapExperiment> e{experiment(std::vector<double>(slip_angles().size(), 0.0))};
  const VecX p = (VecX(2) << 0.7, 240.0).finished();
  return fit::map_model(e, parameters(0.7, 240.0), p).front().column("Fy_N");
}

TEST(FitSteadyMap, RecoversMuDAndK0AndIntervalsCoverTheTruth) {
  BRISTLE_SKIP_LONG_STUDY_UNDER_SANITIZERS("recovery over 20 seeds of fits");
  const std::vector<double> clean = truth_Fy();
  // The map is a lateral force curve: linear at small alpha (cornering stiffness ~ k0), saturating towards
  // mu F_z; both parameters are visible in it.
  ASSERT_GT(std::abs(clean.back()), 500.0);
  EXPECT_NEAR(clean[8], 0.0, 1e-6 * std::abs(clean.back()));
  EXPECT_LT(clean.front() * clean.back(), 0.0);
  const double sigma = 10.0;  // N
  const double truth[2] = {0.7, 240.0};
  int covered[2] = {0, 0};
  const int seeds = 20;
  for (int seed = 1; seed <= seeds; ++seed) {
    std::mt19937_64 rng(static_cast<unsigned>(seed));
    std::normal_distribution<double> noise(0.0, sigma);
    std::vector<double> Fy = clean;
    for (double& f : Fy) f += noise(rng);
    const std::vector<fit::MapExperiment> e{experiment(Fy)};
    const fit::Result r = fit::fit(e, parameters(0.85, 180.0));
    ASSERT_TRUE(r.converged) << "seed " << seed << ": " << r.termination;
    EXPECT_EQ(r.jacobian, fit::JacobianMethod::sensitivities);
    ASSERT_TRUE(r.rms_N.has_value());
    EXPECT_NEAR(*r.rms_N, sigma, 0.45 * sigma) << "seed " << seed;
    for (int j = 0; j < 2; ++j) {
      const fit::ParameterResult& p = r.parameters[static_cast<std::size_t>(j)];
      EXPECT_LT(std::abs(p.value - truth[j]), 5.0 * p.std_error) << p.key << " seed " << seed;
      EXPECT_LT(std::abs(p.value - truth[j]), 0.05 * truth[j]) << p.key << " seed " << seed;
      if (p.ci95_low <= truth[j] && truth[j] <= p.ci95_high) ++covered[j];
    }
  }
  std::printf("95 %% intervals containing the truth over %d seeds: law.mu_d %d, body1.k0 %d\n", seeds, covered[0],
              covered[1]);
  EXPECT_GE(covered[0], 17) << "law.mu_d";
  EXPECT_GE(covered[1], 17) << "body1.k0";
}

/// |J_exact - J_R| / |J_R| per column, J_R a Richardson extrapolation of central differences of whole steady solves
/// at steps 4h and 2h (error O(h^4)), h = 1e-4 relative.
void expect_exact_jacobian(const std::vector<fit::MapExperiment>& e, const std::vector<fit::ParameterSpec>& specs,
                           const VecX& p) {
  ASSERT_EQ(fit::sensitivities_unavailable(e, specs, p), "");
  const Eigen::MatrixXd J = fit::jacobian(e, specs, p, fit::JacobianMethod::sensitivities);
  const Eigen::MatrixXd J4 = fit::jacobian(e, specs, p, fit::JacobianMethod::finite_differences, 4e-4);
  const Eigen::MatrixXd J2 = fit::jacobian(e, specs, p, fit::JacobianMethod::finite_differences, 2e-4);
  const Eigen::MatrixXd ref = (4.0 * J2 - J4) / 3.0;
  for (Eigen::Index j = 0; j < J.cols(); ++j) {
    ASSERT_GT(ref.col(j).norm(), 0.0);
    const double error = (J.col(j) - ref.col(j)).norm() / ref.col(j).norm();
    std::printf("%s: |J_exact - J_richardson| / |J_richardson| = %.2e\n",
                specs[static_cast<std::size_t>(j)].key.c_str(), error);
    EXPECT_LT(error, 1e-6) << specs[static_cast<std::size_t>(j)].key;
  }
}

TEST(FitSteadyMap, TheExactJacobianAgreesWithCentralDifferences) {
  const std::vector<fit::MapExperiment> e{experiment(truth_Fy())};
  // Away from the truth (non-zero residuals and slopes); mu_s, v_s and k0 as well as mu_d.
  const std::vector<fit::ParameterSpec> specs{{"law.mu_d", 0.7, 0.3, 1.1, fit::Scale::linear},
                                              {"body1.k0", 240.0, 50.0, 2000.0, fit::Scale::log},
                                              {"law.mu_s", 1.2, 0.8, 2.0, fit::Scale::linear},
                                              {"law.v_s", 3.49, 0.5, 10.0, fit::Scale::log}};
  expect_exact_jacobian(e, specs, (VecX(4) << 0.75, 300.0, 1.3, 3.0).finished());
}

TEST(FitSteadyMap, TheExactJacobianAgreesForMomentsOnAViscoelasticPair) {
  // Fy and Mz (eqs. 38, 39: phi from the deformation) on a GKV roller over an elastic ground (pair.s = 0.4).
  const std::string toml = std::string(kMap).replace(std::string(kMap).find("[body1]\ntype = \"elastic\"\nk0 = 240.0\n"),
                                                     std::string("[body1]\ntype = \"elastic\"\nk0 = 240.0\n").size(),
                                                     "[body1]\ntype = \"gkv\"\nk0 = 240.0\nc = [72.0]\ntau = [0.1]\n"
                                                     "[body2]\ntype = \"elastic\"\n[pair]\ns = 0.4\n");
  fit::MapExperiment e = experiment(truth_Fy());
  e.scenario = io::parse_patch_steady_map_string(toml, "map");
  e.scenario.lateral.values = e.grid_values;
  e.scenario.lateral.list = true;
  for (const char* out : {"Mz_Nm", "Mz_no_phi_Nm"}) {
    fit::Target t = e.targets.front();
    t.output = out;
    t.values.assign(t.values.size(), 1.0);
    e.targets.push_back(t);
  }
  const std::vector<fit::ParameterSpec> specs{{"law.mu_d", 0.7, 0.3, 1.1, fit::Scale::linear},
                                              {"body1.c[0]", 72.0, 10.0, 500.0, fit::Scale::log},
                                              {"body1.tau[0]", 0.1, 0.01, 1.0, fit::Scale::log}};
  expect_exact_jacobian({e}, specs, (VecX(3) << 0.75, 60.0, 0.12).finished());
}

TEST(FitSteadyMap, KeysThatChangeTheTransportFallBackToDifferences) {
  const std::vector<fit::MapExperiment> e{experiment(truth_Fy())};
  const std::vector<fit::ParameterSpec> specs{{"patch.length_m", 0.1, 0.05, 0.2, fit::Scale::linear}};
  EXPECT_NE(fit::sensitivities_unavailable(e, specs, (VecX(1) << 0.1).finished()), "");
  EXPECT_THROW((void)fit::jacobian(e, specs, (VecX(1) << 0.1).finished(), fit::JacobianMethod::sensitivities),
               InvalidInput);
}

TEST(FitSteadyMap, ValidateRefusesWhatTheMapCannotFit) {
  const std::vector<double> clean = truth_Fy();
  const auto specs = parameters(0.7, 240.0);
  {
    auto e = experiment(clean);
    e.targets.front().output = "F_N";
    try {
      fit::validate({e}, specs);
      ADD_FAILURE() << "no error";
    } catch (const InvalidInput& error) {
      EXPECT_NE(std::string(error.what()).find("fit.targets.F_N: the model does not output a column \"F_N\""),
                std::string::npos)
          << error.what();
    }
  }
  {
    auto e = experiment(clean);
    e.grid_values.back() = 95.0;  // a slip angle outside (-89, 89)
    try {
      fit::validate({e}, specs);
      ADD_FAILURE() << "no error";
    } catch (const InvalidInput& error) {
      EXPECT_NE(std::string(error.what()).find("kinematics.slip_angle_deg = 95: must be in (-89, 89)"),
                std::string::npos)
          << error.what();
    }
  }
  {
    auto e = experiment(clean);
    e.grid = "vy_mps";  // the scenario gives slip_angle_deg
    try {
      fit::validate({e}, specs);
      ADD_FAILURE() << "no error";
    } catch (const InvalidInput& error) {
      EXPECT_NE(std::string(error.what()).find("fit.grid_column = \"vy_mps\": not a kinematics axis"),
                std::string::npos)
          << error.what();
    }
  }
  {
    auto e = experiment({clean[0], clean[1]});
    e.grid_values = {-1.0, 1.0};
    try {
      fit::validate({e}, specs);  // 2 rows for 2 parameters
      ADD_FAILURE() << "no error";
    } catch (const InvalidInput& error) {
      EXPECT_NE(std::string(error.what()).find("2 residual(s) for 2 parameters"), std::string::npos) << error.what();
    }
  }
}

}  // namespace
