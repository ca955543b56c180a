// contact/contact.hpp: the stepping API (Contact, ContactArray), textbook units, energy balance, errors.
#include "bristle/contact/contact.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <utility>
#include <vector>

#include "bristle/contact/bench.hpp"
#include "contact/bench_test_support.hpp"
#include "support/test_support.hpp"

namespace bristle::contact {
namespace {

using bristle::test::message_of;

// Canudas de Wit et al. (1995), Table 1: sigma0 = 1e5 N/m, sigma1 = sqrt(1e5) Ns/m, sigma2 = 0.4 Ns/m,
// Fc = 1 N, Fs = 1.5 N, vs = 1e-3 m/s.
Contact lugre_1995() { return Contact::lugre(1.0, 1.5, 1e-3, 1e5, std::sqrt(1e5), 0.4); }

/// Textbook steady friction |F| = Fc + (Fs - Fc) exp(-(v/vs)^2) + sigma2 v (Canudas de Wit et al. 1995).
double textbook_steady(double Fc, double Fs, double vs, double sigma2, double v) {
  return Fc + (Fs - Fc) * std::exp(-(v / vs) * (v / vs)) + sigma2 * v;
}

TEST(Contact, StepAtConstantVelocityConvergesToTextbookSteadyFriction) {
  // At v = vs: Fc + (Fs - Fc) e^-1 + sigma2 v, opposing v (F on the moving body, docs/models.md).
  const double expected = textbook_steady(1.0, 1.5, 1e-3, 0.4, 1e-3);
  EXPECT_NEAR(expected, 1.0 + 0.5 * std::exp(-1.0) + 0.4e-3, 1e-15);
  Contact c = lugre_1995();
  double F = 0.0;
  for (int i = 0; i < 10000; ++i) F = c.step(1e-4, 1e-3);  // 1 s, relaxation time ~ 12 ms
  EXPECT_NEAR(F, -expected, 1e-12 * expected);
  Contact back = lugre_1995();
  for (int i = 0; i < 10000; ++i) F = back.step(1e-4, -1e-3);
  EXPECT_NEAR(F, expected, 1e-12 * expected);
}

TEST(Contact, StiffSigma0IsDampedAtAnyStep) {
  // z = dt J = -dt sigma0 |v| / g(v) ~ -85 dt: at dt = 0.1-10 s an explicit method diverges. The L-stable
  // stages damp the distance to the steady force by |R(z)| per step, R(z) = (1 + (1 - 2 gamma) z) / (1 - gamma z)^2
  // (SDIRK2; -> 0 as z -> -inf, negative there: the approach alternates in sign but never grows).
  const double expected = textbook_steady(1.0, 1.5, 1e-3, 0.4, 1e-3);
  const double gamma = 1.0 - 0.5 * std::numbers::sqrt2;
  const double J = -1e5 * 1e-3 / (1.0 + 0.5 * std::exp(-1.0));  // -sigma0 |v| / g(v), 1/s
  for (double dt : {1e-2, 0.1, 10.0}) {
    const double z = dt * J;
    const double R = (1.0 + (1.0 - 2.0 * gamma) * z) / ((1.0 - gamma * z) * (1.0 - gamma * z));
    ASSERT_LT(std::abs(R), 0.5);
    Contact c = lugre_1995();
    double error = c.step(dt, 1e-3) + expected;
    for (int i = 1; i < 40 && std::abs(error) > 1e-13; ++i) {
      const double next = c.step(dt, 1e-3) + expected;
      EXPECT_NEAR(next, R * error, 1e-9 * std::abs(error) + 1e-14) << "dt " << dt << " step " << i;
      error = next;
    }
    EXPECT_LT(std::abs(error), 1e-12) << "dt " << dt;
  }
}

TEST(Contact, TwoDimensionalVelocityGivesForceOpposingIt) {
  const double speed = 2e-3, theta = 0.7;
  const Vec2 v(speed * std::cos(theta), speed * std::sin(theta));
  Contact c = lugre_1995();
  Vec2 F = Vec2::Zero();
  for (int i = 0; i < 5000; ++i) F = c.step(1e-4, v);
  const double expected = textbook_steady(1.0, 1.5, 1e-3, 0.4, speed);
  EXPECT_NEAR(F[0], -expected * std::cos(theta), 1e-12);
  EXPECT_NEAR(F[1], -expected * std::sin(theta), 1e-12);
}

TEST(Contact, TextbookUnitsGiveTheTextbookForceNotTheNormalisedTrap) {
  // Fc = 10 N, Fs = 15 N, sigma2 = 0.4 Ns/m at 0.1 m/s: the textbook force is 10 + 0.4 * 0.1 = 10.04 N.
  Contact c = Contact::lugre(10.0, 15.0, 1e-3, 1e5, std::sqrt(1e5), 0.4);
  double F = 0.0;
  for (int i = 0; i < 2000; ++i) F = c.step(1e-4, 0.1);
  EXPECT_NEAR(F, -10.04, 1e-10);
  // The trap of issue 18: the same numbers as internal (normalised) parameters under a 10 N load read
  // sigma2 per newton of load, 10x too large: -10.40 N.
  laws::LawParams law;
  law.kind = laws::LawKind::lugre;
  law.M.axis1 = laws::StribeckParams{1.5, 1.0, 1e-3, 2.0, 0.0};
  law.sigma1 = std::sqrt(1e5) * Mat2::Identity();
  law.sigma2 = 0.4 * Mat2::Identity();
  Contact normalised(law, rheology::elastic(1e5), rheology::rigid(), 10.0);
  for (int i = 0; i < 2000; ++i) F = normalised.step(1e-4, 0.1);
  EXPECT_NEAR(F, -10.40, 1e-10);
}

TEST(Contact, TextbookDahlReachesCoulombForceAndPresliding) {
  // Dahl: F_tb = sigma0 z_tb, z_tb' = v (1 - sigma0 z_tb sgn(v) / Fc): F_tb(x) = Fc (1 - exp(-sigma0 x / Fc))
  // for a displacement x from rest at constant v > 0.
  const double Fc = 2.0, sigma0 = 1e4, v = 1e-4;
  Contact c = Contact::dahl(Fc, sigma0);
  const double dt = 1e-5;
  double F = 0.0;
  for (int i = 0; i < 100; ++i) F = c.step(dt, v);  // x = 1e-7 m
  const double x = 100 * dt * v;
  EXPECT_NEAR(F, -Fc * (1.0 - std::exp(-sigma0 * x / Fc)), 1e-6 * Fc);
  for (int i = 0; i < 2000; ++i) F = c.step(1e-3, 1e-2);  // sigma0 x / Fc = 100
  EXPECT_NEAR(F, -Fc, 1e-12);
}

TEST(Contact, SmallStepMatchesAdaptiveBenchRun) {
  // Velocity-driven bench of the 1995 LuGre law (per newton, F_z = 1 N), v = 1e-3 then -2e-3 m/s from t = 10 ms,
  // rodas4 at rtol 1e-11; the stepped contact holds v over each step, the step change falls on the grid.
  const laws::LawParams law = test::lugre_1995_law();
  const ContactModel model(law, rheology::elastic(1e5), rheology::rigid());
  BenchParams p;
  p.drive = DriveKind::velocity;
  p.input_x.kind = SignalKind::step;
  p.input_x.t0 = 0.01;
  p.input_x.before = 1e-3;
  p.input_x.after = -2e-3;
  const Bench bench(model, p);
  const double t_end = 0.02;
  const BenchRun ref = run(bench, {0.0, 0.005, t_end}, test::rodas4(1e-11));
  const double F_ref = ref.series.column("F_N").back(), F_mid = ref.series.column("F_N")[1];
  std::vector<double> errors;
  for (int n : {5000, 10000, 20000}) {  // dt = 4, 2, 1 us
    Contact c(law, rheology::elastic(1e5), rheology::rigid(), 1.0);
    const double dt = t_end / n;
    double F = 0.0;
    for (int i = 0; i < n; ++i) {
      F = c.step(dt, i < n / 2 ? 1e-3 : -2e-3);
      if (i == n / 4 - 1) {
        EXPECT_NEAR(F, F_mid, 2e-6 * std::abs(F_mid)) << n;
      }
    }
    errors.push_back(std::abs(F - F_ref));
    EXPECT_NEAR(c.time_s(), t_end, 1e-14);
  }
  EXPECT_LT(errors.back(), 1e-7 * std::abs(F_ref));
  // Second order: halving dt divides the error by ~4.
  EXPECT_GT(errors[0] / errors[1], 3.5);
  EXPECT_LT(errors[0] / errors[1], 4.5);
  EXPECT_GT(errors[1] / errors[2], 3.5);
  EXPECT_LT(errors[1] / errors[2], 4.5);

  // advance_to (adaptive) lands on the bench's force to its tolerance.
  Contact a(law, rheology::elastic(1e5), rheology::rigid(), 1.0);
  EXPECT_NEAR(a.advance_to(0.005, 1e-3, {1e-11, 1e-15}), F_mid, 1e-9 * std::abs(F_mid));
  a.advance_to(0.01, 1e-3, {1e-11, 1e-15});
  EXPECT_NEAR(a.advance_to(t_end, -2e-3, {1e-11, 1e-15}), F_ref, 1e-9 * std::abs(F_ref));
}

TEST(Contact, ViscoelasticPairSmallStepMatchesAdaptiveBenchRun) {
  // A GKV upper body (two branches) on an elastic substrate: the general (dynamic-size) stages.
  laws::LawParams law = test::lugre_1995_law();
  const rheology::RheologyParams body1 = rheology::gkv(2e5, {20.0, 5.0}, {1e-3, 1e-2});
  const rheology::RheologyParams body2 = rheology::elastic(4e5);
  const ContactModel model(law, body1, body2);
  BenchParams p;
  p.drive = DriveKind::velocity;
  p.input_x = Signal::constant_value(2e-3);
  p.normal_load = Signal::constant_value(3.0);
  const Bench bench(model, p);
  const BenchRun ref = run(bench, {0.0, 0.02}, test::rodas4(1e-11));
  const double F_ref = ref.series.column("F_N").back(), W_ref = ref.series.column("W_J").back();
  Contact c(law, body1, body2, 3.0);
  ASSERT_EQ(c.state_size(), 6);
  double F = 0.0;
  for (int i = 0; i < 20000; ++i) F = c.step(1e-6, 2e-3);
  EXPECT_NEAR(F, F_ref, 1e-7 * std::abs(F_ref));
  EXPECT_NEAR(c.stored_energy_J(), W_ref, 1e-6 * W_ref);
}

/// |W(t) - W(0) - (E_supplied - E_dissipated)| after a random piecewise-constant velocity (held 1 ms), stepped at dt.
double energy_balance_error(Contact c, double dt, unsigned seed, double* supplied = nullptr) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> speed(-3e-3, 3e-3);
  const int per_hold = static_cast<int>(std::lround(1e-3 / dt));
  const double W0 = c.stored_energy_J();
  for (int k = 0; k < 100; ++k) {
    const Vec2 v(speed(rng), speed(rng));
    for (int i = 0; i < per_hold; ++i) c.step(dt, v);
  }
  if (supplied) *supplied = c.supplied_energy_J();
  return std::abs(c.stored_energy_J() - W0 - (c.supplied_energy_J() - c.dissipated_energy_J()));
}

TEST(Contact, EnergyBalanceHoldsOnRandomInputsToTheMethodsOrder) {
  const laws::LawParams lugre = test::lugre_1995_law();
  const std::vector<Contact> contacts = {
      lugre_1995(),
      Contact(lugre, rheology::gkv(2e5, {20.0, 5.0}, {1e-3, 1e-2}), rheology::elastic(4e5), 2.0),
      Contact(lugre, rheology::gm(1e5, {5e4}, {2e-3}), rheology::gkv(3e5, {50.0}, {1e-3}), 2.0),
  };
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    double supplied = 0.0;
    const double e1 = energy_balance_error(contacts[k], 1e-5, 7u + static_cast<unsigned>(k), &supplied);
    const double e2 = energy_balance_error(contacts[k], 5e-6, 7u + static_cast<unsigned>(k));
    EXPECT_GT(supplied, 0.0);
    // Measured: 0.5-2.1e-6 of the supplied energy at dt = 10 us, 4x less at 5 us.
    EXPECT_LT(e1, 5e-6 * supplied) << k;
    EXPECT_GT(e1 / e2, 3.5) << k;  // second order
    EXPECT_LT(e1 / e2, 4.5) << k;
  }
}

