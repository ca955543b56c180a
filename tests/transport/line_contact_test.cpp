// Line contact (paper 1, §5): steady closed forms, transient convergence, unification with the
// lumped model, passivity, bad input.
#include "bristle/transport/line_contact.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <numbers>
#include <random>

#include "bristle/core/error.hpp"
#include "bristle/integrate/ode.hpp"
#include "support/test_support.hpp"

namespace bristle::transport {
namespace {

using laws::LawKind;
using laws::LawParams;
using laws::StribeckParams;
namespace rh = bristle::rheology;

// Table 1 (sliding) and Table 2 (rolling) of paper 1.
constexpr double kK01 = 240.0;
LawParams table1_law() {
  LawParams p;
  p.kind = LawKind::frbd;
  p.M.axis1 = StribeckParams{1.0, 0.7, 6.0, 2.0, 0.0};
  return p;
}
LawParams table2_law() {
  LawParams p;
  p.kind = LawKind::frbd;
  p.M.axis1 = StribeckParams{1.2, 0.7, 3.49, 0.6, 0.0};
  return p;
}
contact::ContactModel elastic_pair(const LawParams& law, double s) {
  return contact::ContactModel(law, rh::elastic(kK01), rh::elastic(rh::substrate_stiffness_from_s("s", s, kK01)));
}
LineContactParams line(double L, double Fz, int cells = 200) {
  LineContactParams p;
  p.L_m = L;
  p.normal_load_N = Fz;
  p.cells = cells;
  return p;
}

// Eq. 57 and eq. 62 (with eps = 0), the normalised force F_x / (mu F_z), written with expm1 so that
// 1 - (1 - e^-a)/a = (a + expm1(-a))/a keeps its digits for small a (slow rolling).
double eq57(double mu, double s, double L) {
  const double a = (1.0 - s) * kK01 * L / (s * mu);
  return -(a + std::expm1(-a)) / a;
}
double eq62(double mu, double s, double L, double vx, double Vr) {
  const double a = (1.0 - s) * kK01 * std::abs(vx) * L / ((Vr + s * vx) * mu);
  return -(vx > 0 ? 1.0 : -1.0) * (a + std::expm1(-a)) / a;
}

TEST(LineSteady, SlidingClosedFormEq57) {
  for (double s : {0.2, 0.4, 0.6, 0.8}) {
    const auto model = elastic_pair(table1_law(), s);
    for (double V : {0.05, 1.0, 7.0, 30.0}) {
      const SteadyLine st = steady_state(model, line(0.2, 10.0), 0.0, V);
      const double mu = laws::stribeck_mu(table1_law().M.axis1, V);
      const double expected = mu * 10.0 * eq57(mu, s, 0.2);
      EXPECT_TRUE(st.exact);
      EXPECT_NEAR(st.force_N[0], expected, 1e-10 * std::abs(expected)) << "s=" << s << " V=" << V;
      EXPECT_EQ(st.force_N[1], 0.0);
    }
  }
}

TEST(LineSteady, RollingClosedFormEq62) {
  const double Vr = 16.0;
  for (double s : {0.2, 0.4, 0.6, 0.8}) {
    const auto model = elastic_pair(table2_law(), s);
    for (double vx : {-3.2, -0.5, -1e-3, 2e-2, 1.0, 3.2}) {
      const double Vx = Vr + vx;
      const SteadyLine st = steady_state(model, line(0.1, 3000.0), Vr, Vx);
      const double mu = laws::stribeck_mu(table2_law().M.axis1, std::abs(vx));
      const double expected = mu * 3000.0 * eq62(mu, s, 0.1, vx, Vr);
      EXPECT_NEAR(st.force_N[0], expected, 1e-10 * std::abs(expected)) << "s=" << s << " vx=" << vx;
    }
  }
}

TEST(LineSteady, GeneralSolverAgreesWithExactOne) {
  // Parabolic pressure with GKV bodies: the adaptive xi-integration (forced through a tabulated copy of
  // the same pressure) against the matrix exponential.
  const double s = 0.4;
  const contact::ContactModel model(table1_law(), rh::gkv(kK01, {100.0, 50.0}, {0.1, 0.1}),
                                    rh::gkv(rh::substrate_stiffness_from_s("s", s, kK01), {36.0, 36.0}, {0.1, 0.1}));
  LineContactParams exact = line(0.2, 10.0);
  exact.pressure.kind = PressureKind::parabolic;
  LineContactParams tabulated = exact;
  tabulated.pressure.kind = PressureKind::table;
  for (int i = 0; i <= 2000; ++i) {
    const double xi = 0.2 * i / 2000.0;
    tabulated.pressure.xi_m.push_back(xi);
    tabulated.pressure.values.push_back(xi * (0.2 - xi));
  }
  for (double V : {0.1, 2.0}) {
    const SteadyLine a = steady_state(model, exact, 0.0, V);
    const SteadyLine b = steady_state(model, tabulated, 0.0, V);
    EXPECT_TRUE(a.exact);
    EXPECT_FALSE(b.exact);
    // The table interpolates the parabola linearly: O(h^2) = 1e-8 relative difference at most.
    EXPECT_NEAR(a.force_N[0], b.force_N[0], 1e-6 * std::abs(a.force_N[0])) << "V=" << V;
  }
}

// Slow sliding over GKV bodies: the branches relax |J_kk| L / V2 times faster than they cross the contact. The
// matrix exponential lost ~5e-15 of that ratio (V2 = 1e-8 m/s: 1.8e-6 off; 1e-14 m/s: -1.5 N for -9.58 N; NaN
// below); past a ratio of 2e6 the adaptive path solves it, past 1e10 the speeds are refused.
TEST(LineSteady, SlowSlidingIsAccurateOrRefused) {
  const double s = 0.4;
  const contact::ContactModel model(table1_law(), rh::gkv(kK01, {100.0, 50.0}, {0.1, 0.1}),
                                    rh::gkv(rh::substrate_stiffness_from_s("s", s, kK01), {36.0, 36.0}, {0.1, 0.1}));
  LineContactParams uniform = line(0.2, 10.0);
  LineContactParams tabulated = uniform;  // the same uniform pressure, forced through the adaptive path
  tabulated.pressure.kind = PressureKind::table;
  tabulated.pressure.xi_m = {0.0, 0.2};
  tabulated.pressure.values = {1.0, 1.0};
  for (double V : {1e-2, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8}) {  // the adaptive path takes ~0.5 s at 1e-8
    const SteadyLine a = steady_state(model, uniform, 0.0, V);
    const SteadyLine b = steady_state(model, tabulated, 0.0, V);
    EXPECT_EQ(a.exact, V >= 1e-5) << "V=" << V;  // the ratio passes 2e6 between 1e-5 and 1e-6 m/s
    EXPECT_NEAR(a.force_N[0], b.force_N[0], 1e-8 * std::abs(b.force_N[0])) << "V=" << V;
    EXPECT_NEAR(a.force_N[0], -9.58333333, 1e-4) << "V=" << V;  // the slow-sliding limit
  }
  for (double V : {1e-10, 1e-14, 1e-100}) {
    try {
      (void)steady_state(model, uniform, 0.0, V);
      ADD_FAILURE() << "V=" << V << " was not refused";
    } catch (const InvalidInput& e) {
      EXPECT_NE(std::string(e.what()).find("line.V2 = " + format_value(V) + " m/s: too stiff for the steady solver"),
                std::string::npos)
          << e.what();
    }
  }
  try {
    (void)steady_state(model, uniform, 0.0, 1e-10);
    ADD_FAILURE() << "V=1e-10 was not refused";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()),
              "line.V1 = 0 m/s, line.V2 = 1e-10 m/s: too stiff for the steady solver: a component relaxes 6.16e+10 "
              "times faster than it crosses the contact (at most 1e+10; slower speeds and stiffer pairs raise the "
              "ratio)");
  }
}

