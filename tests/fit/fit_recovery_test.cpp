// Recovery of known parameters of each lumped law and of a GKV pair (issue 16, "Must show: Recovery"): data
// simulated by bristle (`bristle run`'s sdirk2, contact::run) at a known truth plus Gaussian noise, fitted with the
// exact Jacobian from starts 15-25 % off. Over 20 noise seeds every fit converges, each estimate lies within 5
// standard errors of the truth, the RMS is the noise, and each parameter's 95 % interval contains the truth in at
// least 17 of the 20 seeds. (LuGre: Fit.RecoversLuGreParametersAndIntervalsCoverTheTruth in fit_test.cpp; the
// steady patch map Fy(alpha): FitSteadyMap.RecoversMuDAndK0AndIntervalsCoverTheTruth.)
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "bristle/fit/fit.hpp"
#include "bristle/io/scenario.hpp"
#include "fit_fixtures.hpp"

namespace bristle::fit {
namespace {

// v_r = 4 mm/s sin(2 pi t) (stick at the reversals, presliding, sliding) under F_z = 10 N, 201 samples over 1 s;
// sdirk2 at the 5 ms sampling, the fitted model's scheme.
std::string scenario_text(const std::string& law, const std::string& body) {
  return law + body + R"(
[bench]
drive = "velocity"
normal_load_N = 10.0
[bench.input]
type = "sine"
amplitude = 4e-3
omega = 6.283185307179586
[time]
t_end_s = 1.0
[integrator]
method = "sdirk2"
dt_s = 0.005
)";
}

struct Free {
  ParameterSpec spec;  // initial: the start (off the truth)
  double truth;
};

constexpr double kNoise_N = 0.02;
constexpr int kSeeds = 20;

void expect_recovery(const std::string& text, const std::vector<Free>& free) {
  const io::LumpedScenario truth = io::parse_lumped_string(text).front();
  const std::vector<double> times = bristle::test::fit::sample_times(1.0, 201);
  const std::vector<double> clean = bristle::test::fit::simulate_F(truth, times);
  std::vector<ParameterSpec> parameters;
  for (const Free& f : free) parameters.push_back(f.spec);
  std::vector<int> covered(free.size(), 0);
  for (int seed = 1; seed <= kSeeds; ++seed) {
    Experiment e;
    e.label = "simulated";
    e.scenario = truth;
    e.times = times;
    Target t;
    t.output = "F_N";
    t.data_column = "F_N";
    t.values = bristle::test::fit::with_noise(clean, kNoise_N, static_cast<unsigned>(seed));
    e.targets.push_back(t);
    const Result r = fit({e}, parameters);
    ASSERT_TRUE(r.converged) << "seed " << seed << ": " << r.termination;
    EXPECT_EQ(r.jacobian, JacobianMethod::sensitivities);
    ASSERT_TRUE(r.rms_N.has_value());
    EXPECT_NEAR(*r.rms_N, kNoise_N, 0.15 * kNoise_N) << "seed " << seed;
    for (std::size_t j = 0; j < free.size(); ++j) {
      const ParameterResult& p = r.parameters[j];
      ASSERT_EQ(p.key, free[j].spec.key);
      EXPECT_FALSE(p.at_bound) << p.key << ", seed " << seed;
      EXPECT_LT(p.std_error, 0.2 * free[j].truth) << p.key << ", seed " << seed;
      EXPECT_NEAR(p.value, free[j].truth, 5.0 * p.std_error) << p.key << ", seed " << seed;
      if (p.ci95_low <= free[j].truth && free[j].truth <= p.ci95_high) ++covered[j];
    }
  }
  for (std::size_t j = 0; j < free.size(); ++j) {
    std::printf("%s: the 95 %% interval contains the truth in %d of %d seeds\n", free[j].spec.key.c_str(),
                covered[j], kSeeds);
    EXPECT_GE(covered[j], 17) << free[j].spec.key;
  }
}

const std::string kElastic = "[body1]\ntype = \"elastic\"\nk0 = 1e4\n";

TEST(FitRecovery, Dahl) {
  expect_recovery(scenario_text("[law]\ntype = \"dahl\"\nmu = 0.5\n", kElastic),
                  {{{"law.mu", 0.6, 0.05, 2.0, Scale::linear}, 0.5},
                   {{"body1.k0", 8e3, 1e2, 1e7, Scale::log}, 1e4}});
}

TEST(FitRecovery, FrBD) {
  expect_recovery(scenario_text("[law]\ntype = \"frbd\"\nmu_s = 0.6\nmu_d = 0.4\nv_s = 1e-3\n", kElastic),
                  {{{"law.mu_s", 0.7, 0.05, 2.0, Scale::linear}, 0.6},
                   {{"law.mu_d", 0.33, 0.05, 2.0, Scale::linear}, 0.4},
                   {{"law.v_s", 1.25e-3, 1e-5, 1e-1, Scale::log}, 1e-3},
                   {{"body1.k0", 8e3, 1e2, 1e7, Scale::log}, 1e4}});
}

TEST(FitRecovery, BoucWen) {
  // h0 = -(beta1 |v z| - gamma v z) z - A v along x (paper 1, eqs. 4, 6a): the sliding level K0 sqrt(A / (beta1 +
  // gamma)) = 0.5 per unit load, the presliding stiffness K0 A; beta1 and K0 free.
  expect_recovery(scenario_text("[law]\ntype = \"bouc_wen\"\nA = 1.0\nbeta1 = 3e8\ngamma = 1e8\n", kElastic),
                  {{{"law.beta1", 2.4e8, 1e6, 1e11, Scale::log}, 3e8},
                   {{"body1.k0", 1.2e4, 1e2, 1e7, Scale::log}, 1e4}});
}

TEST(FitRecovery, LuGreOnAGkvPair) {
  // A one-branch generalised Kelvin-Voigt body (paper 1, eq. 8): K0 in series with a branch K_1 || C_1, K_1 =
  // C_1 / tau_1 = 1e4 /m (as stiff as K0, so that both compliances show), tau_1 = 50 ms (within the drive's
  // period); K0, C_1 and tau_1 are free with the friction level.
  expect_recovery(scenario_text("[law]\ntype = \"lugre\"\nmu_s = 0.6\nmu_d = 0.4\nv_s = 1e-3\n",
                                "[body1]\ntype = \"gkv\"\nk0 = 1e4\nc = [500.0]\ntau = [0.05]\n"),
                  {{{"law.mu_d", 0.33, 0.05, 2.0, Scale::linear}, 0.4},
                   {{"body1.k0", 8e3, 1e2, 1e7, Scale::log}, 1e4},
                   {{"body1.c[0]", 600.0, 1.0, 1e5, Scale::log}, 500.0},
                   {{"body1.tau[0]", 0.06, 1e-4, 10.0, Scale::log}, 0.05}});
}

}  // namespace
}  // namespace bristle::fit