TEST(Contact, BoucWenNewtonStagesMatchAdaptiveAndStayBoundedAtLargeSteps) {
  laws::LawParams law;
  law.kind = laws::LawKind::bouc_wen;
  law.A = 1.0;
  law.beta1 = 1e4;
  law.gamma = 5e3;
  Contact stepped(law, rheology::elastic(2.0), rheology::rigid(), 5.0);
  double F = 0.0;
  for (int i = 0; i < 4000; ++i) F = stepped.step(1e-6, 1e-2);
  Contact adaptive(law, rheology::elastic(2.0), rheology::rigid(), 5.0);
  const double F_ref = adaptive.advance_to(4e-3, 1e-2, {1e-11, 1e-15});
  EXPECT_NEAR(F, F_ref, 1e-6 * std::abs(F_ref));
  // Steady deformation -sqrt(A / (beta1 + gamma)), force F_z k0 z*; reached at a step of 1 s.
  Contact coarse(law, rheology::elastic(2.0), rheology::rigid(), 5.0);
  for (int i = 0; i < 50; ++i) F = coarse.step(1.0, 1e-2);
  EXPECT_NEAR(F, -5.0 * 2.0 * std::sqrt(1.0 / 1.5e4), 1e-9);
}

TEST(Contact, KeptFactorisationGivesBitwiseTheFreshStep) {
  // Steps at repeated v and dt reuse J, c and (I - gamma dt J)^-1; each must equal bitwise the step of a
  // fresh contact (nothing kept) from the same state, also when v or dt changes and when v repeats after
  // a change (the kept data must follow v and dt, not go stale).
  const laws::LawParams lugre = test::lugre_1995_law();
  const std::vector<Contact> prototypes = {
      lugre_1995(),                                                                               // 2 states
      Contact(lugre, rheology::gkv(2e5, {20.0, 5.0}, {1e-3, 1e-2}), rheology::elastic(4e5), 2.0),  // 6 states
  };
  const std::vector<std::pair<double, Vec2>> inputs = {
      {1e-4, {1e-3, 0.0}}, {1e-4, {1e-3, 0.0}}, {1e-4, {1e-3, 0.0}}, {2e-4, {1e-3, 0.0}}, {2e-4, {1e-3, 0.0}},
      {2e-4, {-1e-3, 0.0}}, {2e-4, {-1e-3, 0.0}}, {2e-4, {-1e-3, 5e-4}}, {2e-4, {-1e-3, 5e-4}},
      {2e-4, {1e-3, 0.0}}, {1e-4, {1e-3, 0.0}}, {1e-4, {0.0, 0.0}}, {1e-4, {0.0, 0.0}}};
  for (std::size_t k = 0; k < prototypes.size(); ++k) {
    Contact kept = prototypes[k];
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      Contact fresh(prototypes[k].shared_model(), prototypes[k].normal_load_N());
      fresh.set_state(kept.state());
      const Vec2 F_fresh = fresh.step(inputs[i].first, inputs[i].second);
      const Vec2 F_kept = kept.step(inputs[i].first, inputs[i].second);
      EXPECT_EQ(F_kept, F_fresh) << "contact " << k << ", step " << i;
      EXPECT_EQ(kept.state(), fresh.state()) << "contact " << k << ", step " << i;
    }
  }
}

