#pragma once
// Shared set-up of the fit tests (tests/fit/*_test.cpp): simulated data of a lumped scenario (sample times, the
// model's columns at them, Gaussian noise), the sine-driven LuGre model and [fit] table of the CLI tests, and a
// number read from a JSON report.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "bristle/contact/bench.hpp"
#include "bristle/contact/contact_model.hpp"
#include "bristle/io/scenario.hpp"
#include "support/test_support.hpp"

namespace bristle::test::fit {

/// n times uniformly over [0, t_end] (both ends).
inline std::vector<double> sample_times(double t_end, int n) {
  std::vector<double> t;
  for (int i = 0; i < n; ++i) t.push_back(t_end * i / (n - 1));
  return t;
}

/// The bench's whole series of scenario `sc` at `times`.
inline TimeSeries simulate(const io::LumpedScenario& sc, const std::vector<double>& times) {
  const contact::ContactModel model(sc.law, sc.body1, sc.body2);
  const contact::Bench bench(model, sc.bench);
  return contact::run(bench, times, sc.integrator).series;
}

inline std::vector<double> simulate_F(const io::LumpedScenario& sc, const std::vector<double>& times) {
  return simulate(sc, times).column("F_N");
}

/// `values` plus Gaussian noise of standard deviation `sigma` (seeded).
inline std::vector<double> with_noise(std::vector<double> values, double sigma, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, sigma);
  for (double& v : values) v += normal(rng);
  return values;
}

// A LuGre contact (mu_d = 0.4, k0 = 1e4) on a velocity bench under 10 N, without its input.
inline const std::string kLugreVelocityBench = R"(name = "sine"
[law]
type = "lugre"
mu_s = 0.6
mu_d = 0.4
v_s = 1e-3
[body1]
type = "elastic"
k0 = 1e4
[bench]
drive = "velocity"
normal_load_N = 10.0
)";

// LuGre at a prescribed sine velocity; the CLI tests' data are this model (mu_d = 0.4, k0 = 1e4) plus noise.
inline const std::string kSineModel = kLugreVelocityBench + R"([bench.input]
type = "sine"
amplitude = 4e-3
omega = 6.283185307179586
[integrator]
method = "rodas4"
rtol = 1e-9
atol = 1e-13
)";

inline const char* kSineFit = R"(
[fit]
data = "d.csv"
time_column = "t_s"
window_s = [0.0, 1.0]
[fit.targets]
F_N = "F_N"
[fit.parameters]
"law.mu_d" = { initial = 0.3, min = 0.05, max = 1.0 }
"body1.k0" = { initial = 5e3, min = 1e2, max = 1e7, scale = "log" }
)";

/// t_s, v_mps, F_N of `model` (a scenario without [time]) at `samples` times over 0..t_end_s, noise 0.02 N
/// (seed 42).
inline std::string data_csv(const std::string& model = kSineModel, double t_end_s = 1.0, int samples = 101) {
  const auto sc =
      io::parse_lumped_string(model + fmt::format("[time]\nt_end_s = {}\noutputs = {}\n", t_end_s, samples));
  const auto times = sc.front().time.times();
  const TimeSeries run = simulate(sc.front(), times);
  const std::vector<double> F = with_noise(run.column("F_N"), 0.02, 42);
  std::string s = "t_s,v_mps,F_N\n";
  for (std::size_t i = 0; i < times.size(); ++i)
    s += fmt::format("{},{},{}\n", times[i], run.column("vr_mps")[i], F[i]);
  return s;
}

/// The number after "key": in a JSON text (the first occurrence), NaN if absent.
inline double json_number(const std::string& json, const std::string& key, std::size_t from = 0) {
  const std::size_t at = json.find("\"" + key + "\": ", from);
  if (at == std::string::npos) return std::nan("");
  return std::stod(json.substr(at + key.size() + 4));
}

/// The contract of bad input to `bristle fit` (and check): exit 2, one line "bristle: error: ..." on stderr
/// containing `message`, nothing on stdout, and the output directory `out` not created.
inline void expect_bad_input(const CliResult& r, const std::string& message, const std::filesystem::path& out) {
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("bristle: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(out)) << out;
}

}  // namespace bristle::test::fit
