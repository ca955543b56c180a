// Modal structures: the cantilever frequency equation, mode normalisation, static compliances
// (closed forms vs mode sums) and the validation messages.
#include "bristle/structures/modal_structure.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>

#include "bristle/core/error.hpp"

namespace bristle::structures {
namespace {

constexpr double kPi = std::numbers::pi;

template <class F>
void expect_invalid(F&& f, const std::string& message) {
  try {
    f();
    FAIL() << "expected InvalidInput: " << message;
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

/// Composite Gauss-Legendre (8 points) on [0, 1] with `panels` panels.
template <class F>
double integrate01(F&& f, int panels) {
  static const double x[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363};
  static const double w[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763};
  double sum = 0.0;
  for (int p = 0; p < panels; ++p) {
    const double c = (p + 0.5) / panels, h = 0.5 / panels;
    for (int k = 0; k < 4; ++k) sum += h * w[k] * (f(c - h * x[k]) + f(c + h * x[k]));
  }
  return sum;
}

TEST(Cantilever, RootsMatchTheFrequencyEquationToFullPrecision) {
  // Reference values to 22 digits (mpmath findroot at 30 digits on cos x + sech x = 0); they agree with
  // Blevins, Formulas for natural frequency and mode shape, table 8-1, to its 15 digits.
  const double reference[5] = {1.875104068711961166445, 4.694091132974174576436, 7.854757438237612564861,
                               10.99554073487546699067, 14.13716839104647058092};
  for (int k = 1; k <= 5; ++k)
    EXPECT_NEAR(cantilever_root(k), reference[k - 1], 2.0 * std::numeric_limits<double>::epsilon() * reference[k - 1])
        << k;
  // The equation itself, in its stable form cos(beta) + sech(beta) = 0, to a few ulps of beta.
  // (k >= 14 takes the asymptotic path: one Newton step on cos from (k - 1/2) pi.)
  for (long k : {1L, 2L, 3L, 7L, 13L, 14L, 15L, 20L, 100L, 227L, 1000L, 100000L}) {
    const double b = cantilever_root(k);
    const double g = std::cos(b) + 1.0 / std::cosh(b);
    const double slope = std::abs(std::sin(b));  // |dg/dbeta| near the root
    EXPECT_LE(std::abs(g) / slope, 4.0 * std::numeric_limits<double>::epsilon() * b) << k;
    EXPECT_GT(b, (k - 1) * kPi);
    EXPECT_LT(b, k * kPi);
  }
  // Asymptotics: beta_k -> (k - 1/2) pi exponentially fast.
  EXPECT_NEAR(cantilever_root(30), 29.5 * kPi, 1e-12);
}

TEST(Cantilever, ModesAreMassNormalisedWithTipValueTwo) {
  for (long k : {1L, 2L, 3L, 4L, 10L, 40L}) {
    const double b = cantilever_root(k);
    const double norm = integrate01([&](double s) { return std::pow(cantilever_mode_shape(b, s), 2); }, 400);
    EXPECT_NEAR(norm, 1.0, 1e-12) << k;
    EXPECT_NEAR(cantilever_mode_shape(b, 1.0), k % 2 == 1 ? 2.0 : -2.0, 1e-12) << k;
    EXPECT_NEAR(cantilever_mode_shape(b, 0.0), 0.0, 1e-14) << k;
  }
  // Orthogonality of two modes.
  const double b2 = cantilever_root(2), b3 = cantilever_root(3);
  EXPECT_NEAR(integrate01([&](double s) { return cantilever_mode_shape(b2, s) * cantilever_mode_shape(b3, s); }, 400),
              0.0, 1e-12);
  // Stable for very high modes: bounded by 2 and still the tip value.
  const double big = cantilever_root(200000);
  EXPECT_NEAR(cantilever_mode_shape(big, 1.0), -2.0, 1e-9);
  EXPECT_LE(std::abs(cantilever_mode_shape(big, 0.37)), 2.0);
}

TEST(Structures, BuiltInModesFollowTheirFormulas) {
  TautStringParams sp;
  sp.density_kg_per_m = 2.0;
  sp.length_m = 3.0;
  sp.wave_speed_m_per_s = 5.0;
  sp.damping_ratio = 0.02;
  sp.contact_positions_m = {0.7, 2.0};
  const Structure s = Structure::taut_string(sp);
  const ModeTable t = s.modes(4);
  for (long k = 1; k <= 4; ++k) {
    EXPECT_DOUBLE_EQ(t.omega[k - 1], k * kPi * 5.0 / 3.0);
    EXPECT_DOUBLE_EQ(t.damping[k - 1], 0.02);
    EXPECT_NEAR(t.values(k - 1, 1), std::sqrt(2.0 / 6.0) * std::sin(k * kPi * 2.0 / 3.0), 1e-15);
  }
  BeamParams bp;
  bp.bending_stiffness_N_m2 = 8.0;
  bp.mass_per_length_kg_per_m = 2.0;
  bp.length_m = 2.0;
  bp.contact_positions_m = {2.0};
  const Structure c = Structure::cantilever(bp);
  const ModeTable ct = c.modes(3);
  for (long k = 1; k <= 3; ++k) {
    const double b = cantilever_root(k);
    EXPECT_NEAR(ct.omega[k - 1], 2.0 * b * b / 4.0, 1e-13 * ct.omega[k - 1]);  // a = sqrt(8/2) = 2
    EXPECT_NEAR(std::abs(ct.values(k - 1, 0)), 2.0 / std::sqrt(4.0), 1e-12);
  }
  bp.contact_positions_m = {0.5};
  const Structure ss = Structure::simply_supported_beam(bp);
  EXPECT_DOUBLE_EQ(ss.modes(2).omega[1], 2.0 * std::pow(2.0 * kPi / 2.0, 2));
}

/// sum_k n n / omega^2 over K modes plus the integral estimate of the rest.
double compliance_sum(const Structure& s, long K, int i, int j) {
  const ModeTable t = s.modes(K);
  double sum = 0.0;
  for (long k = K - 1; k >= 0; --k) sum += t.values(k, i) * t.values(k, j) / (t.omega[k] * t.omega[k]);
  return sum;
}

TEST(Structures, StaticComplianceClosedFormsEqualModeSums) {
  // Green's functions vs 10^5-mode sums; the neglected tails are below 1/(pi^2 K) (string) and far
  // smaller for beams (terms ~ k^-4).
  TautStringParams sp;
  sp.density_kg_per_m = 1.5;
  sp.wave_speed_m_per_s = 2.0;
  sp.contact_positions_m = {0.3, 0.8};
  const Structure s = Structure::taut_string(sp);
  const double tension = 1.5 * 4.0;
  EXPECT_DOUBLE_EQ(s.static_compliance()(0, 0), 0.3 * 0.7 / tension);
  EXPECT_DOUBLE_EQ(s.static_compliance()(0, 1), 0.3 * 0.2 / tension);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      EXPECT_NEAR(compliance_sum(s, 100000, i, j), s.static_compliance()(i, j), 2.0 / (kPi * kPi * 1e5 * tension));

  BeamParams bp;
  bp.bending_stiffness_N_m2 = 3.0;
  bp.contact_positions_m = {0.4, 1.0};
  const Structure c = Structure::cantilever(bp);
  EXPECT_DOUBLE_EQ(c.static_compliance()(1, 1), 1.0 / (3.0 * 3.0));  // l^3 / (3 EI)
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      EXPECT_NEAR(compliance_sum(c, 2000, i, j), c.static_compliance()(i, j), 1e-11);

  bp.contact_positions_m = {0.5, 0.25};
  const Structure ss = Structure::simply_supported_beam(bp);
  EXPECT_DOUBLE_EQ(ss.static_compliance()(0, 0), 1.0 / (48.0 * 3.0));  // l^3 / (48 EI) at mid-span
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      EXPECT_NEAR(compliance_sum(ss, 2000, i, j), ss.static_compliance()(i, j), 1e-11);
}

TEST(Structures, GenericStructureAndTruncation) {
  GenericModalParams g;
  g.frequencies_rad_per_s = {2.0, 5.0};
  g.damping_ratios = {0.1, 0.0};
  g.mode_values = {{1.0, 0.5}, {-0.5, 2.0}};
  const Structure s = Structure::generic(g);
  EXPECT_TRUE(s.finite());
  EXPECT_EQ(s.mode_count(), 2);
  EXPECT_EQ(s.contact_count(), 2);
  EXPECT_DOUBLE_EQ(s.static_compliance()(0, 1), 1.0 * 0.5 / 4.0 - 0.5 * 2.0 / 25.0);
  EXPECT_DOUBLE_EQ(s.min_damping_ratio(), 0.0);
  EXPECT_FALSE(s.uniform_damping());

  TautStringParams sp;
  const Structure t = Structure::truncated(Structure::taut_string(sp), 7);
  EXPECT_EQ(t.mode_count(), 7);
  EXPECT_NEAR(t.modes(7).omega[6], 7.0 * kPi, 1e-13);
}

TEST(Structures, BadInputIsRejectedWithExactMessages) {
  GenericModalParams g;
  g.frequencies_rad_per_s = {2.0, 0.0};
  g.damping_ratios = {0.1, 0.1};
  g.mode_values = {{1.0}, {1.0}};
  expect_invalid([&] { Structure::generic(g); }, "structure.frequencies_rad_per_s[1] = 0: must be > 0");
  g.frequencies_rad_per_s = {2.0, -3.0};
  expect_invalid([&] { Structure::generic(g); }, "structure.frequencies_rad_per_s[1] = -3: must be > 0");
  g.frequencies_rad_per_s = {2.0, 3.0};
  g.damping_ratios = {0.1};
  expect_invalid([&] { Structure::generic(g); },
                 "structure.damping_ratios has 1 entries but structure.frequencies_rad_per_s has 2: one damping ratio "
                 "per mode is needed");
  g.damping_ratios = {0.1, -0.05};
  expect_invalid([&] { Structure::generic(g); },
                 "structure.damping_ratios[1] = -0.05: must lie in [0, 1) (every mode underdamped)");
  g.damping_ratios = {0.1, 0.1};
  g.mode_values = {{1.0}};
  expect_invalid([&] { Structure::generic(g); },
                 "structure.mode_values has 1 rows but structure.frequencies_rad_per_s has 2: one row of "
                 "contact-point values per mode is needed");
  g.mode_values = {{1.0, 2.0}, {1.0}};
  expect_invalid([&] { Structure::generic(g); },
                 "structure.mode_values[1] has 1 entries but structure.mode_values[0] has 2: every mode needs a value "
                 "at each of the same contact points");

  TautStringParams sp;
  sp.damping_ratio = -0.1;
  expect_invalid([&] { Structure::taut_string(sp); },
                 "structure.damping_ratio = -0.1: must lie in [0, 1) (every mode underdamped)");
  sp.damping_ratio = 0.0;
  sp.contact_positions_m = {1.2};
  expect_invalid([&] { Structure::taut_string(sp); },
                 "structure.contact_positions_m[0] = 1.2: must lie in (0, 1) (inside the string)");
  sp.contact_positions_m = {0.5, 1.0};
  expect_invalid([&] { Structure::taut_string(sp); },
                 "structure.contact_positions_m[1] = 1: must lie in (0, 1) (inside the string)");
  sp.contact_positions_m = {0.5};
  sp.wave_speed_m_per_s = 0.0;
  expect_invalid([&] { Structure::taut_string(sp); }, "structure.wave_speed_m_per_s = 0: must be > 0");

  BeamParams bp;
  bp.contact_positions_m = {1.5};
  expect_invalid([&] { Structure::cantilever(bp); },
                 "structure.contact_positions_m[0] = 1.5: must lie in (0, 1] (inside the beam)");
  bp.contact_positions_m = {1.0};
  expect_invalid([&] { Structure::simply_supported_beam(bp); },
                 "structure.contact_positions_m[0] = 1: must lie in (0, 1) (inside the beam)");
  bp.contact_positions_m = {0.0};
  expect_invalid([&] { Structure::cantilever(bp); },
                 "structure.contact_positions_m[0] = 0: must lie in (0, 1] (inside the beam)");
  bp.contact_positions_m = {0.5};
  bp.bending_stiffness_N_m2 = std::nan("");
  expect_invalid([&] { Structure::cantilever(bp); }, "structure.bending_stiffness_N_m2 = nan: must be finite");
  expect_invalid([&] { structure_kind_from_string("structure.type", "cantilver"); },
                 "structure.type = \"cantilver\": unknown structure type (valid: generic, taut_string, cantilever, "
                 "simply_supported_beam); did you mean \"cantilever\"?");
}

}  // namespace
}  // namespace bristle::structures
