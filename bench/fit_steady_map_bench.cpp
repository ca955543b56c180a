// The steady patch map fit (examples/fit_patch_steady_map.toml: 41 slip angles, 40 x 8 cells, three parameters):
// one residual evaluation (41 steady solves), the exact Jacobian (the same solves plus the implicit-function
// derivative pass, PatchSolver::output_derivatives) and the Jacobian by central differences (2 P = 6 maps), and
// the whole fit with each. docs/benchmarks.md records the numbers.
#include <benchmark/benchmark.h>

#include "bristle/fit/steady_map.hpp"
#include "bristle/io/fit_map_scenario.hpp"

namespace {

const bristle::io::MapFitScenario& map_scenario() {
  static const bristle::io::MapFitScenario s =
      bristle::io::load_map_fit_scenario(BRISTLE_SOURCE_DIR "/examples/fit_patch_steady_map.toml");
  return s;
}

bristle::VecX map_initial_values() {
  bristle::VecX p(static_cast<Eigen::Index>(map_scenario().parameters.size()));
  for (std::size_t j = 0; j < map_scenario().parameters.size(); ++j)
    p[static_cast<Eigen::Index>(j)] = map_scenario().parameters[j].initial;
  return p;
}

void BM_FitSteadyMapResiduals(benchmark::State& state) {
  const bristle::VecX p = map_initial_values();
  for (auto _ : state)
    benchmark::DoNotOptimize(bristle::fit::residuals(map_scenario().experiments, map_scenario().parameters, p));
}
BENCHMARK(BM_FitSteadyMapResiduals)->Unit(benchmark::kMillisecond);

void BM_FitSteadyMapJacobian(benchmark::State& state) {
  const bristle::VecX p = map_initial_values();
  const auto method = state.range(0) == 0 ? bristle::fit::JacobianMethod::sensitivities
                                          : bristle::fit::JacobianMethod::finite_differences;
  state.SetLabel(state.range(0) == 0 ? "exact" : "central differences");
  for (auto _ : state)
    benchmark::DoNotOptimize(bristle::fit::jacobian(map_scenario().experiments, map_scenario().parameters, p, method));
}
BENCHMARK(BM_FitSteadyMapJacobian)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_FitSteadyMapWholeFit(benchmark::State& state) {
  bristle::fit::Options options = map_scenario().options;
  options.jacobian = state.range(0) == 0 ? bristle::fit::JacobianMethod::sensitivities
                                         : bristle::fit::JacobianMethod::finite_differences;
  state.SetLabel(state.range(0) == 0 ? "exact" : "central differences");
  long solves = 0;
  for (auto _ : state) {
    const bristle::fit::Result r = bristle::fit::fit(map_scenario().experiments, map_scenario().parameters, options);
    solves = r.evaluations;
    benchmark::DoNotOptimize(r.cost);
  }
  state.counters["map_solves"] = static_cast<double>(solves);
}
BENCHMARK(BM_FitSteadyMapWholeFit)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
