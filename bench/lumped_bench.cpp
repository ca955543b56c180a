// Steps per second of every friction law in the lumped contact (velocity-driven, LuGre 1995
// parameters): adaptive CVODE BDF, the adaptive Rosenbrock rodas4, and the fixed-step SDIRK2 used for real-time loops, plus the cost
// of one source evaluation h(u, v_r).
#include <benchmark/benchmark.h>

#include <cmath>

#include "bristle/contact/bench.hpp"

namespace {

using namespace bristle;
using laws::LawKind;

contact::ContactModel make_model(LawKind kind, bool viscoelastic) {
  laws::LawParams law;
  law.kind = kind;
  law.M.axis1 = laws::StribeckParams{1.5, 1.0, 1e-3, 2.0, 0.0};
  if (kind == LawKind::dahl) law.M.axis1.mu_s = 1.0;
  if (kind == LawKind::lugre) {
    law.sigma1 = std::sqrt(1e5) * Mat2::Identity();
    law.sigma2 = 0.4 * Mat2::Identity();
  }
  if (kind == LawKind::bouc_wen) {
    law.A = 1.0;
    law.beta1 = 1e10;
    law.beta2 = 0.0;
    law.gamma = 0.0;
  }
  const auto body1 = viscoelastic ? rheology::gkv(1e5, {1e3, 1e2}, {1e-3, 1e-2}) : rheology::elastic(1e5);
  return contact::ContactModel(law, body1, rheology::rigid());
}

contact::BenchParams sine_velocity() {
  contact::BenchParams p;
  p.drive = contact::DriveKind::velocity;
  p.input_x.kind = contact::SignalKind::sine;
  p.input_x.amplitude = 2e-3;
  p.input_x.offset = 0.5e-3;
  p.input_x.omega = 10.0;
  return p;
}

void run_bench(benchmark::State& state, LawKind kind, integrate::Method method, bool viscoelastic) {
  const contact::ContactModel model = make_model(kind, viscoelastic);
  const contact::Bench bench(model, sine_velocity());
  integrate::Options options;
  options.method = method;
  options.rtol = 1e-8;
  options.atol = 1e-12;
  options.dt_s = 1e-5;
  const std::vector<double> times{0.0, 1.0};
  long steps = 0;
  for (auto _ : state) {
    const contact::BenchRun run = contact::run(bench, times, options);
    steps += run.stats.steps;
    benchmark::DoNotOptimize(run.series.columns[0].data());
  }
  state.counters["steps_per_s"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
  state.counters["steps_per_run"] = static_cast<double>(steps) / static_cast<double>(state.iterations());
}

void BM_Source(benchmark::State& state, LawKind kind, bool viscoelastic) {
  const contact::ContactModel model = make_model(kind, viscoelastic);
  VecX u = VecX::Constant(model.state_size(), 1e-3), h(model.state_size());
  Vec2 v(1e-3, 0.0);
  for (auto _ : state) {
    model.source(u.data(), v, h.data());
    benchmark::DoNotOptimize(h.data());
    v[0] += 1e-12;
  }
  state.SetItemsProcessed(state.iterations());
}

#define BRISTLE_LAW_BENCH(name, kind)                                                                     \
  BENCHMARK_CAPTURE(run_bench, name##_cvode_elastic, kind, integrate::Method::cvode_bdf, false)              \
      ->Unit(benchmark::kMillisecond);                                                                     \
  BENCHMARK_CAPTURE(run_bench, name##_cvode_gkv2, kind, integrate::Method::cvode_bdf, true)                 \
      ->Unit(benchmark::kMillisecond);                                                                     \
  BENCHMARK_CAPTURE(run_bench, name##_rodas4_elastic, kind, integrate::Method::rodas4, false)                \
      ->Unit(benchmark::kMillisecond);                                                                     \
  BENCHMARK_CAPTURE(run_bench, name##_rodas4_gkv2, kind, integrate::Method::rodas4, true)                   \
      ->Unit(benchmark::kMillisecond);                                                                     \
  BENCHMARK_CAPTURE(run_bench, name##_sdirk2_elastic, kind, integrate::Method::sdirk2, false)               \
      ->Unit(benchmark::kMillisecond);                                                                     \
  BENCHMARK_CAPTURE(BM_Source, name##_elastic, kind, false);                                               \
  BENCHMARK_CAPTURE(BM_Source, name##_gkv2, kind, true)

BRISTLE_LAW_BENCH(dahl, LawKind::dahl);
BRISTLE_LAW_BENCH(lugre, LawKind::lugre);
BRISTLE_LAW_BENCH(frbd, LawKind::frbd);
BRISTLE_LAW_BENCH(bouc_wen, LawKind::bouc_wen);
BRISTLE_LAW_BENCH(frictionless, LawKind::frictionless);

}  // namespace