// Every moving component entering at xi = L (sliding with V2 < 0, rolling backwards): the exponential gave
// -4.6e20 N at V2 = -0.3 m/s (the transient solver: +9.578 N), 0 N at -1 and NaN at -1e-5, all "exact". The
// affine problem is odd and the pressure symmetric: the mirrored problem is solved.
TEST(LineSteady, EveryComponentEnteringAtTheTrailingEdgeIsTheMirroredProblem) {
  const double s = 0.4;
  const contact::ContactModel model(table1_law(), rh::gkv(kK01, {100.0, 50.0}, {0.1, 0.1}),
                                    rh::gkv(rh::substrate_stiffness_from_s("s", s, kK01), {36.0, 36.0}, {0.1, 0.1}));
  for (const PressureKind kind : {PressureKind::uniform, PressureKind::parabolic}) {
    LineContactParams p = line(0.2, 10.0);
    p.pressure.kind = kind;
    for (const auto& [V1, V2] : std::vector<std::pair<double, double>>{{0.0, 0.3}, {0.0, 1.0}, {0.0, 1e-5}, {0.3, 0.2}}) {
      const SteadyLine forward = steady_state(model, p, V1, V2, 0.0, 5);
      const SteadyLine backward = steady_state(model, p, -V1, -V2, 0.0, 5);
      EXPECT_TRUE(backward.force_N.allFinite());
      EXPECT_EQ(backward.force_N[0], -forward.force_N[0]) << V1 << " " << V2;
      ASSERT_EQ(backward.field.rows(), 5u);
      for (std::size_t j = 0; j < 5; ++j) {
        EXPECT_EQ(backward.field.columns[0][j], forward.field.columns[0][j]);  // the same xi
        for (std::size_t k = 1; k < forward.field.columns.size(); ++k)
          EXPECT_EQ(backward.field.columns[k][j], 0.0 - forward.field.columns[k][4 - j]);
      }
    }
  }
  // Against the transient solver run to its steady state (400 cells: ~2e-6 relative).
  LineContactParams p = line(0.2, 10.0, 400);
  p.V2 = contact::Signal::constant_value(-0.3);
  LineContact lc(model, p);
  lc.advance_to(3.0);
  const SteadyLine steady = steady_state(model, line(0.2, 10.0), 0.0, -0.3);
  EXPECT_NEAR(steady.force_N[0], 9.5777, 1e-3);
  EXPECT_NEAR(lc.total_force()[0], steady.force_N[0], 1e-5 * std::abs(steady.force_N[0]));
  try {  // a refusal names the speeds as written, not the mirror's
    (void)steady_state(model, line(0.2, 10.0), 0.0, -1e-10);
    ADD_FAILURE() << "V2 = -1e-10 was not refused";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("line.V2 = -1e-10 m/s: too stiff"), std::string::npos) << e.what();
  }
}

