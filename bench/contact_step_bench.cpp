// Cost of one Contact::step (contact/contact.hpp): one textbook LuGre contact (Canudas de Wit et al.
// 1995 parameters, the fixed-size elastic-pair stages), a viscoelastic pair (GKV upper body, 6 states,
// the dynamic-size stages), Bouc-Wen (Newton stages), and per contact in a ContactArray of 1e4; the LuGre
// contact also without the energy integrals, at constant velocity (the kept factorisation) and through the
// general 2-D stages (without the x-only specialisation).
// The velocity varies from step to step (a sine through zero), as in a controller's loop; items are
// contact-steps, so items_per_second inverts to ns per contact-step. bench/contact_step_python.py
// measures the same from Python. Results: docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "bristle/contact/contact.hpp"

namespace {

using bristle::contact::Contact;
using bristle::contact::ContactArray;

Contact lugre_1995() { return Contact::lugre(1.0, 1.5, 1e-3, 1e5, std::sqrt(1e5), 0.4); }

/// 1000 velocities of a sine through zero (amplitude 2 mm/s).
std::vector<double> velocities() {
  std::vector<double> v(1000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = 2e-3 * std::sin(2e-3 * M_PI * static_cast<double>(i));
  return v;
}

void run_steps(benchmark::State& state, Contact c) {
  const std::vector<double> v = velocities();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(c.step(1e-3, v[i]));
    if (++i == v.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_ContactStepLuGre(benchmark::State& state) { run_steps(state, lugre_1995()); }
BENCHMARK(BM_ContactStepLuGre);

/// The same without the energy integrals (Contact::set_energy_tracking(false)).
void BM_ContactStepLuGreNoEnergy(benchmark::State& state) {
  Contact c = lugre_1995();
  c.set_energy_tracking(false);
  run_steps(state, c);
}
BENCHMARK(BM_ContactStepLuGreNoEnergy);

/// The same as BM_ContactStepLuGre through the general 2-D stages (set_x_only_fast_path(false)): the cost
/// the x-only specialisation saves, in the same binary.
void BM_ContactStepLuGreGeneral2d(benchmark::State& state) {
  Contact c = lugre_1995();
  c.set_x_only_fast_path(false);
  run_steps(state, c);
}
BENCHMARK(BM_ContactStepLuGreGeneral2d);

/// Constant velocity (v and dt repeat: J, c and (I - gamma dt J)^-1 are kept), with and without energy.
void BM_ContactStepLuGreConstantV(benchmark::State& state) {
  Contact c = lugre_1995();
  c.set_energy_tracking(state.range(0) != 0);
  for (auto _ : state) benchmark::DoNotOptimize(c.step(1e-3, 1e-3));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ContactStepLuGreConstantV)->ArgName("energy")->Arg(1)->Arg(0);

void BM_ContactStepLuGreGkvPair(benchmark::State& state) {
  bristle::laws::LawParams law;
  law.kind = bristle::laws::LawKind::lugre;
  law.M.axis1 = bristle::laws::StribeckParams{1.5, 1.0, 1e-3, 2.0, 0.0};
  law.sigma1 = std::sqrt(1e5) * bristle::Mat2::Identity();
  law.sigma2 = 0.4 * bristle::Mat2::Identity();
  run_steps(state, Contact(law, bristle::rheology::gkv(1e5, {1e3, 1e2}, {1e-3, 1e-2}), bristle::rheology::rigid(), 1.0));
}
BENCHMARK(BM_ContactStepLuGreGkvPair);

void BM_ContactStepBoucWen(benchmark::State& state) {
  bristle::laws::LawParams law;
  law.kind = bristle::laws::LawKind::bouc_wen;
  law.beta1 = 1e4;
  run_steps(state, Contact(law, bristle::rheology::elastic(1e5), bristle::rheology::rigid(), 1.0));
}
BENCHMARK(BM_ContactStepBoucWen);

void BM_ContactArrayStepLuGre(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  ContactArray array(lugre_1995(), n);
  std::vector<double> v(static_cast<std::size_t>(n)), F(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = 2e-3 * std::sin(0.01 * i);
  for (auto _ : state) {
    array.step(1e-3, v.data(), F.data());
    benchmark::DoNotOptimize(F.data());
    for (double& x : v) x = -x;  // reversals: the contacts keep sliding back and forth
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_ContactArrayStepLuGre)->Arg(10000);

}  // namespace
