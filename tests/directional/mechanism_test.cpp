// Bristle mechanisms (paper 2, §3.1-3.3): limit coefficients (eqs. 3.11, 3.14, 3.23, 3.24), Lemma 3's
// closed forms against a direct numerical max/min of Wcal' (g inverted numerically, Wcal' by finite
// differences), the exact wiggly energy (geometry, derivatives, periodicity, Lemma 2's expansion) and
// every validity condition with its exact message.
#include <gtest/gtest.h>

#include <cmath>
#include <iomanip>
#include <iostream>
#include <numbers>
#include <string>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/directional/mechanism.hpp"
#include "bristle/directional/profile.hpp"
#include "directional/directional_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using bristle::format_value;
using namespace bristle::directional;

constexpr double kHalfPi = 0.5 * std::numbers::pi;

using bristle::test::message_of;

Profile sine(double omega) { return test::sine_surface(omega); }

Profile ratchet(double amplitude, double r) {
  ProfileParams p;
  p.kind = ProfileKind::ratchet;
  p.amplitude = amplitude;
  p.asymmetry = r;
  return Profile(p);
}

Profile asymmetric_table() {
  ProfileParams p;
  p.kind = ProfileKind::table;
  p.x = {0.0, 0.1, 0.25, 0.4, 0.7, 0.85, 1.0};
  p.w = {0.0, 0.04, 0.09, 0.1, 0.03, 0.005, 0.0};
  return Profile(p);
}

MechanismParams slanted(double theta) {
  MechanismParams m;
  m.kind = MechanismKind::slanted;
  m.theta_rad = theta;
  return m;
}

MechanismParams angular(double length, double theta_rest) {
  MechanismParams m;
  m.kind = MechanismKind::angular;
  m.length_m = length;
  m.theta_rest_rad = theta_rest;
  return m;
}

// ---- Lemma 3 -----------------------------------------------------------------------------------

TEST(Lemma3, ClosedFormsAgreeWithNumericalExtremaOfThePerceivedSlope) {
  const std::vector<std::pair<std::string, Profile>> profiles{
      {"sine 0.5", sine(0.5)}, {"ratchet r=0.25", ratchet(0.08, 0.25)}, {"table", asymmetric_table()}};
  std::cout << "Lemma 3: mu_+- closed form (eq. 3.12) vs numerical max/min of Wcal' (g inverted numerically, "
               "Wcal' by 4th-order central differences)\n";
  std::cout << "  profile          a        mu_+ closed        |diff|      mu_- closed        |diff|\n";
  for (const auto& [name, w] : profiles) {
    for (const double a : {-1.2, -0.5, 0.0, 0.8, 1.6}) {
      if (!(1.0 + a * w.omega_plus() > 0.0) || !(1.0 + a * w.omega_minus() > 0.0)) continue;
      const PerceivedProfile perceived(w, a);
      // Fourth-order central difference of Wcal (truncation ~h^4, round-off ~1e-16/h).
      const double h = 1e-4;
      const auto fd = [&](double Z) {
        return (8.0 * (perceived.W(Z + h) - perceived.W(Z - h)) - (perceived.W(Z + 2 * h) - perceived.W(Z - 2 * h))) /
               (12.0 * h);
      };
      const auto [hi, lo] = periodic_extrema(fd, 4096);
      const auto [mu_plus, mu_minus] = lemma3(w.omega_plus(), w.omega_minus(), a);
      std::cout << "  " << std::left << std::setw(16) << name << std::right << std::setw(5) << a << std::setw(18)
                << std::setprecision(12) << mu_plus << std::setw(14) << std::setprecision(2) << std::abs(hi.value - mu_plus)
                << std::setw(18) << std::setprecision(12) << mu_minus << std::setw(14) << std::setprecision(2)
                << std::abs(lo.value - mu_minus) << "\n";
      EXPECT_NEAR(hi.value, mu_plus, 1e-9 * std::max(1.0, std::abs(mu_plus))) << name << ", a = " << a;
      EXPECT_NEAR(lo.value, mu_minus, 1e-9 * std::max(1.0, std::abs(mu_minus))) << name << ", a = " << a;
      // The inversion itself: g(g^-1(Z)) = Z, also far from the origin.
      for (const double Z : {-1234.567, -0.3, 0.0, 0.45, 98765.4321}) {
        const double P = perceived.g_inverse(Z);
        EXPECT_NEAR(P + a * w.w(P), Z, 1e-12 * std::max(1.0, std::abs(Z)));
      }
    }
  }
}

