// The tribometer LuGre fit (examples/fit_tribometer_lugre.toml: 8,000 samples, six parameters): one residual
// solve, one solve with the exact Jacobian (discrete sensitivities), one Jacobian by central differences of whole
// solves (2 P solves), and the whole fit. docs/benchmarks.md records the numbers.
#include <benchmark/benchmark.h>

#include "bristle/fit/fit.hpp"
#include "bristle/io/fit_scenario.hpp"

namespace {

const bristle::io::FitScenario& scenario() {
  static const bristle::io::FitScenario s =
      bristle::io::load_fit_scenario(BRISTLE_SOURCE_DIR "/examples/fit_tribometer_lugre.toml");
  return s;
}

bristle::VecX initial_values() {
  bristle::VecX p(static_cast<Eigen::Index>(scenario().parameters.size()));
  for (std::size_t j = 0; j < scenario().parameters.size(); ++j)
    p[static_cast<Eigen::Index>(j)] = scenario().parameters[j].initial;
  return p;
}

void BM_FitTribometerResiduals(benchmark::State& state) {
  const bristle::VecX p = initial_values();
  for (auto _ : state)
    benchmark::DoNotOptimize(bristle::fit::residuals(scenario().experiments, scenario().parameters, p,
                                                     scenario().options.initial_state));
}
BENCHMARK(BM_FitTribometerResiduals)->Unit(benchmark::kMillisecond);

void BM_FitTribometerExactJacobian(benchmark::State& state) {
  const bristle::VecX p = initial_values();
  for (auto _ : state)
    benchmark::DoNotOptimize(bristle::fit::jacobian(scenario().experiments, scenario().parameters, p,
                                                    scenario().options.initial_state,
                                                    bristle::fit::JacobianMethod::sensitivities));
}
BENCHMARK(BM_FitTribometerExactJacobian)->Unit(benchmark::kMillisecond);

void BM_FitTribometerDifferenceJacobian(benchmark::State& state) {
  const bristle::VecX p = initial_values();
  for (auto _ : state)
    benchmark::DoNotOptimize(bristle::fit::jacobian(scenario().experiments, scenario().parameters, p,
                                                    scenario().options.initial_state,
                                                    bristle::fit::JacobianMethod::finite_differences));
}
BENCHMARK(BM_FitTribometerDifferenceJacobian)->Unit(benchmark::kMillisecond);

void BM_FitTribometerWholeFit(benchmark::State& state) {
  for (auto _ : state) {
    const bristle::fit::Result r =
        bristle::fit::fit(scenario().experiments, scenario().parameters, scenario().options);
    benchmark::DoNotOptimize(r.cost);
    state.counters["solves"] = static_cast<double>(r.evaluations);
    state.counters["jacobians"] = static_cast<double>(r.jacobian_evaluations);
    state.counters["rms_N"] = r.rms_N.value_or(0.0);
  }
}
BENCHMARK(BM_FitTribometerWholeFit)->Unit(benchmark::kMillisecond)->Iterations(1)->MeasureProcessCPUTime();

}  // namespace
