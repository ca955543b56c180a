// With and against the nap (paper 2, §3.4): eq. 3.25 against a direct statics computation, the geometric
// effect (rho_with < rho_against, the errata's sign), the energetic effect (the ratio of §3.4), the
// compression warnings, and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "bristle/core/error.hpp"
#include "bristle/directional/nap.hpp"
#include "directional/directional_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using bristle::format_value;
using namespace bristle::directional;

using bristle::test::message_of;

Profile sine(double omega) { return test::sine_surface(omega); }

MechanismParams angular(double k, double length, double theta_rest) {
  MechanismParams m;
  m.kind = MechanismKind::angular;
  m.k = k;
  m.length_m = length;
  m.theta_rest_rad = theta_rest;
  return m;
}

TEST(Nap, AxialTensionMatchesTheStaticsOfTheRod) {
  // A massless rod from the root (u, h) to the tip (p, 0), angle theta from the vertical, loaded at the
  // tip by the surface force (f, N) and at the root by the angular spring's moment k (theta - theta_rest).
  // Moment balance about the root gives N; the axial force is the tip force along the rod.
  const Mechanism m(angular(0.8, 1.4, -0.3), sine(0.3));
  const double theta = m.theta_lim(), L = 1.4;
  for (const double rho : {m.limit().rho_plus, m.limit().rho_minus}) {
    const double f = -rho;  // friction on the tip opposes the motion (eq. 3.1)
    const double N = (0.8 * (theta + 0.3) + L * std::cos(theta) * f) / (L * std::sin(theta));
    const double tension = -f * std::sin(theta) - N * std::cos(theta);  // along the rod, towards the tip
    EXPECT_NEAR(axial_tension(m, rho), tension, 1e-14);
  }
  // With no friction the normal force is alpha (§3.3: alpha is the limit normal force).
  EXPECT_NEAR(0.8 * (theta + 0.3) / (L * std::sin(theta)), m.limit().alpha, 1e-14);
}

TEST(Nap, GeometricEffectWithTheNapIsEasier) {
  const Mechanism m(angular(1.0, 1.25, 0.0), sine(0.1));
  const auto nap = geometric_nap_effect(m);
  // Errata: rho_+ < -rho_- for the angular spring on a symmetric surface (the printed ">" is a typo).
  EXPECT_LT(nap.rho_with_N, nap.rho_against_N);
  EXPECT_DOUBLE_EQ(nap.rho_with_N, m.limit().rho_plus);
  EXPECT_DOUBLE_EQ(nap.rho_against_N, -m.limit().rho_minus);
  EXPECT_NEAR(nap.rho_against_N / nap.rho_with_N,
              (1.0 + 0.1 / std::tan(m.theta_lim())) / (1.0 - 0.1 / std::tan(m.theta_lim())), 1e-12);
  // Against the nap the rod is always compressed (§3.4).
  EXPECT_LT(nap.tension_against_N, 0.0);
  ASSERT_FALSE(nap.warnings.empty());
  EXPECT_EQ(nap.warnings.back(), "against the nap the rod is compressed: T = " + format_value(nap.tension_against_N) +
                                     " N (eq. 3.25); a flexible bristle may buckle, and the angular-spring model "
                                     "(§3.3) would no longer apply");
  // A buckling load above the compression silences the warnings; one below keeps them, naming it.
  EXPECT_TRUE(geometric_nap_effect(m, 10.0).warnings.empty());
  const auto weak = geometric_nap_effect(m, 1e-3);
  ASSERT_EQ(weak.warnings.size(), 2u);
  EXPECT_NE(weak.warnings[1].find(", at or beyond the buckling load P_cr = 0.001 N;"), std::string::npos);
}

