// Identification of the line contact (fit/line.hpp): recovery of simulated parameters with noise, with 95 %
// intervals covering the truth, for the steady map (line_steady) and the transient (line_transient); the accuracy
// of their Jacobians (line_steady: exact; line_transient: central differences) against a Richardson extrapolation.
#include "bristle/fit/line.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/io/line_scenario.hpp"
#include "support/test_support.hpp"

namespace bristle::fit {
namespace {

// FrBD (paper 1, Table 1's Stribeck curve) on a soft elastic block over a substrate with one GKV branch from
// eq. 58; a short contact, so that the block's stiffness shows in the force (eq. 57: (1 - s) k01 L / (s mu) ~ 6).
std::string model(double mu_d, double k0) {
  return fmt::format(R"(
[law]
type = "frbd"
mu_s = 1.0
mu_d = {}
v_s = 6.0
delta_s = 2.0
[body1]
type = "elastic"
k0 = {}
[body2]
type = "gkv"
c = "eq58"
tau = [0.05]
[pair]
s = 0.4
[line]
L_m = 0.1
normal_load_N = 10.0
)",
                     mu_d, k0);
}

std::vector<double> log_speeds(int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(0.05 * std::pow(30.0 / 0.05, i / (n - 1.0)));
  return v;
}

LineSteadyExperiment steady_experiment(double mu_d, double k0, const std::vector<double>& speeds, double noise,
                                       unsigned seed) {
  const std::string text = "kind = \"line_steady\"\n" + model(mu_d, k0) + "[kinematics]\nmode = \"sliding\"\nV_mps = " +
                           fmt::format("[{}]\n", fmt::join(speeds, ", "));
  LineSteadyExperiment e;
  e.label = "simulated";
  e.scenario = io::parse_line_steady_string(text, "line").front();
  e.grid = "V_mps";
  e.grid_values = speeds;
  const contact::ContactModel m(e.scenario.law, e.scenario.body1, e.scenario.body2);
  Target t;
  t.output = t.data_column = "Fx_N";
  t.values = e.scenario.solve(m).column("Fx_N");
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> n(0.0, noise);
  for (double& y : t.values) y += n(rng);
  e.targets.push_back(t);
  return e;
}

const std::vector<ParameterSpec> kSteadyParameters{
    {"law.mu_d", 0.85, 0.3, 1.5, Scale::linear},
    {"body1.k0", 40.0, 5.0, 500.0, Scale::log},
};

TEST(FitLineSteady, RecoversMuDAndK0AndIntervalsCoverTheTruth) {
  const double mu_d = 0.7, k0 = 30.0, noise = 0.02;
  const std::vector<double> speeds = log_speeds(15);
  int covered[2] = {0, 0};
  constexpr int kSeeds = 20;
  for (int seed = 0; seed < kSeeds; ++seed) {
    const Result r = fit({steady_experiment(mu_d, k0, speeds, noise, 100 + seed)}, kSteadyParameters);
    ASSERT_TRUE(r.converged) << seed << ": " << r.termination;
    EXPECT_EQ(r.jacobian, JacobianMethod::sensitivities);
    const double truth[2] = {mu_d, k0};
    for (int j = 0; j < 2; ++j) {
      const ParameterResult& p = r.parameters[static_cast<std::size_t>(j)];
      EXPECT_LT(std::abs(p.value - truth[j]), 5.0 * p.std_error) << seed << " " << p.key;
      EXPECT_LT(std::abs(p.value - truth[j]), 0.05 * truth[j]) << seed << " " << p.key;
      if (p.ci95_low <= truth[j] && truth[j] <= p.ci95_high) ++covered[j];
    }
    ASSERT_TRUE(r.rms_N.has_value());
    EXPECT_NEAR(*r.rms_N, noise, 0.45 * noise) << seed;
  }
  std::printf("  95 %% intervals containing the truth: law.mu_d %d/%d, body1.k0 %d/%d\n", covered[0], kSeeds,
              covered[1], kSeeds);
  EXPECT_GE(covered[0], 17) << "law.mu_d";
  EXPECT_GE(covered[1], 17) << "body1.k0";
}

/// max_j |J_j - J_R,j| / |J_R,j| (printed per column), with J_R the Richardson extrapolation of central differences
/// at 4h and 2h: `fd(step)` is the difference Jacobian at that step.
template <class Fd>
double richardson_error(const Eigen::MatrixXd& J, const Fd& fd, double h, const std::vector<ParameterSpec>& parameters,
                        const char* what) {
  const Eigen::MatrixXd JR = (4.0 * fd(2.0 * h) - fd(4.0 * h)) / 3.0;
  double worst = 0.0;
  for (Eigen::Index j = 0; j < J.cols(); ++j) {
    const double err = (J.col(j) - JR.col(j)).norm() / JR.col(j).norm();
    std::printf("  %s, %s: |J - J_R| / |J_R| = %.2e\n", what, parameters[static_cast<std::size_t>(j)].key.c_str(),
                err);
    worst = std::max(worst, err);
  }
  return worst;
}

TEST(FitLineSteady, TheExactJacobianAgreesWithCentralDifferences) {
  // The exact path (matrix exponential and its Frechet derivative) for law, body and pair keys, on the map of the
  // recovery test with a viscoelastic substrate; also rolling with a speed entering at the trailing edge.
  const std::vector<LineSteadyExperiment> e{steady_experiment(0.7, 30.0, log_speeds(15), 0.0, 1)};
  std::vector<ParameterSpec> parameters = kSteadyParameters;
  parameters.push_back({"body2.tau[0]", 0.05, 0.005, 1.0, Scale::log});
  parameters.push_back({"law.v_s", 6.0, 1.0, 20.0, Scale::linear});
  parameters.push_back({"pair.s", 0.4, 0.1, 0.9, Scale::linear});
  VecX p(5);
  p << 0.75, 35.0, 0.07, 5.0, 0.45;
  ASSERT_EQ(sensitivities_unavailable(e, parameters, p), "");
  const Eigen::MatrixXd J = jacobian(e, parameters, p, JacobianMethod::sensitivities);
  const auto fd = [&](double step) { return jacobian(e, parameters, p, JacobianMethod::finite_differences, step); };
  EXPECT_LT(richardson_error(J, fd, 1e-4, parameters, "exact"), 1e-6);
  EXPECT_LT(richardson_error(fd(1e-4), fd, 1e-4, parameters, "central differences"), 1e-6);
  // The residuals of the exact path are those of the solve, bitwise.
  VecX r = residuals(e, parameters, p);
  EXPECT_EQ((r - residuals(e, parameters, p)).norm(), 0.0);
  // Normalised targets: the derivative of mu (eq. 53) enters.
  std::vector<LineSteadyExperiment> normed = e;
  normed.front().targets.front().output = "Fx_norm";
  const Eigen::MatrixXd Jn = jacobian(normed, parameters, p, JacobianMethod::sensitivities);
  const auto fdn = [&](double step) {
    return jacobian(normed, parameters, p, JacobianMethod::finite_differences, step);
  };
  EXPECT_LT(richardson_error(Jn, fdn, 1e-4, parameters, "exact, Fx_norm"), 1e-6);
  // A line key is not on the exact path: differences, and `sensitivities` says why.
  std::vector<ParameterSpec> with_line = kSteadyParameters;
  with_line.push_back({"line.L_m", 0.1, 0.05, 0.2, Scale::linear});
  VecX q(3);
  q << 0.75, 35.0, 0.1;
  EXPECT_NE(sensitivities_unavailable(e, with_line, q).find("line.L_m"), std::string::npos);
  EXPECT_THROW((void)jacobian(e, with_line, q, JacobianMethod::sensitivities), InvalidInput);
}

// ---- line_transient --------------------------------------------------------------------------------------------

std::vector<double> times(double t_end, int n) {
  std::vector<double> t;
  for (int i = 0; i < n; ++i) t.push_back(t_end * i / (n - 1.0));
  return t;
}

LineTransientExperiment transient_experiment(double mu_d, double k0, const std::vector<double>& t, double noise,
                                             unsigned seed) {
  // Sliding at V_x = 0.5 sin(4 t) m/s from rest: the force builds up over the crossing time L/(s V) and follows the
  // speed; 20 cells.
  const std::string text = "kind = \"line_transient\"\n" + model(mu_d, k0) +
                           "cells = 20\n[kinematics]\nmode = \"sliding\"\n"
                           "Vx = { type = \"sine\", amplitude = 0.5, omega = 4.0, offset = 0.6 }\n" +
                           fmt::format("[time]\nt_start_s = {}\nt_end_s = {}\noutputs = {}\n", t.front(), t.back(),
                                       t.size());
  LineTransientExperiment e;
  e.label = "simulated";
  e.scenario = io::parse_line_transient_string(text, "line").front();
  e.times = t;
  Target target;
  target.output = target.data_column = "Fx_N";
  e.targets.push_back(target);
  // The truth from the fit's own model function, then noise.
  const std::vector<ParameterSpec> none{{"law.mu_d", mu_d, 0.1, 2.0, Scale::linear}};
  VecX p(1);
  p << mu_d;
  e.targets.front().values = line_transient_model({e}, none, p).front().column("Fx_N");
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> n(0.0, noise);
  for (double& y : e.targets.front().values) y += n(rng);
  return e;
}

// At these speeds (0.1-1.1 m/s, v_S = 6 m/s) mu(v) is close to mu_s: the transient determines mu_s and k0.
const std::vector<ParameterSpec> kTransientParameters{
    {"law.mu_s", 1.2, 0.3, 2.0, Scale::linear},
    {"body1.k0", 40.0, 5.0, 500.0, Scale::log},
};

TEST(FitLineTransient, RecoversMuSAndK0AndIntervalsCoverTheTruth) {
  BRISTLE_SKIP_LONG_STUDY_UNDER_SANITIZERS("recovery over 20 seeds of fits");
  const double mu_s = 1.0, k0 = 30.0, noise = 0.02;
  const std::vector<double> t = times(1.5, 31);
  int covered[2] = {0, 0};
  constexpr int kSeeds = 20;
  for (int seed = 0; seed < kSeeds; ++seed) {
    const Result r = fit({transient_experiment(0.7, k0, t, noise, 200 + seed)}, kTransientParameters);
    ASSERT_TRUE(r.converged) << seed << ": " << r.termination;
    const double truth[2] = {mu_s, k0};
    for (int j = 0; j < 2; ++j) {
      const ParameterResult& p = r.parameters[static_cast<std::size_t>(j)];
      EXPECT_LT(std::abs(p.value - truth[j]), 5.0 * p.std_error) << seed << " " << p.key;
      EXPECT_LT(std::abs(p.value - truth[j]), 0.05 * truth[j]) << seed << " " << p.key;
      if (p.ci95_low <= truth[j] && truth[j] <= p.ci95_high) ++covered[j];
    }
    EXPECT_NEAR(*r.rms_N, noise, 0.45 * noise) << seed;
  }
  std::printf("  95 %% intervals containing the truth: law.mu_s %d/%d, body1.k0 %d/%d\n", covered[0], kSeeds,
              covered[1], kSeeds);
  EXPECT_GE(covered[0], 17) << "law.mu_s";
  EXPECT_GE(covered[1], 17) << "body1.k0";
}

TEST(FitLineTransient, TheDifferenceJacobianAgreesWithRichardsonExtrapolation) {
  const std::vector<LineTransientExperiment> e{transient_experiment(0.7, 30.0, times(1.5, 31), 0.0, 1)};
  VecX p(2);
  p << 1.1, 35.0;
  const auto fd = [&](double step) { return jacobian(e, kTransientParameters, p, step); };
  EXPECT_LT(richardson_error(fd(1e-4), fd, 1e-4, kTransientParameters, "central differences"), 1e-6);
}

TEST(FitLine, RefusesTargetsTheModelDoesNotOutputAndAnInitialStateOtherThanRest) {
  LineSteadyExperiment s = steady_experiment(0.7, 30.0, log_speeds(5), 0.0, 1);
  s.targets.front().output = "Fy_N";
  try {
    (void)fit({s}, kSteadyParameters);
    ADD_FAILURE() << "no error";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()),
              "fit.targets.Fy_N: the model does not output a column \"Fy_N\" (outputs of line_steady: Fx_N, Fx_abs_N, "
              "Fx_norm, Fx_norm_abs, mu)");
  }
  Options o;
  o.initial_state = InitialState::steady;
  EXPECT_THROW((void)fit({transient_experiment(0.7, 30.0, times(0.5, 6), 0.0, 1)}, kSteadyParameters, o),
               InvalidInput);
}

}  // namespace
}  // namespace bristle::fit