TEST(Contact, XOnlySpecialisationEqualsTheTwoDimensionalStages) {
  // The x-only step (v_y = 0, f_y = 0, axes decoupled) against the general 2-D stages of the same contact
  // (set_x_only_fast_path(false)): state, force and energy integrals equal after every step, with energy
  // tracking on and off, for every affine law, an orthotropic stiffness (K0 = diag(kx, ky): the 2x2
  // determinant takes both), velocities through zero, denormal and large, repeated (the kept factors),
  // dt changes, and a 2-D excursion (f_y != 0: both contacts then take the 2-D stages until f_y is 0 again).
  laws::LawParams dahl, frbd, frictionless, lugre_eps = test::lugre_1995_law();
  dahl.kind = laws::LawKind::dahl;
  frbd.kind = laws::LawKind::frbd;
  frictionless.kind = laws::LawKind::frictionless;
  lugre_eps.eps = 1e-12;  // the regularised norm: g with its square root
  rheology::RheologyParams orthotropic = rheology::elastic(1.0);
  orthotropic.k_elastic = Vec2(3e5, 7e4).asDiagonal();
  const std::vector<Contact> prototypes = {
      lugre_1995(),
      Contact::dahl(1.0, 1e5),
      Contact(test::lugre_1995_law(), orthotropic, rheology::elastic(2e5), 3.0),
      Contact(lugre_eps, rheology::elastic(1e5), rheology::rigid(), 1.0),
      Contact(dahl, orthotropic, rheology::rigid(), 2.0),
      Contact(frbd, orthotropic, rheology::rigid(), 2.0),
      Contact(frictionless, rheology::elastic(1e5), rheology::rigid(), 1.0),
  };
  std::vector<std::pair<double, Vec2>> inputs;
  for (int i = 0; i < 200; ++i) inputs.push_back({1e-3, {2e-3 * std::sin(0.05 * i), 0.0}});
  for (double v : {0.0, 0.0, 1e-170, -4e-310, 3e2, 3e2, -1e-3}) inputs.push_back({1e-4, {v, 0.0}});
  for (int i = 0; i < 5; ++i) inputs.push_back({2e-4, {1e-3, 0.0}});
  inputs.push_back({1e-4, {1e-3, 1e-3}});
  for (int i = 0; i < 5; ++i) inputs.push_back({1e-4, {1e-3, 0.0}});
  for (bool energy : {true, false}) {
    for (std::size_t k = 0; k < prototypes.size(); ++k) {
      Contact fast = prototypes[k], general = prototypes[k];
      EXPECT_TRUE(fast.x_only_fast_path());
      general.set_x_only_fast_path(false);
      fast.set_energy_tracking(energy);
      general.set_energy_tracking(energy);
      for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (i == inputs.size() - 3) {  // back to f_y = 0: the specialisation resumes
          VecX u = general.state();
          u[1] = 0.0;
          general.set_state(u);
          fast.set_state(u);
        }
        const Vec2 F_fast = fast.step(inputs[i].first, inputs[i].second);
        const Vec2 F_general = general.step(inputs[i].first, inputs[i].second);
        ASSERT_EQ(F_fast, F_general) << "contact " << k << ", energy " << energy << ", step " << i;
        ASSERT_EQ(fast.state(), general.state()) << "contact " << k << ", energy " << energy << ", step " << i;
        if (energy) {
          ASSERT_EQ(fast.supplied_energy_J(), general.supplied_energy_J()) << "contact " << k << ", step " << i;
          ASSERT_EQ(fast.dissipated_energy_J(), general.dissipated_energy_J()) << "contact " << k << ", step " << i;
        }
      }
      EXPECT_EQ(fast.friction_force_N(), general.friction_force_N()) << k;
      EXPECT_LT(fast.friction_force_N()[0], 0.0) << k;  // sliding at +1 mm/s: not a trivial zero
      EXPECT_EQ(fast.time_s(), general.time_s()) << k;
    }
  }
}

