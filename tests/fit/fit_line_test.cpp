// Identification of the line contact (fit/line.hpp): recovery of simulated parameters with noise, with 95 %
// intervals covering the truth, for the steady map (line_steady) and the transient (line_transient); the accuracy
// of their Jacobians (exact and central differences) against central differences and a Richardson extrapolation;
// line_transient's fallback to differences for keys that change the grid, the transport or the steps.
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

// ---- line_transient: exact Jacobian ------------------------------------------------------------------------------

/// The transient experiment with `line_tail` appended to its [line] table and targets on `outputs` (values 0: the
/// Jacobian does not depend on them).
LineTransientExperiment exact_experiment(const std::string& line_tail, const std::vector<std::string>& outputs,
                                         const std::vector<double>& t,
                                         const std::string& drive = "Vx = { type = \"sine\", amplitude = 0.5, "
                                                                    "omega = 4.0, offset = 0.6 }\n") {
  std::string text = "kind = \"line_transient\"\n" + model(0.7, 30.0) + "cells = 20\n" + line_tail +
                     "[kinematics]\nmode = \"sliding\"\n" + drive +
                     fmt::format("[time]\nt_start_s = {}\nt_end_s = {}\noutputs = {}\n", t.front(), t.back(), t.size());
  LineTransientExperiment e;
  e.label = "simulated";
  e.scenario = io::parse_line_transient_string(text, "line").front();
  e.times = t;
  for (const std::string& o : outputs) {
    Target target;
    target.output = target.data_column = o;
    target.values.assign(t.size(), 0.0);
    e.targets.push_back(target);
  }
  return e;
}

/// max_j |J_exact,j - J_fd,j| / |J_fd,j| (printed per column) with J_fd central differences of whole runs at `step`.
double exact_against_differences(const std::vector<LineTransientExperiment>& e, const std::vector<ParameterSpec>& ps,
                                 const VecX& p, double step, const char* what) {
  const Eigen::MatrixXd exact = jacobian(e, ps, p, JacobianMethod::sensitivities);
  const Eigen::MatrixXd fd = jacobian(e, ps, p, JacobianMethod::finite_differences, step);
  double worst = 0.0;
  for (Eigen::Index j = 0; j < p.size(); ++j) {
    const double d = (exact.col(j) - fd.col(j)).norm() / fd.col(j).norm();
    std::printf("  %s, %-14s |J_exact - J_fd(%g)| / |J_fd| = %.2e\n", what, ps[static_cast<std::size_t>(j)].key.c_str(),
                step, d);
    worst = std::max(worst, d);
  }
  return worst;
}

const std::vector<ParameterSpec> kExactParameters{
    {"law.mu_s", 1.1, 0.3, 2.0, Scale::linear},      {"law.mu_d", 0.7, 0.3, 1.5, Scale::linear},
    {"law.v_s", 6.0, 1.0, 20.0, Scale::linear},      {"law.delta_s", 2.0, 0.5, 4.0, Scale::linear},
    {"body1.k0", 35.0, 5.0, 500.0, Scale::log},      {"body2.tau[0]", 0.05, 0.005, 1.0, Scale::log},
};

TEST(FitLineTransient, ExactJacobianMatchesCentralDifferences) {
  // FrBD on the elastic block over the GKV substrate; the drive reverses (0.15 +/- 0.5 m/s), so that the transport
  // runs both ways and the profiles have extrema where the limiters switch branches; 20 cells, every output column
  // with a derivative, six law and body keys. Van Leer (the default), minmod and mc, and the dense output.
  const std::vector<std::string> outputs{"Fx_N", "Fx_abs_N", "W_J", "P_supplied_W", "E_supplied_J", "P_dissipated_W"};
  const std::string drive = "Vx = { type = \"sine\", amplitude = 0.5, omega = 6.0, offset = 0.15 }\n"
                            "allow_reversal = true\n";
  VecX p(6);
  p << 1.1, 0.7, 6.0, 2.0, 35.0, 0.05;
  // Measured, van Leer, the worst column per step of the differences: 1e-3: 3.6e-6 (their truncation error),
  // 1e-4: 3.6e-8, 1e-5: 1.1e-8, 1e-6: 1.2e-7, 1e-7: 1.2e-6 (their rounding error): 1e-5 is the step where the
  // quotients are most accurate. Per column at 1e-5: law.mu_s 6.3e-11, law.mu_d 9.1e-9, law.v_s 1.1e-8,
  // law.delta_s 4.5e-9, body1.k0 8.4e-11, body2.tau[0] 8.2e-10. (With dP, dq as central differences of P between the
  // models at p -/+ 1e-6|p| instead of the Frechet derivative: 1.2e-7 at every step, P being close to the identity.)
  const std::vector<LineTransientExperiment> e{exact_experiment("", outputs, times(1.5, 31), drive)};
  for (const double step : {1e-3, 1e-4, 1e-6, 1e-7}) {
    const double worst = exact_against_differences(e, kExactParameters, p, step, "van Leer");
    std::printf("  van Leer, step %g: worst %.2e\n", step, worst);
  }
  EXPECT_LT(exact_against_differences(e, kExactParameters, p, 1e-5, "van Leer"), 1e-6);
  // Measured at 1e-5: minmod <= 1.04e-8, mc <= 1.10e-8, the dense output (interpolate_outputs) <= 1.09e-8.
  for (const std::string what : {"minmod", "mc", "dense output"}) {
    const std::string tail = what == "dense output" ? "interpolate_outputs = true\n" : "limiter = \"" + what + "\"\n";
    const std::vector<LineTransientExperiment> ei{exact_experiment(tail, outputs, times(1.5, 31), drive)};
    EXPECT_LT(exact_against_differences(ei, kExactParameters, p, 1e-5, what.c_str()), 1e-6) << what;
  }
}

