// Stick-slip detection from sticking itself (contact::StickSlipDetector, issue 17): found, the
// fundamental period and the cycles used, on synthetic velocity histories and on the lumped bench.
#include "bristle/contact/analysis.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "bristle/contact/bench.hpp"
#include "bristle/core/error.hpp"

namespace bristle::contact {
namespace {

/// A stick-slip history: stuck (v_r = 0) for `stick_s`, then a half-sine slip of `slip_s`, repeated with
/// the slip durations cycling through `slips`; sampled every dt from 0 to t_end.
StickSlipDetector detect(double stick_s, const std::vector<double>& slips, double dt, double t_end) {
  StickSlipDetector d(1e-3);
  double t0 = 0.0;
  std::size_t k = 0;
  for (long i = 0; i * dt <= t_end; ++i) {
    const double t = static_cast<double>(i) * dt;
    while (t >= t0 + stick_s + slips[k % slips.size()]) t0 += stick_s + slips[k++ % slips.size()];
    const double s = t - t0 - stick_s;
    d.add(t, s <= 0.0 ? 0.0 : -std::sin(M_PI * s / slips[k % slips.size()]));
  }
  return d;
}

TEST(StickSlipDetector, EqualCyclesGiveTheirPeriod) {
  const StickSlipDetector d = detect(1.2, {0.8}, 1e-3, 20.5);
  const auto r = d.result(4);
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.breakaways_per_cycle, 1);
  EXPECT_EQ(r.cycles_used, 4);
  EXPECT_NEAR(r.period_s, 2.0, 1e-9);
  EXPECT_NEAR(d.breakaways().front(), 1.2, 1e-3);  // the first stick from rest ends at 1.2 s
}

TEST(StickSlipDetector, AlternatingCyclesGiveTheFundamentalPeriod) {
  // Slips alternate between 0.5 and 0.9 s: the motion repeats every 1.2 + 0.5 + 1.2 + 0.9 = 3.8 s.
  const auto r = detect(1.2, {0.5, 0.9}, 1e-3, 40.0).result(4);
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.breakaways_per_cycle, 2);
  EXPECT_NEAR(r.period_s, 3.8, 1e-9);
}

// issue 17 (the lightly damped string): cycles of 1.995, 2.005, 2.000 s in threes, within 1 % of the time
// between break-aways of each other, are one cycle of 2.0 s, not a cycle of three (6.0 s); the old
// tolerance grew with the candidate period (1e-3 of it: 2 ms at p = 1, 6 ms at p = 3) and reported 6.0 s.
TEST(StickSlipDetector, CyclesWithinTheResolutionAreOneCycle) {
  const auto r = detect(1.2, {0.795, 0.805, 0.800}, 1e-3, 40.0).result(4);
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.breakaways_per_cycle, 1);
  EXPECT_EQ(r.cycles_used, 4);
  EXPECT_NEAR(r.period_s, 2.0, 5e-3);
  EXPECT_GT(r.period_spread_s, 2e-3);  // beyond the old 2 ms tolerance
  // Cycles 1.96, 2.04, 2.00 s differ by 2 % of the period: a real three-cycle pattern of 6.0 s.
  const auto sub = detect(1.2, {0.76, 0.84, 0.80}, 1e-3, 40.0).result(4);
  ASSERT_TRUE(sub.found);
  EXPECT_EQ(sub.breakaways_per_cycle, 3);
  EXPECT_NEAR(sub.period_s, 6.0, 1e-9);
}

// issue 17 (item 5): chatter, stick phases of a few samples about each long stick (the 100-mode string at
// D = 0.01: 1-5 steps of 1 ms about each 1.36 s stick), is not a stick phase of its own, whatever feeds the
// detector: the rule is the detector's (2 % of the longest stick phase), not a minimum its caller passes.
TEST(StickSlipDetector, ChatterAboutALongStickIsNotAStickPhase) {
  StickSlipDetector d(1e-3);
  const double dt = 1e-3, period = 2.0, stick = 1.36;
  for (long i = 0; i * dt <= 20.0; ++i) {
    const double t = static_cast<double>(i) * dt, u = std::fmod(t, period);
    double v = 0.0;  // stuck over [0, stick)
    if (u >= stick) v = -std::sin(M_PI * (u - stick) / (period - stick));  // the slip
    // chatter: a 4-sample stick 10 ms before the long one and a 3-sample one 8 ms after its break-away
    const double before = u - (period - 0.014), after = u - (stick + 0.008);
    if ((before >= 0.0 && before < 0.004) || (after >= 0.0 && after < 0.003)) v = 0.0;
    d.add(t, v);
  }
  const auto r = d.result(4);
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.breakaways_per_cycle, 1);  // with the chatter counted: 3 break-aways a cycle
  EXPECT_NEAR(r.period_s, 2.0, 1e-6);
  for (const double b : d.breakaways()) EXPECT_NEAR(std::fmod(b, period), stick, 2e-3);
}

