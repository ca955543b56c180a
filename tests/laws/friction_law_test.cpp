// Friction laws h0 (paper 1, eqs. 2-7) and the Stribeck coefficient (eq. 53).
#include "bristle/laws/friction_law.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "bristle/core/error.hpp"

namespace bristle::laws {
namespace {

LawParams stribeck_law(LawKind kind) {
  LawParams p;
  p.kind = kind;
  p.M.axis1 = StribeckParams{1.2, 0.7, 3.49, 0.6, 0.0};
  return p;
}

TEST(Stribeck, ClosedFormAtCharacteristicSpeeds) {
  const StribeckParams p{1.5, 1.0, 0.001, 2.0, 0.4};
  EXPECT_DOUBLE_EQ(stribeck_mu(p, 0.0), 1.5);
  EXPECT_NEAR(stribeck_mu(p, 0.001), 1.0 + 0.5 * std::exp(-1.0) + 0.4 * 0.001, 1e-15);
  EXPECT_NEAR(stribeck_mu(p, 1.0), 1.0 + 0.4, 1e-12);
}

// helper-39: with mu_s << mu_d, mu_d + (mu_s - mu_d) e cancelled near v = 0 (mu_s = 1e-200, mu_d = 0.7 gave
// mu(0) = 0, mu(1e-8) = 1.1e-16 for 7e-17, and NaN steady forces). Below mu_s = 1e-8 mu_d: exact at v = 0 and
// to a few ulps everywhere; above: eq. 53 as written (bitwise), at most log10(mu_d / mu_s) digits lost.
TEST(Stribeck, AccurateWhenTheStaticCoefficientIsFarBelowTheDynamicOne) {
  for (const double mu_s : {1e-200, 1e-20, 1e-9, 1e-3, 0.3}) {
    const StribeckParams p{mu_s, 0.7, 1.0, 2.0, 0.0};
    const double digits_lost = mu_s < 0.7e-8 ? 4.0 : 0.7 / mu_s * 4.0;
    EXPECT_NEAR(stribeck_mu(p, 0.0), mu_s, (mu_s < 0.7e-8 ? 0.0 : digits_lost * 1.2e-16) * mu_s) << mu_s;
    for (const double v : {1e-8, 1e-3, 0.5, 1.0, 3.0, 100.0}) {
      const double exact = mu_s * std::exp(-v * v) + 0.7 * -std::expm1(-v * v);
      EXPECT_NEAR(stribeck_mu(p, v), exact, digits_lost * 1.2e-16 * exact) << mu_s << " " << v;
    }
  }
  const StribeckParams above{0.01, 0.7, 1.0, 2.0, 0.1};  // mu_s > 1e-8 mu_d: eq. 53 as written
  for (const double v : {0.0, 0.3, 1.0, 2.0})
    EXPECT_EQ(stribeck_mu(above, v), 0.7 + (0.01 - 0.7) * std::exp(-v * v) + 0.1 * v);
  LawParams law = stribeck_law(LawKind::frbd);
  law.M.axis1.mu_s = 1e-200;
  const FrictionLaw frbd(law, Mat2::Identity() * 240.0);
  for (const double v : {1e-300, 1e-8, 1.0}) EXPECT_TRUE(frbd.steady_force(Vec2(v, 0.0)).allFinite()) << v;
}

TEST(FrictionLaw, FormulasMatchPaperAtRandomPoints) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  const Mat2 k{{300.0, 20.0}, {20.0, 200.0}};
  for (int trial = 0; trial < 50; ++trial) {
    const Vec2 z(u(rng) * 1e-3, u(rng) * 1e-3), f(u(rng), u(rng)), v(u(rng), u(rng));
    const double mu = stribeck_mu(StribeckParams{1.2, 0.7, 3.49, 0.6, 0.0}, v.norm());
    // Isotropic M = mu I: M^-2 ||M v|| = ||v|| / mu.
    const FrictionLaw lugre(stribeck_law(LawKind::lugre), k);
    const Vec2 expected_lugre = -(v.norm() / mu) * (k * z) - v;  // eq. 2
    EXPECT_LT((lugre.h0(z, f, v) - expected_lugre).norm(), 1e-12 * expected_lugre.norm());
    const FrictionLaw frbd(stribeck_law(LawKind::frbd), k);
    const Vec2 expected_frbd = -(v.norm() / mu) * f - v;  // eq. 3
    EXPECT_LT((frbd.h0(z, f, v) - expected_frbd).norm(), 1e-12 * expected_frbd.norm());
    const FrictionLaw none(stribeck_law(LawKind::frictionless), k);
    EXPECT_EQ(none.h0(z, f, v), -v);  // eq. 7
    LawParams bw;
    bw.kind = LawKind::bouc_wen;
    bw.A = 0.8;
    bw.beta1 = 2e5;
    bw.beta2 = 5e4;
    bw.gamma = -1e4;
    const FrictionLaw bouc(bw, k);
    const double gx = 2e5 * std::abs(v[0] * z[0]) + 5e4 * std::abs(v[1] * z[1]) + 1e4 * v.dot(z);  // eq. 6a
    const double gy = 5e4 * std::abs(v[0] * z[0]) + 2e5 * std::abs(v[1] * z[1]) + 1e4 * v.dot(z);  // eq. 6b
    const Vec2 expected_bw(-gx * z[0] - 0.8 * v[0], -gy * z[1] - 0.8 * v[1]);                      // eq. 4
    EXPECT_LT((bouc.h0(z, f, v) - expected_bw).norm(), 1e-12 * expected_bw.norm());
  }
}

TEST(FrictionLaw, RegularisedNormEnters) {
  LawParams p = stribeck_law(LawKind::frbd);
  p.eps = 1e-4;
  const FrictionLaw law(p, Mat2::Identity());
  const Vec2 f(0.3, 0.0), v(0.0, 0.0);
  // At v = 0: ||M v||_eps = sqrt(eps) and M = mu_s I, so G^-1 = sqrt(eps) / mu_s^2.
  EXPECT_NEAR(law.h0(Vec2::Zero(), f, v)[0], -std::sqrt(1e-4) / (1.2 * 1.2) * 0.3, 1e-15);  // M^-2 sqrt(eps)
}

TEST(FrictionLaw, SteadyForceIsZeroOfH0AndOdd) {
  const Mat2 k = 250.0 * Mat2::Identity();
  for (LawKind kind : {LawKind::dahl, LawKind::lugre, LawKind::frbd, LawKind::bouc_wen}) {
    LawParams p = stribeck_law(kind);
    if (kind == LawKind::dahl) p.M.axis1.mu_s = p.M.axis1.mu_d;
    if (kind == LawKind::bouc_wen) {
      p.A = 1.0;
      p.beta1 = 1e6;
      p.beta2 = 0.0;
      p.gamma = 2e5;
    }
    const FrictionLaw law(p, k);
    for (double speed : {1e-3, 0.1, 2.0, 30.0}) {
      for (double angle : {0.0, 0.7, 2.0}) {
        if (kind == LawKind::bouc_wen && angle != 0.0) continue;
        const Vec2 v = speed * Vec2(std::cos(angle), std::sin(angle));
        const Vec2 f = law.steady_force(v);
        const Vec2 z = k.inverse() * f;  // elastic pair: f = K z
        EXPECT_LT(law.h0(z, f, v).norm(), 1e-12 * speed) << to_string(kind) << " v=" << speed;
        EXPECT_LT((law.steady_force(-v) + f).norm(), 1e-14) << to_string(kind);  // odd in v
        EXPECT_LT(f.dot(v), 0.0) << to_string(kind);                            // opposes v
      }
    }
  }
}

TEST(FrictionLaw, IsotropicLawsCommuteWithRotation) {
  const Mat2 k = 500.0 * Mat2::Identity();
  const Mat2 r = rotation(0.83);
  const Vec2 z(1e-3, -4e-4), f(0.2, 0.5), v(0.3, -1.1);
  for (LawKind kind : {LawKind::lugre, LawKind::frbd, LawKind::frictionless}) {
    const FrictionLaw law(stribeck_law(kind), k);
    EXPECT_LT((law.h0(r * z, r * f, r * v) - r * law.h0(z, f, v)).norm(), 1e-13) << to_string(kind);
  }
}

TEST(FrictionLaw, AnisotropicSteadyForceFollowsM) {
  LawParams p;
  p.kind = LawKind::frbd;
  p.M.anisotropic = true;
  p.M.axis1 = StribeckParams{0.9, 0.9, 1.0, 2.0, 0.0};
  p.M.axis2 = StribeckParams{0.3, 0.3, 1.0, 2.0, 0.0};
  p.M.angle_rad = 0.0;
  const FrictionLaw law(p, Mat2::Identity());
  const Vec2 v = Vec2(1.0, 1.0).normalized();
  // f = -M^2 v / ||M v|| with M = diag(0.9, 0.3): not antiparallel to v.
  const Vec2 mv(0.9 * v[0], 0.3 * v[1]);
  const Vec2 expected = -Vec2(0.81 * v[0], 0.09 * v[1]) / mv.norm();
  EXPECT_LT((law.steady_force(v) - expected).norm(), 1e-14);
  EXPECT_NEAR(law.steady_force(Vec2(2.0, 0.0))[0], -0.9, 1e-14);
  EXPECT_NEAR(law.steady_force(Vec2(0.0, 2.0))[1], -0.3, 1e-14);
}

TEST(FrictionLaw, GeneralFrbdGInverse) {
  LawParams p;
  p.kind = LawKind::frbd;
  const Mat2 g{{2.0, 0.5}, {0.5, 1.0}};  // G(v) constant SPD: a linear viscous law
  p.G_inverse = [g](const Vec2&) { return Mat2(g.inverse()); };
  const FrictionLaw law(p, Mat2::Identity());
  const Vec2 v(0.4, -0.2);
  EXPECT_LT((law.steady_force(v) + g * v).norm(), 1e-14);  // f = -G v
}

TEST(FrictionLaw, LugreOutputTerms) {
  LawParams p = stribeck_law(LawKind::lugre);
  p.sigma1 = 316.0 * Mat2::Identity();
  p.sigma2 = 0.4 * Mat2::Identity();
  const FrictionLaw law(p, 1e5 * Mat2::Identity());
  const Vec2 f(0.1, 0.0), zdot(1e-4, 0.0), v(0.01, 0.0);
  EXPECT_NEAR(law.output(f, zdot, v)[0], 0.1 + 316.0 * 1e-4 - 0.4 * 0.01, 1e-15);
  EXPECT_NEAR(law.steady_force(Vec2(5.0, 0.0))[0], -(stribeck_mu(p.M.axis1, 5.0) + 0.4 * 5.0), 1e-12);
}

// Steady states at v = 0 are their limits, never NaN (issue 17, item 4): 0 for every law and every eps
// (with eps > 0 the unique steady state; with eps = 0 the limit eps -> 0+, and h0 vanishes there).
TEST(FrictionLaw, SteadyForceAtRestIsZeroForEveryLawAndEps) {
  const Mat2 k{{300.0, 20.0}, {20.0, 200.0}};
  for (LawKind kind : {LawKind::dahl, LawKind::lugre, LawKind::frbd, LawKind::bouc_wen, LawKind::frictionless}) {
    for (double eps : {0.0, 1e-8}) {
      LawParams p = stribeck_law(kind);
      if (kind == LawKind::dahl) p.M.axis1.mu_s = p.M.axis1.mu_d;
      if (kind == LawKind::lugre) p.sigma2 = 0.4 * Mat2::Identity();
      p.eps = eps;
      for (bool anisotropic : {false, true}) {
        if (anisotropic && (kind == LawKind::bouc_wen || kind == LawKind::frictionless)) continue;
        p.M.anisotropic = anisotropic;
        p.M.axis2 = StribeckParams{0.5, 0.4, 1.0, 2.0, 0.0};
        if (kind == LawKind::dahl) p.M.axis2.mu_s = p.M.axis2.mu_d;
        p.M.angle_rad = 0.3;
        const FrictionLaw law(p, k);
        const Vec2 f = law.steady_force(Vec2::Zero());
        EXPECT_EQ(f, Vec2::Zero()) << to_string(kind) << " eps=" << eps << " anisotropic=" << anisotropic;
        // ... and it is a steady state: h0(z = K^-1 f, f, 0) = 0.
        EXPECT_EQ(law.h0(k.inverse() * f, f, Vec2::Zero()), Vec2::Zero()) << to_string(kind);
      }
    }
  }
}

// The FrBD general form: f = 0 at v = 0 whatever G^-1(0) is (here singular, as M^-2 ||M v|| is there).
TEST(FrictionLaw, GeneralFrbdSteadyForceAtRestAndSingularG) {
  LawParams p;
  p.kind = LawKind::frbd;
  p.G_inverse = [](const Vec2& v) { return Mat2(v.norm() * Mat2::Identity()); };  // G^-1(0) = 0
  const FrictionLaw law(p, Mat2::Identity());
  EXPECT_EQ(law.steady_force(Vec2::Zero()), Vec2::Zero());
  EXPECT_LT((law.steady_force(Vec2(0.5, 0.0)) - Vec2(-1.0, 0.0)).norm(), 1e-15);  // f = -v / |v|
  LawParams singular = p;
  singular.G_inverse = [](const Vec2&) { return Mat2(Mat2::Zero()); };
  const FrictionLaw bad(singular, Mat2::Identity());
  try {
    bad.steady_force(Vec2(1.0, 0.0));
    ADD_FAILURE() << "no error for a singular G^-1";
  } catch (const SolverError& e) {
    EXPECT_EQ(std::string(e.what()),
              "steady force: G^-1(v) = [[0, 0], [0, 0]] at v = (1, 0) m/s is singular or not finite: no steady "
              "state f = -G(v) v exists");
  }
}

// With eps = 0 the steady force depends on the direction of v only: a denormal speed gives the same
// force as a unit one (it was NaN: ||v||^2 underflows to 0).
TEST(FrictionLaw, SteadyForceAtDenormalSpeedIsItsDirectionsLimit) {
  const Mat2 k = 250.0 * Mat2::Identity();
  for (LawKind kind : {LawKind::lugre, LawKind::frbd, LawKind::bouc_wen}) {
    LawParams p = stribeck_law(kind);
    if (kind == LawKind::bouc_wen) p.gamma = 0.5;
    const FrictionLaw law(p, k);
    for (const Vec2& d : {Vec2(1.0, 0.0), Vec2(-1.0, 0.0), Vec2(3.0, -4.0)}) {  // multiples of the least denormal
      if (kind == LawKind::bouc_wen && d[1] != 0.0) continue;
      const Vec2 tiny = law.steady_force(5e-324 * d);
      const Vec2 small = law.steady_force(1e-300 * d);
      ASSERT_TRUE(tiny.allFinite()) << to_string(kind);
      EXPECT_LT((tiny - small).norm(), 1e-12 * small.norm()) << to_string(kind);
      EXPECT_LT(tiny.dot(d), 0.0) << to_string(kind);  // opposes v
      if (kind != LawKind::bouc_wen) {
        EXPECT_NEAR(tiny.norm(), 1.2, 1e-12) << to_string(kind);  // mu(0) = mu_s
      }
    }
  }
}

TEST(FrictionLaw, SteadyForceErrors) {
  const FrictionLaw none(stribeck_law(LawKind::frictionless), Mat2::Identity());
  try {
    none.steady_force(Vec2(0.5, 0.0));
    ADD_FAILURE() << "no error for the frictionless law at v != 0";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()),
              "steady force: v = (0.5, 0) m/s: the frictionless law has no steady state at v != 0 (z' = -v grows "
              "without bound)");
  }
  const FrictionLaw frbd(stribeck_law(LawKind::frbd), Mat2::Identity());
  try {
    frbd.steady_force(Vec2(std::nan(""), 0.0));
    ADD_FAILURE() << "no error for v = NaN";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), "steady force: v = (nan, 0) m/s: must be finite");
  }
}

