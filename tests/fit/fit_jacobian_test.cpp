// The exact Jacobian of a velocity-driven lumped fit (fit::jacobian, the discrete sensitivities of the sdirk2
// scheme, src/fit/sensitivity.hpp): it agrees with central differences of the same discrete solution to 1e-6
// relative for every law and a GKV pair, its residuals are those of `bristle run`'s sdirk2 (contact::run), and
// the scheme's discretisation error against a tight rodas4 solve falls as dt^2.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "bristle/contact/bench.hpp"
#include "bristle/contact/contact_model.hpp"
#include "bristle/core/error.hpp"
#include "bristle/fit/fit.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/scenario.hpp"
#include "../../src/fit/sensitivity.hpp"  // the private solver: its scalar and general paths

namespace bristle::fit {
namespace {

// A contact driven at v_r = 4 mm/s sin(2 pi t) (stick at the reversals, Stribeck transition, sliding) under a
// varying load, the law and bodies given per case; sampled at 200 Hz over 1 s.
std::string scenario_text(const std::string& law, const std::string& bodies) {
  return law + bodies + R"(
[bench]
drive = "velocity"
[bench.input]
type = "sine"
amplitude = 4e-3
omega = 6.283185307179586
[bench.normal_load]
type = "sine"
offset = 10.0
amplitude = 2.0
omega = 3.0
[time]
t_end_s = 1.0
[integrator]
method = "sdirk2"
dt_s = 0.005
)";
}

const std::string kElastic = "[body1]\ntype = \"elastic\"\nk0 = 1e4\n";

std::vector<double> grid(double t0, double t1, int n) {
  std::vector<double> t;
  for (int i = 0; i < n; ++i) t.push_back(t0 + (t1 - t0) * i / (n - 1));
  return t;
}

/// An experiment whose data are the model's own F_N at `truth` perturbed by a smooth error (so that the
/// residuals are not zero), and the parameters at 0.9-1.2 of the truth.
Experiment experiment_of(const std::string& text) {
  Experiment e;
  e.label = "simulated";
  e.scenario = io::parse_lumped_string(text).front();
  e.times = grid(0.0, 1.0, 201);
  const contact::ContactModel model(e.scenario.law, e.scenario.body1, e.scenario.body2);
  const contact::Bench bench(model, e.scenario.bench);
  Target t;
  t.output = "F_N";
  t.data_column = "F_N";
  t.values = contact::run(bench, e.times, e.scenario.integrator).series.column("F_N");
  for (std::size_t i = 0; i < t.values.size(); ++i) t.values[i] += 0.05 * std::sin(7.0 * e.times[i]);
  e.targets.push_back(t);
  return e;
}

VecX perturbed(const Experiment& e, const std::vector<ParameterSpec>& parameters) {
  VecX p(static_cast<Eigen::Index>(parameters.size()));
  for (std::size_t j = 0; j < parameters.size(); ++j)
    p[static_cast<Eigen::Index>(j)] = (0.9 + 0.3 * static_cast<double>(j % 2)) * io::get_number(e.scenario, parameters[j].key);
  return p;
}

std::vector<ParameterSpec> specs(const Experiment& e, const std::vector<std::string>& keys) {
  std::vector<ParameterSpec> out;
  for (const std::string& k : keys) {
    const double v = io::get_number(e.scenario, k);
    out.push_back({k, v, v * 1e-3, v * 1e3, Scale::log});
  }
  return out;
}

void expect_exact_jacobian(const std::string& text, const std::vector<std::string>& keys, InitialState init) {
  const Experiment e = experiment_of(text);
  const std::vector<ParameterSpec> parameters = specs(e, keys);
  ASSERT_EQ(sensitivities_unavailable({e}, parameters), "");
  const VecX p = perturbed(e, parameters);
  const Eigen::MatrixXd exact = jacobian({e}, parameters, p, init, JacobianMethod::sensitivities);
  const Eigen::MatrixXd fd = jacobian({e}, parameters, p, init, JacobianMethod::finite_differences, 1e-5);
  ASSERT_EQ(exact.rows(), fd.rows());
  ASSERT_EQ(exact.cols(), static_cast<Eigen::Index>(keys.size()));
  for (Eigen::Index j = 0; j < exact.cols(); ++j) {
    const double norm = fd.col(j).norm();
    ASSERT_GT(norm, 0.0) << keys[static_cast<std::size_t>(j)] << " does not change the residuals";
    EXPECT_LT((exact.col(j) - fd.col(j)).norm(), 1e-6 * norm) << keys[static_cast<std::size_t>(j)];
  }
}

TEST(FitJacobian, DahlMatchesFiniteDifferences) {
  expect_exact_jacobian(scenario_text("[law]\ntype = \"dahl\"\nmu = 0.5\n", kElastic), {"law.mu", "body1.k0"},
                        InitialState::rest);
}

TEST(FitJacobian, LuGreMatchesFiniteDifferences) {
  expect_exact_jacobian(scenario_text("[law]\ntype = \"lugre\"\nmu_s = 0.6\nmu_d = 0.4\nv_s = 1e-3\n"
                                      "delta_s = 2.0\nsigma1 = 1.0\nsigma2 = 5.0\n",
                                      kElastic),
                        {"law.mu_s", "law.mu_d", "law.v_s", "body1.k0", "law.sigma1", "law.sigma2"},
                        InitialState::match_first_sample);
}

TEST(FitJacobian, FrBDMatchesFiniteDifferences) {
  expect_exact_jacobian(scenario_text("[law]\ntype = \"frbd\"\nmu_s = 0.6\nmu_d = 0.4\nv_s = 1e-3\n", kElastic),
                        {"law.mu_s", "law.mu_d", "law.v_s", "body1.k0"}, InitialState::rest);
}

TEST(FitJacobian, BoucWenMatchesFiniteDifferences) {
  expect_exact_jacobian(scenario_text("[law]\ntype = \"bouc_wen\"\nA = 1.0\nbeta1 = 2e6\ngamma = 5e5\n", kElastic),
                        {"law.A", "law.beta1", "law.gamma", "body1.k0"}, InitialState::rest);
}

TEST(FitJacobian, LuGreOnAKelvinVoigtPairMatchesFiniteDifferences) {
  expect_exact_jacobian(scenario_text("[law]\ntype = \"lugre\"\nmu_s = 0.6\nmu_d = 0.4\nv_s = 1e-3\n"
                                      "sigma2 = 5.0\n",
                                      "[body1]\ntype = \"gkv\"\nk0 = 1e4\nc = [2.0, 0.5]\ntau = [0.05, 0.2]\n"),
                        {"law.mu_s", "body1.k0", "body1.c[0]", "body1.tau[1]"}, InitialState::rest);
}

TEST(FitJacobian, LuGreStribeckShapeAndRegularisationMatchFiniteDifferences) {
  // The scalar path's analytic partials in delta_s, mu_v and eps (the Stribeck exponent, viscous coefficient and
  // norm regularisation of paper 1, eqs. 2, 53), with delta_s away from the special-cased 1 and 2.
  expect_exact_jacobian(scenario_text("[law]\ntype = \"lugre\"\nmu_s = 0.6\nmu_d = 0.4\nv_s = 1e-3\n"
                                      "delta_s = 1.5\nmu_v = 20.0\neps = 1e-8\nsigma1 = 1.0\nsigma2 = 5.0\n",
                                      kElastic),
                        {"law.delta_s", "law.mu_v", "law.eps", "law.v_s", "law.sigma1"},
                        InitialState::match_first_sample);
}

// The scalar closed-form path (elastic Dahl/LuGre/FrBD driven along x) and the general path (any state, LU per
// stage) solve the same discrete model: equal residuals to rounding and Jacobians to the general path's
// difference-quotient partials (~1e-9).
void expect_paths_agree(const std::string& text, const std::vector<std::string>& keys, InitialState init) {
  const Experiment e = experiment_of(text);
  const std::vector<Experiment> es{e};
  const std::vector<ParameterSpec> parameters = specs(e, keys);
  const VecX p = perturbed(e, parameters);
  const detail::Sdirk2Residuals fast(es, parameters, init);
  const detail::Sdirk2Residuals general(es, parameters, init, detail::Sdirk2Residuals::Path::general);
  Eigen::MatrixXd J_fast, J_general;
  const VecX r_fast = fast(p, &J_fast);
  EXPECT_EQ(fast.scalar_solves(), 1U);
  const VecX r_general = general(p, &J_general);
  EXPECT_EQ(general.scalar_solves(), 0U);
  EXPECT_LT((r_fast - r_general).norm(), 1e-13 * r_general.norm());
  EXPECT_LT((fast(p, nullptr) - r_fast).norm(), 1e-15 * r_fast.norm());  // with or without sensitivities
  for (Eigen::Index j = 0; j < J_fast.cols(); ++j)
    EXPECT_LT((J_fast.col(j) - J_general.col(j)).norm(), 1e-7 * J_general.col(j).norm())
        << keys[static_cast<std::size_t>(j)];
}

TEST(FitJacobian, TheScalarPathEqualsTheGeneralPath) {
  expect_paths_agree(scenario_text("[law]\ntype = \"lugre\"\nmu_s = 0.6\nmu_d = 0.4\nv_s = 1e-3\n"
                                   "delta_s = 2.0\nsigma1 = 1.0\nsigma2 = 5.0\n",
                                   kElastic),
                     {"law.mu_s", "law.mu_d", "law.v_s", "body1.k0", "law.sigma1", "law.sigma2"},
                     InitialState::match_first_sample);
  expect_paths_agree(scenario_text("[law]\ntype = \"dahl\"\nmu = 0.5\n", kElastic), {"law.mu", "body1.k0"},
                     InitialState::rest);
  expect_paths_agree(scenario_text("[law]\ntype = \"frbd\"\nmu_s = 0.6\nmu_d = 0.4\nv_s = 1e-3\neps = 1e-9\n",
                                   kElastic),
                     {"law.mu_s", "law.v_s", "body1.k0", "law.eps"}, InitialState::steady);
}

const char* kLuGre =
    "[law]\ntype = \"lugre\"\nmu_s = 0.6\nmu_d = 0.4\nv_s = 1e-3\ndelta_s = 2.0\nsigma1 = 1.0\nsigma2 = 5.0\n";

TEST(FitJacobian, FitWithSensitivitiesRecoversTheTruthAndMatchesTheGeneralSolve) {
  // Noise-free data from the general sdirk2 solve (contact::run, as `bristle run`), started 10-30 % off: the fit
  // takes the exact Jacobian, converges to the truth, and its cost (the sensitivity solve's residuals) equals
  // the general solve's RMS at the optimum.
  Experiment e = experiment_of(scenario_text(kLuGre, kElastic));
  const contact::ContactModel model(e.scenario.law, e.scenario.body1, e.scenario.body2);
  const contact::Bench bench(model, e.scenario.bench);
  e.targets.front().values = contact::run(bench, e.times, e.scenario.integrator).series.column("F_N");
  const std::vector<std::string> keys = {"law.mu_s", "law.mu_d", "law.v_s", "body1.k0", "law.sigma2"};
  const std::vector<double> truth = {0.6, 0.4, 1e-3, 1e4, 5.0};
  std::vector<ParameterSpec> parameters = specs(e, keys);
  const std::vector<double> start = {0.66, 0.36, 1.3e-3, 8e3, 4.0};
  for (std::size_t j = 0; j < keys.size(); ++j) parameters[j].initial = start[j];
  const Result r = fit({e}, parameters);
  EXPECT_EQ(r.jacobian, JacobianMethod::sensitivities);
  ASSERT_TRUE(r.converged) << r.termination;
  for (std::size_t j = 0; j < keys.size(); ++j) EXPECT_NEAR(r.parameters[j].value, truth[j], 1e-5 * truth[j]) << keys[j];
  EXPECT_LT(*r.rms_N, 1e-6);
  // One solve per Jacobian (not 2 P + 1), at most one per iteration plus the trial points and the final statistics.
  EXPECT_LE(r.evaluations, 3L * (r.iterations + 2));
  EXPECT_GE(r.jacobian_evaluations, 2);

  // Away from the optimum: the general solve's cost equals the sensitivity solve's (the same scheme).
  Options one;
  one.max_iterations = 1;
  std::vector<ParameterSpec> off = parameters;
  const Result early = fit({e}, off, one);
  EXPECT_NEAR(*early.rms_N * *early.rms_N * static_cast<double>(early.residual_count), early.cost, 1e-6 * early.cost);
}

TEST(FitJacobian, FiniteDifferencesRemainForOtherIntegrators) {
  Experiment e = experiment_of(scenario_text(kLuGre, kElastic));
  e.scenario.integrator.method = integrate::Method::rodas4;
  const std::vector<ParameterSpec> parameters = specs(e, {"law.mu_d"});
  EXPECT_EQ(sensitivities_unavailable({e}, parameters),
            "integrator.method = \"rodas4\" (the exact Jacobian needs \"sdirk2\")");
  EXPECT_THROW((void)jacobian({e}, parameters, VecX::Constant(1, 0.4), InitialState::rest,
                              JacobianMethod::sensitivities),
               InvalidInput);
  Experiment b = experiment_of(scenario_text(kLuGre, kElastic));
  EXPECT_EQ(sensitivities_unavailable({b}, {{"bench.input.amplitude", 4e-3, 1e-3, 1e-2, Scale::linear}}),
            "parameter bench.input.amplitude (the exact Jacobian differentiates keys of law, body1 and body2)");
}

TEST(FitJacobian, TheSchemeConvergesAtSecondOrder) {
  // The fitted model is the sdirk2 solution on the data grid: its error against a tight rodas4 solve falls by
  // ~4 per halving of dt (order 2); at 5 ms (the tribometer's grid) it is below 1e-3 of the force amplitude here.
  const std::vector<double> times = grid(0.0, 1.0, 51);
  const auto force = [&](integrate::Method method, double dt) {
    Experiment e;
    e.scenario = io::parse_lumped_string(scenario_text(kLuGre, kElastic)).front();
    e.scenario.integrator.method = method;
    e.scenario.integrator.dt_s = dt;
    e.scenario.integrator.rtol = method == integrate::Method::rodas4 ? 1e-11 : 1e-10;
    e.scenario.integrator.atol = 1e-14;
    e.times = times;
    Target t;
    t.output = "F_N";
    t.values.assign(times.size(), 0.0);  // residual = F
    e.targets.push_back(t);
    return residuals({e}, {{"law.mu_d", 0.4, 0.1, 1.0, Scale::linear}}, VecX::Constant(1, 0.4), InitialState::rest);
  };
  const VecX reference = force(integrate::Method::rodas4, 0.0);
  const double amplitude = reference.lpNorm<Eigen::Infinity>();
  double previous = 0.0;
  for (const double dt : {0.02, 0.01, 0.005, 0.0025}) {
    const double error = (force(integrate::Method::sdirk2, dt) - reference).lpNorm<Eigen::Infinity>();
    if (dt == 0.005) {
      EXPECT_LT(error, 1e-3 * amplitude);
    }
    if (previous > 0.0) {
      const double order = std::log2(previous / error);
      EXPECT_GT(order, 1.7) << "dt = " << dt;
      EXPECT_LT(order, 2.5) << "dt = " << dt;
    }
    previous = error;
  }
}

}  // namespace
}  // namespace bristle::fit