TEST(Contact, EnergyTrackingOffKeepsStateAndForceAndMarksTheEnergiesUnknown) {
  laws::LawParams bouc_wen;
  bouc_wen.kind = laws::LawKind::bouc_wen;
  bouc_wen.beta1 = 1e4;
  const std::vector<Contact> prototypes = {
      lugre_1995(),
      Contact(test::lugre_1995_law(), rheology::gkv(2e5, {20.0, 5.0}, {1e-3, 1e-2}), rheology::elastic(4e5), 2.0),
      Contact(bouc_wen, rheology::elastic(2.0), rheology::rigid(), 1.0),  // Newton stages
  };
  for (std::size_t k = 0; k < prototypes.size(); ++k) {
    Contact tracked = prototypes[k], untracked = prototypes[k];
    EXPECT_TRUE(untracked.energy_tracking());
    untracked.set_energy_tracking(false);
    EXPECT_FALSE(untracked.energy_tracking());
    for (int i = 0; i < 300; ++i) {
      const double v = 2e-3 * std::sin(0.05 * i);
      EXPECT_EQ(untracked.step(1e-4, v), tracked.step(1e-4, v)) << k << " step " << i;
    }
    EXPECT_EQ(untracked.state(), tracked.state()) << k;
    EXPECT_EQ(untracked.stored_energy_J(), tracked.stored_energy_J()) << k;
    EXPECT_GT(tracked.supplied_energy_J(), 0.0) << k;
    EXPECT_TRUE(std::isnan(untracked.supplied_energy_J())) << k;  // unknown, not a plausible number
    EXPECT_TRUE(std::isnan(untracked.dissipated_energy_J())) << k;
    // Back on: NaN until reset; after reset the integrals equal a tracked contact's again.
    untracked.set_energy_tracking(true);
    untracked.step(1e-4, 1e-3);
    EXPECT_TRUE(std::isnan(untracked.supplied_energy_J())) << k;
    untracked.reset();
    tracked.reset();
    EXPECT_EQ(untracked.supplied_energy_J(), 0.0) << k;
    for (int i = 0; i < 50; ++i) untracked.step(1e-4, 1e-3), tracked.step(1e-4, 1e-3);
    EXPECT_EQ(untracked.supplied_energy_J(), tracked.supplied_energy_J()) << k;
    EXPECT_EQ(untracked.dissipated_energy_J(), tracked.dissipated_energy_J()) << k;
  }
}