TEST(LineSteady, LumpedLimitAsSTendsToZero) {
  double previous = 1.0;
  for (double s : {1e-1, 1e-2, 1e-3, 1e-4}) {
    const auto model = elastic_pair(table1_law(), s);
    const SteadyLine st = steady_state(model, line(0.2, 10.0), 0.0, 1.0);
    const double mu = laws::stribeck_mu(table1_law().M.axis1, 1.0);
    const double gap = std::abs(st.force_N[0] / (mu * 10.0) + 1.0);  // |F_x/(mu F_z) - (-1)|
    EXPECT_LT(gap, previous);
    previous = gap;
  }
  EXPECT_LT(previous, 1e-3);
}

integrate::Options sdirk2(double dt) {
  integrate::Options o;
  o.method = integrate::Method::sdirk2;
  o.dt_s = dt;
  o.rtol = 1e-10;
  o.atol = 1e-14;
  return o;
}

// V1 = V2 = 0: every node follows the lumped model (the same source, the same stepper) to round-off.
TEST(LineTransient, WithoutAdvectionEveryNodeIsTheLumpedModel) {
  const contact::ContactModel model(table1_law(), rh::gkv(kK01, {100.0}, {0.1}), rh::gkv(300.0, {40.0}, {0.2}));
  LineContactParams p = line(0.2, 10.0, 8);
  p.V1 = contact::Signal::constant_value(0.0);
  p.V2 = contact::Signal::constant_value(0.0);
  p.v_y.kind = contact::SignalKind::sine;  // v_r = (V2 - V1, v_y): drive through the lateral slip
  p.v_y.amplitude = 0.3;
  p.v_y.omega = 5.0;
  p.v_y.offset = 0.1;
  p.dt_s = 0.01;
  p.source_scheme = SourceScheme::sdirk2;  // the lumped model's own fixed-step integrator
  LineContact lc(model, p);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  VecX initial(lc.cells() * lc.components());
  for (Eigen::Index i = 0; i < initial.size(); ++i) initial[i] = u(rng) * (i % lc.components() < 2 ? 1.0 : 1e-3);
  lc.reset(0.0, initial);
  lc.advance_to(1.0);
  integrate::OdeSystem lumped;
  lumped.size = model.state_size();
  lumped.rhs = [&](double t, const double* x, double* dx) { model.source(x, Vec2(0.0, p.v_y(t)), dx); };
  double worst = 0.0;
  for (int i = 0; i < lc.cells(); ++i) {
    VecX x = initial.segment(i * lc.components(), lc.components());
    integrate::integrate(lumped, x, 0.0, {1.0}, sdirk2(0.005), [](double, const double*) {});
    worst = std::max(worst, (x - lc.state().segment(i * lc.components(), lc.components())).cwiseAbs().maxCoeff());
  }
  std::cout << "unification (sdirk2 source): max |node - lumped| = " << worst << "\n";
  EXPECT_LE(worst, 1e-14);
}

