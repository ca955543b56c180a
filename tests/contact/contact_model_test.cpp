// The contact model (law x pair) without advection: the lumped dynamics of paper 1, eq. 1.
#include "bristle/contact/contact_model.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>

#include "bristle/contact/bench.hpp"
#include "bristle/core/error.hpp"

namespace bristle::contact {
namespace {

using laws::LawKind;
using laws::LawParams;
using laws::StribeckParams;
namespace rh = bristle::rheology;

LawParams make_law(LawKind kind) {
  LawParams p;
  p.kind = kind;
  p.M.axis1 = StribeckParams{1.0, 0.7, 6.0, 2.0, 0.0};  // Table 1
  if (kind == LawKind::dahl) p.M.axis1.mu_s = p.M.axis1.mu_d;
  if (kind == LawKind::bouc_wen) {
    p.A = 1.0;
    p.beta1 = 5e4;
    p.beta2 = 1e4;
    p.gamma = 1e4;
  }
  return p;
}

std::vector<double> grid(double t0, double t1, int n) {
  std::vector<double> t(n + 1);
  for (int i = 0; i <= n; ++i) t[i] = t0 + (t1 - t0) * i / n;
  return t;
}

integrate::Options tight(double rtol = 1e-12) {
  integrate::Options o;
  o.rtol = rtol;
  o.atol = 1e-16;
  return o;
}

BenchParams velocity_drive(double vx, double vy = 0.0) {
  BenchParams b;
  b.drive = DriveKind::velocity;
  b.input_x = Signal::constant_value(vx);
  b.input_y = Signal::constant_value(vy);
  return b;
}

// Paper 1, eq. 54 with V1 = V2 = 0 (every derivative an ordinary one), written out independently.
TEST(ContactModel, SourceEqualsPaperEq54WithoutAdvection) {
  const double k01 = 240.0, s = 0.4;
  const double k02 = rh::substrate_stiffness_from_s("s", s, k01);
  const std::vector<double> c1{100.0, 50.0}, tau1{0.1, 0.1}, c2{40.0, 30.0}, tau2{0.1, 0.3};
  const ContactModel model(make_law(LawKind::frbd), rh::gkv(k01, c1, tau1), rh::gkv(k02, c2, tau2));
  ASSERT_EQ(model.state_size(), 10);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double k0bar = (1.0 - s) * k01;
  for (int trial = 0; trial < 20; ++trial) {
    VecX state(10);
    for (int i = 0; i < 10; ++i) state[i] = (i < 2 ? 0.5 : 1e-3) * u(rng);
    const double vx = 3.0 * u(rng);
    VecX h(10);
    model.source(state.data(), Vec2(vx, 0.0), h.data());
    const double f = state[0];
    const double mu = laws::stribeck_mu(StribeckParams{1.0, 0.7, 6.0, 2.0, 0.0}, std::abs(vx));
    double fdot = -k0bar * std::abs(vx) / mu * f - k0bar * vx;  // eq. 54a, first two terms
    for (int i = 0; i < 2; ++i) {
      const double z1dot = -state[2 + 2 * i] / tau1[i] + f / c1[i];  // eq. 54b
      const double z2dot = -state[6 + 2 * i] / tau2[i] - f / c2[i];  // eq. 54c
      EXPECT_NEAR(h[2 + 2 * i], z1dot, 1e-12 * (1 + std::abs(z1dot)));
      EXPECT_NEAR(h[6 + 2 * i], z2dot, 1e-12 * (1 + std::abs(z2dot)));
      fdot += -k0bar * z1dot + k0bar * z2dot;
    }
    EXPECT_NEAR(h[0], fdot, 1e-11 * (1 + std::abs(fdot)));
  }
}

// Every law, driven at constant v from rest, settles on its analytic steady force to 1e-9 relative.
TEST(ContactModel, SteadyStateEqualsAnalyticSteadyFriction) {
  struct Case {
    LawKind kind;
    rh::RheologyParams body1, body2;
  };
  const std::vector<Case> cases{
      {LawKind::dahl, rh::elastic(200.0), rh::rigid()},
      {LawKind::lugre, rh::elastic(200.0), rh::rigid()},
      {LawKind::lugre, rh::gkv(240.0, {100.0}, {0.1}), rh::elastic(360.0)},
      {LawKind::frbd, rh::elastic(240.0), rh::rigid()},
      {LawKind::frbd, rh::gkv(240.0, {100.0, 50.0}, {0.1, 0.1}), rh::gkv(360.0, {40.0}, {0.3})},
      {LawKind::frbd, rh::gm(200.0, {100.0}, {0.2}), rh::rigid()},
      {LawKind::bouc_wen, rh::elastic(200.0), rh::rigid()},
  };
  for (const Case& c : cases) {
    const ContactModel model(make_law(c.kind), c.body1, c.body2);
    for (double v : {0.5, -2.0, 8.0}) {
      const Bench bench(model, velocity_drive(v));
      const BenchRun run = contact::run(bench, grid(0.0, 12.0, 4), tight());
      const double f = run.series.column("f_x").back();
      const double expected = model.steady_force(Vec2(v, 0.0))[0];
      EXPECT_NEAR(f, expected, 1e-9 * std::abs(expected))
          << laws::to_string(c.kind) << " n1=" << model.n1() << " n2=" << model.n2() << " v=" << v;
    }
  }
  // LuGre with the sigma2 viscous term: the Stribeck curve plus sigma2 v.
  LawParams lugre = make_law(LawKind::lugre);
  lugre.sigma1 = 10.0 * Mat2::Identity();
  lugre.sigma2 = 0.05 * Mat2::Identity();
  const ContactModel model(lugre, rh::elastic(200.0), rh::rigid());
  const Bench bench(model, velocity_drive(3.0));
  const BenchRun run = contact::run(bench, grid(0.0, 12.0, 4), tight());
  const double expected = -(laws::stribeck_mu(lugre.M.axis1, 3.0) + 0.05 * 3.0);
  EXPECT_NEAR(run.series.column("f_x").back(), expected, 1e-9 * std::abs(expected));
}

// Steady states at rest (issue 17, item 4): for every law, eps = 0 and viscoelastic pairs, steady_state(0)
// is finite (it was NaN for eps = 0: G^-1(0) = 0 inverted), is u = 0, and is at rest (zero source).
TEST(ContactModel, SteadyStateAtRestIsFiniteAndAtRest) {
  for (LawKind kind : {LawKind::dahl, LawKind::lugre, LawKind::frbd, LawKind::bouc_wen, LawKind::frictionless}) {
    LawParams law = make_law(kind);
    law.eps = 0.0;
    if (kind == LawKind::lugre) law.sigma2 = 0.05 * Mat2::Identity();
    const ContactModel model(law, rh::gkv(240.0, {100.0}, {0.1}), rh::gm(300.0, {40.0}, {0.2}));
    const VecX u = model.steady_state(Vec2::Zero());
    ASSERT_EQ(u.size(), model.state_size());
    EXPECT_EQ(u, VecX::Zero(model.state_size())) << laws::to_string(kind);
    VecX h(model.state_size());
    model.source(u.data(), Vec2::Zero(), h.data());
    EXPECT_EQ(h, VecX::Zero(model.state_size())) << laws::to_string(kind);
    EXPECT_EQ(model.friction(u.data(), Vec2::Zero()), Vec2::Zero()) << laws::to_string(kind);
  }
}

// Random bounded velocity histories with reversals: W(t) - W(0) <= int supplied power (eq. 79).
TEST(ContactModel, PassivityOnRandomInputs) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const std::vector<std::pair<rh::RheologyParams, rh::RheologyParams>> pairs{
      {rh::elastic(240.0), rh::rigid()},
      {rh::gkv(240.0, {100.0, 50.0}, {0.1, 0.1}), rh::gkv(360.0, {40.0}, {0.3})},
      {rh::gm(150.0, {100.0, 60.0}, {0.05, 0.4}), rh::elastic(500.0)},
  };
  for (int trial = 0; trial < 3; ++trial) {
    Signal vx, vy;
    vx.kind = vy.kind = SignalKind::table;
    for (int i = 0; i <= 40; ++i) {
      vx.times.push_back(0.05 * i);
      vy.times.push_back(0.05 * i);
      vx.values.push_back(2.0 * u(rng));
      vy.values.push_back(2.0 * u(rng));
    }
    for (const auto& [b1, b2] : pairs) {
      const ContactModel model(make_law(LawKind::frbd), b1, b2);
      BenchParams params = velocity_drive(0.0);
      params.input_x = vx;
      params.input_y = vy;
      params.normal_load = Signal::constant_value(10.0);
      const Bench bench(model, params);
      double previous_residual = 1e300;
      for (double rtol : {1e-6, 1e-8, 1e-10}) {
        const BenchRun run = contact::run(bench, grid(0.0, 2.0, 400), tight(rtol));
        const auto& w = run.series.column("W_J");
        const auto& e = run.series.column("E_supplied_J");
        const auto& d = run.series.column("E_dissipated_J");
        const auto& p_d = run.series.column("P_dissipated_W");
        double violation = -1e300, residual = 0.0, scale = 0.0;
        for (std::size_t i = 0; i < w.size(); ++i) {
          violation = std::max(violation, (w[i] - w[0]) - e[i]);          // eq. 79: must be <= 0
          residual = std::max(residual, std::abs((w[i] - w[0]) - e[i] + d[i]));  // energy balance
          scale = std::max(scale, std::abs(e[i]));
          EXPECT_GE(p_d[i], 0.0) << "FrBD dissipates at every instant (Lemma B.1)";
        }
        std::cout << "passivity: n1=" << model.n1() << " n2=" << model.n2() << " rtol=" << rtol
                  << " max(W-W0-E)=" << violation << " J, balance residual " << residual << " J (supplied up to "
                  << scale << " J)\n";
        EXPECT_LE(violation, 0.0) << "trial " << trial << " rtol " << rtol;
        EXPECT_LE(residual, 1e2 * rtol * scale) << "trial " << trial << " rtol " << rtol;
        EXPECT_LT(residual, previous_residual) << "the balance residual shrinks with the tolerance";
        previous_residual = residual;
      }
    }
  }
}

// Isotropic M: rotating the input rotates the output.
TEST(ContactModel, RotatingTheInputRotatesTheOutput) {
  const double angle = 1.1;
  for (LawKind kind : {LawKind::lugre, LawKind::frbd}) {
    const ContactModel model(make_law(kind), rh::gkv(240.0, {100.0}, {0.1}), rh::elastic(400.0));
    BenchParams a = velocity_drive(0.0), b = velocity_drive(0.0);
    a.input_x.kind = SignalKind::sine;
    a.input_x.amplitude = 2.0;
    a.input_x.omega = 6.0;
    a.input_x.offset = 0.3;
    b.input_x = a.input_x;
    b.input_y = a.input_x;
    b.input_x.amplitude *= std::cos(angle);
    b.input_x.offset *= std::cos(angle);
    b.input_y.amplitude *= std::sin(angle);
    b.input_y.offset *= std::sin(angle);
    const BenchRun ra = contact::run(Bench(model, a), grid(0.0, 2.0, 50), tight(1e-11));
    const BenchRun rb = contact::run(Bench(model, b), grid(0.0, 2.0, 50), tight(1e-11));
    const Mat2 r = rotation(angle);
    for (std::size_t i = 0; i < ra.series.rows(); ++i) {
      const Vec2 fa(ra.series.column("f_x")[i], ra.series.column("f_y")[i]);
      const Vec2 fb(rb.series.column("f_x")[i], rb.series.column("f_y")[i]);
      EXPECT_LT((r * fa - fb).norm(), 1e-8) << laws::to_string(kind) << " row " << i;
    }
  }
}

// Anisotropic M: the steady force follows -M^2 v/||M v||, not -v.
TEST(ContactModel, AnisotropicSteadyForceIsDirectionDependent) {
  LawParams p = make_law(LawKind::frbd);
  p.M.anisotropic = true;
  p.M.axis1 = StribeckParams{0.9, 0.9, 1.0, 2.0, 0.0};
  p.M.axis2 = StribeckParams{0.3, 0.3, 1.0, 2.0, 0.0};
  p.M.angle_rad = 0.4;
  const ContactModel model(p, rh::elastic(300.0), rh::rigid());
  const Vec2 v(1.0, 0.5);
  const BenchRun run = contact::run(Bench(model, velocity_drive(v[0], v[1])), grid(0.0, 5.0, 2), tight());
  const Vec2 f(run.series.column("f_x").back(), run.series.column("f_y").back());
  const Mat2 m = p.M.M(v);
  const Vec2 expected = -(m * m * v) / (m * v).norm();
  EXPECT_LT((f - expected).norm(), 1e-9);
  EXPECT_GT(std::abs(f.normalized().dot(-v.normalized()) - 1.0), 1e-3);  // not antiparallel to v
}

// GKV and GM realisations of the same relaxation function give the same friction history.
TEST(ContactModel, GkvAndGmOfTheSameRelaxationFunctionAgree) {
  const double k0 = 240.0;
  const std::vector<double> c{100.0, 50.0}, tau{0.1, 0.02};
  const ContactModel a(make_law(LawKind::frbd), rh::gkv(k0, c, tau), rh::elastic(300.0));
  const ContactModel b(make_law(LawKind::frbd), rh::gm_equivalent_of_gkv(k0, c, tau), rh::elastic(300.0));
  BenchParams p = velocity_drive(0.0);
  p.input_x.kind = SignalKind::sine;
  p.input_x.amplitude = 1.5;
  p.input_x.omega = 10.0;
  const BenchRun ra = contact::run(Bench(a, p), grid(0.0, 1.0, 100), tight(1e-11));
  const BenchRun rb = contact::run(Bench(b, p), grid(0.0, 1.0, 100), tight(1e-11));
  for (std::size_t i = 0; i < ra.series.rows(); ++i)
    EXPECT_NEAR(ra.series.column("f_x")[i], rb.series.column("f_x")[i], 1e-8) << "row " << i;
}

TEST(Bench, RejectsBadParameters) {
  const ContactModel model(make_law(LawKind::frbd), rh::elastic(240.0), rh::rigid());
  BenchParams p;
  p.drive = DriveKind::spring;
  p.mass_kg = 0.0;
  try {
    Bench b(model, p);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), "bench.mass_kg = 0: must be > 0");
  }
  p.mass_kg = 1.0;
  p.normal_load = Signal::constant_value(-3.0);
  try {
    Bench b(model, p);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), "bench.normal_load = -3 at t = 0 s: must be > 0");
  }
}

}  // namespace
}  // namespace bristle::contact

