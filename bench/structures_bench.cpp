// Elastic structures with a frictional point contact (paper 3): the reduced model (equation with memory
// in the contact variables) against the truncated modal model with N = 1000 modes, at equal accuracy.
//
// Problem: stick-slip of a contact pressed with N = 1 N against a belt at 0.1 m/s, Coulomb-Stribeck
// friction mu_s = 0.5, mu_d = 0.3, v_S = 0.1 m/s (delta_S = 2), on
//   string      rho = l = c = 1, chi = 0.3, D = 0.1 (paper 3, Fig. III.2), 60 s;
//   cantilever  EI = rho A = l = 1, free end, D = 0.05 (Fig. III.3), 30 s.
// Accuracy = relative error of the limit-cycle period (mean of the last 4 cycles, from the interpolated
// break-away times) against the reduced model at a step 8x (string) / 4x (cantilever) smaller than the
// smallest below.
// Equal accuracy: the modal model runs at the largest step of its candidates whose error is within 10 %
// of its best (its error floor is the mode truncation, or the step when that floor is lower); the reduced
// model at the largest step of its candidates whose error is within 10 % of that (the smallest candidate
// if none does; the counter `accuracy` shows the error reached). Both selections are made once, untimed,
// and reported as counters; the timed loops are whole runs, setup included.
#include <benchmark/benchmark.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>

#include "bristle/structures/modal_model.hpp"
#include "bristle/structures/reduced_model.hpp"
#include "bristle/structures/stick_slip.hpp"

