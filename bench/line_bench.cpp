// Line contact (paper 1, §5): (a) the whole Fig. 5 data set from the steady solver, (b) the Fig. 7
// transient on 400 cells, (c) one steady solve per rheology order.
#include <benchmark/benchmark.h>

#include <vector>

#include "bristle/transport/line_contact.hpp"

namespace {

using namespace bristle;

contact::ContactModel table1_model(double s, int n2) {
  laws::LawParams law;
  law.kind = laws::LawKind::frbd;
  law.M.axis1 = laws::StribeckParams{1.0, 0.7, 6.0, 2.0, 0.0};
  const double k01 = 240.0;
  const double k02 = rheology::substrate_stiffness_from_s("s", s, k01);
  std::vector<double> c2, tau2;
  for (int i = 0; i < n2; ++i) {
    tau2.push_back(0.1);
    c2.push_back(0.1 * k01 * (1.0 - s) / s);  // eq. 58
  }
  return contact::ContactModel(law, rheology::gkv(k01, {100.0, 50.0}, {0.1, 0.1}), rheology::gkv(k02, c2, tau2));
}

transport::LineContactParams table1_line(int cells = 400) {
  transport::LineContactParams p;
  p.L_m = 0.2;
  p.normal_load_N = 10.0;
  p.cells = cells;
  return p;
}

// (a) 4 values of s x 3 substrate orders x 200 velocities, models built inside the timing.
void BM_Fig5DataSet(benchmark::State& state) {
  const transport::LineContactParams line = table1_line();
  double sum = 0.0;
  for (auto _ : state) {
    for (double s : {0.2, 0.4, 0.6, 0.8})
      for (int n2 = 0; n2 <= 2; ++n2) {
        const contact::ContactModel model = table1_model(s, n2);
        for (int i = 0; i < 200; ++i) {
          const double V = 0.01 + (20.0 - 0.01) * i / 199.0;
          sum += transport::steady_state(model, line, 0.0, V).force_N[0];
        }
      }
    benchmark::DoNotOptimize(sum);
  }
  state.counters["points"] = 2400;
  state.counters["us_per_point"] =
      benchmark::Counter(2400.0, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_Fig5DataSet)->Unit(benchmark::kMillisecond);

void BM_SteadyPoint(benchmark::State& state) {
  const contact::ContactModel model = table1_model(0.4, static_cast<int>(state.range(0)));
  const transport::LineContactParams line = table1_line();
  double V = 1.0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(transport::steady_state(model, line, 0.0, V).force_N[0]);
    V += 1e-9;
  }
}
BENCHMARK(BM_SteadyPoint)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);

// (b) Fig. 7: n1 = n2 = 2, V_x = 0.1 m/s, s = 0.4, 400 cells, 2 s from an unloaded state.
void BM_Fig7Transient(benchmark::State& state) {
  const contact::ContactModel model = table1_model(0.4, 2);
  transport::LineContactParams line = table1_line(static_cast<int>(state.range(0)));
  line.V1 = contact::Signal::constant_value(0.0);
  line.V2 = contact::Signal::constant_value(0.1);
  long steps = 0;
  for (auto _ : state) {
    transport::LineContact lc(model, line);
    lc.advance_to(2.0);
    steps += lc.steps_taken();
    benchmark::DoNotOptimize(lc.total_force());
  }
  state.counters["steps"] = static_cast<double>(steps) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_Fig7Transient)->Arg(400)->Unit(benchmark::kMillisecond);

// The same with F_x at the 201 output times t = 0, 0.01, ..., 2 s (bench/peers/fig7_transient_mol.py):
// dense output between the solver's own steps (range(1) = 1) or steps landing on each output (0).
void BM_Fig7TransientOutputs(benchmark::State& state) {
  const contact::ContactModel model = table1_model(0.4, 2);
  transport::LineContactParams line = table1_line(static_cast<int>(state.range(0)));
  line.V1 = contact::Signal::constant_value(0.0);
  line.V2 = contact::Signal::constant_value(0.1);
  const bool interpolate = state.range(1) != 0;
  std::vector<double> times(201);
  for (int j = 0; j < 201; ++j) times[j] = 0.01 * j;
  std::vector<double> fx(times.size());
  long steps = 0;
  for (auto _ : state) {
    transport::LineContact lc(model, line);
    if (interpolate) {
      lc.sample(times, [&](std::size_t j, const transport::LineContact& at) { fx[j] = at.total_force()[0]; });
    } else {
      for (std::size_t j = 0; j < times.size(); ++j) {
        lc.advance_to(times[j]);
        fx[j] = lc.total_force()[0];
      }
    }
    steps += lc.steps_taken();
    benchmark::DoNotOptimize(fx.data());
  }
  state.counters["steps"] = static_cast<double>(steps) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_Fig7TransientOutputs)->Args({400, 1})->Args({400, 0})->Unit(benchmark::kMillisecond);

}  // namespace
