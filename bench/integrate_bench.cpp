// Throughput of the integrators on a small stiff system: x' = A x with A = Q diag(-1, -10, -1e3, -1e5) Q,
// Q = I - ones/2 (a Householder reflection, so A is dense), stiffness ratio 1e5, over t in [0, 10]
// with 100 outputs and the analytic Jacobian. Reports internal steps per second and steps per run.
#include <benchmark/benchmark.h>

#include <vector>

#include "bristle/integrate/ode.hpp"

namespace {

using bristle::MatX;
using bristle::VecX;
namespace integ = bristle::integrate;

MatX stiff_matrix() {
  const MatX q = MatX::Identity(4, 4) - 0.5 * MatX::Ones(4, 4);
  return q * VecX{{-1.0, -10.0, -1e3, -1e5}}.asDiagonal() * q;
}

void run(benchmark::State& state, const integ::Options& options) {
  const MatX a = stiff_matrix();
  integ::OdeSystem system;
  system.size = 4;
  system.rhs = [&a](double, const double* x, double* f) {
    Eigen::Map<VecX>(f, 4).noalias() = a * Eigen::Map<const VecX>(x, 4);
  };
  system.jacobian = [&a](double, const double*, double* j) { Eigen::Map<MatX>(j, 4, 4) = a; };
  std::vector<double> outputs;
  for (int i = 1; i <= 100; ++i) outputs.push_back(0.1 * i);
  long steps = 0;
  for (auto _ : state) {
    VecX x = VecX::Ones(4);
    steps += integ::integrate(system, x, 0.0, outputs, options, nullptr).steps;
    benchmark::DoNotOptimize(x.data());
  }
  state.counters["steps/s"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
  state.counters["steps/run"] = static_cast<double>(steps) / static_cast<double>(state.iterations());
}

void BM_integrate_cvode_bdf(benchmark::State& state) {
  integ::Options options;
  options.rtol = 1e-6;
  options.atol = 1e-10;
  run(state, options);
}

void BM_integrate_sdirk2(benchmark::State& state) {
  integ::Options options;
  options.method = integ::Method::sdirk2;
  options.dt = 1e-3;
  run(state, options);
}

}  // namespace

BENCHMARK(BM_integrate_cvode_bdf)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_integrate_sdirk2)->Unit(benchmark::kMillisecond);