TEST(Lemma3, OutOfRangeSlantIsRejected) {
  EXPECT_EQ(message_of([] { lemma3(0.5, -0.5, -2.0, "a"); }),
            "a = -2: must satisfy 1/omega_- < -a < 1/omega_+ (Lemma 3, paper 2), with omega_+ = 0.5, omega_- = -0.5");
}

TEST(Lemma3, AdmissibleAnglesAreWhereItsConditionHolds) {
  // Inside the range Lemma 3 holds (a = -tan(theta) slanted, eq. 3.14; a = cot(theta_lim) angular, eq. 3.24); just
  // beyond the end it sets (the slanted upper, the angular lower) it is refused.
  const double wp = 0.8, wm = -0.5;
  for (const MechanismKind kind : {MechanismKind::slanted, MechanismKind::angular}) {
    const auto [lo, hi] = admissible_angles(kind, wp, wm);
    const auto a_of = [kind](double t) { return kind == MechanismKind::slanted ? -std::tan(t) : 1.0 / std::tan(t); };
    for (double f : {0.001, 0.5, 0.999}) {
      EXPECT_NO_THROW(lemma3(wp, wm, a_of(lo + f * (hi - lo))));
    }
    EXPECT_THROW(lemma3(wp, wm, a_of(kind == MechanismKind::slanted ? hi + 1e-6 : lo - 1e-6)), bristle::InvalidInput);
  }
  EXPECT_DOUBLE_EQ(admissible_angles(MechanismKind::slanted, 1.0, -1.0).second, std::numbers::pi / 4);  // arccot 1
  // -omega_+ omega_- >= 1: no angle (eq. 3.17 is empty).
  const auto [lo, hi] = admissible_angles(MechanismKind::angular, 2.0, -0.5);
  EXPECT_FALSE(lo < hi);
}

// ---- Limit coefficients ------------------------------------------------------------------------

TEST(Mechanism, LimitCoefficientsAreThePapersClosedForms) {
  const Profile w = ratchet(0.05, 0.2);
  const double op = w.omega_plus(), om = w.omega_minus();
  {  // §3.1: alpha = k (L_rest - h), mu = omega
    MechanismParams p;
    p.kind = MechanismKind::vertical;
    p.k = 3.0;
    p.height_m = 1.0;
    p.rest_length_m = 1.2;
    const Mechanism m(p, w);
    EXPECT_NEAR(m.limit().alpha, 3.0 * 0.2, 1e-15);
    EXPECT_DOUBLE_EQ(m.limit().mu_plus, op);
    EXPECT_DOUBLE_EQ(m.limit().mu_minus, om);
    EXPECT_NEAR(m.limit().rho_plus, 0.6 * op, 1e-15);
    EXPECT_NEAR(m.limit().rho_minus, 0.6 * om, 1e-15);
  }
  {  // §3.2: eqs. 3.11 and 3.14
    MechanismParams p = slanted(0.7);
    p.k = 2.0;
    p.height_m = 0.5;
    p.rest_length_m = 0.9;
    const Mechanism m(p, w);
    const double c = std::cos(0.7), t = std::tan(0.7);
    EXPECT_NEAR(m.limit().alpha, 2.0 / c * (0.9 - 0.5 / c), 1e-14);
    EXPECT_NEAR(m.limit().mu_plus, op / (1.0 - op * t), 1e-14);
    EXPECT_NEAR(m.limit().mu_minus, om / (1.0 - om * t), 1e-14);
    EXPECT_GT(m.limit().rho_plus, -m.limit().rho_minus);  // §3.2: the "reversed" asymmetry
    EXPECT_NEAR(m.gap(), -0.5 * t, 1e-15);
  }
  {  // §3.3: eqs. 3.15, 3.23, 3.24
    MechanismParams p = angular(1.3, -0.2);
    p.k = 0.7;
    p.height_m = 1.0;
    const Mechanism m(p, sine(0.4));
    const double theta_lim = std::acos(1.0 / 1.3);
    const double root = std::sqrt(1.3 * 1.3 - 1.0);
    EXPECT_NEAR(m.theta_lim(), theta_lim, 1e-15);
    EXPECT_NEAR(m.limit().alpha, 0.7 / root * (theta_lim + 0.2), 1e-14);
    EXPECT_NEAR(m.limit().mu_plus, 0.4 / (1.0 + 0.4 / std::tan(theta_lim)), 1e-14);
    EXPECT_NEAR(m.limit().mu_minus, -0.4 / (1.0 - 0.4 / std::tan(theta_lim)), 1e-14);
    // Errata: for the angular spring on a symmetric surface rho_+ < -rho_- (rightward is easy).
    EXPECT_LT(m.limit().rho_plus, -m.limit().rho_minus);
    EXPECT_NEAR(m.gap(), -root, 1e-15);
  }
}

