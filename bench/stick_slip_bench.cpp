// The LuGre stick-slip problem of examples/lugre_stick_slip.toml (Canudas de Wit et al. 1995: 1 kg mass
// pulled through a 2 N/m spring at 0.1 m/s, 30 s, outputs every 0.01 s) solved by cvode_bdf, rodas4 and
// rodas5p at rtol = 1e-3 ... 1e-7 (rodas4 and rodas5p also at 1e-9) (atol = rtol * 1e-4, as in bench/peers/lugre_stick_slip_scipy.py): CPU time of the
// whole solve with the 3001 output rows recorded (second argument 3000 output intervals) or with only the
// end state (1 interval: the integration alone), steps per run and steps per second. rodas4 takes the
// compiled 1-D kernel of contact::run (src/contact/bench_kernel.cpp); `rodas4_general` forces the general
// law x rheology x bench machinery on the same 1-D x subsystem (allow_kernel = false), to show what the
// kernel buys.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "bristle/contact/bench.hpp"

namespace {

using namespace bristle;

contact::ContactModel stick_slip_model() {
  laws::LawParams law;
  law.kind = laws::LawKind::lugre;
  law.M.axis1 = laws::StribeckParams{1.5, 1.0, 1e-3, 2.0, 0.0};
  law.sigma1 = std::sqrt(1e5) * Mat2::Identity();
  law.sigma2 = 0.4 * Mat2::Identity();
  return contact::ContactModel(law, rheology::elastic(1e5), rheology::rigid());
}

contact::BenchParams stick_slip_bench() {
  contact::BenchParams p;
  p.drive = contact::DriveKind::spring;
  p.mass_kg = 1.0;
  p.spring_N_per_m = 2.0;
  p.input_x = contact::Signal::constant_value(0.1);
  return p;
}

void BM_StickSlip(benchmark::State& state, integrate::Method method, bool allow_kernel) {
  const contact::ContactModel model = stick_slip_model();
  const contact::Bench bench(model, stick_slip_bench());
  integrate::Options options;
  options.method = method;
  options.rtol = std::pow(10.0, -static_cast<double>(state.range(0)));
  options.atol = options.rtol * 1e-4;
  std::vector<double> times;
  const int intervals = static_cast<int>(state.range(1));
  for (int i = 0; i <= intervals; ++i) times.push_back(30.0 * i / intervals);
  long steps = 0;
  for (auto _ : state) {
    const contact::BenchRun run = contact::run(bench, times, options, {}, {}, true, allow_kernel);
    steps += run.stats.steps;
    benchmark::DoNotOptimize(run.series.columns[0].data());
  }
  state.counters["steps_per_s"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
  state.counters["steps_per_run"] = static_cast<double>(steps) / static_cast<double>(state.iterations());
}

BENCHMARK_CAPTURE(BM_StickSlip, cvode_bdf, integrate::Method::cvode_bdf, true)
    ->ArgsProduct({{3, 5, 7}, {3000, 1}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_StickSlip, rodas4, integrate::Method::rodas4, true)
    ->ArgsProduct({{3, 5, 7}, {3000, 1}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_StickSlip, rodas5p, integrate::Method::rodas5p, true)
    ->ArgsProduct({{3, 5, 7, 9}, {3000, 1}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_StickSlip, rodas4_tight, integrate::Method::rodas4, true)
    ->ArgsProduct({{9}, {3000, 1}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_StickSlip, rodas4_general, integrate::Method::rodas4, false)
    ->ArgsProduct({{3, 5, 7}, {3000, 1}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
