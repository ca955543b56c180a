// Patch geometry, pressure, kinematics, Riemann variables, edges and bad input (paper 1, eqs. 29,
// 41-50, 84).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <functional>
#include <numbers>
#include <string>

#include "bristle/core/error.hpp"
#include "bristle/patch/patch.hpp"
#include "patch/patch_test_support.hpp"

namespace bristle::patch {
namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(no InvalidInput)";
}

TEST(PatchGeometry, PressureIntegratesToTheLoadOnEveryShape) {
  for (auto shape : {PatchShape::rectangle, PatchShape::ellipse})
    for (auto kind : {PatchPressure::uniform, PatchPressure::parabolic, PatchPressure::hertzian}) {
      PatchParams p;
      p.shape = shape;
      p.pressure = kind;
      p.length_m = 0.12;
      p.width_m = 0.04;
      p.normal_load_N = 2500.0;
      const PatchGeometry g(p);
      // Independent quadrature in polar / Cartesian coordinates, fine midpoint rule.
      double sum = 0.0;
      const int n = 2000;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n / 4; ++j) {
          const double x = g.a() * (-1.0 + (2.0 * i + 1.0) / n), y = g.b() * (-1.0 + (2.0 * j + 1.0) / (n / 4));
          sum += g.pressure(Vec2(x, y)) * (2.0 * g.a() / n) * (2.0 * g.b() / (n / 4));
        }
      EXPECT_NEAR(sum, 2500.0, 2e-3 * 2500.0) << to_string(shape) << " " << to_string(kind);
      // The solver's grid: analytic pressure quadrature converges to the load.
      p.nx = 50;
      p.ny = 25;
      const PatchSolver coarse(test::elastic_pair(test::table2_law(), 0.4), p);
      p.nx = 200;
      p.ny = 100;
      const PatchSolver fine(test::elastic_pair(test::table2_law(), 0.4), p);
      EXPECT_LE(std::abs(fine.load_quadrature_error()), std::abs(coarse.load_quadrature_error()) + 1e-15);
      EXPECT_LT(std::abs(fine.load_quadrature_error()), 2e-3);
      double total = 0.0;
      for (int i = 0; i < fine.nx(); ++i)
        for (int j = 0; j < fine.ny(); ++j) total += fine.load_weight(i, j);
      EXPECT_NEAR(total, 2500.0, 1e-9 * 2500.0);
    }
}

TEST(PatchGeometry, BadInputIsRejectedWithKeyValueAndRule) {
  PatchParams p;
  p.width_m = 1e-6;
  EXPECT_EQ(message_of([&] { p.validate("patch"); }),
            "patch.length_m = 0.1 and patch.width_m = 1e-06: degenerate patch (length/width = 100000 must be in "
            "[1e-3, 1e3])");
  p = PatchParams{};
  p.length_m = 0.0;
  EXPECT_EQ(message_of([&] { p.validate("patch"); }), "patch.length_m = 0: must be > 0");
  p = PatchParams{};
  p.normal_load_N = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(message_of([&] { p.validate("patch"); }), "patch.normal_load_N = nan: must be finite");
  p = PatchParams{};
  p.peak_pressure_Pa = 5e5;  // uniform 3000 N on 0.1 x 0.05 m is 6e5 Pa
  EXPECT_EQ(message_of([&] { p.validate("patch"); }),
            "patch.peak_pressure_Pa = 500000: the uniform pressure on this rectangle integrates to 2500 N, not "
            "patch.normal_load_N = 3000 N (the pressure must integrate to the load; p_0 = 600000 Pa would)");
  p.peak_pressure_Pa = 6e5;
  EXPECT_NO_THROW(p.validate("patch"));
  p = PatchParams{};
  p.nx = 3;
  EXPECT_EQ(message_of([&] { p.validate("patch"); }), "patch.nx = 3: must be >= 4");
  EXPECT_EQ(message_of([] { (void)patch_shape_from_string("patch.shape", "elipse"); }).substr(0, 45),
            "patch.shape = \"elipse\": unknown patch shape (");
  // Non-finite kinematics.
  PatchKinematics k = rolling(16.0, std::numeric_limits<double>::infinity(), 0.0, 0.0);
  EXPECT_EQ(message_of([&] { k.validate("kinematics"); }), "kinematics.body2.V0_mps = [-inf, -0]: must be finite");
}

TEST(PatchGeometry, NonPositiveDefiniteStiffnessIsRejected) {
  rheology::RheologyParams body = rheology::elastic(240.0);
  body.k_elastic << 240.0, 300.0, 300.0, 240.0;  // symmetric, indefinite
  const std::string msg = message_of([&] {
    const contact::ContactModel model(test::table2_law(), body, rheology::elastic(360.0));
  });
  EXPECT_NE(msg.find("positive definite"), std::string::npos) << msg;
}

