// Cost of the directional-friction solvers (paper 2).
//
//  BM_eps_sliding/<mechanism>/<k>   eps-system (eq. 2.8, CVODE BDF, default tolerances: rtol 1e-10, atol
//                                   1e-7 eps on z) driven at 1 m/s through a 1 N/m spring (steady sliding,
//                                   1/eps wiggles per simulated second), eps = 10^-k, k = 1..4, sine surface
//                                   omega_+- = +-0.5, gamma = 1. Simulates min(1 s, 2000 wiggles) per run.
//  BM_eps_cycle/<k>                 eps-system of the angular spring under l = 0.75 sin(2 pi t), t in [0, 1]
//                                   (the Theorem 1 test), eps = 10^-k, k = 1..3.
//  BM_limit_cycle                   the exact play operator (eq. 2.3) on the same loading, 10^4 outputs.
//  BM_limit_advance                 one exact update across one sine period (per call).
// Counters: s_per_sim_s = wall seconds per simulated second; steps_per_wiggle = CVODE steps per wiggle.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "bristle/directional/drive.hpp"
#include "bristle/directional/epsilon_system.hpp"
#include "bristle/directional/limit_system.hpp"
#include "bristle/directional/mechanism.hpp"

namespace {

using namespace bristle::directional;

Profile surface() {
  ProfileParams p;
  p.amplitude = 0.5 / (2.0 * std::numbers::pi);
  return Profile(p);
}

Mechanism make(MechanismKind kind) {
  MechanismParams p;
  p.kind = kind;
  return Mechanism(p, surface());
}

void BM_eps_sliding(benchmark::State& state) {
  const auto kind = static_cast<MechanismKind>(state.range(0));
  const double eps = std::pow(10.0, -static_cast<double>(state.range(1)));
  const Mechanism m = make(kind);
  // Rightward steady sliding from the limit's edge: l = rho_+ + t, Phi = z^2/2.
  const double t_end = std::min(1.0, 2000.0 * eps);
  const WigglySystem system(WigglyPotential(m, eps), ConvexEnergy({1.0, 0.0}),
                            Loading::ramp(m.limit().rho_plus, 1.0), 1.0);
  const std::vector<double> times{t_end};
  long steps = 0;
  for (auto _ : state) {
    const auto run = system.run(0.0, 0.0, times);
    steps += run.stats.steps;
    benchmark::DoNotOptimize(run.series.columns.data());
  }
  const auto n = static_cast<double>(state.iterations());
  state.counters["s_per_sim_s"] =
      benchmark::Counter(n * t_end, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["steps_per_wiggle"] = static_cast<double>(steps) / n / (t_end / eps);
  state.counters["sim_s"] = t_end;
}

void BM_eps_cycle(benchmark::State& state) {
  const double eps = std::pow(10.0, -static_cast<double>(state.range(0)));
  const Mechanism m = make(MechanismKind::angular);
  const WigglySystem system(WigglyPotential(m, eps), ConvexEnergy({1.0, 0.0}), Loading::sine(0.0, 0.75, 1.0), 1.0);
  std::vector<double> times;
  for (int i = 1; i <= 1000; ++i) times.push_back(i / 1000.0);
  long steps = 0;
  for (auto _ : state) {
    const auto run = system.run(0.0, 0.0, times);
    steps += run.stats.steps;
    benchmark::DoNotOptimize(run.series.columns.data());
  }
  const auto n = static_cast<double>(state.iterations());
  state.counters["s_per_sim_s"] = benchmark::Counter(n, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["steps"] = static_cast<double>(steps) / n;
}

void BM_limit_cycle(benchmark::State& state) {
  const Mechanism m = make(MechanismKind::angular);
  const LimitSystem system(ConvexEnergy({1.0, 0.0}), Loading::sine(0.0, 0.75, 1.0), m.limit().rho_plus,
                           m.limit().rho_minus);
  std::vector<double> times;
  for (int i = 0; i <= 10000; ++i) times.push_back(i / 10000.0);
  for (auto _ : state) {
    const auto run = system.run(0.0, 0.0, times);
    benchmark::DoNotOptimize(run.columns.data());
  }
  state.counters["s_per_sim_s"] = benchmark::Counter(static_cast<double>(state.iterations()),
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_limit_advance(benchmark::State& state) {
  const Mechanism m = make(MechanismKind::angular);
  const LimitSystem system(ConvexEnergy({1.0, 0.0}), Loading::sine(0.0, 0.75, 1.0), m.limit().rho_plus,
                           m.limit().rho_minus);
  auto s = system.start(0.0, 0.0);
  for (auto _ : state) {
    system.advance(s, s.t + 1.0);
    benchmark::DoNotOptimize(s.z);
  }
}

void sliding_args(benchmark::internal::Benchmark* b) {
  for (const auto kind : {MechanismKind::vertical, MechanismKind::slanted, MechanismKind::angular})
    for (int k = 1; k <= 4; ++k) b->Args({static_cast<int>(kind), k});
}

}  // namespace

BENCHMARK(BM_eps_sliding)->Apply(sliding_args)->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(BM_eps_cycle)->DenseRange(1, 3)->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(BM_limit_cycle)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_limit_advance)->Unit(benchmark::kNanosecond);