// The exponential source scheme is exact for constant velocities: without advection every node
// follows the lumped model integrated by CVODE at rtol 1e-12.
TEST(LineTransient, ExponentialSourceIsExactForConstantVelocities) {
  const contact::ContactModel model(table1_law(), rh::gkv(kK01, {100.0}, {0.1}), rh::gkv(300.0, {40.0}, {0.2}));
  LineContactParams p = line(0.2, 10.0, 6);
  p.V1 = contact::Signal::constant_value(0.0);
  p.V2 = contact::Signal::constant_value(0.0);
  p.v_y = contact::Signal::constant_value(0.4);
  p.dt_s = 0.05;
  p.source_scheme = SourceScheme::exponential;
  LineContact lc(model, p);
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  VecX initial(lc.cells() * lc.components());
  for (Eigen::Index i = 0; i < initial.size(); ++i) initial[i] = u(rng) * (i % lc.components() < 2 ? 1.0 : 1e-3);
  lc.reset(0.0, initial);
  lc.advance_to(1.0);
  integrate::OdeSystem lumped;
  lumped.size = model.state_size();
  lumped.rhs = [&](double, const double* x, double* dx) { model.source(x, Vec2(0.0, 0.4), dx); };
  integrate::Options cvode;
  cvode.rtol = 1e-12;
  cvode.atol = 1e-15;
  double worst = 0.0;
  for (int i = 0; i < lc.cells(); ++i) {
    VecX x = initial.segment(i * lc.components(), lc.components());
    integrate::integrate(lumped, x, 0.0, {1.0}, cvode, [](double, const double*) {});
    worst = std::max(worst, (x - lc.state().segment(i * lc.components(), lc.components())).cwiseAbs().maxCoeff());
  }
  std::cout << "unification (exponential source): max |node - lumped| = " << worst << "\n";
  EXPECT_LE(worst, 1e-10);
  // Bouc-Wen's source is not affine: the exponential scheme is refused.
  laws::LawParams bw;
  bw.kind = LawKind::bouc_wen;
  const contact::ContactModel bouc(bw, rh::elastic(kK01), rh::rigid());
  try {
    LineContact refused(bouc, p);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()),
              "line.source_scheme = \"exponential\": needs a source affine in the state; law.type = \"bouc_wen\" is "
              "not (use \"sdirk2\" or \"automatic\")");
  }
}