namespace bristle::contact {
namespace {

// The analytic source Jacobian agrees with central differences for every law and rheology.
TEST(ContactModel, SourceJacobianMatchesDifferences) {
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (LawKind kind : {LawKind::dahl, LawKind::lugre, LawKind::frbd, LawKind::bouc_wen, LawKind::frictionless}) {
    LawParams law = make_law(kind);
    if (kind == LawKind::bouc_wen) law.eps = 1e-12;
    const ContactModel model(law, rh::gkv(240.0, {100.0}, {0.1}), rh::gm(300.0, {40.0}, {0.2}));
    const int m = model.state_size();
    for (int trial = 0; trial < 5; ++trial) {
      VecX x(m);
      for (int i = 0; i < m; ++i) x[i] = (i < 2 ? 0.5 : 1e-3) * u(rng);
      const Vec2 v(2.0 * u(rng), 2.0 * u(rng));
      MatX jac(m, m);
      model.source_jacobian(x.data(), v, jac.data());
      VecX hp(m), hm(m);
      for (int j = 0; j < m; ++j) {
        const double d = 1e-6 * std::max(1e-3, std::abs(x[j]));
        VecX xp = x, xm = x;
        xp[j] += d;
        xm[j] -= d;
        model.source(xp.data(), v, hp.data());
        model.source(xm.data(), v, hm.data());
        const VecX column = (hp - hm) / (2.0 * d);
        EXPECT_LT((column - jac.col(j)).norm(), 1e-6 * (1.0 + column.norm())) << laws::to_string(kind) << " col " << j;
      }
    }
  }
}

TEST(ContactModel, AffineSourceIsTheSourceAsJuPlusC) {
  // h(u) = J u + c for every law but Bouc-Wen, on the elastic pair (fixed-size path) and a viscoelastic
  // pair; J is source_jacobian's and c the source at u = 0, from one law evaluation.
  std::mt19937 rng(29);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (LawKind kind : {LawKind::dahl, LawKind::lugre, LawKind::frbd, LawKind::frictionless}) {
    for (const bool elastic : {true, false}) {
      const ContactModel model = elastic ? ContactModel(make_law(kind), rh::elastic(240.0), rh::elastic(300.0))
                                         : ContactModel(make_law(kind), rh::gkv(240.0, {100.0}, {0.1}),
                                                        rh::gm(300.0, {40.0}, {0.2}));
      const int m = model.state_size();
      ASSERT_EQ(m == 2, elastic);
      for (int trial = 0; trial < 5; ++trial) {
        VecX x(m);
        for (int i = 0; i < m; ++i) x[i] = (i < 2 ? 0.5 : 1e-3) * u(rng);
        const Vec2 v(2.0 * u(rng), trial == 0 ? 0.0 : 2.0 * u(rng));
        MatX J(m, m), J_ref(m, m);
        VecX c(m), h(m), zero = VecX::Zero(m), c_ref(m);
        model.affine_source(v, J.data(), c.data());
        model.source_jacobian(x.data(), v, J_ref.data());
        model.source(zero.data(), v, c_ref.data());
        model.source(x.data(), v, h.data());
        const std::string what = std::string(laws::to_string(kind)) + (elastic ? " elastic" : " viscoelastic");
        EXPECT_LT((J - J_ref).norm(), 1e-14 * (1.0 + J_ref.norm())) << what;
        EXPECT_EQ(c, c_ref) << what;
        EXPECT_LT((J * x + c - h).norm(), 1e-13 * (1.0 + h.norm())) << what;
      }
    }
  }
  const ContactModel bouc_wen(make_law(LawKind::bouc_wen), rh::elastic(240.0), rh::rigid());
  MatX J(2, 2);
  VecX c(2);
  EXPECT_THROW(bouc_wen.affine_source(Vec2(1.0, 0.0), J.data(), c.data()), std::logic_error);
}

}  // namespace
}  // namespace bristle::contact
