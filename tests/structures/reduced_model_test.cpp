// The reduced model (equation with memory in the contact variables): exact against the modal model of
// the same (finite) structure at a cost independent of its mode count; the truncated modal models
// converge to it as N grows; the neutral delay form of the undamped string.
#include "bristle/structures/reduced_model.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "bristle/core/error.hpp"
#include "bristle/structures/modal_model.hpp"
#include "support/test_support.hpp"

namespace bristle::structures {
namespace {

/// A prescribed force: a decaying oscillation plus a ramp starting at t = 1 s (a kink).
double force(double t) { return std::sin(3.0 * t) * std::exp(-t) + (t > 1.0 ? 0.3 * (t - 1.0) : 0.0); }

struct Trace {
  std::vector<double> v, w;
};

Trace drive(ContactStepper& m, long steps) {
  Trace out;
  VecX f(m.contact_count());
  for (long n = 1; n <= steps; ++n) {
    for (int j = 0; j < m.contact_count(); ++j) f[j] = (j + 1) * force(n * m.step_s());
    m.advance(f, true);
    out.v.push_back(m.velocity()[0]);
    out.w.push_back(m.displacement()[0]);
  }
  return out;
}

double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

TEST(ReducedModel, EqualsTheModalModelOfTheSameStructureAtACostIndependentOfItsModeCount) {
  TautStringParams p;
  p.damping_ratio = 0.1;
  p.contact_positions_m = {0.3, 0.8};
  const Structure string = Structure::taut_string(p);
  const double dt = 2e-3;
  ReducedModelOptions o;
  o.window_steps = 300;  // fixed window: the work then depends on the far-field modes only
  long terms = -1;
  for (const long N : {500L, 2000L, 8000L}) {
    const Structure s = Structure::truncated(string, N);
    ModalModel modal(s, N, dt);
    ReducedModel reduced(s, dt, o);
    const Trace a = drive(modal, 2000), b = drive(reduced, 2000);
    EXPECT_LT(max_diff(a.v, b.v), 1e-11) << N;
    EXPECT_LT(max_diff(a.w, b.w), 1e-12) << N;
    EXPECT_LE(reduced.far_error_bound(), o.far_tolerance * s.mode_product_bound() / std::acos(-1.0));
    // Modes still alive after the window (e^{-D w_k tau_w} above tolerance) are the same for every N.
    if (terms < 0) terms = reduced.history_terms();
    EXPECT_EQ(reduced.history_terms(), terms) << N;
    EXPECT_EQ(modal.history_terms(), 2 * N);
  }
}

TEST(ReducedModel, SingleContactFastPathEqualsTheModalModelAndTheGeneralPath) {
  // One contact point takes a separate path (far-field states scaled by o_v n^2, one vectorised pass);
  // it must agree with the modal model of the same finite structure and with the general M-contact
  // path driven by the same force at that point (zero force at the second point).
  BeamParams b;
  b.damping_ratio = 0.05;
  const Structure one = Structure::truncated(Structure::cantilever(b), 400);
  b.contact_positions_m = {1.0, 0.55};
  const Structure two = Structure::truncated(Structure::cantilever(b), 400);
  const double dt = 2e-4;
  ReducedModelOptions o;
  o.window_steps = 64;
  ModalModel modal(one, 400, dt);
  ReducedModel single(one, dt, o), general(two, dt, o);
  ASSERT_GT(single.far_modes(), 10);
  EXPECT_EQ(single.far_modes(), general.far_modes());
  Trace a = drive(modal, 3000), c = drive(single, 3000), g;
  VecX f = VecX::Zero(2);
  for (long n = 1; n <= 3000; ++n) {
    f[0] = force(n * dt);
    general.advance(f, true);
    g.v.push_back(general.velocity()[0]);
    g.w.push_back(general.displacement()[0]);
  }
  double vmax = 0.0;
  for (const double v : a.v) vmax = std::max(vmax, std::abs(v));
  EXPECT_GT(vmax, 1e-3);  // a non-trivial response
  EXPECT_LT(max_diff(a.v, c.v), 1e-11);
  EXPECT_LT(max_diff(a.w, c.w), 1e-12);
  EXPECT_LT(max_diff(g.v, c.v), 1e-13);
  EXPECT_LT(max_diff(g.w, c.w), 1e-14);
}

TEST(ReducedModel, WeightsAreKernelAverages) {
  BeamParams bp;
  bp.damping_ratio = 0.05;
  const Structure c = Structure::cantilever(bp);
  const double dt = 1e-3;
  const ReducedModel r(c, dt);
  // e_j = (S((j+1) dt) - S(j dt))/dt, d_j = mean of S over the step; e_0 -> the one-step admittance
  for (const long j : {0L, 1L, 7L}) {
    const KernelSamples S = step_response(c, 0, 0, {j * dt, (j + 1) * dt});
    EXPECT_NEAR(r.velocity_weight(j, 0, 0), (S.value[1] - S.value[0]) / dt, 1e-10);
  }
  EXPECT_DOUBLE_EQ(r.admittance()(0, 0), r.velocity_weight(0, 0, 0));
  // S(dt)/dt ~ (2/3) C sqrt(dt) for the beam (L1 ~ C sqrt(tau))
  EXPECT_NEAR(r.admittance()(0, 0) / (2.0 / 3.0 * sqrt_law_coefficient(c, 0) * std::sqrt(dt)), 1.0, 0.01);
}

TEST(ReducedModel, TruncatedModalModelsConvergeToIt) {
  // Error table (max |v_N - v_reduced| over 5 s of the rough force), printed for docs/structures.md.
  TautStringParams p;
  p.damping_ratio = 0.1;
  const Structure string = Structure::taut_string(p);
  const double dt = 1e-3;
  ReducedModel reduced(string, dt);
  const Trace ref = drive(reduced, 5000);
  std::printf("string (D = 0.1, chi = 0.3), dt = 1e-3: reduced model %s\n", reduced.description().c_str());
  double previous = 1e300;
  for (const long N : {10L, 100L, 1000L, 4000L}) {
    ModalModel modal(string, N, dt);
    const double e = max_diff(drive(modal, 5000).v, ref.v);
    std::printf("  N = %5ld  max |v_N - v_red| = %.3e m/s\n", N, e);
    EXPECT_LT(e, previous);
    EXPECT_LT(e, 0.5 / static_cast<double>(N));  // first order in 1/N (the jump L1(0+) is resolved by the tail)
    previous = e;
  }
  BeamParams bp;
  bp.damping_ratio = 0.05;
  const Structure beam = Structure::cantilever(bp);
  const double dtb = 2e-4;
  ReducedModel rb(beam, dtb);
  const Trace refb = drive(rb, 15000);
  std::printf("cantilever (D = 0.05, free end), dt = 2e-4: reduced model %s\n", rb.description().c_str());
  previous = 1e300;
  for (const long N : {5L, 20L, 80L, 320L}) {
    ModalModel modal(beam, N, dtb);
    const double e = max_diff(drive(modal, 15000).v, refb.v);
    std::printf("  N = %5ld  max |v_N - v_red| = %.3e m/s\n", N, e);
    EXPECT_LT(e, previous);
    previous = e;
  }
  EXPECT_LT(previous, 1e-8);
}

TEST(StringDelayModel, IsTheLimitOfTheUndampedModalModels) {
  TautStringParams p;
  p.contact_positions_m = {0.3, 0.55};
  const Structure s = Structure::taut_string(p);
  const double dt = string_delay_step(p, 1.1e-3);
  EXPECT_NEAR(2.0 / dt, std::round(2.0 / dt), 1e-9);
  EXPECT_LE(dt, 1.1e-3);
  StringDelayModel delay(s, dt);
  EXPECT_EQ(delay.period_steps(), std::lround(2.0 / dt));
  EXPECT_DOUBLE_EQ(delay.admittance()(0, 0), 0.5);  // L1(0+) = 1/(2 rho c)
  const Trace ref = drive(delay, 4000);
  double previous = 1e300;
  for (const long N : {100L, 1000L, 10000L}) {
    ModalModel modal(s, N, dt);
    const Trace t = drive(modal, 4000);
    const double e = max_diff(t.v, ref.v);
    EXPECT_LT(e, previous);
    EXPECT_LT(e, 0.5 / static_cast<double>(N));
    EXPECT_LT(max_diff(t.w, ref.w), 0.2 / static_cast<double>(N));
    previous = e;
  }
  // make_reduced_model picks the delay form for the undamped string
  EXPECT_NE(make_reduced_model(s, dt)->description().find("neutral delay"), std::string::npos);
}

TEST(ReducedModel, BadInput) {
  TautStringParams p;
  const Structure s = Structure::taut_string(p);
  try {
    ReducedModel r(s, 1e-3);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()),
              "structure.damping_ratio = 0: the undamped taut string has no fading memory; its reduced model is the "
              "neutral delay form (StringDelayModel, chosen by make_reduced_model)");
  }
  BeamParams bp;
  try {
    ReducedModel r(Structure::cantilever(bp), 1e-3);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()),
              "structure.damping_ratio = 0: the kernel of an undamped cantilever never decays, so its memory cannot "
              "be truncated; give damping_ratio > 0");
  }
  try {
    StringDelayModel d(s, 0.3);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()),
              "dt_s = 0.3: must divide 2 l / c = 2 s for the neutral delay form (e.g. dt_s = 0.2857142857142857)");
  }
  p.damping_ratio = 0.1;
  ReducedModelOptions o;
  o.far_tolerance = 0.0;
  try {
    ReducedModel r(Structure::taut_string(p), 1e-3, o);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), "model.far_tolerance = 0: must be > 0");
  }
  // The scenario's limits hold for direct callers too (helper-46): a step that resolves none of the slowest mode
  // gave an admittance 26 orders of magnitude too small, and D = 1e-9 spent 100 s on the window before refusing.
  TautStringParams stiff = p;
  stiff.wave_speed_m_per_s = 1e8;  // omega_1 = pi c / l = 3.1e8 rad/s
  EXPECT_EQ(test::message_of([&] { ReducedModel r(Structure::taut_string(stiff), 1e-3); }),
            "dt_s = 0.001: the structure's slowest mode (omega_1 = 314159265.3589793 rad/s) turns omega_1 x dt_s = "
            "314159.2653589793 rad per step; at most 1000: a smaller step or a softer structure");
  stiff.wave_speed_m_per_s = 1e5;  // omega_1 dt = 314: resolved, and the one-step admittance is still ~ C / dt
  const ReducedModel ok(Structure::taut_string(stiff), 1e-3);
  const double C = Structure::taut_string(stiff).static_compliance()(0, 0);
  EXPECT_NEAR(ok.admittance()(0, 0) / (C / 1e-3), 1.0, 0.1);
  TautStringParams light = p;
  light.damping_ratio = 1e-9;
  EXPECT_EQ(test::message_of([&] { ReducedModel r(Structure::taut_string(light), 1e-3); }),
            "structure.damping_ratio = 1e-09: must be 0 or >= 1e-06 for the reduced model (its memory window grows as "
            "1 / (D omega))");
  // A generic structure: the slowest mode is the smallest frequency, in whatever order they are listed, and its
  // window does not grow with 1 / D, so a small damping is not refused (helper-47).
  GenericModalParams g;
  g.frequencies_rad_per_s = {3e6, 1.0};
  g.damping_ratios = {1e-8, 1e-8};
  g.mode_values = {{1.0}, {0.5}};
  EXPECT_EQ(test::message_of([&] { ReducedModel r(Structure::generic(g), 1e-3); }), "(no error)");
  EXPECT_EQ(test::message_of([&] { ReducedModel r(Structure::generic(g), 2000.0); }),
            "dt_s = 2000: the structure's slowest mode (omega_1 = 1 rad/s) turns omega_1 x dt_s = 2000 rad per step; "
            "at most 1000: a smaller step or a softer structure");
}

}  // namespace
}  // namespace bristle::structures
