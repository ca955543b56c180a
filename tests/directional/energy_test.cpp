// Phi (paper 2, eq. 2.1: uniformly convex) and the loadings: inverse and conjugate of Phi, turning
// points, the triangle wave, and the non-convex Phi errors.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/directional/energy.hpp"
#include "support/test_support.hpp"

namespace {

using namespace bristle::directional;

using bristle::test::message_of;

TEST(ConvexEnergy, InverseAndConjugate) {
  for (const ConvexParams params : {ConvexParams{2.0, 0.0}, ConvexParams{0.5, 3.0}, ConvexParams{1e-3, 10.0}}) {
    const ConvexEnergy phi(params);
    for (const double y : {-50.0, -1.0, -1e-9, 0.0, 1e-12, 0.3, 7.0, 1e4}) {
      const double z = phi.d1_inverse(y);
      EXPECT_NEAR(phi.d1(z), y, 1e-14 * std::max(1.0, std::abs(y))) << "k = " << params.k << ", y = " << y;
      // Phi*(y) = sup_z (y z - Phi(z)): no nearby z does better, and (Phi*)' = (Phi')^-1.
      const double star = phi.conjugate(y);
      for (const double dz : {-1e-3, 1e-3}) EXPECT_GE(star, y * (z + dz) - phi.value(z + dz) - 1e-12);
      const double h = 1e-6 * std::max(1.0, std::abs(y));
      EXPECT_NEAR((phi.conjugate(y + h) - phi.conjugate(y - h)) / (2 * h), z, 1e-6 * std::max(1.0, std::abs(z)));
    }
    EXPECT_GE(phi.d2(3.0), phi.convexity());
  }
}

TEST(ConvexEnergy, InverseAndConjugateHoldOverTheWholeRange) {
  // Up to the documented argument bound 1e150: (Phi')^-1 is a root of k z + c4 z^3 = y to round-off, and
  // Phi*(y) = y z - Phi(z) = 3/4 y z - 1/4 k z^2 (from c4 z^3 = y - k z) is finite and positive.
  for (const ConvexParams params : {ConvexParams{1.0, 1.0}, ConvexParams{1e-3, 10.0}, ConvexParams{1e3, 1e-200}}) {
    const ConvexEnergy phi(params);
    for (const double y : {1e20, 1e100, 1e150, -1e150}) {
      const double z = phi.d1_inverse(y);
      EXPECT_NEAR(phi.d1(z) / y, 1.0, 1e-14) << "c4 = " << params.c4 << ", y = " << y;
      const double star = phi.conjugate(y);
      EXPECT_TRUE(std::isfinite(star) && star > 0.0) << "c4 = " << params.c4 << ", y = " << y << ": " << star;
      EXPECT_NEAR(star / (0.75 * y * z - 0.25 * params.k * z * z), 1.0, 1e-12) << "y = " << y;
    }
  }
}

TEST(ConvexEnergy, NonConvexPhiIsRejected) {
  EXPECT_EQ(message_of([] { ConvexEnergy phi({-1.0, 0.0}); }),
            "phi.k = -1: must be > 0 (Phi must be uniformly convex, Phi'' = k + 3 c4 z^2 >= k > 0; paper 2, eq. 2.1)");
  EXPECT_EQ(message_of([] { ConvexEnergy phi({0.0, 1.0}); }),
            "phi.k = 0: must be > 0 (Phi must be uniformly convex, Phi'' = k + 3 c4 z^2 >= k > 0; paper 2, eq. 2.1)");
  EXPECT_EQ(message_of([] { ConvexEnergy phi({1.0, -0.5}); }),
            "phi.c4 = -0.5: must be >= 0 (with c4 < 0, Phi'' = k + 3 c4 z^2 < 0 for z^2 > k/(3|c4|): Phi is not "
            "convex; paper 2, eq. 2.1)");
}

TEST(Loading, SineTurningPointsAreItsExtrema) {
  const Loading l = Loading::sine(0.5, 2.0, 0.8, 0.3);
  const auto tp = l.turning_points(0.0, 2.0);
  ASSERT_EQ(tp.size(), 5u);
  for (const double t : tp) {
    EXPECT_NEAR(l.rate(t), 0.0, 1e-12);
    EXPECT_NEAR(std::abs(l.value(t) - 0.5), 2.0, 1e-14);
  }
  for (std::size_t i = 1; i < tp.size(); ++i) EXPECT_NEAR(tp[i] - tp[i - 1], 0.4, 1e-14);
  EXPECT_TRUE(l.kinks().empty());
}

TEST(Loading, TriangleWave) {
  const Loading q = Loading::triangle(0.1, 0.5, 2.0, 1.5);
  EXPECT_DOUBLE_EQ(q.value(0.0), 0.1);
  EXPECT_DOUBLE_EQ(q.value(0.5), 0.6);
  EXPECT_DOUBLE_EQ(q.value(1.5), -0.4);
  EXPECT_DOUBLE_EQ(q.value(2.5), 0.6);
  EXPECT_DOUBLE_EQ(q.value(3.0), 0.1);  // 1.5 cycles, then held
  EXPECT_DOUBLE_EQ(q.value(10.0), 0.1);
  EXPECT_DOUBLE_EQ(q.rate(0.2), 1.0);
  EXPECT_DOUBLE_EQ(q.rate(1.0), -1.0);
  EXPECT_DOUBLE_EQ(q.rate(5.0), 0.0);
  const auto tp = q.turning_points(0.0, 3.5);
  EXPECT_EQ(tp, (std::vector<double>{0.5, 1.5, 2.5, 3.0}));
}

TEST(Loading, CustomTurningPointsAndAffine) {
  const Loading l = Loading::custom([](double t) { return std::cos(3.0 * t); },
                                    [](double t) { return -3.0 * std::sin(3.0 * t); }, 1e-2);
  const auto tp = l.turning_points(0.1, 3.0);
  ASSERT_EQ(tp.size(), 2u);
  EXPECT_NEAR(tp[0], std::numbers::pi / 3.0, 1e-14);
  EXPECT_NEAR(tp[1], 2.0 * std::numbers::pi / 3.0, 1e-14);
  const Loading a = l.affine(2.0, -1.0);
  EXPECT_NEAR(a.value(0.4), 2.0 * std::cos(1.2) - 1.0, 1e-15);
  EXPECT_NEAR(a.rate(0.4), -6.0 * std::sin(1.2), 1e-14);
  EXPECT_EQ(a.turning_points(0.1, 3.0), tp);
}

TEST(Loading, BadTables) {
  EXPECT_EQ(message_of([] { Loading::piecewise_linear({0.0, 1.0, 1.0}, {0.0, 1.0, 2.0}, "q"); }),
            "q.times[2] = 1: must be > q.times[1] = 1 (strictly increasing)");
  EXPECT_EQ(message_of([] { Loading::piecewise_linear({0.0}, {0.0}, "q"); }),
            "q.times: 1 point(s); a piecewise-linear loading needs at least 2");
  EXPECT_EQ(message_of([] { Loading::sine(0.0, 1.0, 0.0, 0.0, "q"); }), "q.period = 0: must be > 0");
}

}  // namespace
