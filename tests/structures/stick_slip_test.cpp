// Stick-slip of a string and a cantilever pressed against a moving belt: exact stick, convergence of
// the limit cycle with the step size and with the number of modes, the energy account, dynamic laws.
#include "bristle/structures/stick_slip.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/structures/modal_model.hpp"
#include "bristle/structures/reduced_model.hpp"

namespace bristle::structures {
namespace {

// mu_s = 0.5, mu_d = 0.3, v_S = 0.1 m/s, delta_S = 2 against a belt at 0.1 m/s under N = 1 N.
laws::StribeckParams stribeck() { return laws::StribeckParams{0.5, 0.3, 0.1, 2.0, 0.0}; }

BeltParams belt() {
  BeltParams b;
  b.normal_load_N = 1.0;
  b.belt_speed_m_per_s = 0.1;
  return b;
}

Structure damped_string() {
  TautStringParams p;  // rho = l = c = 1, chi = 0.3 (paper 3, Fig. III.2)
  p.damping_ratio = 0.1;
  return Structure::taut_string(p);
}

Structure damped_cantilever() {
  BeamParams b;  // EI = rho A = l = 1, contact at the free end (paper 3, Fig. III.3)
  b.damping_ratio = 0.05;
  return Structure::cantilever(b);
}

StickSlipOptions run_for(double t_end, int cycles = 4) {
  StickSlipOptions o;
  o.t_end_s = t_end;
  o.cycles = cycles;
  return o;
}

TEST(StickSlip, StickIsExactAndTheForceStaysInTheFrictionCone) {
  const Structure s = damped_string();
  auto model = make_reduced_model(s, 2e-3);
  const StickSlipResult r = run_stick_slip(*model, belt(), stribeck(), run_for(40.0));
  ASSERT_TRUE(r.cycle.found);
  EXPECT_TRUE(r.well_posed);
  EXPECT_LE(r.max_stick_velocity_mps, 1e-14);
  EXPECT_LE(r.max_stick_force_ratio, 1.0);
  EXPECT_GT(r.max_stick_force_ratio, 0.999);  // the force reaches mu_s N before each slip
  const auto& vr = r.series.column("vr_mps");
  const auto& F = r.series.column("F_N");
  const auto& stick = r.series.column("stick");
  int stick_rows = 0;
  for (std::size_t i = 1; i < vr.size(); ++i) {
    if (stick[i] == 1.0) {
      ++stick_rows;
      EXPECT_LE(std::abs(vr[i]), 1e-14);
      EXPECT_LE(std::abs(F[i]), 0.5);
    } else {
      // slip: the kinetic force opposes the relative velocity
      EXPECT_NEAR(F[i], -std::copysign(laws::stribeck_mu(stribeck(), std::abs(vr[i])), vr[i]), 1e-12);
    }
  }
  EXPECT_GT(stick_rows, 1000);
  // intervals alternate and tile [0, t_end]
  ASSERT_GT(r.intervals.size(), 10u);
  for (std::size_t k = 1; k < r.intervals.size(); ++k) {
    EXPECT_NE(r.intervals[k].stick, r.intervals[k - 1].stick);
    EXPECT_DOUBLE_EQ(r.intervals[k].t_start_s, r.intervals[k - 1].t_end_s);
  }
  EXPECT_NEAR(r.intervals.back().t_end_s, 40.0, 1e-9);
  EXPECT_GT(r.cycle.stick_fraction, 0.3);
  EXPECT_LT(r.cycle.stick_fraction, 0.7);
}

TEST(StickSlip, LimitCyclePeriodConvergesWithTheStepSize) {
  // Cantilever: period and amplitude at dt, dt/2, dt/4 against dt/8.
  {
    const Structure c = damped_cantilever();
    std::vector<StickSlipResult> r;
    for (const double dt : {8e-4, 4e-4, 2e-4, 1e-4}) {
      auto m = make_reduced_model(c, dt);
      r.push_back(run_stick_slip(*m, belt(), stribeck(), run_for(30.0)));
      ASSERT_TRUE(r.back().cycle.found) << dt;
    }
    const double P = r.back().cycle.period_s;
    std::printf("cantilever period: %.10f %.10f %.10f %.10f s\n", r[0].cycle.period_s, r[1].cycle.period_s,
                r[2].cycle.period_s, P);
    double previous = 1e300;
    for (std::size_t k = 0; k + 1 < r.size(); ++k) {
      const double e = std::abs(r[k].cycle.period_s - P);
      EXPECT_LT(e, previous) << k;
      previous = e;
    }
    EXPECT_LT(std::abs(r[0].cycle.period_s - P), 1e-5 * P);
    EXPECT_NEAR(r[2].cycle.amplitude_w_m, r[3].cycle.amplitude_w_m, 1e-6 * r[3].cycle.amplitude_w_m);
  }
  // String: the breakaway times carry an O(dt^2) jitter from cycle to cycle; the averaged period
  // converges to 2e-7 relative by dt = 2e-3.
  {
    const Structure s = damped_string();
    std::vector<double> P;
    for (const double dt : {8e-3, 4e-3, 2e-3, 5e-4}) {
      auto m = make_reduced_model(s, dt);
      const StickSlipResult r = run_stick_slip(*m, belt(), stribeck(), run_for(80.0, 8));
      ASSERT_TRUE(r.cycle.found) << dt;
      P.push_back(r.cycle.period_s);
    }
    std::printf("string period: %.10f %.10f %.10f %.10f s\n", P[0], P[1], P[2], P[3]);
    EXPECT_LT(std::abs(P[0] - P[3]), 2e-6 * P[3]);
    EXPECT_LT(std::abs(P[1] - P[3]), 3e-7 * P[3]);
    EXPECT_LT(std::abs(P[2] - P[3]), 2e-7 * P[3]);
  }
}

TEST(StickSlip, SteepStribeckDropMakesTheStepProblemIllPosedButStillSolved) {
  // v_S = 0.02 m/s: a N max(-mu') = 0.47 * 0.2 * 2 * 0.429 / 0.02 = 4 > 1: several slip speeds solve
  // v_r = c + a F; the smallest (continuous with stick) is taken.
  laws::StribeckParams f = stribeck();
  f.v_s = 0.02;
  auto m = make_reduced_model(damped_string(), 2e-3);
  const StickSlipResult r = run_stick_slip(*m, belt(), f, run_for(20.0));
  EXPECT_FALSE(r.well_posed);
  EXPECT_LE(r.max_stick_velocity_mps, 1e-14);
  EXPECT_LE(r.max_stick_force_ratio, 1.0);
  const auto& vr = r.series.column("vr_mps");
  const auto& F = r.series.column("F_N");
  const auto& stick = r.series.column("stick");
  for (std::size_t i = 1; i < vr.size(); ++i) {
    if (stick[i] == 0.0) {
      EXPECT_NEAR(F[i], -std::copysign(laws::stribeck_mu(f, std::abs(vr[i])), vr[i]), 1e-12);
    }
  }
}

TEST(StickSlip, TruncatedModalModelsConvergeToTheReducedLimitCycle) {
  const Structure s = damped_string();
  const double dt = 1e-3;
  auto reduced = make_reduced_model(s, dt);
  const StickSlipResult ref = run_stick_slip(*reduced, belt(), stribeck(), run_for(60.0));
  ASSERT_TRUE(ref.cycle.found);
  std::printf("string stick-slip, dt = 1e-3: reduced period %.8f s, amplitude %.8e m\n", ref.cycle.period_s,
              ref.cycle.amplitude_w_m);
  double previous = 1e300;
  for (const long N : {30L, 100L, 300L, 1000L}) {
    ModalModel modal(s, N, dt);
    const StickSlipResult r = run_stick_slip(modal, belt(), stribeck(), run_for(60.0));
    ASSERT_TRUE(r.cycle.found) << N;
    const double e = std::abs(r.cycle.period_s - ref.cycle.period_s) / ref.cycle.period_s;
    std::printf("  N = %4ld  period %.8f s (rel. error %.2e)  amplitude %.8e m (rel. error %.2e)\n", N,
                r.cycle.period_s, e, r.cycle.amplitude_w_m,
                std::abs(r.cycle.amplitude_w_m / ref.cycle.amplitude_w_m - 1.0));
    EXPECT_LT(e, previous) << N;
    EXPECT_LT(e, 0.5 / static_cast<double>(N)) << N;
    previous = e;
  }
}

TEST(StickSlip, EnergyAccountClosesInTheModalModel) {
  // belt work = friction dissipation + modal damping + change of stored energy
  for (const bool cantilever : {false, true}) {
    const Structure s = cantilever ? damped_cantilever() : damped_string();
    const double dt = cantilever ? 2e-4 : 1e-3;
    ModalModel modal(s, cantilever ? 30 : 100, dt, {true});
    const StickSlipResult r = run_stick_slip(modal, belt(), stribeck(), run_for(20.0));
    ASSERT_TRUE(r.energy.available);
    const EnergyAccount& e = r.energy;
    EXPECT_GT(e.belt_work_J, 0.0);
    EXPECT_GT(e.friction_dissipation_J, 0.1 * e.belt_work_J);
    EXPECT_GT(e.modal_damping_J, 0.01 * e.belt_work_J);
    EXPECT_NEAR(e.residual_J(), 0.0, 1e-11 * e.belt_work_J) << cantilever;
    EXPECT_NEAR(e.stored_energy_change_J, modal.stored_energy(), 0.0);
    const auto& res = r.series.column("energy_residual_J");
    for (const double x : res) EXPECT_LE(std::abs(x), 1e-11 * e.belt_work_J);
  }
}

TEST(StickSlip, DynamicLawsOfTheCore) {
  // LuGre and FrBD (paper 1) with an elastic bristle of 1e4 /m: the limit cycle is that of the
  // set-valued law up to the bristle compliance; "stick" is |v_r| below 1e-3 v_b (the creeping bristle
  // crosses that level twice per cycle, so a cycle holds two break-aways).
  const Structure s = damped_string();
  auto coulomb_model = make_reduced_model(s, 1e-3);
  const StickSlipResult coulomb = run_stick_slip(*coulomb_model, belt(), stribeck(), run_for(40.0));
  for (const laws::LawKind kind : {laws::LawKind::lugre, laws::LawKind::frbd}) {
    laws::LawParams law;
    law.kind = kind;
    law.M.axis1 = stribeck();
    const contact::ContactModel cm(law, rheology::elastic(1e4), rheology::rigid());
    auto m = make_reduced_model(s, 1e-3);
    const StickSlipResult r = run_stick_slip(*m, belt(), cm, run_for(40.0));
    ASSERT_TRUE(r.cycle.found);
    EXPECT_NEAR(r.cycle.period_s, coulomb.cycle.period_s, 2e-3 * coulomb.cycle.period_s);
    EXPECT_NEAR(r.cycle.amplitude_w_m, coulomb.cycle.amplitude_w_m, 2e-3 * coulomb.cycle.amplitude_w_m);
    EXPECT_LE(r.max_stick_velocity_mps, 1e-4 + 1e-15);
    EXPECT_LE(r.cycle.force_max_N, 0.5 + 1e-9);
    EXPECT_TRUE(r.series.has("f_state"));
  }
}

TEST(StickSlip, ProgressIsReportedAndCanStopTheRun) {
  // Both overloads: fractions increase to exactly 1, at least 0.5 % apart (core/progress.hpp), the run is
  // the same with and without the callback, and an exception thrown by the callback stops the run there.
  const Structure s = damped_string();
  laws::LawParams law;
  law.kind = laws::LawKind::lugre;
  law.M.axis1 = stribeck();
  const contact::ContactModel cm(law, rheology::elastic(1e4), rheology::rigid());
  for (const bool dynamic : {false, true}) {
    SCOPED_TRACE(dynamic ? "dynamic law" : "Coulomb-Stribeck");
    auto run = [&](const Progress& progress) {
      auto m = make_reduced_model(s, 2e-3);
      return dynamic ? run_stick_slip(*m, belt(), cm, run_for(10.0), progress)
                     : run_stick_slip(*m, belt(), stribeck(), run_for(10.0), progress);
    };
    std::vector<double> fractions;
    const StickSlipResult with = run([&](double f) { fractions.push_back(f); });
    const StickSlipResult without = run({});
    ASSERT_EQ(with.series.columns, without.series.columns);
    ASSERT_GE(fractions.size(), 150u);
    EXPECT_LE(fractions.size(), 201u);
    EXPECT_EQ(fractions.back(), 1.0);
    EXPECT_GT(fractions.front(), 0.0);
    EXPECT_LE(fractions.front(), 0.005);
    for (std::size_t k = 1; k + 1 < fractions.size(); ++k) EXPECT_GE(fractions[k], fractions[k - 1] + 0.005);
    const auto half = std::find_if(fractions.begin(), fractions.end(), [](double f) { return f >= 0.5; });

    struct Stop {};
    int calls = 0;
    auto m = make_reduced_model(s, 2e-3);
    auto stop_at_half = [&](double f) {
      ++calls;
      if (f >= 0.5) throw Stop{};
    };
    EXPECT_THROW(dynamic ? run_stick_slip(*m, belt(), cm, run_for(10.0), stop_at_half)
                         : run_stick_slip(*m, belt(), stribeck(), run_for(10.0), stop_at_half),
                 Stop);
    EXPECT_EQ(calls, half - fractions.begin() + 1);  // the call that saw 0.5 was the last
  }
}

TEST(StickSlip, UndampedStringThroughItsNeutralDelayForm) {
  TautStringParams p;
  const Structure s = Structure::taut_string(p);
  auto m = make_reduced_model(s, string_delay_step(p, 1e-3));
  const StickSlipResult r = run_stick_slip(*m, belt(), stribeck(), run_for(60.0));
  ASSERT_TRUE(r.cycle.found);
  EXPECT_LE(r.max_stick_velocity_mps, 1e-14);
  // without damping the waves keep returning: a cycle of three string periods (2 l / c = 2 s)
  EXPECT_NEAR(r.cycle.period_s, 6.0, 1e-6);
}

TEST(StickSlip, BadInput) {
  const Structure s = damped_string();
  auto m = make_reduced_model(s, 1e-3);
  auto expect = [&](BeltParams b, laws::StribeckParams f, StickSlipOptions o, const std::string& message) {
    try {
      run_stick_slip(*m, b, f, o);
      FAIL() << message;
    } catch (const InvalidInput& e) {
      EXPECT_EQ(std::string(e.what()), message);
    }
  };
  BeltParams b = belt();
  b.belt_speed_m_per_s = std::nan("");
  expect(b, stribeck(), run_for(1.0), "contact.belt_speed_m_per_s = nan: must be finite");
  b.belt_speed_m_per_s = INFINITY;
  expect(b, stribeck(), run_for(1.0), "contact.belt_speed_m_per_s = inf: must be finite");
  b = belt();
  b.normal_load_N = INFINITY;
  expect(b, stribeck(), run_for(1.0), "contact.normal_load_N = inf: must be finite");
  b.normal_load_N = -1.0;
  expect(b, stribeck(), run_for(1.0), "contact.normal_load_N = -1: must be > 0");
  b = belt();
  b.contact_index = 1;
  expect(b, stribeck(), run_for(1.0),
         "contact.contact_index = 1: must lie in [0, 0] (the structure has 1 contact point)");
  laws::StribeckParams f = stribeck();
  f.mu_s = -0.5;
  expect(belt(), f, run_for(1.0), "friction.mu_s = -0.5: must be > 0");
  expect(belt(), stribeck(), run_for(0.0), "run.t_end_s = 0: must be > 0");
  // 1e12 steps thinned to 1e4 rows passed the row limit and ran for days (helper-46)
  StickSlipOptions long_run = run_for(1e9);
  long_run.output_every = 100'000'000;
  expect(belt(), stribeck(), long_run, "run.t_end_s = 1000000000: more than 1000000000 steps of 0.001 s");
  EXPECT_EQ(m->steps_taken(), 0);  // nothing was run
}

}  // namespace
}  // namespace bristle::structures