// The transient solver run to steady state reaches the closed forms within its discretisation
// error, which falls with the grid.
TEST(LineTransient, ReachesSteadyClosedForms) {
  for (double s : {0.4, 0.8}) {
    const auto model = elastic_pair(table1_law(), s);
    const double V = 0.3, mu = laws::stribeck_mu(table1_law().M.axis1, V);
    const double expected = mu * 10.0 * eq57(mu, s, 0.2);
    double previous = 1.0;
    for (int cells : {50, 100, 200, 400}) {
      LineContactParams p = line(0.2, 10.0, cells);
      p.V1 = contact::Signal::constant_value(0.0);
      p.V2 = contact::Signal::constant_value(V);
      LineContact lc(model, p);
      // Characteristics carry the steady solution in from the leading edge: after one transit time of
      // the slowest family the exact solution is steady; two transits leave only the scheme's error.
      lc.advance_to(2.0 * 0.2 / (s * V));
      const double rel = std::abs(lc.total_force()[0] / expected - 1.0);
      std::cout << "sliding steady s=" << s << " cells=" << cells << " relative error " << rel << "\n";
      EXPECT_LT(rel, previous);
      previous = rel;
    }
    EXPECT_LT(previous, 1e-3);
  }
  const double Vr = 16.0, vx = -3.2, s = 0.4;
  const auto model = elastic_pair(table2_law(), s);
  const double mu = laws::stribeck_mu(table2_law().M.axis1, std::abs(vx));
  const double expected = mu * 3000.0 * eq62(mu, s, 0.1, vx, Vr);
  LineContactParams p = line(0.1, 3000.0, 400);
  p.V1 = contact::Signal::constant_value(Vr);
  p.V2 = contact::Signal::constant_value(Vr + vx);
  LineContact lc(model, p);
  lc.advance_to(2.0 * 0.1 / (Vr + s * vx));
  EXPECT_NEAR(lc.total_force()[0], expected, 1e-3 * std::abs(expected));
}

TEST(LineTransient, RejectsBadInput) {
  const auto model = elastic_pair(table1_law(), 0.4);
  auto expect_invalid = [&](LineContactParams p, const std::string& message) {
    try {
      LineContact lc(model, p);
      FAIL() << "expected InvalidInput: " << message;
    } catch (const InvalidInput& e) {
      EXPECT_EQ(std::string(e.what()), message);
    }
  };
  LineContactParams p = line(0.2, 10.0);
  p.L_m = 0.0;
  expect_invalid(p, "line.L_m = 0: must be > 0");
  p = line(0.2, 10.0);
  p.cells = 1;
  expect_invalid(p, "line.cells = 1: must be >= 2");
  p = line(0.2, 10.0);
  p.cfl = 1.5;
  expect_invalid(p, "line.cfl = 1.5: must lie in (0, 1] (the scheme is stable for Courant numbers <= 1)");
  p = line(0.2, 10.0);
  p.normal_load_N = std::nan("");
  expect_invalid(p, "line.normal_load_N = nan: must be finite");
  // A fixed step beyond the CFL limit is refused when it is taken.
  p = line(0.2, 10.0, 100);
  p.V2 = contact::Signal::constant_value(1.0);
  p.dt_s = 0.01;  // dx / max|c| = 0.002 m / (s V2 = 0.4 m/s) = 0.005 s
  LineContact lc(model, p);
  try {
    lc.advance_to(0.1);
    FAIL();
  } catch (const SolverError& e) {
    EXPECT_EQ(std::string(e.what()),
              "line.dt_s = 0.01: breaks the CFL condition at t = 0 s (largest stable step dx / max|c| = 0.005 s); use a "
              "smaller dt_s or the automatic step");
  }
  // The step checked the speeds at the two ends of the span only: a sine peaking between them ran unstable steps.
  // The whole span is checked before the first step (the sine's crest at t = 0.25 s: c = s V2 = 0.4 x 0.9 m/s).
  {
    LineContactParams q = line(0.2, 10.0, 100);
    q.V2 = contact::Signal::sine(0.6, 2.0 * std::numbers::pi, 0.3);  // V2 = 0.3 m/s at t = 0 and t = 0.5 s
    q.dt_s = 0.01;                        // stable for 0.3 m/s (0.0167 s), not for 0.9 m/s (0.0056 s)
    LineContact peak(model, q);
    EXPECT_EQ(test::message_of<SolverError>([&] { peak.advance_to(0.5); }),
              "line.dt_s = 0.01: breaks the CFL condition at t = 0.25 s (largest stable step dx / max|c| = "
              "0.005555555555555556 s); use a smaller dt_s or the automatic step");
    EXPECT_EQ(peak.steps_taken(), 0);  // refused before any work
  }
  // A field time that is not an output time was moved to the next one or dropped (helper-46): refused.
  const auto field_error = [&](const std::vector<double>& field_times) {
    LineContact c(model, line(0.2, 10.0, 50));
    return test::message_of([&] { (void)run(c, {0.0, 0.5, 1.0}, field_times); });
  };
  const std::string rule = "; each field time must be one of the output times, in increasing order (a field is "
                           "taken at an output time: add it to them)";
  EXPECT_EQ(field_error({0.7}), "field_times[0] = 0.7 s: is not an output time" + rule);
  EXPECT_EQ(field_error({0.5, 5.0}), "field_times[1] = 5 s: is after the last output time" + rule);
  EXPECT_EQ(field_error({1.0, 0.5}), "field_times[1] = 0.5 s: goes back" + rule);
  EXPECT_EQ(field_error({-3.0}), "field_times[0] = -3 s: is not an output time" + rule);
  EXPECT_EQ(field_error({std::nan("")}), "field_times[0] = nan s: is not finite" + rule);
  // The fields are held in memory: 1e6 cells x 11 field times is over the limit of 1e7 rows.
  LineContact big(model, line(0.2, 10.0, 1'000'000));
  std::vector<double> eleven(11);
  for (int i = 0; i < 11; ++i) eleven[i] = 1e-9 * i;
  EXPECT_EQ(test::message_of([&] { (void)run(big, eleven, eleven); }),
            "field_times: 11 field times x 1000000 cells = 11000000 rows of fields; at most 10000000 in one run (they "
            "are held in memory)");
  EXPECT_EQ(test::message_of([&] { (void)run(big, std::vector<double>(2'000'002, 0.0), {}); }),
            "output times: 2000002; at most 2000001 in one run (its rows are held in memory)");
  LineContact c(model, line(0.2, 10.0, 50));
  const LineRun r = run(c, {0.0, 0.5, 1.0}, {0.0, 0.5, 0.5, 1.0 + 1e-14});
  EXPECT_EQ(r.field_times, (std::vector<double>{0.0, 0.5, 0.5, 1.0}));
  EXPECT_EQ(r.fields.size(), 4u);
}

}  // namespace
}  // namespace bristle::transport

