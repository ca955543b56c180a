// The set-valued Coulomb-Stribeck law (laws/coulomb_stribeck.hpp; paper 3, §III): exact stick inside the
// cone, the slip root of x = |c| - a N mu(x), well-posedness from max(-mu'), its schema and messages.
#include "bristle/laws/coulomb_stribeck.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "bristle/core/error.hpp"

namespace bristle::laws {
namespace {

CoulombStribeckParams params(double mu_s, double mu_d, double v_s, double delta_s, double mu_v = 0.0) {
  CoulombStribeckParams p;
  p.mu = StribeckParams{mu_s, mu_d, v_s, delta_s, mu_v};
  return p;
}

TEST(CoulombStribeck, StickInsideTheConeIsExact) {
  const CoulombStribeck law(params(0.5, 0.3, 0.1, 2.0), 0.2, 2.0);  // mu_s N = 1 N
  for (const double c : {-0.2, -0.05, 0.0, 0.1, 0.2}) {  // |F| = |c| / a <= 1 N
    const CoulombStribeckStep s = law.step(c);
    EXPECT_TRUE(s.stick) << c;
    EXPECT_EQ(s.force, -c / 0.2);
    EXPECT_EQ(s.slip_speed, 0.0);
    EXPECT_EQ(c + 0.2 * s.force, 0.0);  // v_r = 0 exactly
  }
}

TEST(CoulombStribeck, SlipSolvesTheStepEquationWithTheOppositeSign) {
  const double a = 0.2, N = 2.0;
  const CoulombStribeckParams p = params(0.5, 0.3, 0.1, 2.0, 0.05);
  const CoulombStribeck law(p, a, N);
  ASSERT_TRUE(law.well_posed());
  for (const double c : {0.25, 0.7, 3.0, -0.4, -5.0}) {
    for (const double guess : {-1.0, 0.5 * std::abs(c), 0.99 * std::abs(c)}) {
      const CoulombStribeckStep s = law.step(c, guess);
      ASSERT_FALSE(s.stick) << c;
      const double x = s.slip_speed;
      EXPECT_GT(x, 0.0);
      EXPECT_LT(x, std::abs(c));
      // x = |c| - a N mu(x), F = -sgn(c) mu(x) N, and v_r = c + a F = sgn(c) x
      EXPECT_NEAR(x, std::abs(c) - a * N * stribeck_mu(p.mu, x), 1e-14 * std::abs(c));
      EXPECT_EQ(s.force, -(c > 0.0 ? 1.0 : -1.0) * stribeck_mu(p.mu, x) * N);
      EXPECT_NEAR(c + a * s.force, (c > 0.0 ? x : -x), 1e-14 * std::abs(c));
    }
  }
}

TEST(CoulombStribeck, SteepestDescentClosedForms) {
  // d = 2: peak of (mu_s - mu_d) 2 x e^{-x^2} / v_S at x^2 = 1/2: (mu_s - mu_d) sqrt(2) e^{-1/2} / v_S
  EXPECT_NEAR(steepest_descent(StribeckParams{0.5, 0.3, 0.1, 2.0, 0.0}), 0.2 * std::sqrt(2.0) * std::exp(-0.5) / 0.1,
              1e-14);
  EXPECT_DOUBLE_EQ(steepest_descent(StribeckParams{0.5, 0.3, 0.1, 1.0, 0.5}), 0.2 / 0.1 - 0.5);  // d = 1: at 0
  EXPECT_EQ(steepest_descent(StribeckParams{0.5, 0.3, 0.1, 0.5, 0.0}), std::numeric_limits<double>::infinity());
  EXPECT_EQ(steepest_descent(StribeckParams{0.3, 0.5, 0.1, 2.0, 0.1}), -0.1);  // mu increasing: -mu_v
  // numerically: max over a fine grid of -mu'(v) for d = 3
  const StribeckParams p{0.9, 0.4, 0.02, 3.0, 0.0};
  double peak = -1e300;
  for (int k = 1; k <= 200000; ++k) {
    double slope = 0.0;
    stribeck_mu(p, 1e-7 * k, &slope);
    peak = std::max(peak, -slope);
  }
  EXPECT_NEAR(steepest_descent(p), peak, 1e-6 * peak);
}

TEST(CoulombStribeck, IllPosedStepTakesTheRootContinuousWithStick) {
  // a N max(-mu') = 5 * 2.83 > 1: several roots; the smallest one is taken.
  const double a = 1.0, N = 5.0;
  const CoulombStribeckParams p = params(0.5, 0.3, 0.1, 2.0);
  const CoulombStribeck law(p, a, N);
  ASSERT_FALSE(law.well_posed());
  const double c = 2.6;  // |F_stick| = 2.6 > mu_s N = 2.5
  const CoulombStribeckStep s = law.step(c);
  ASSERT_FALSE(s.stick);
  const double g = s.slip_speed - c + a * N * stribeck_mu(p.mu, s.slip_speed);
  EXPECT_NEAR(g, 0.0, 1e-12);
  for (int k = 1; k < 1000; ++k) {  // no root below it
    const double x = s.slip_speed * k / 1000.0;
    EXPECT_LT(x - c + a * N * stribeck_mu(p.mu, x), 0.0) << x;
  }
}

TEST(CoulombStribeck, MessagesNameTheFrictionKeys) {
  try {
    (void)CoulombStribeck(params(-1.0, 0.3, 0.1, 2.0), 0.1, 1.0);
    FAIL() << "no error";
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(), "friction.mu_s = -1: must be > 0");
  }
  try {
    params(0.5, 0.3, 0.0, 2.0).validate("friction");
    FAIL() << "no error";
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(), "friction.v_s = 0: must be > 0");
  }
}

TEST(CoulombStribeck, SchemaListsTheKeysWithTheirDefaults) {
  schema::KeyTable t;
  CoulombStribeckParams p;
  serialize(t, p);
  std::vector<std::string> keys, defaults;
  for (const auto& r : t.rows()) {
    keys.push_back(r.path);
    defaults.emplace_back(r.field.default_value);
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"type", "mu_s", "mu_d", "v_s", "delta_s", "mu_v"}));
  EXPECT_EQ(defaults, (std::vector<std::string>{"coulomb_stribeck", "0.5", "0.3", "0.1", "2", "0"}));
  // the defaults stated are the struct's
  EXPECT_EQ(p.mu.mu_s, 0.5);
  EXPECT_EQ(p.mu.mu_d, 0.3);
  EXPECT_EQ(p.mu.v_s, 0.1);
  EXPECT_EQ(p.mu.delta_s, 2.0);
  EXPECT_EQ(p.mu.mu_v, 0.0);
}

}  // namespace
}  // namespace bristle::laws