TEST(StickSlipDetector, MotionThatNeverSticksIsNotFound) {
  // Ringing about steady sliding, v_r = -1 + 0.9 cos(2 pi t): comes within 0.1 of 0 but never sticks.
  StickSlipDetector d(1e-3);
  for (int i = 0; i <= 20000; ++i) d.add(1e-3 * i, -1.0 + 0.9 * std::cos(2.0 * M_PI * 1e-3 * i));
  const auto r = d.result(4);
  EXPECT_FALSE(r.found);
  EXPECT_EQ(r.period_s, 0.0);
  EXPECT_EQ(r.cycles_used, 0);
  EXPECT_TRUE(d.breakaways().empty());
  // A single sample under the tolerance (a zero crossing) is not a stick phase either.
  StickSlipDetector crossing(1e-3);
  for (int i = 0; i <= 20000; ++i) crossing.add(1e-3 * i + 1e-4, std::sin(2.0 * M_PI * 1e-3 * i + 1e-4));
  EXPECT_FALSE(crossing.result(4).found);
}

TEST(StickSlipDetector, BadArguments) {
  EXPECT_THROW(StickSlipDetector(-1.0), InvalidInput);
  EXPECT_THROW(StickSlipDetector(1e-3, std::nan("")), InvalidInput);
}

ContactModel lugre_1995() {
  laws::LawParams law;
  law.kind = laws::LawKind::lugre;
  law.M.axis1 = laws::StribeckParams{1.5, 1.0, 1e-3, 2.0, 0.0};
  law.sigma1 = std::sqrt(1e5) * Mat2::Identity();
  law.sigma2 = 0.4 * Mat2::Identity();
  return ContactModel(law, rheology::elastic(1e5), rheology::rigid());
}

BenchRun spring_run(double k_N_per_m, double speed_mps, double t_end) {
  const ContactModel model = lugre_1995();
  BenchParams p;
  p.drive = DriveKind::spring;
  p.mass_kg = 1.0;
  p.spring_N_per_m = k_N_per_m;
  p.input_x = Signal::constant_value(speed_mps);
  const Bench bench(model, p);
  std::vector<double> times;
  for (int i = 0; i * 0.01 <= t_end + 1e-9; ++i) times.push_back(i * 0.01);
  integrate::Options o;
  o.method = integrate::Method::rodas4;
  o.rtol = 1e-6;
  o.atol = 1e-9;
  return run(bench, times, o);
}

// issue 17: k = 100 N/m pulled at 1 m/s never sticks after the break-away (the spring-mass rings about
// steady sliding); the old detector reported cycles and a period (of the ringing) with no flag.
TEST(StickSlipCycle, SpringMassThatNeverSticksHasNoCycle) {
  const BenchRun r = spring_run(100.0, 1.0, 20.0);
  const StickSlipCycle c = stick_slip_cycle(r.series);
  EXPECT_FALSE(c.found);
  EXPECT_EQ(c.cycles, 0);
  EXPECT_EQ(c.cycles_used, 0);
  EXPECT_EQ(c.period_s, 0.0);
  const auto d = derived_quantities(r.series, true);
  EXPECT_EQ(d.at("stick_slip_found"), 0.0);
  EXPECT_EQ(d.at("stick_slip_cycles"), 0.0);
  EXPECT_EQ(d.count("stick_slip_period_s"), 0u);
}

// The stick-slip of examples/lugre_stick_slip.toml (k = 2 N/m at 0.1 m/s) is found, with its period.
TEST(StickSlipCycle, LugreStickSlipIsFound) {
  const BenchRun r = spring_run(2.0, 0.1, 40.0);
  const StickSlipCycle c = stick_slip_cycle(r.series);
  ASSERT_TRUE(c.found);
  EXPECT_GE(c.cycles_used, 3);
  EXPECT_NEAR(c.period_s, 6.3627221, 2e-2);  // the converged value of stick_slip_derived_test.cpp
  const auto d = derived_quantities(r.series, true);
  EXPECT_EQ(d.at("stick_slip_found"), 1.0);
  EXPECT_EQ(d.at("stick_slip_cycles_used"), c.cycles_used);
}

}  // namespace
}  // namespace bristle::contact