TEST(FitLineTransient, ExactJacobianOfLuGreMatchesCentralDifferences) {
  // LuGre's output terms (sigma1 zdot + sigma2 v_r: the friction force is not the state f) on a GKV block over an
  // elastic substrate (pair.s):
  // the force's partial in p enters at every step and at the start (sigma2 v_r).
  const std::string text = R"(kind = "line_transient"
[law]
type = "lugre"
mu_s = 1.0
mu_d = 0.7
v_s = 0.5
delta_s = 2.0
sigma1 = 0.05
sigma2 = 0.2
[body1]
type = "gkv"
k0 = 40.0
c = [0.5]
tau = [0.02]
[body2]
type = "elastic"
[pair]
s = 0.3
[line]
L_m = 0.1
normal_load_N = 10.0
cells = 25
[kinematics]
mode = "sliding"
Vx = { type = "sine", amplitude = 0.5, omega = 5.0, offset = 0.6 }
[time]
t_end_s = 1.2
outputs = 25
)";
  LineTransientExperiment e;
  e.label = "lugre";
  e.scenario = io::parse_line_transient_string(text, "line").front();
  e.times = times(1.2, 25);
  for (const char* o : {"Fx_N", "W_J", "P_supplied_W", "E_supplied_J", "P_dissipated_W"}) {
    Target t;
    t.output = t.data_column = o;
    t.values.assign(e.times.size(), 0.0);
    e.targets.push_back(t);
  }
  const std::vector<ParameterSpec> ps{{"law.mu_d", 0.7, 0.3, 1.5, Scale::linear},
                                      {"law.sigma1", 0.05, 0.01, 1.0, Scale::log},
                                      {"law.sigma2", 0.2, 0.01, 1.0, Scale::log},
                                      {"body1.k0", 40.0, 5.0, 500.0, Scale::log},
                                      {"body1.c[0]", 0.5, 0.05, 5.0, Scale::log}};
  VecX p(5);
  p << 0.7, 0.05, 0.2, 40.0, 0.5;
  ASSERT_EQ(sensitivities_unavailable({e}, ps, p), "");
  // Measured: <= 2.8e-9 at step 1e-5 (law.sigma1; 1e-4: <= 1.0e-8, 1e-6: <= 1.8e-8).
  for (const double step : {1e-4, 1e-6}) exact_against_differences({e}, ps, p, step, "LuGre");
  EXPECT_LT(exact_against_differences({e}, ps, p, 1e-5, "LuGre"), 1e-6);
}

