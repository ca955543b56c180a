// The limit rate-independent system (paper 2, eqs. 2.2-2.3): the exact play update against a brute-force
// projection scheme, independence of the output grid, rate independence, the strip of eq. 5.6, the
// energy-dissipation balance (eq. 4.5 with equality) with the loading power computed independently, and
// the bad inputs (eq. 2.2 signs, eq. 2.10).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/directional/limit_system.hpp"
#include "support/test_support.hpp"

namespace {

using namespace bristle::directional;

constexpr double kPi = std::numbers::pi;

using bristle::test::message_of;

/// A loading with several extrema of unequal height (a custom loading: turning points found on a grid).
Loading wavy() {
  return Loading::custom([](double t) { return 1.3 * std::sin(2 * kPi * t) + 0.5 * std::sin(7 * kPi * t); },
                         [](double t) { return 2.6 * kPi * std::cos(2 * kPi * t) + 3.5 * kPi * std::cos(7 * kPi * t); },
                         1e-3);
}

std::vector<double> grid(double t_end, int n) {
  std::vector<double> t;
  for (int i = 0; i <= n; ++i) t.push_back(t_end * i / n);
  return t;
}

TEST(LimitSystem, ExactUpdateAgreesWithFineProjection) {
  for (const ConvexParams cp : {ConvexParams{1.0, 0.0}, ConvexParams{0.7, 2.0}}) {
    const ConvexEnergy phi(cp);
    const LimitSystem system(phi, wavy(), 0.4, -0.25);
    const auto exact = system.run(0.0, 0.0, grid(2.0, 200));
    // Brute force: project onto the strip after each of 2 10^6 small steps.
    const int n = 2'000'000;
    double z = 0.0;
    std::vector<double> brute{0.0};
    for (int i = 1; i <= n; ++i) {
      const auto [lo, hi] = system.strip(2.0 * i / n);
      z = std::clamp(z, lo, hi);
      if (i % (n / 200) == 0) brute.push_back(z);
    }
    const auto& ze = exact.column("z_m");
    double worst = 0.0;
    for (std::size_t i = 0; i < ze.size(); ++i) worst = std::max(worst, std::abs(ze[i] - brute[i]));
    EXPECT_LT(worst, 1e-10) << "c4 = " << cp.c4;
  }
}

TEST(LimitSystem, OutputGridDoesNotChangeTheSolution) {
  // Exactness: a coarse grid (which skips most turning points between its samples) gives the same
  // values as a fine one at the common times, to round-off.
  const LimitSystem system(ConvexEnergy({2.0, 0.5}), wavy(), 0.3, -0.6);
  const auto coarse = system.run(0.1, 0.0, grid(3.0, 6));
  const auto fine = system.run(0.1, 0.0, grid(3.0, 6000));
  for (std::size_t i = 0; i < coarse.rows(); ++i) {
    EXPECT_NEAR(coarse.column("z_m")[i], fine.column("z_m")[i * 1000], 1e-14);
    EXPECT_NEAR(coarse.column("D_J")[i], fine.column("D_J")[i * 1000], 1e-13);
    EXPECT_NEAR(coarse.column("P_J")[i], fine.column("P_J")[i * 1000], 1e-13);
  }
}

TEST(LimitSystem, StripAndFlowRule) {
  // F = l - Phi'(z) stays in [rho_-, rho_+]; over a sampling interval on which l is monotone, z can only
  // have moved up with F = rho_+ at its end, or down with F = rho_- (eq. 2.3).
  const double rho_plus = 0.4, rho_minus = -0.25;
  const LimitSystem system(ConvexEnergy({1.0, 0.0}), wavy(), rho_plus, rho_minus);
  const auto run = system.run(0.0, 0.0, grid(2.0, 20000));
  const auto& t = run.column("t_s");
  const auto& z = run.column("z_m");
  const auto& F = run.column("F_N");
  int moved = 0;
  for (std::size_t i = 1; i < z.size(); ++i) {
    EXPECT_LE(F[i], rho_plus + 1e-14);
    EXPECT_GE(F[i], rho_minus - 1e-14);
    if (!system.loading().turning_points(t[i - 1], t[i]).empty()) continue;
    if (z[i] > z[i - 1]) {
      EXPECT_NEAR(F[i], rho_plus, 1e-13);
      ++moved;
    } else if (z[i] < z[i - 1]) {
      EXPECT_NEAR(F[i], rho_minus, 1e-13);
      ++moved;
    }
  }
  EXPECT_GT(moved, 5000);
}

TEST(LimitSystem, RateIndependence) {
  // l(phi(t)) with phi(t) = t^2 / 2 on [0, 2] (an increasing reparametrisation): z(phi(t)).
  const Loading base = Loading::sine(0.0, 1.0, 1.0, 0.0);
  const Loading slow = Loading::custom([](double t) { return std::sin(2 * kPi * 0.5 * t * t); },
                                       [](double t) { return 2 * kPi * t * std::cos(2 * kPi * 0.5 * t * t); }, 1e-3);
  const ConvexEnergy phi({1.0, 0.0});
  const LimitSystem a(phi, base, 0.3, -0.3), b(phi, slow, 0.3, -0.3);
  for (const double t : {0.3, 0.9, 1.4, 1.9}) {
    auto sa = a.start(0.0, 0.0), sb = b.start(0.0, 0.0);
    a.advance(sa, 0.5 * t * t);
    b.advance(sb, t);
    EXPECT_NEAR(sa.z, sb.z, 1e-12) << "t = " << t;
    EXPECT_NEAR(sa.dissipation, sb.dissipation, 1e-12) << "t = " << t;
  }
}

TEST(LimitSystem, EnergyDissipationBalanceHoldsWithEquality) {
  // E(t, z(t)) + int R(z') = E(0, z0) + int d_t E  (eq. 4.5; R* = 0 on the strip). The loading power
  // P = -int l' z dt comes from the solver (exact: the balance then holds to accumulated round-off), and
  // independently from a trapezoid quadrature of the computed z(t) on n intervals, whose residual must
  // vanish at the quadrature's second order (z is Lipschitz with kinks).
  for (const ConvexParams cp : {ConvexParams{1.0, 0.0}, ConvexParams{0.5, 3.0}}) {
    const Loading l = wavy();
    const LimitSystem system(ConvexEnergy(cp), l, 0.35, -0.2);
    std::vector<double> residual_quadrature;
    for (const int n : {100'000, 400'000}) {
      const auto run = system.run(0.05, 0.0, grid(2.0, n));
      const auto& t = run.column("t_s");
      const auto& z = run.column("z_m");
      const auto& E = run.column("E_J");
      const auto& D = run.column("D_J");
      const auto& P = run.column("P_J");
      double quadrature = 0.0, worst_exact = 0.0, worst_quadrature = 0.0;
      for (std::size_t i = 0; i < t.size(); ++i) {
        if (i > 0) quadrature -= 0.5 * (t[i] - t[i - 1]) * (l.rate(t[i]) * z[i] + l.rate(t[i - 1]) * z[i - 1]);
        worst_exact = std::max(worst_exact, std::abs(E[i] + D[i] - E[0] - P[i]));
        worst_quadrature = std::max(worst_quadrature, std::abs(E[i] + D[i] - E[0] - quadrature));
      }
      EXPECT_GT(D.back(), 1.0);
      // Round-off of n updates of magnitude ~1 J.
      EXPECT_LT(worst_exact, 1e-16 * n) << "c4 = " << cp.c4 << ", n = " << n;
      residual_quadrature.push_back(worst_quadrature);
    }
    EXPECT_LT(residual_quadrature[1], 1e-8) << "c4 = " << cp.c4;
    EXPECT_GT(residual_quadrature[0] / residual_quadrature[1], 10.0) << "c4 = " << cp.c4;  // 16 for order 2
  }
}

TEST(LimitSystem, PiecewiseLinearLoadingIsExactAtEveryVertex) {
  // Triangle wave: between vertices the loading is linear, so the play operator is a clamp per segment.
  const Loading q = Loading::triangle(0.0, 1.0, 1.0, 2.0);
  const double k = 2.0, rho_plus = 0.6, rho_minus = -0.3;
  const LimitSystem system(ConvexEnergy({k, 0.0}), q.affine(k, 0.0), rho_plus, rho_minus);
  const auto run = system.run(0.0, 0.0, {0.25, 0.75, 1.25, 1.75});
  // At the maxima q = 1: sliding right, k z = k q - rho_+; at the minima: k z = k q - rho_-.
  EXPECT_NEAR(run.column("z_m")[0], 1.0 - rho_plus / k, 1e-15);
  EXPECT_NEAR(run.column("z_m")[1], -1.0 - rho_minus / k, 1e-15);
  EXPECT_NEAR(run.column("z_m")[2], 1.0 - rho_plus / k, 1e-15);
  EXPECT_NEAR(run.column("z_m")[3], -1.0 - rho_minus / k, 1e-15);
  // Dissipation of one full loop: (rho_+ - rho_-) times the sliding distance each way.
  const double slide = 2.0 - (rho_plus - rho_minus) / k;
  EXPECT_NEAR(run.column("D_J")[3] - run.column("D_J")[1], (rho_plus - rho_minus) * slide, 1e-14);
}

TEST(LimitSystemErrors, SignsAndInitialState) {
  const ConvexEnergy phi({1.0, 0.0});
  const Loading l = Loading::sine(0.0, 1.0, 1.0);
  EXPECT_EQ(message_of([&] { LimitSystem s(phi, l, 0.0, -0.1); }), "rho_plus = 0: must be > 0 (paper 2, eq. 2.2)");
  EXPECT_EQ(message_of([&] { LimitSystem s(phi, l, 0.2, 0.1); }), "rho_minus = 0.1: must be < 0 (paper 2, eq. 2.2)");
  const LimitSystem s(phi, l, 0.2, -0.1);
  EXPECT_EQ(message_of([&] { s.start(0.0, 0.5); }),
            "z0 = 0.5: must lie in [-0.2, 0.1] (paper 2, eq. 2.10: Phi'(z0) in [l(0) - rho_+, l(0) - rho_-] = [-0.2, "
            "0.1])");
  auto state = s.start(0.0, 0.0);
  s.advance(state, 1.0);
  EXPECT_EQ(message_of([&] { s.advance(state, 0.5); }),
            "t = 0.5: must be >= the current time 1 (the limit system runs forward)");
}

}  // namespace