namespace bristle::transport {
namespace {

// Measured order of convergence on a smooth transient: sliding with viscoelastic bodies from the
// exact steady state of V(0), then V(t) = 0.3 + 0.1 sin(2 pi t / 0.5) m/s; the error of F_x(t) and
// of the f field at t = 0.5 s against the next finer grid, halving dx (and dt, at fixed CFL).
TEST(LineTransient, SecondOrderOnSmoothSolutions) {
  const double s = 0.8;
  const contact::ContactModel model(table1_law(), rh::gkv(kK01, {100.0}, {0.1}),
                                    rh::gkv(rh::substrate_stiffness_from_s("s", s, kK01), {15.0}, {0.1}));
  const double T = 0.5;
  std::vector<double> force, fields_l1;
  std::vector<VecX> fields;
  const std::vector<int> grids{50, 100, 200, 400, 800};
  for (int cells : grids) {
    LineContactParams p = line(0.2, 10.0, cells);
    p.V1 = contact::Signal::constant_value(0.0);
    p.V2.kind = contact::SignalKind::sine;
    p.V2.offset = 0.3;
    p.V2.amplitude = 0.1;
    p.V2.omega = 2.0 * M_PI / T;
    p.cfl = 0.8;
    LineContact lc(model, p);
    // Initial state: the steady solution at V(0) = 0.3, sampled at the cell centres through a fine
    // exact field (linear interpolation between 20001 points: error 1e-9, far below the scheme's).
    const SteadyLine st = steady_state(model, p, 0.0, 0.3, 0.0, 20001);
    const int m = lc.components();
    VecX u0(cells * m);
    for (int i = 0; i < cells; ++i) {
      const double xi = lc.cell_centre(i);
      const double pos = xi / 0.2 * 20000.0;
      const int j = std::min(19999, static_cast<int>(pos));
      const double w = pos - j;
      for (int k = 0; k < m; ++k) {
        const auto& col = st.field.columns[1 + k];
        u0[i * m + k] = (1.0 - w) * col[j] + w * col[j + 1];
      }
    }
    lc.reset(0.0, u0);
    lc.advance_to(T);
    force.push_back(lc.total_force()[0]);
    // f_x on the coarsest grid's cells (averages of the finer cells) for a field error.
    VecX coarse(grids[0]);
    const int ratio = cells / grids[0];
    for (int i = 0; i < grids[0]; ++i) {
      double sum = 0.0;
      for (int r = 0; r < ratio; ++r) sum += lc.state()[(i * ratio + r) * m];
      coarse[i] = sum / ratio;
    }
    fields.push_back(coarse);
  }
  std::cout << "convergence (smooth sliding transient, t = 0.5 s):\n  cells  |F_N - F_2N| (N)  order  |f_N - f_2N|_L1  order\n";
  std::vector<double> df, dl1;
  for (std::size_t k = 0; k + 1 < grids.size(); ++k) {
    df.push_back(std::abs(force[k] - force[k + 1]));
    dl1.push_back((fields[k] - fields[k + 1]).cwiseAbs().mean() * 0.2);
  }
  for (std::size_t k = 0; k < df.size(); ++k) {
    const double order_f = k + 1 < df.size() ? std::log2(df[k] / df[k + 1]) : 0.0;
    const double order_l1 = k + 1 < df.size() ? std::log2(dl1[k] / dl1[k + 1]) : 0.0;
    std::cout << "  " << grids[k] << "  " << df[k] << "  " << order_f << "  " << dl1[k] << "  " << order_l1 << "\n";
    if (k >= 1 && k + 1 < df.size()) {
      EXPECT_GE(order_f, 1.8) << "cells " << grids[k];
      EXPECT_GE(order_l1, 1.8) << "cells " << grids[k];
    }
  }
}

// Random velocity histories with reversals of both bodies (the inflow edges switch sides):
// W(t) - W(0) <= int supplied power (Lemma B.1, eq. 79) at every output. Uniform pressure satisfies
// eq. 84 (d(p V)/dxi = 0); the parabolic one (p = 0 at both edges) does not where p grows along the
// flow, so Lemma B.1 does not cover it; it is checked as well and found passive on these histories.
TEST(LineTransient, PassiveUnderRandomReversals) {
  std::mt19937 rng(41);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const contact::ContactModel model(table1_law(), rh::gkv(kK01, {100.0, 50.0}, {0.1, 0.1}),
                                    rh::gkv(360.0, {40.0}, {0.3}));
  for (int trial = 0; trial < 4; ++trial) {
    LineContactParams p = line(0.2, 10.0, 100);
    if (trial % 2 == 1) p.pressure.kind = PressureKind::parabolic;
    for (contact::Signal* sig : {&p.V1, &p.V2, &p.v_y}) {
      sig->kind = contact::SignalKind::table;
      for (int i = 0; i <= 20; ++i) {
        sig->times.push_back(0.05 * i);
        sig->values.push_back((sig == &p.v_y ? 0.2 : 0.5) * u(rng));
      }
    }
    LineContact lc(model, p);
    std::vector<double> times;
    for (int i = 0; i <= 100; ++i) times.push_back(0.01 * i);
    const LineRun run = transport::run(lc, times, {});
    const auto& w = run.series.column("W_J");
    const auto& e = run.series.column("E_supplied_J");
    double worst = -1e300, supplied = 0.0;
    for (std::size_t i = 0; i < w.size(); ++i) {
      worst = std::max(worst, (w[i] - w[0]) - e[i]);
      supplied = std::max(supplied, std::abs(e[i]));
    }
    std::cout << "line passivity trial " << trial << " (" << to_string(p.pressure.kind) << "): max(W - W0 - E) = " << worst << " J (supplied up to "
              << supplied << " J)\n";
    EXPECT_LE(worst, 1e-12 * supplied);
    EXPECT_GT(supplied, 1e-3);
  }
}

}  // namespace
}  // namespace bristle::transport