TEST(Nap, TheRodIsCompressedInEveryPhaseUnderEq317) {
  // Eq. 3.25 with rho = alpha mu_+ and alpha = k (theta_lim - theta_rest) / (L sin theta_lim) reads
  //   T = (k/L) (theta_lim - theta_rest) / sin^2(theta_lim) (mu_+ - sin(theta_lim) cos(theta_lim)),
  // and eq. 3.17 (omega_+ < cot theta_lim) gives mu_+ < sin cos: T < 0 even with the nap, however rough the
  // surface. So the traction regime suggested in §3.4 ("energetic effect") does not occur within the
  // model; the friction term only reduces the compression.
  for (const double length : {1.05, 1.25, 2.0, 5.0}) {
    const double theta_lim = std::acos(1.0 / length);
    for (const double fraction : {0.1, 0.5, 0.9, 0.999}) {
      const double omega = fraction * std::min(1.0 / std::tan(theta_lim), std::tan(theta_lim));
      for (const double theta_rest : {-1.2, 0.0, 0.9 * theta_lim}) {
        const Mechanism m(angular(0.05, length, theta_rest), sine(omega));
        const auto nap = geometric_nap_effect(m);
        const double s = std::sin(theta_lim), c = std::cos(theta_lim);
        EXPECT_NEAR(nap.tension_with_N, 0.05 / length * (theta_lim - theta_rest) / (s * s) * (m.limit().mu_plus - s * c),
                    1e-13);
        EXPECT_LT(nap.tension_with_N, 0.0);
        EXPECT_GT(nap.tension_with_N, -m.limit().alpha * c);  // friction pulls, but less than the spring pushes
        EXPECT_LT(nap.tension_against_N, nap.tension_with_N);
        EXPECT_EQ(nap.warnings.size(), 2u);
        if (theta_rest > 0.0) {
          const auto energetic = energetic_nap_effect(angular(0.05, length, theta_rest), sine(omega));
          EXPECT_LT(energetic.tension_with_N, 0.0);
          EXPECT_LT(energetic.tension_against_N, 0.0);
        }
      }
    }
  }
}

TEST(Nap, EnergeticEffect) {
  // Symmetric surface: rho_against / rho_with = (theta_lim + theta_with) / (theta_lim - theta_with) (§3.4),
  // and each is (k/h) mu_+ (theta_lim -+ theta_with) / tan(theta_lim).
  const double k = 0.6, h = 1.0, L = 1.25, theta_with = 0.3;
  const Profile w = sine(0.2);
  const auto nap = energetic_nap_effect(angular(k, L, theta_with), w);
  const double theta_lim = std::acos(h / L);
  const double mu_plus = 0.2 / (1.0 + 0.2 / std::tan(theta_lim));
  EXPECT_NEAR(nap.rho_with_N, k / h * mu_plus * (theta_lim - theta_with) / std::tan(theta_lim), 1e-14);
  EXPECT_NEAR(nap.rho_against_N, k / h * mu_plus * (theta_lim + theta_with) / std::tan(theta_lim), 1e-14);
  EXPECT_NEAR(nap.rho_against_N / nap.rho_with_N, (theta_lim + theta_with) / (theta_lim - theta_with), 1e-12);
  EXPECT_NEAR(nap.mu_with, nap.mu_against, 1e-15);  // same geometric factor, different alpha
  EXPECT_GT(nap.alpha_against_N, nap.alpha_with_N);
  // An asymmetric surface: against the nap the mirrored profile's mu_+ = -omega_- / (1 - omega_- cot).
  ProfileParams rp;
  rp.kind = ProfileKind::ratchet;
  rp.amplitude = 0.03;
  rp.asymmetry = 0.25;
  const Profile ratchet(rp);
  const auto asym = energetic_nap_effect(angular(k, L, theta_with), ratchet);
  const double om = ratchet.omega_minus(), cot = 1.0 / std::tan(theta_lim);
  EXPECT_NEAR(asym.mu_against, -om / (1.0 - om * cot), 1e-12);
}

TEST(NapErrors, BadInput) {
  const Profile w = sine(0.1);
  EXPECT_EQ(message_of([&] { energetic_nap_effect(angular(1.0, 1.25, -0.1), w); }),
            "mechanism.theta_rest_rad = -0.1: must be > 0 (theta_with, the rest angle with the nap, leans the tip "
            "behind the root; paper 2, §3.4)");
  EXPECT_EQ(message_of([&] { energetic_nap_effect(angular(1.0, 1.25, 0.9), w); }),
            "mechanism.theta_rest_rad = 0.9: must lie in (-1.5707963267948966, " + format_value(std::acos(0.8)) +
                ") (paper 2, eq. 3.16: -pi/2 < theta_rest < theta_lim = arccos(h/L))");
  MechanismParams slanted;
  const Mechanism m(slanted, w);
  EXPECT_EQ(message_of([&] { geometric_nap_effect(m); }),
            "mechanism.kind = \"slanted\": the with/against the nap analysis needs the angular spring (paper 2, "
            "§3.3-3.4)");
  EXPECT_EQ(message_of([&] { geometric_nap_effect(Mechanism(angular(1.0, 1.25, 0.0), w), -1.0); }),
            "buckling_load_N = -1: must be > 0");
}

}  // namespace
