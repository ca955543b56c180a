// Two-dimensional contact patch (paper 1, §4): (a) one steady solve on a 100 x 100 grid, elastic and
// GKV pairs; (b) a force-and-moment map of 1000 operating points (40 slip angles x 25 spins) on the
// default 100 x 20 grid and a coarser 50 x 10 one, warm-started along the sweep. Table 2 parameters,
// rectangle 0.1 x 0.05 m, uniform pressure, V_r = 16 m/s, S-corrections on; (c) one transient step.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "bristle/patch/patch.hpp"
#include "bristle/patch/transient.hpp"

namespace {

using namespace bristle;

contact::ContactModel table2_model(double s, int n) {
  laws::LawParams law;
  law.kind = laws::LawKind::frbd;
  law.M.axis1 = laws::StribeckParams{1.2, 0.7, 3.49, 0.6, 0.0};
  const double k01 = 240.0, k02 = rheology::substrate_stiffness_from_s("s", s, k01);
  if (n == 0) return contact::ContactModel(law, rheology::elastic(k01), rheology::elastic(k02));
  return contact::ContactModel(law, rheology::gkv(k01, {72.0}, {0.1}), rheology::gkv(k02, {18.0}, {0.3}));
}

patch::PatchParams grid(int nx, int ny) {
  patch::PatchParams p;
  p.nx = nx;
  p.ny = ny;
  return p;
}

void BM_PatchSteady100x100(benchmark::State& state) {
  const contact::ContactModel model = table2_model(0.4, static_cast<int>(state.range(0)));
  patch::PatchSolver solver(model, grid(100, 100));
  int sweeps = 0;
  for (auto _ : state) {
    const patch::SteadyPatch st = solver.solve(patch::rolling(16.0, 0.5, 0.8, 5.0));
    benchmark::DoNotOptimize(st.force_N[0]);
    sweeps = st.sweeps;
  }
  state.counters["sweeps"] = sweeps;
}
BENCHMARK(BM_PatchSteady100x100)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The map of (b): 25 chains (spins) of 40 slip angles, each chain warm-started along the slip sweep,
// through patch::solve_steady_map. Arguments nx, ny, threads. One thread: the CPU time is the cost;
// two threads: the wall time (UseRealTime) is what a user waits for (the CPU column then counts only
// the calling thread's share).
std::vector<patch::PatchKinematics> map_points() {
  std::vector<patch::PatchKinematics> points;
  const double Vr = 16.0;
  for (int k = 0; k < 25; ++k) {
    const double spin = -10.0 + 20.0 * k / 24.0;
    for (int i = 0; i < 40; ++i) {
      const double alpha = (-8.0 + 16.0 * i / 39.0) * M_PI / 180.0;
      points.push_back(patch::rolling(Vr, 0.0, Vr * std::tan(alpha), spin));
    }
  }
  return points;
}

void BM_PatchMap1000(benchmark::State& state) {
  const contact::ContactModel model = table2_model(0.4, 0);
  const patch::PatchParams params = grid(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  const std::vector<patch::PatchKinematics> points = map_points();
  const int threads = static_cast<int>(state.range(2));
  double sum = 0.0;
  long steps = 0;
  for (auto _ : state) {
    const std::vector<patch::SteadyPatch> map = patch::solve_steady_map(model, params, points, 40, threads);
    steps = 0;
    for (const auto& st : map) {
      sum += st.force_N[1] + st.Mz_Nm;
      steps += st.newton_steps;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.counters["points"] = 1000;
  state.counters["threads"] = threads;
  state.counters["steps_per_node"] = static_cast<double>(steps) / (1000.0 * state.range(0) * state.range(1));
  state.counters["us_per_point"] =
      benchmark::Counter(1000.0, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_PatchMap1000)
    ->Args({100, 20, 1})
    ->Args({50, 10, 1})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PatchMap1000)
    ->Args({100, 20, 2})
    ->Args({50, 10, 2})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

namespace {

// (c) Transient: the cost of one Strang step on the default 100 x 20 grid (rolling with slip and spin,
// S-corrections on), elastic (closed-form 2 x 2 source propagator) and GKV n1 = n2 = 1 (Eigen's
// matrix exponential per cell).
void BM_PatchTransientStep(benchmark::State& state) {
  const contact::ContactModel model = table2_model(0.4, static_cast<int>(state.range(0)));
  patch::PatchTransientParams p;
  p.patch = grid(100, 20);
  patch::PatchTransient tr(model, p, [](double) { return patch::rolling(16.0, 0.5, 0.3, 4.0); },
                           [](double) { return 3000.0; });
  const double dt = tr.stable_dt(0.0);
  for (auto _ : state) tr.step(dt);
  state.counters["dt_us"] = dt * 1e6;
}
BENCHMARK(BM_PatchTransientStep)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