TEST(Contact, ResetStateAndEnergies) {
  Contact c = lugre_1995();
  for (int i = 0; i < 100; ++i) c.step(1e-4, 1e-3);
  EXPECT_NEAR(c.time_s(), 1e-2, 1e-15);
  EXPECT_GT(c.stored_energy_J(), 0.0);
  const VecX u = c.state();
  const double F = c.friction_force_N()[0];
  Contact d = lugre_1995();
  d.set_state(u);
  d.step(1e-4, 1e-3);  // sets the velocity of friction_force_N
  c.step(1e-4, 1e-3);
  EXPECT_EQ(c.state(), d.state());
  EXPECT_LT(F, 0.0);
  c.reset();
  EXPECT_EQ(c.state(), VecX::Zero(2));
  EXPECT_EQ(c.time_s(), 0.0);
  EXPECT_EQ(c.supplied_energy_J(), 0.0);
  EXPECT_EQ(c.dissipated_energy_J(), 0.0);
  EXPECT_EQ(c.stored_energy_J(), 0.0);
  // Stored energy of the elastic textbook contact: 1/2 F^2 / sigma0 (F = sigma0 z).
  d.set_state(VecX::Constant(2, 0.0));
  VecX f(2);
  f << -1.2, 0.0;
  d.set_state(f);
  EXPECT_NEAR(d.stored_energy_J(), 0.5 * 1.2 * 1.2 / 1e5, 1e-20);
}

