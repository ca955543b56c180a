// Responses of one mode: against the textbook forms, their integrals and derivatives, and across the
// small and large omega tau regimes where naive formulas cancel.
#include "bristle/structures/mode_response.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace bristle::structures {
namespace {

TEST(ModeResponse, PhiFunctionsAreAccurateOnBothSidesOfTheSeriesRadius) {
  for (const Complex z : {Complex(1e-9, 2e-9), Complex(0.3, -0.2), Complex(-0.49, 0.0), Complex(0.0, 0.51),
                          Complex(-3.0, 40.0), Complex(2.0, -1.0)}) {
    // phi1 = (e^z - 1)/z and phi2 = (e^z - 1 - z)/z^2 by long double arithmetic as the reference
    const std::complex<long double> zl(z.real(), z.imag());
    const std::complex<long double> e = std::exp(zl);
    const std::complex<long double> p1 = std::abs(zl) < 1e-6L ? 1.0L + zl / 2.0L : (e - 1.0L) / zl;
    const std::complex<long double> p2 = std::abs(zl) < 1e-3L ? 0.5L + zl / 6.0L + zl * zl / 24.0L : (e - 1.0L - zl) / (zl * zl);
    EXPECT_NEAR(std::abs(phi1(z) - Complex(p1)), 0.0, 4e-16 * std::abs(Complex(p1))) << z;
    EXPECT_NEAR(std::abs(phi2(z) - Complex(p2)), 0.0, std::abs(z) < 1e-3 ? 1e-15 : 1e-14 * std::abs(Complex(p2))) << z;
  }
  EXPECT_EQ(phi1(0.0), Complex(1.0));
  EXPECT_EQ(phi2(0.0), Complex(0.5));
}

TEST(ModeResponse, MatchesTheClosedFormsOfTheDampedOscillator) {
  for (const double D : {0.0, 0.05, 0.3, 0.9}) {
    const double w = 7.0;
    const ModeResponse m(w, D);
    const double wd = w * std::sqrt(1.0 - D * D);
    for (const double t : {1e-3, 0.1, 0.77, 3.0}) {
      const double e = std::exp(-D * w * t);
      EXPECT_NEAR(m.h(t), e * std::sin(wd * t) / wd, 1e-15);
      EXPECT_NEAR(m.h_dot(t), e * (std::cos(wd * t) - D * w / wd * std::sin(wd * t)), 1e-15);
      const double S = (1.0 - e * (std::cos(wd * t) + D * w / wd * std::sin(wd * t))) / (w * w);
      EXPECT_NEAR(m.S(t), S, 1e-15);
      EXPECT_NEAR(m.S0(t), S - 1.0 / (w * w), 1e-15);
      // Q = int S: (t - 2 D/w)/w^2 + e (...)/w^2 ... checked through S0: Q0 = Q - t/w^2
      EXPECT_NEAR(m.Q(t) - t / (w * w), m.Q0(t), 1e-15);
    }
  }
}

TEST(ModeResponse, IntegralsAndDerivativesAreConsistent) {
  const ModeResponse m(3.0, 0.2);
  // S' = h, Q' = S, h' = h_dot by central differences
  for (const double t : {0.2, 1.0, 2.5}) {
    const double d = 1e-5;
    EXPECT_NEAR((m.S(t + d) - m.S(t - d)) / (2 * d), m.h(t), 1e-9);
    EXPECT_NEAR((m.Q(t + d) - m.Q(t - d)) / (2 * d), m.S(t), 1e-9);
    EXPECT_NEAR((m.h(t + d) - m.h(t - d)) / (2 * d), m.h_dot(t), 1e-9);
  }
  // Small omega tau keeps full relative accuracy (no 1 - cos cancellation): the Taylor series
  // S = t^2/2 - D w t^3/3 + O((w t)^2 t^2), Q = t^3/6 - D w t^4/12 + ...
  const ModeResponse slow(1e-3, 0.1);
  const double t = 1e-4, dw = 0.1 * 1e-3;
  EXPECT_NEAR(slow.S(t) / (t * t / 2.0 - dw * t * t * t / 3.0), 1.0, 1e-14);
  EXPECT_NEAR(slow.Q(t) / (t * t * t / 6.0 - dw * t * t * t * t / 12.0), 1.0, 1e-14);
  // Large omega tau: S -> 1/omega^2 for damped modes.
  const ModeResponse fast(1e6, 0.1);
  EXPECT_NEAR(fast.S(1.0) * 1e12, 1.0, 1e-14);
}

}  // namespace
}  // namespace bristle::structures