TEST(Mechanism, NegativeAlphaSwapsTheSlopes) {
  // A stretched vertical spring (L_rest < h): alpha < 0, and max W' = alpha min Wcal' = alpha omega_- > 0.
  MechanismParams p;
  p.kind = MechanismKind::vertical;
  p.rest_length_m = 0.8;
  const Profile w = ratchet(0.05, 0.2);
  const Mechanism m(p, w);
  EXPECT_NEAR(m.limit().alpha, -0.2, 1e-15);
  EXPECT_NEAR(m.limit().rho_plus, -0.2 * w.omega_minus(), 1e-15);
  EXPECT_NEAR(m.limit().rho_minus, -0.2 * w.omega_plus(), 1e-15);
  EXPECT_GT(m.limit().rho_plus, 0.0);
  EXPECT_LT(m.limit().rho_minus, 0.0);
}

// ---- The exact wiggly energy -------------------------------------------------------------------

TEST(WigglyPotential, GeometryDerivativesAndPeriodicity) {
  MechanismParams vertical;
  vertical.kind = MechanismKind::vertical;
  // The spline table is only C^2 (w''' jumps at its knots), so V_eps'' is checked on the smooth ratchet.
  for (const bool smooth : {true, false})
  for (const MechanismParams& p : {vertical, slanted(0.9), angular(1.25, 0.1)}) {
    const Profile w = smooth ? ratchet(0.02, 0.25) : asymmetric_table();
    const Mechanism m(p, w);
    for (const double eps : {0.1, 1e-3}) {
      const WigglyPotential V(m, eps);
      for (const double z : {-0.731, -0.05, 0.0, 0.0123, 0.4, 2.5}) {
        const auto pt = V.at(z);
        const double u = z - m.gap();
        // The tip is on the surface, at the mechanism's geometry (eqs. 3.7, 3.18).
        EXPECT_NEAR(pt.y, eps * w.w(pt.p / eps), 1e-15);
        if (p.kind == MechanismKind::slanted) {
          EXPECT_NEAR(u - pt.p, (p.height_m - pt.y) * std::tan(p.theta_rad), 1e-13);
        } else if (p.kind == MechanismKind::angular) {
          EXPECT_NEAR(std::hypot(u - pt.p, p.height_m - pt.y), p.length_m, 1e-13);
        } else {
          EXPECT_NEAR(pt.p, u, 1e-15);
        }
        EXPECT_NEAR(pt.V, m.F(pt.y) - m.F(0.0), 1e-15);
        // Derivatives by central differences (step well inside one wiggle).
        const double h = 1e-4 * eps;
        EXPECT_NEAR(pt.dV, (V.value(z + h) - V.value(z - h)) / (2 * h), 1e-6 * (1.0 + std::abs(pt.dV)));
        if (smooth) {
          EXPECT_NEAR(pt.d2V, (V.d1(z + h) - V.d1(z - h)) / (2 * h), 1e-5 * (1.0 + std::abs(pt.d2V)));
        }
        // Period eps in z (eq. 2.16: V_eps(z) = F(eps Wcal(z/eps) + ...)).
        EXPECT_NEAR(V.value(z + eps), pt.V, 1e-13);
        EXPECT_NEAR(V.at(z + 7 * eps).p, pt.p + 7 * eps, 1e-12);
      }
    }
  }
}