TEST(PatchGeometry, FamilyWithoutLeadingEdgeIsRejected) {
  // Pure spin of body 1 about the centre of a circular patch: its material turns in place, every
  // boundary point is neutral for zeta1 (GKV body 1), and V~ = (1 - s) V1 too.
  const auto model = test::gkv_pair(test::table2_law(), 0.4);
  PatchParams p;
  p.shape = PatchShape::ellipse;
  p.length_m = p.width_m = 0.1;
  p.nx = p.ny = 8;
  PatchSolver solver(model, p);
  PatchKinematics k;
  k.body1.omega_radps = 5.0;
  const std::string msg = message_of([&] { solver.solve(k); });
  EXPECT_EQ(msg.substr(0, 83), "kinematics: the family f1 moves (max speed 0.15 m/s) but has no leading edge on the");
}

TEST(PatchGeometry, EdgesOfRollingWithSpin) {
  const auto model = test::elastic_pair(test::table2_law(), 0.4);
  PatchParams p;
  const PatchGeometry g(p);
  const Riemann r = riemann(model.pair());
  EXPECT_EQ(r.theta, 0.0);
  EXPECT_NEAR(r.lambda_S1[0], 0.6, 1e-12);
  EXPECT_NEAR(r.lambda_S2[1], 0.4, 1e-12);
  // Rolling towards -x: the edge x = +a leads, x = -a trails; spin makes the lateral edges mixed
  // with a neutral point where c_y = 0.
  const EdgeMap e = classify_edges(g, r, rolling(16.0, 0.0, 0.0, 0.0));
  for (std::size_t i = 0; i < e.points.size(); ++i) {
    const Vec2& x = e.points[i].x;
    const Edge expected = x[0] >= g.a() ? Edge::leading : (x[0] <= -g.a() ? Edge::trailing : Edge::neutral);
    EXPECT_EQ(e.edges[0][i], expected) << x.transpose();
  }
  const EdgeMap es = classify_edges(g, r, rolling(16.0, 0.0, 0.0, 4.0));
  for (std::size_t i = 0; i < es.points.size(); ++i) {
    const Vec2& x = es.points[i].x;
    if (std::abs(x[1]) < g.b()) continue;
    // On y = +b, c_y = (1 - s) omega x: leading (into the patch) for x < 0, trailing for x > 0.
    const double cy = 0.6 * 4.0 * x[0];
    const Edge expected = (x[1] > 0 ? cy : -cy) < 0 ? Edge::leading : Edge::trailing;
    EXPECT_EQ(es.edges[0][i], expected) << x.transpose();
  }
}

TEST(PatchGeometry, AnisotropicRiemannVariablesDiagonaliseS1) {
  rheology::RheologyParams b1 = rheology::elastic(1.0), b2 = rheology::elastic(1.0);
  const Mat2 Rt = rotation(0.3);
  b1.k_elastic = Rt * Eigen::Vector2d(200.0, 120.0).asDiagonal() * Rt.transpose();
  b2.k_elastic = Rt * Eigen::Vector2d(300.0, 600.0).asDiagonal() * Rt.transpose();
  const contact::ContactModel model(test::table2_law(), b1, b2);
  const Riemann r = riemann(model.pair());
  const Mat2 D = r.R.transpose() * model.pair().S1() * r.R;
  EXPECT_NEAR(D(0, 1), 0.0, 1e-12);
  EXPECT_NEAR(D(0, 0), r.lambda_S1[0], 1e-12);
  EXPECT_NEAR(D(1, 1), r.lambda_S1[1], 1e-12);
  EXPECT_GE(r.lambda_S1[0], r.lambda_S1[1]);
  // Principal stiffness ratios: s1 = k2/(k1 + k2) per axis: 300/500 = 0.6 and 600/720.
  EXPECT_NEAR(r.lambda_S1[0], 600.0 / 720.0, 1e-12);
  EXPECT_NEAR(r.lambda_S1[1], 0.6, 1e-12);
  const Mat2 D2 = r.R.transpose() * model.pair().S2() * r.R;
  EXPECT_NEAR(D2(0, 0), r.lambda_S2[0], 1e-12);
}

TEST(PatchGeometry, Eq84HoldsForUniformPressureAndFailsForParabolicRolling) {
  PatchParams p;
  EXPECT_TRUE(check_eq84(PatchGeometry(p), rolling(16.0, 1.0, 0.5, 5.0)).satisfied());
  p.pressure = PatchPressure::parabolic;
  // Rolling towards -x with p falling off towards x = +-a: grad p . V > 0 on the leading half.
  const Eq84Check c = check_eq84(PatchGeometry(p), rolling(16.0, 1.0, 0.0, 0.0));
  EXPECT_FALSE(c.satisfied());
  EXPECT_GT(c.max_div_pV1, 0.0);
}

}  // namespace
}  // namespace bristle::patch
