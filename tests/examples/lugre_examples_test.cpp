// The LuGre experiments of Canudas de Wit, Olsson, Astrom & Lischinsky (IEEE TAC 40(3), 1995), run
// from the example scenarios themselves (examples/lugre_*.toml), with a quantitative check each.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

#include "bristle/contact/analysis.hpp"
#include "bristle/contact/bench.hpp"
#include "bristle/io/scenario.hpp"

namespace bristle {
namespace {

std::vector<io::LumpedScenario> load(const char* name) {
  return io::parse_lumped_file(std::filesystem::path(BRISTLE_SOURCE_DIR) / "examples" / name);
}

struct Solved {
  std::unique_ptr<contact::ContactModel> model;
  contact::BenchRun run;
};

Solved solve(const io::LumpedScenario& sc, std::vector<double> times = {}, std::optional<double> rtol = {}) {
  Solved s;
  s.model = std::make_unique<contact::ContactModel>(sc.law, sc.body1, sc.body2);
  const contact::Bench bench(*s.model, sc.bench);
  integrate::Options options = sc.integrator;
  if (rtol) options.rtol = *rtol;
  if (times.empty()) times = sc.time.times();
  s.run = contact::run(bench, times, options, sc.initial_contact_state(*s.model));
  return s;
}

std::vector<double> grid(double t0, double t1, double dt) {
  std::vector<double> t;
  for (long i = 0; t0 + i * dt < t1 - 1e-12; ++i) t.push_back(t0 + i * dt);
  t.push_back(t1);
  return t;
}

// Force ramped to +-0.95 F_s: spring-like presliding, micrometre displacements, a hysteresis loop.
TEST(LugreExamples, PreslidingIsMicrometreHysteresis) {
  const auto cases = load("lugre_presliding.toml");
  ASSERT_EQ(cases.size(), 1u);
  const Solved s = solve(cases[0]);
  const auto& x = s.run.series.column("x_m");
  const auto& f = s.run.series.column("F_N");
  const auto& applied = s.run.series.column("F_applied_N");
  const auto& t = s.run.series.column("t_s");
  double x_max = 0.0;
  for (double xi : x) x_max = std::max(x_max, std::abs(xi));
  std::cout << "presliding: max |x| = " << x_max * 1e6 << " um\n";
  // Micrometres: the bristle deflection F/sigma0 (up to 14 um) plus creep while |F| approaches F_s.
  EXPECT_GT(x_max, 1e-6);
  EXPECT_LT(x_max, 1e-4);
  // Spring-like at small load: dF/dx ~ -sigma0 = -1e5 N/m on the first loading (F opposes x).
  std::size_t i = 0;
  while (t[i] < 0.2) ++i;
  EXPECT_NEAR(f[i] / x[i], -1e5, 0.1e5);
  // Hysteresis: when the applied force returns to zero (t = 2 s), the mass has not returned.
  while (t[i] < 2.0) ++i;
  EXPECT_NEAR(applied[i], 0.0, 1e-9);
  std::cout << "presliding: x at zero applied force after loading = " << x[i] * 1e6 << " um\n";
  EXPECT_GT(x[i], 1e-6);
  // The same zero applied force on the reloading branch (t = 4 s) finds the mass elsewhere: a loop.
  std::size_t j = i;
  while (t[j] < 4.0) ++j;
  std::cout << "presliding: x at zero applied force when reloading = " << x[j] * 1e6 << " um\n";
  EXPECT_GT(x[i] - x[j], 1e-5);
}

// v = 1e-3 (cos(omega t) + 1.5): friction lower on decreasing velocity, loop widening with omega.
TEST(LugreExamples, FrictionalLagLoopsWidenWithFrequency) {
  const auto cases = load("lugre_frictional_lag.toml");
  ASSERT_EQ(cases.size(), 3u);
  double previous_width = 0.0;
  for (const auto& sc : cases) {
    const double omega = *sc.sweep_value;
    const double period = 2.0 * M_PI / omega, t_end = sc.time.t_end_s;
    const Solved s = solve(sc, grid(0.0, t_end, period / 4000.0));
    const auto& t = s.run.series.column("t_s");
    const auto& v = s.run.series.column("vr_mps");
    const auto& f = s.run.series.column("F_N");
    // In the last period, |F| where v crosses 1.5e-3 m/s going up and going down.
    double up = 0.0, down = 0.0;
    for (std::size_t k = 1; k < t.size(); ++k) {
      if (t[k] < t_end - period) continue;
      const double a = v[k - 1] - 1.5e-3, b = v[k] - 1.5e-3;
      if (a * b > 0.0 || a == b) continue;
      const double w = a / (a - b);
      const double force = std::abs(f[k - 1] + w * (f[k] - f[k - 1]));
      (b > a ? up : down) = force;
    }
    const double width = up - down;
    std::cout << "frictional lag: omega = " << omega << " rad/s: |F| increasing " << up << " N, decreasing " << down
              << " N, width " << width << " N\n";
    EXPECT_GT(up, 0.0);
    EXPECT_GT(down, 0.0);
    EXPECT_GT(width, 0.0) << "friction must be lower for decreasing velocity";
    EXPECT_GT(width, previous_width) << "the loop widens with omega";
    previous_width = width;
  }
}

// Force ramps F = r t: the break-away force decreases with r, between F_c and F_s.
TEST(LugreExamples, BreakawayForceDecreasesWithForceRate) {
  const auto cases = load("lugre_breakaway.toml");
  ASSERT_EQ(cases.size(), 7u);
  double previous = 1e300;
  for (const auto& sc : cases) {
    const double rate = *sc.sweep_value;
    // Fine output around the break-away (before 1.6 F_s / r).
    const Solved s = solve(sc, grid(0.0, 1.6 * 1.5 / rate, 1e-4 / rate));
    const auto [t_b, f_b] = contact::breakaway(s.run.series);
    std::cout << "break-away: rate " << rate << " N/s: " << f_b << " N at t = " << t_b << " s\n";
    EXPECT_GT(f_b, 1.0);
    EXPECT_LT(f_b, 1.5);
    EXPECT_LT(f_b, previous);
    previous = f_b;
  }
}

// Stick-slip with k = 2 N/m pulled at 0.1 m/s: period and peak friction converge as the tolerance
// tightens; at rtol = 1e-10 the run completes without step-size collapse.
TEST(LugreExamples, StickSlipConvergesWithTolerance) {
  const auto cases = load("lugre_stick_slip.toml");
  ASSERT_EQ(cases.size(), 1u);
  const auto times = grid(0.0, 30.0, 1e-3);
  std::vector<contact::StickSlipCycle> cycles;
  for (double rtol : {1e-6, 1e-8, 1e-10, 1e-12}) {
    const Solved s = solve(cases[0], times, rtol);
    cycles.push_back(contact::stick_slip_cycle(s.run.series));
    std::cout << "stick-slip: rtol " << rtol << ": period " << cycles.back().period_s << " s, peak friction "
              << cycles.back().peak_friction_N << " N, peak velocity " << cycles.back().peak_velocity_mps
              << " m/s, steps " << s.run.stats.steps << ", smallest step " << s.run.stats.smallest_step << " s\n";
    ASSERT_GE(cycles.back().cycles, 2);
    EXPECT_GT(s.run.stats.smallest_step, 1e-14);
  }
  for (std::size_t k = 1; k + 1 < cycles.size(); ++k) {
    const double dp_coarse = std::abs(cycles[k - 1].period_s - cycles.back().period_s);
    const double dp_fine = std::abs(cycles[k].period_s - cycles.back().period_s);
    EXPECT_LE(dp_fine, dp_coarse + 1e-9);
    const double df_coarse = std::abs(cycles[k - 1].peak_friction_N - cycles.back().peak_friction_N);
    const double df_fine = std::abs(cycles[k].peak_friction_N - cycles.back().peak_friction_N);
    EXPECT_LE(df_fine, df_coarse + 1e-9);
  }
  EXPECT_NEAR(cycles[2].period_s, cycles[3].period_s, 1e-6);
  EXPECT_NEAR(cycles[2].peak_friction_N, cycles[3].peak_friction_N, 1e-6);
  // Peak friction lies between F_c and F_s.
  EXPECT_GT(cycles.back().peak_friction_N, 1.0);
  EXPECT_LT(cycles.back().peak_friction_N, 1.5);
}

// The shipped example runs the default method (auto: rodas5p at its rtol 1e-8, the compiled kernel); its
// period and peak friction are those of the cvode_bdf run it used to pin, to 1e-6.
TEST(LugreExamples, StickSlipWithTheDefaultMethodKeepsPeriodAndPeak) {
  const auto cases = load("lugre_stick_slip.toml");
  ASSERT_EQ(cases.size(), 1u);
  ASSERT_EQ(cases[0].integrator.method, integrate::Method::auto_);
  const Solved shipped = solve(cases[0]);
  EXPECT_EQ(shipped.run.stats.method_used, integrate::Method::rodas5p);
  EXPECT_TRUE(shipped.run.kernel);
  io::LumpedScenario bdf = cases[0];
  bdf.integrator.method = integrate::Method::cvode_bdf;
  const Solved before = solve(bdf);
  EXPECT_EQ(before.run.stats.method_used, integrate::Method::cvode_bdf);
  const contact::StickSlipCycle now = contact::stick_slip_cycle(shipped.run.series);
  const contact::StickSlipCycle then = contact::stick_slip_cycle(before.run.series);
  std::cout << "stick-slip example: default (" << integrate::to_string(shipped.run.stats.method_used) << ", "
            << shipped.run.stats.steps << " steps) period " << now.period_s << " s, peak friction " << now.peak_friction_N
            << " N; cvode_bdf (" << before.run.stats.steps << " steps) " << then.period_s << " s, "
            << then.peak_friction_N << " N\n";
  ASSERT_GE(now.cycles, 2);
  EXPECT_EQ(now.cycles, then.cycles);
  EXPECT_NEAR(now.period_s, then.period_s, 1e-6);
  EXPECT_NEAR(now.peak_friction_N, then.peak_friction_N, 1e-6);
}

}  // namespace
}  // namespace bristle