TEST(WigglyPotential, Lemma2ExpansionHoldsToSecondOrder) {
  // V_eps(z) = eps alpha Wcal(z/eps) + O(eps^2) (Lemma 2 with W = alpha Wcal).
  const Profile w = ratchet(0.06, 0.25);
  for (const MechanismParams& p : {slanted(0.6), angular(1.4, -0.3)}) {
    const Mechanism m(p, w);
    const PerceivedProfile perceived(w, m.limit().a);
    double previous = 0.0;
    for (const double eps : {1e-1, 1e-2, 1e-3}) {
      const WigglyPotential V(m, eps);
      double worst = 0.0;
      for (int i = 0; i < 50; ++i) {
        const double z = eps * (0.37 + i / 50.0);
        worst = std::max(worst, std::abs(V.value(z) - eps * m.limit().alpha * perceived.W(z / eps)));
      }
      EXPECT_LT(worst, 2.0 * eps * eps) << to_string(p.kind) << ", eps = " << eps;
      if (previous > 0.0) {
        EXPECT_NEAR(previous / worst, 100.0, 25.0) << to_string(p.kind) << ", eps = " << eps;
      }
      previous = worst;
    }
  }
}

// ---- Validity: exact messages ------------------------------------------------------------------

TEST(MechanismErrors, SlantedOmegaPlusAtLeastCotTheta) {
  const Profile w = sine(0.1);
  const std::string expected =
      "mechanism.theta_rad = 1.5: must satisfy omega_+ < cot(theta) (paper 2, eq. 3.9), but omega_+ = " +
      format_value(w.omega_plus()) + " >= cot(theta) = " + format_value(1.0 / std::tan(1.5)) +
      "; the tip position would not be a one-to-one function of u";
  EXPECT_EQ(message_of([&] { Mechanism m(slanted(1.5), w); }), expected);
  EXPECT_EQ(message_of([&] { Mechanism m(slanted(1.6), w); }),
            "mechanism.theta_rad = 1.6: must lie in [0, 1.5707963267948966) (the spring's fixed angle from the "
            "vertical; 0 is the vertical spring; paper 2, §3.2)");
}

TEST(MechanismErrors, AngularRodShorterThanHeight) {
  EXPECT_EQ(message_of([] { Mechanism m(angular(1.0, 0.0), sine(0.1)); }),
            "mechanism.length_m = 1: must be > mechanism.height_m = 1 (the rod must reach the surface, L > h; paper "
            "2, eq. 3.15)");
  EXPECT_EQ(message_of([] { Mechanism m(angular(0.7, 0.0), sine(0.1)); }),
            "mechanism.length_m = 0.7: must be > mechanism.height_m = 1 (the rod must reach the surface, L > h; paper "
            "2, eq. 3.15)");
}

TEST(MechanismErrors, AngularRestAngleOutsideItsRange) {
  const std::string lim = format_value(std::acos(1.0 / 1.25));
  EXPECT_EQ(message_of([] { Mechanism m(angular(1.25, 0.7), sine(0.1)); }),
            "mechanism.theta_rest_rad = 0.7: must lie in (-1.5707963267948966, " + lim +
                ") (paper 2, eq. 3.16: -pi/2 < theta_rest < theta_lim = arccos(h/L))");
  EXPECT_EQ(message_of([] { Mechanism m(angular(1.25, -kHalfPi), sine(0.1)); }),
            "mechanism.theta_rest_rad = -1.5707963267948966: must lie in (-1.5707963267948966, " + lim +
                ") (paper 2, eq. 3.16: -pi/2 < theta_rest < theta_lim = arccos(h/L))");
}