TEST(FitLineTransient, AFitWithTheExactJacobianRecoversTheParametersAndLandsWhereDifferencesLand) {
  // The recovery test's data (mu_s = 1, k0 = 30, noise 0.02 N): the fit takes the exact Jacobian by itself
  // (automatic) and lands where the fit by differences lands. Measured: rms 20.2 mN; the same optimum to 8 digits
  // (law.mu_s 0.9950777 +/- 0.0048, body1.k0 30.238106 +/- 0.203), 4 iterations and 6 Jacobians each; over 8 repeats
  // on a loaded machine 0.033-0.042 s exact against 0.039-0.057 s by differences (one run carrying the 2 tangents
  // ~3.6 ms against 4 runs ~4.7 ms per Jacobian).
  const LineTransientExperiment e = transient_experiment(0.7, 30.0, times(1.5, 31), 0.02, 200);
  Options options;
  const Result exact = fit({e}, kTransientParameters, options);
  ASSERT_TRUE(exact.converged) << exact.termination;
  EXPECT_EQ(exact.jacobian, JacobianMethod::sensitivities);
  options.jacobian = JacobianMethod::sensitivities;
  EXPECT_EQ(fit({e}, kTransientParameters, options).jacobian, JacobianMethod::sensitivities);
  options.jacobian = JacobianMethod::finite_differences;
  const Result fd = fit({e}, kTransientParameters, options);
  ASSERT_TRUE(fd.converged) << fd.termination;
  EXPECT_EQ(fd.jacobian, JacobianMethod::finite_differences);
  const double truth[2] = {1.0, 30.0};
  for (std::size_t j = 0; j < 2; ++j) {
    const ParameterResult& pr = exact.parameters[j];
    EXPECT_NEAR(pr.value, truth[j], 4.0 * pr.std_error) << pr.key;
    EXPECT_NEAR(pr.value, fd.parameters[j].value, 0.01 * pr.std_error) << pr.key;
    EXPECT_NEAR(pr.std_error, fd.parameters[j].std_error, 1e-3 * pr.std_error) << pr.key;
    std::printf("  %s: exact %.8g +/- %.3g, differences %.8g +/- %.3g\n", pr.key.c_str(), pr.value, pr.std_error,
                fd.parameters[j].value, fd.parameters[j].std_error);
  }
  std::printf("  rms %.4g N; exact: %d iterations, %ld Jacobians, %.3f s; differences: %d iterations, %ld Jacobians, "
              "%.3f s\n",
              *exact.rms_N, exact.iterations, exact.jacobian_evaluations, exact.fit_seconds, fd.iterations,
              fd.jacobian_evaluations, fd.fit_seconds);
}

TEST(FitLineTransient, KeysThatChangeTheTransportTakeDifferencesAndSayWhyWhenExactIsAsked) {
  const LineTransientExperiment e = transient_experiment(0.7, 30.0, times(1.0, 11), 0.0, 1);
  const auto expect_refused = [&](const std::vector<LineTransientExperiment>& es, const std::vector<ParameterSpec>& ps,
                                  const VecX& p, const std::string& why) {
    const std::string unavailable = sensitivities_unavailable(es, ps, p);
    EXPECT_NE(unavailable.find(why), std::string::npos) << unavailable;
    try {
      (void)jacobian(es, ps, p, JacobianMethod::sensitivities);
      ADD_FAILURE() << "no error";
    } catch (const InvalidInput& error) {
      EXPECT_NE(std::string(error.what()).find("fit: exact Jacobian requested, but it does not apply: " + why),
                std::string::npos)
          << error.what();
    }
    Options o;
    o.jacobian = JacobianMethod::sensitivities;
    EXPECT_THROW((void)fit(es, ps, o), InvalidInput);
    // automatic: the central differences
    EXPECT_EQ(jacobian(es, ps, p, JacobianMethod::automatic), jacobian(es, ps, p, 1e-4));
  };
  // A key of the grid.
  std::vector<ParameterSpec> with_line = kTransientParameters;
  with_line.push_back({"line.L_m", 0.1, 0.05, 0.2, Scale::linear});
  VecX q(3);
  q << 1.1, 35.0, 0.1;
  expect_refused({e}, with_line, q, "fit.parameters.\"line.L_m\" (the exact Jacobian takes keys of law");
  // A key of the drive (a constant speed here).
  std::vector<ParameterSpec> with_drive = kTransientParameters;
  with_drive.push_back({"kinematics.Vx", 0.5, 0.1, 1.0, Scale::linear});
  q << 1.1, 35.0, 0.5;
  expect_refused({exact_experiment("", {"Fx_N"}, times(1.0, 11), "Vx = 0.5\n")}, with_drive, q,
                 "fit.parameters.\"kinematics.Vx\" (the exact Jacobian takes keys");
  // pair.s: a key of the pair, but it sets the transport speed of f (S2 = s, eq. 34a) and so the steps.
  std::vector<ParameterSpec> with_s = kTransientParameters;
  with_s.push_back({"pair.s", 0.4, 0.1, 0.9, Scale::linear});
  q << 1.1, 35.0, 0.4;
  expect_refused({e}, with_s, q, "fit.parameters.\"pair.s\" changes the transport speeds");
  // The SDIRK2 source step.
  LineTransientExperiment sdirk = e;
  sdirk.scenario.line.source_scheme = transport::SourceScheme::sdirk2;
  VecX p(2);
  p << 1.1, 35.0;
  expect_refused({sdirk}, kTransientParameters, p, "line.source_scheme = \"sdirk2\"");
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