namespace {

using namespace bristle;
using namespace bristle::structures;

struct Case {
  Structure structure;
  double t_end_s;
  std::vector<double> modal_steps, reduced_steps;
  double reference_step;
};

Case make_case(const std::string& name) {
  if (name == "string") {
    TautStringParams p;
    p.damping_ratio = 0.1;
    return {Structure::taut_string(p), 60.0, {4e-3, 2e-3, 1e-3, 5e-4}, {1.6e-2, 8e-3, 4e-3, 2e-3, 1e-3, 5e-4}, 6.25e-5};
  }
  BeamParams b;
  b.damping_ratio = 0.05;
  return {Structure::cantilever(b), 30.0, {8e-4, 4e-4, 2e-4, 1e-4}, {1.6e-3, 8e-4, 4e-4, 2e-4, 1e-4, 5e-5}, 1.25e-5};
}

laws::StribeckParams friction() { return laws::StribeckParams{0.5, 0.3, 0.1, 2.0, 0.0}; }
BeltParams belt() { return BeltParams{1.0, 0.1, 0}; }

StickSlipResult run(ContactStepper& m, double t_end, long output_every = 1000000) {
  StickSlipOptions o;
  o.t_end_s = t_end;
  o.output_every = output_every;  // by default none: the period comes from the break-away times
  o.cycles = 4;
  return run_stick_slip(m, belt(), friction(), o);
}

struct Selection {
  double modal_dt = 0.0, modal_error = 0.0, reduced_dt = 0.0, reduced_error = 0.0;
};

double error_of(const StickSlipResult& r, const StickSlipResult& ref) {
  if (!r.cycle.found || !ref.cycle.found) return INFINITY;
  return std::abs(r.cycle.period_s / ref.cycle.period_s - 1.0);
}

/// Equal-accuracy steps, computed once per case (untimed).
const Selection& selection(const std::string& name) {
  static std::map<std::string, Selection> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  const Case c = make_case(name);
  auto ref_model = make_reduced_model(c.structure, c.reference_step);
  const StickSlipResult ref = run(*ref_model, c.t_end_s);
  Selection s;
  std::vector<double> modal_errors;
  double best = INFINITY;
  for (const double dt : c.modal_steps) {
    ModalModel m(c.structure, 1000, dt);
    modal_errors.push_back(error_of(run(m, c.t_end_s), ref));
    best = std::min(best, modal_errors.back());
  }
  for (std::size_t k = 0; k < c.modal_steps.size(); ++k)
    if (modal_errors[k] <= 1.1 * best) {
      s.modal_dt = c.modal_steps[k];
      s.modal_error = modal_errors[k];
      break;
    }
  for (const double dt : c.reduced_steps) {
    auto m = make_reduced_model(c.structure, dt);
    const double e = error_of(run(*m, c.t_end_s), ref);
    s.reduced_dt = dt;  // the smallest candidate if none reaches the modal model's accuracy
    s.reduced_error = e;
    if (e <= 1.1 * s.modal_error) break;
  }
  return cache.emplace(name, s).first->second;
}

void BM_StickSlipModal1000(benchmark::State& state, const std::string& name) {
  const Case c = make_case(name);
  const Selection& s = selection(name);
  long steps = 0;
  for (auto _ : state) {
    ModalModel m(c.structure, 1000, s.modal_dt);
    const StickSlipResult r = run(m, c.t_end_s);
    steps += r.steps;
    benchmark::DoNotOptimize(r.cycle.period_s);
  }
  state.counters["dt_s"] = s.modal_dt;
  state.counters["accuracy"] = s.modal_error;
  state.counters["steps_per_run"] = static_cast<double>(steps) / static_cast<double>(state.iterations());
  state.counters["history_terms"] = 1000;
}

void BM_StickSlipReduced(benchmark::State& state, const std::string& name) {
  const Case c = make_case(name);
  const Selection& s = selection(name);
  long steps = 0, terms = 0;
  for (auto _ : state) {
    auto m = make_reduced_model(c.structure, s.reduced_dt);  // setup (near-field weights) included
    const StickSlipResult r = run(*m, c.t_end_s);
    steps += r.steps;
    terms = m->history_terms();
    benchmark::DoNotOptimize(r.cycle.period_s);
  }
  state.counters["dt_s"] = s.reduced_dt;
  state.counters["accuracy"] = s.reduced_error;
  state.counters["steps_per_run"] = static_cast<double>(steps) / static_cast<double>(state.iterations());
  state.counters["history_terms"] = static_cast<double>(terms);
}

/// The reduced model with a row, and so the contact displacement w, at every step (output_every = 1, the
/// default): the cost of the displacement on top of BM_StickSlipReduced.
void BM_StickSlipReducedEveryRow(benchmark::State& state, const std::string& name) {
  const Case c = make_case(name);
  const Selection& s = selection(name);
  long rows = 0;
  for (auto _ : state) {
    auto m = make_reduced_model(c.structure, s.reduced_dt);
    const StickSlipResult r = run(*m, c.t_end_s, 1);
    rows += static_cast<long>(r.series.rows());
    benchmark::DoNotOptimize(r.cycle.period_s);
  }
  state.counters["rows_per_run"] = static_cast<double>(rows) / static_cast<double>(state.iterations());
}

BENCHMARK_CAPTURE(BM_StickSlipModal1000, string, std::string("string"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_StickSlipReduced, string, std::string("string"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_StickSlipModal1000, cantilever, std::string("cantilever"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_StickSlipReduced, cantilever, std::string("cantilever"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_StickSlipReducedEveryRow, string, std::string("string"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_StickSlipReducedEveryRow, cantilever, std::string("cantilever"))->Unit(benchmark::kMillisecond);

// Cost per step at a fixed step (dt = 1e-3, damped string, prescribed force): the modal model grows
// with N; the reduced model built from the first N modes (a finite structure) does not.
void BM_StepModal(benchmark::State& state) {
  TautStringParams p;
  p.damping_ratio = 0.1;
  const Structure s = Structure::taut_string(p);
  ModalModel m(s, state.range(0), 1e-3);
  VecX f(1);
  long n = 0;
  for (auto _ : state) {
    f[0] = std::sin(1e-3 * static_cast<double>(++n));
    m.advance(f, false);
    benchmark::DoNotOptimize(m.velocity()[0]);
  }
  state.counters["history_terms"] = static_cast<double>(m.history_terms());
}
BENCHMARK(BM_StepModal)->Arg(100)->Arg(1000)->Arg(10000);

void BM_StepReducedFromTruncated(benchmark::State& state) {
  TautStringParams p;
  p.damping_ratio = 0.1;
  const Structure s = Structure::truncated(Structure::taut_string(p), state.range(0));
  ReducedModel m(s, 1e-3);
  VecX f(1);
  long n = 0;
  for (auto _ : state) {
    f[0] = std::sin(1e-3 * static_cast<double>(++n));
    m.advance(f, false);
    benchmark::DoNotOptimize(m.velocity()[0]);
  }
  state.counters["history_terms"] = static_cast<double>(m.history_terms());
}
BENCHMARK(BM_StepReducedFromTruncated)->Arg(1000)->Arg(10000);

void BM_StepReducedContinuum(benchmark::State& state) {
  TautStringParams p;
  p.damping_ratio = 0.1;
  ReducedModel m(Structure::taut_string(p), 1e-3);
  VecX f(1);
  long n = 0;
  for (auto _ : state) {
    f[0] = std::sin(1e-3 * static_cast<double>(++n));
    m.advance(f, false);
    benchmark::DoNotOptimize(m.velocity()[0]);
  }
  state.counters["history_terms"] = static_cast<double>(m.history_terms());
}
BENCHMARK(BM_StepReducedContinuum);

}  // namespace