TEST(MechanismErrors, AngularSlopeConditions) {
  // eq. 3.17 right: omega_+ < cot(theta_lim). L = 3, h = 1: cot(theta_lim) = 1/sqrt(8) = 0.354.
  const Profile steep = sine(0.5);
  const double theta_lim = std::acos(1.0 / 3.0);
  EXPECT_EQ(message_of([&] { Mechanism m(angular(3.0, 0.0), steep); }),
            "theta_lim = arccos(mechanism.height_m/mechanism.length_m) = " + format_value(theta_lim) +
                ": must satisfy omega_+ < cot(theta_lim) (paper 2, eq. 3.17), but omega_+ = " +
                format_value(steep.omega_plus()) + " >= cot(theta_lim) = " + format_value(1.0 / std::tan(theta_lim)) +
                "; the rod would touch the surface elsewhere than at its tip");
  // eq. 3.17 left: -tan(theta_lim) < omega_-. L = 1.02, h = 1: tan(theta_lim) = 0.2.
  const double theta_small = std::acos(1.0 / 1.02);
  EXPECT_EQ(message_of([&] { Mechanism m(angular(1.02, 0.0), steep); }),
            "theta_lim = arccos(mechanism.height_m/mechanism.length_m) = " + format_value(theta_small) +
                ": must satisfy -tan(theta_lim) < omega_- (paper 2, eq. 3.17), but omega_- = " +
                format_value(steep.omega_minus()) + " <= -tan(theta_lim) = " + format_value(-std::tan(theta_small)) +
                "; the tip would jump when u moves");
}

TEST(MechanismErrors, VerticalZeroAlphaEpsilonAndKind) {
  MechanismParams p;
  p.kind = MechanismKind::vertical;
  p.rest_length_m = 1.0;
  EXPECT_EQ(message_of([&] { Mechanism m(p, sine(0.1)); }),
            "mechanism.rest_length_m = 1: must differ from mechanism.height_m = 1 (alpha = k (L_rest - h) must be "
            "non-zero; paper 2, eq. 2.13)");
  const Mechanism m(angular(1.25, 0.0), sine(0.5));
  EXPECT_EQ(message_of([&] { WigglyPotential V(m, 0.0); }),
            "epsilon = 0: must be > 0 (the period of the surface wiggles, w_eps(x) = eps w(x/eps); paper 2, eq. 3.4)");
  EXPECT_EQ(message_of([&] { WigglyPotential V(m, -1e-3); }),
            "epsilon = -0.001: must be > 0 (the period of the surface wiggles, w_eps(x) = eps w(x/eps); paper 2, eq. "
            "3.4)");
  // Too coarse a surface for the rod: the finite-eps geometry fails beyond epsilon_max.
  const double eps_max = m.epsilon_max();
  EXPECT_TRUE(m.geometry_valid(0.999 * eps_max));
  EXPECT_FALSE(m.geometry_valid(1.001 * eps_max));
  const std::string msg = message_of([&] { WigglyPotential V(m, 2.0); });
  EXPECT_EQ(msg.rfind("epsilon = 2: too large for this mechanism and surface (must be < " + format_value(eps_max) +
                          "): ",
                      0),
            0u)
      << msg;
  // helper-39: a bound below 6e-64 (a root height of 1e-200 m) was bisected from 0 and reported as "must be < 0".
  for (const double h : {1e-5, 1e-100, 1e-200}) {
    MechanismParams low;
    low.height_m = h;
    low.rest_length_m = 1.5 * h;
    const Mechanism tiny(low, sine(0.1));
    EXPECT_GT(tiny.epsilon_max(), 0.0) << h;
    EXPECT_TRUE(tiny.geometry_valid(0.999 * tiny.epsilon_max())) << h;
    EXPECT_FALSE(tiny.geometry_valid(1.001 * tiny.epsilon_max())) << h;
  }
  EXPECT_EQ(message_of([] { mechanism_kind_from_string("mechanism.kind", "angulr"); }),
            "mechanism.kind = \"angulr\": unknown mechanism (valid: vertical, slanted, angular); did you mean "
            "\"angular\"?");
}

}  // namespace