TEST(Contact, BadInputIsRejectedNamingTheArgumentAndLeavesTheStateUnchanged) {
  Contact c = lugre_1995();
  c.step(1e-4, 1e-3);
  const VecX u = c.state();
  const double nan = std::nan("");
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(message_of([&] { c.step(0.0, 1e-3); }), "dt_s = 0: must be > 0");
  EXPECT_EQ(message_of([&] { c.step(-1e-3, 1e-3); }), "dt_s = -0.001: must be > 0");
  EXPECT_EQ(message_of([&] { c.step(nan, 1e-3); }), "dt_s = nan: must be finite");
  EXPECT_EQ(message_of([&] { c.step(inf, 1e-3); }), "dt_s = inf: must be finite");
  EXPECT_EQ(message_of([&] { c.step(1e-4, nan); }), "v_mps = nan: must be finite");
  EXPECT_EQ(message_of([&] { c.step(1e-4, -inf); }), "v_mps = -inf: must be finite");
  EXPECT_EQ(message_of([&] { c.step(1e-4, Vec2(0.0, nan)); }), "v_mps = [0, nan]: must be finite");
  EXPECT_EQ(message_of([&] { c.advance_to(0.0, 1e-3); }), "t_s = 0: must be >= the contact's time 0.0001 s");
  EXPECT_EQ(message_of([&] { c.advance_to(nan, 1e-3); }), "t_s = nan: must be finite");
  EXPECT_EQ(message_of([&] { c.set_state(VecX::Zero(3)); }), "state: has 3 entries, must have state_size() = 2");
  EXPECT_EQ(message_of([&] { c.set_state(VecX::Constant(2, nan)); }), "state[0] = nan: must be finite");
  EXPECT_EQ(c.state(), u);
  EXPECT_NEAR(c.time_s(), 1e-4, 1e-18);
  EXPECT_EQ(message_of([] { Contact::lugre(-1.0, 1.5, 1e-3, 1e5, 0.0, 0.0); }), "Fc_N = -1: must be > 0");
  EXPECT_EQ(message_of([] { Contact::lugre(1.0, 1.5, 1e-3, 1e5, -2.0, 0.0); }),
            "sigma1_Ns_per_m = -2: must be >= 0");
  EXPECT_EQ(message_of([] { Contact::dahl(1.0, 0.0); }), "sigma0_N_per_m = 0: must be > 0");
  EXPECT_EQ(message_of([] { Contact(test::lugre_1995_law(), rheology::elastic(1e5), rheology::rigid(), 0.0); }),
            "normal_load_N = 0: must be > 0");
}