namespace bristle::structures {
namespace {

// issue 17: a lightly damped string (D = 0.01) on the belt settles into Helmholtz motion, stick-slip cycles
// of 2 l / c = 2.0 s; the limit cycle is that fundamental period with one break-away per cycle. Over 40 s
// (the smallest input that showed the failure) the break-away intervals still carry a slowly decaying
// three-cycle jitter of +-5 ms (1.996, 2.005, 1.999, 1.998 s), which the detector reported as 6.0 s with
// three break-aways per cycle while its tolerance grew with the candidate period; over 60 s it is +-2 ms.
TEST(StickSlip, LightlyDampedStringHasTheFundamentalPeriod) {
  TautStringParams p;  // rho = l = c = 1, chi = 0.3
  p.damping_ratio = 0.01;
  const Structure s = Structure::taut_string(p);
  for (const double t_end : {40.0, 60.0}) {
    SCOPED_TRACE(t_end);
    auto m = make_reduced_model(s, 1e-3);
    const StickSlipResult r = run_stick_slip(*m, belt(), stribeck(), run_for(t_end));
    ASSERT_TRUE(r.cycle.found);
    EXPECT_EQ(r.cycle.breakaways_per_cycle, 1);
    EXPECT_EQ(r.cycle.cycles_used, 4);
    EXPECT_EQ(r.cycle.cycles, r.cycle.cycles_used);
    EXPECT_NEAR(r.cycle.period_s, 2.0, 2e-3);
  }
}

// issue 17: the same string through the 100-mode modal model over 40 s lands in the stick band with a chatter
// of stick phases 1-5 steps long before and after each 1.36 s stick; counted as stick phases they made
// 3 break-aways of a 4.0 s "cycle" (period_s = 4.004). Stick phases shorter than 10 steps are not counted:
// one break-away per 2.0 s cycle.
TEST(StickSlip, ChatterAtTheStickBandIsNotACycle) {
  TautStringParams p;  // rho = l = c = 1, chi = 0.3
  p.damping_ratio = 0.01;
  ModalModel modal(Structure::taut_string(p), 100, 1e-3);
  const StickSlipResult r = run_stick_slip(modal, belt(), stribeck(), run_for(40.0));
  ASSERT_TRUE(r.cycle.found);
  EXPECT_EQ(r.cycle.breakaways_per_cycle, 1);
  EXPECT_EQ(r.cycle.cycles_used, 4);
  EXPECT_NEAR(r.cycle.period_s, 2.0, 5e-3);
  int short_sticks = 0;  // the chatter is there: stick intervals of a few steps
  for (const StickSlipInterval& iv : r.intervals)
    if (iv.stick && iv.t_end_s - iv.t_start_s < 6e-3 && iv.t_start_s > 20.0) ++short_sticks;
  EXPECT_GT(short_sticks, 3);
}

// A structure that never sticks (belt at rest: nothing drives it) has no limit cycle and no period.
TEST(StickSlip, NoStickSlipIsNotFound) {
  const Structure s = damped_string();
  auto m = make_reduced_model(s, 1e-3);
  BeltParams b = belt();
  b.belt_speed_m_per_s = 0.0;
  const StickSlipResult r = run_stick_slip(*m, b, stribeck(), run_for(5.0));
  EXPECT_FALSE(r.cycle.found);
  EXPECT_EQ(r.cycle.period_s, 0.0);
  EXPECT_EQ(r.cycle.cycles_used, 0);
}

}  // namespace
}  // namespace bristle::structures
