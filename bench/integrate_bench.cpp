// Throughput of the integrators on a small stiff system: x' = A x with A = Q diag(-1, -10, -1e3, -1e5) Q,
// Q = I - ones/2 (a Householder reflection, so A is dense), stiffness ratio 1e5, over t in [0, 10]
// with 100 outputs and the analytic Jacobian. Reports internal steps per second and steps per run.
// BM_integrate_size: the same kind of system (eigenvalues -1 ... -1e5 log-spaced, a dense Householder
// similarity) of n = 4 ... 40 states with cvode_bdf, rodas4 and rodas5p at rtol 1e-6 and 1e-8: the
// measurements behind the size rule of method = "auto" (docs/integrators.md).
#include <benchmark/benchmark.h>

#include <cmath>
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
  options.method = integ::Method::cvode_bdf;
  options.rtol = 1e-6;
  options.atol = 1e-10;
  run(state, options);
}

void BM_integrate_sdirk2(benchmark::State& state) {
  integ::Options options;
  options.method = integ::Method::sdirk2;
  options.dt_s = 1e-3;
  run(state, options);
}

/// x' = A x, n states, A = Q diag(-10^(5 k / (n - 1))) Q with Q = I - 2 u u^T / n (u = ones): dense, stiff.
void BM_integrate_size(benchmark::State& state, integ::Method method) {
  const int n = static_cast<int>(state.range(0));
  VecX lambda(n);
  for (int k = 0; k < n; ++k) lambda[k] = -std::pow(10.0, 5.0 * k / (n - 1));
  const MatX q = MatX::Identity(n, n) - (2.0 / n) * MatX::Ones(n, n);
  const MatX a = q * lambda.asDiagonal() * q;
  integ::OdeSystem system;
  system.size = n;
  system.autonomous = true;
  system.rhs = [&a, n](double, const double* x, double* f) {
    Eigen::Map<VecX>(f, n).noalias() = a * Eigen::Map<const VecX>(x, n);
  };
  system.jacobian = [&a, n](double, const double*, double* j) { Eigen::Map<MatX>(j, n, n) = a; };
  integ::Options options;
  options.method = method;
  options.rtol = std::pow(10.0, -static_cast<double>(state.range(1)));
  options.atol = 1e-4 * options.rtol;
  std::vector<double> outputs;
  for (int i = 1; i <= 100; ++i) outputs.push_back(0.1 * i);
  long steps = 0;
  for (auto _ : state) {
    VecX x = VecX::Ones(n);
    steps += integ::integrate(system, x, 0.0, outputs, options, nullptr).steps;
    benchmark::DoNotOptimize(x.data());
  }
  state.counters["steps/run"] = static_cast<double>(steps) / static_cast<double>(state.iterations());
}

}  // namespace

BENCHMARK(BM_integrate_cvode_bdf)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_integrate_size, cvode_bdf, integ::Method::cvode_bdf)
    ->ArgsProduct({{4, 10, 20, 40}, {6, 8}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_integrate_size, rodas4, integ::Method::rodas4)
    ->ArgsProduct({{4, 10, 20, 40}, {6, 8}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_integrate_size, rodas5p, integ::Method::rodas5p)
    ->ArgsProduct({{4, 10, 20, 40}, {6, 8}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_integrate_sdirk2)->Unit(benchmark::kMillisecond);