TEST(ContactArray, StepsEachContactAsAloneAndChecksIndexAndInputs) {
  const Contact proto = lugre_1995();
  ContactArray array(proto, 3);
  ASSERT_EQ(array.size(), 3);
  std::vector<Contact> alone(3, proto);
  const std::vector<double> v = {1e-3, -2e-3, 5e-4};
  std::vector<double> F(3);
  for (int k = 0; k < 50; ++k) {
    array.step(1e-4, v.data(), F.data());
    for (int i = 0; i < 3; ++i) EXPECT_EQ(F[static_cast<std::size_t>(i)], alone[static_cast<std::size_t>(i)].step(1e-4, v[static_cast<std::size_t>(i)]));
  }
  for (int i = 0; i < 3; ++i) EXPECT_EQ(array.at(i).state(), alone[static_cast<std::size_t>(i)].state());
  EXPECT_EQ(message_of([&] { array.at(3); }), "index = 3: must be in [0, 3)");
  EXPECT_EQ(message_of([&] { array.at(-1); }), "index = -1: must be in [0, 3)");
  const VecX u0 = array.at(0).state();
  const std::vector<double> bad = {1e-3, std::nan(""), 0.0};
  EXPECT_EQ(message_of([&] { array.step(1e-4, bad.data(), F.data()); }), "v_mps[1] = nan: must be finite");
  EXPECT_EQ(message_of([&] { array.step(-1.0, v.data(), F.data()); }), "dt_s = -1: must be > 0");
  EXPECT_EQ(array.at(0).state(), u0);  // no contact moved
  // 2-D
  const std::vector<double> v2 = {1e-3, 0.0, 0.0, -1e-3, 1e-3, 1e-3};
  std::vector<double> F2(6);
  for (int k = 0; k < 10000; ++k) array.step_2d(1e-4, v2.data(), F2.data());
  const double steady = textbook_steady(1.0, 1.5, 1e-3, 0.4, 1e-3);
  EXPECT_NEAR(F2[0], -steady, 1e-12);
  EXPECT_NEAR(F2[3], steady, 1e-12);
  EXPECT_NEAR(F2[4], F2[5], 1e-15);
  EXPECT_EQ(message_of([&] { ContactArray(proto, -1); }), "n = -1: must be >= 0");
  array.reset();
  EXPECT_EQ(array.at(2).state(), VecX::Zero(2));
}

}  // namespace
}  // namespace bristle::contact