void expect_invalid(const LawParams& p, const std::string& message) {
  try {
    FrictionLaw law(p, Mat2::Identity());
    FAIL() << "expected InvalidInput: " << message;
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(FrictionLaw, RejectsBadParameters) {
  LawParams p = stribeck_law(LawKind::lugre);
  p.M.axis1.mu_s = -1.0;
  expect_invalid(p, "law.mu_s = -1: must be > 0");
  p = stribeck_law(LawKind::lugre);
  p.M.axis1.v_s = std::nan("");
  expect_invalid(p, "law.v_s = nan: must be finite");
  p = stribeck_law(LawKind::lugre);
  p.eps = -1e-3;
  expect_invalid(p, "law.eps = -0.001: must be >= 0");
  p = stribeck_law(LawKind::lugre);
  p.sigma1 = Mat2{{1.0, 2.0}, {0.0, 1.0}};
  expect_invalid(p, "law.sigma1 = [[1, 2], [0, 1]]: must be symmetric");
  p = stribeck_law(LawKind::dahl);
  expect_invalid(p, "law.mu_s = 1.2: the Dahl law has a constant friction coefficient, mu_s must equal mu_d = 0.7 "
                    "(use \"lugre\" for a Stribeck curve)");
  p = LawParams{};
  p.kind = LawKind::bouc_wen;
  p.beta1 = 1.0;
  p.gamma = -2.0;
  expect_invalid(p, "law.gamma = -2: beta1 + gamma must be > 0 for a bounded hysteresis (beta1 = 1)");
  try {
    law_kind_from_string("law.type", "lugree");
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()),
              "law.type = \"lugree\": unknown friction law (valid: dahl, lugre, frbd, bouc_wen, frictionless); did "
              "you mean \"lugre\"?");
  }
}

}  // namespace
}  // namespace bristle::laws
