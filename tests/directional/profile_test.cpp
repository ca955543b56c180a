// Surface profiles (paper 2, eqs. 3.4-3.5): evaluation, omega_+- against closed forms and brute force,
// the periodic spline, the mirrored profile, and every invalid profile with its exact message.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/directional/profile.hpp"
#include "support/test_support.hpp"

namespace {

using bristle::format_value;
using namespace bristle::directional;

constexpr double kTwoPi = 2.0 * std::numbers::pi;

using bristle::test::message_of;

/// max/min of f on a uniform grid of n points (brute force).
std::pair<double, double> grid_extrema(const Profile& p, int n, bool slope) {
  double hi = -1e300, lo = 1e300;
  for (int i = 0; i < n; ++i) {
    const double x = static_cast<double>(i) / n;
    const double v = slope ? p.dw(x) : p.w(x);
    hi = std::max(hi, v);
    lo = std::min(lo, v);
  }
  return {hi, lo};
}

TEST(Profile, SineSlopesAreTheClosedForm) {
  ProfileParams params;
  params.kind = ProfileKind::sine;
  params.amplitude = 0.3;
  const Profile p(params);
  EXPECT_NEAR(p.omega_plus(), kTwoPi * 0.3, 1e-14);
  EXPECT_NEAR(p.omega_minus(), -kTwoPi * 0.3, 1e-14);
  EXPECT_NEAR(p.w_max(), 0.3, 1e-15);
  EXPECT_NEAR(p.w_min(), -0.3, 1e-15);
  // w' = 2 pi A cos(2 pi x) peaks at x = 0 (= 1) and is least at x = 1/2; locations are reported in [0, 1).
  EXPECT_NEAR(std::remainder(p.slope_max().x, 1.0), 0.0, 1e-6);
  EXPECT_NEAR(p.slope_min().x, 0.5, 1e-6);
  // Defaults: omega_+ = -omega_- = 0.1 (the paper's Figs. 4 and 6).
  const Profile d;
  EXPECT_NEAR(d.omega_plus(), 0.1, 1e-15);
  EXPECT_NEAR(d.omega_minus(), -0.1, 1e-15);
}

TEST(Profile, RatchetSlopesAreTheClosedForm) {
  for (const double r : {-0.25, -0.1, 0.0, 0.1, 0.25}) {
    ProfileParams params;
    params.kind = ProfileKind::ratchet;
    params.amplitude = 0.05;
    params.asymmetry = r;
    const Profile p(params);
    EXPECT_NEAR(p.omega_plus(), kTwoPi * 0.05 * (1.0 + r), 1e-14) << "r = " << r;
    EXPECT_NEAR(p.omega_minus(), kTwoPi * 0.05 * (-1.0 + r), 1e-14) << "r = " << r;
  }
}

TEST(Profile, FourierDerivativesAndExtremaAgreeWithBruteForce) {
  ProfileParams params;
  params.kind = ProfileKind::fourier;
  params.cos_coefficients = {0.02, 0.0, -0.004};
  params.sin_coefficients = {0.05, 0.011, 0.0, 0.002};
  const Profile p(params);
  for (const double x : {0.0, 0.137, 0.5, 0.77, 3.9, -2.3}) {
    const double h = 1e-5;
    EXPECT_NEAR(p.dw(x), (p.w(x + h) - p.w(x - h)) / (2 * h), 1e-8) << "x = " << x;
    EXPECT_NEAR(p.d2w(x), (p.dw(x + h) - p.dw(x - h)) / (2 * h), 1e-6) << "x = " << x;
    EXPECT_NEAR(p.w(x + 1.0), p.w(x), 1e-15);
  }
  // Brent-refined extrema beat a 10^6-point grid and agree with it to the grid's resolution.
  const auto [hi, lo] = grid_extrema(p, 1'000'000, true);
  EXPECT_GE(p.omega_plus(), hi - 1e-15);
  EXPECT_LE(p.omega_minus(), lo + 1e-15);
  EXPECT_NEAR(p.omega_plus(), hi, 1e-9);
  EXPECT_NEAR(p.omega_minus(), lo, 1e-9);
  const auto [whi, wlo] = grid_extrema(p, 1'000'000, false);
  EXPECT_NEAR(p.w_max(), whi, 1e-10);
  EXPECT_NEAR(p.w_min(), wlo, 1e-10);
}

TEST(Profile, PeriodicSplineInterpolatesAndIsC2) {
  // A spline through 256 samples of a sine reproduces it to O(h^4) and its slope extrema to O(h^3).
  ProfileParams params;
  params.kind = ProfileKind::table;
  const int n = 256;
  for (int i = 0; i <= n; ++i) {
    params.x.push_back(static_cast<double>(i) / n);
    params.w.push_back(0.1 * std::sin(kTwoPi * i / n));
  }
  params.x.back() = 1.0;
  params.w.back() = params.w.front();
  const Profile p(params);
  for (int i = 0; i <= n; ++i) EXPECT_NEAR(p.w(params.x[i]), params.w[i], 1e-15);
  for (const double x : {0.001, 0.3, 0.61, 0.999}) {
    EXPECT_NEAR(p.w(x), 0.1 * std::sin(kTwoPi * x), 1e-9);
    EXPECT_NEAR(p.dw(x), 0.1 * kTwoPi * std::cos(kTwoPi * x), 1e-6);
  }
  EXPECT_NEAR(p.omega_plus(), 0.1 * kTwoPi, 1e-6);
  EXPECT_NEAR(p.omega_minus(), -0.1 * kTwoPi, 1e-6);
  // C^2 across the knots and across the period boundary.
  for (const double knot : {0.0, 1.0 / n, 0.5, 1.0}) {
    const double h = 1e-12;  // one-sided limits: differences are 2h times the next derivative
    EXPECT_NEAR(p.w(knot - h), p.w(knot + h), 1e-11);
    EXPECT_NEAR(p.dw(knot - h), p.dw(knot + h), 1e-9);
    EXPECT_NEAR(p.d2w(knot - h), p.d2w(knot + h), 1e-8);
  }
  // The spline's slope extrema are exact: nothing on a fine grid exceeds them.
  const auto [hi, lo] = grid_extrema(p, 1'000'000, true);
  EXPECT_GE(p.omega_plus(), hi - 1e-15);
  EXPECT_LE(p.omega_minus(), lo + 1e-15);
  EXPECT_NEAR(p.omega_plus(), hi, 1e-10);
}

TEST(Profile, AsymmetricTableOnANonUniformGrid) {
  // A smooth sawtooth-like table on a non-uniform grid: omega_+ != -omega_-, and the spline's exact
  // extrema agree with a fine grid.
  ProfileParams params;
  params.kind = ProfileKind::table;
  params.x = {0.0, 0.1, 0.25, 0.4, 0.7, 0.85, 1.0};
  params.w = {0.0, 0.04, 0.09, 0.1, 0.03, 0.005, 0.0};
  const Profile p(params);
  const auto [hi, lo] = grid_extrema(p, 2'000'000, true);
  EXPECT_NEAR(p.omega_plus(), hi, 1e-10);
  EXPECT_NEAR(p.omega_minus(), lo, 1e-10);
  EXPECT_GT(p.omega_plus(), 0.0);
  EXPECT_LT(p.omega_minus(), 0.0);
  EXPECT_GT(std::abs(p.omega_plus() + p.omega_minus()), 0.05);
}

TEST(Profile, MirroredSwapsTheSlopes) {
  ProfileParams params;
  params.kind = ProfileKind::ratchet;
  params.amplitude = 0.05;
  params.asymmetry = 0.2;
  const Profile p(params);
  const Profile m = p.mirrored();
  EXPECT_NEAR(m.omega_plus(), -p.omega_minus(), 1e-14);
  EXPECT_NEAR(m.omega_minus(), -p.omega_plus(), 1e-14);
  EXPECT_NEAR(m.w(0.3), p.w(-0.3), 1e-16);
  EXPECT_NEAR(m.dw(0.3), -p.dw(-0.3), 1e-16);
}

TEST(Profile, CustomProfile) {
  const Profile p = Profile::custom([](double x) { return 0.02 * std::cos(kTwoPi * x); },
                                    [](double x) { return -0.02 * kTwoPi * std::sin(kTwoPi * x); },
                                    [](double x) { return -0.02 * kTwoPi * kTwoPi * std::cos(kTwoPi * x); });
  EXPECT_NEAR(p.omega_plus(), 0.02 * kTwoPi, 1e-14);
  EXPECT_NEAR(p.omega_minus(), -0.02 * kTwoPi, 1e-14);
}

// ---- Bad input: exact messages -------------------------------------------------------------------

TEST(ProfileErrors, ConstantProfiles) {
  ProfileParams fourier;
  fourier.kind = ProfileKind::fourier;
  fourier.cos_coefficients = {0.0, 0.0};
  fourier.sin_coefficients = {0.0};
  EXPECT_EQ(message_of([&] { Profile p(fourier); }),
            "profile.cos = [0, 0], profile.sin = [0]: every coefficient is zero, so the profile is constant; the "
            "surface must be a non-constant 1-periodic profile (eq. 3.5: omega_+ = max w' > 0 > omega_- = min w')");

  ProfileParams table;
  table.kind = ProfileKind::table;
  table.x = {0.0, 0.3, 0.6, 1.0};
  table.w = {0.2, 0.2, 0.2, 0.2};
  EXPECT_EQ(message_of([&] { Profile p(table); }),
            "profile.w = [0.2, 0.2, 0.2, 0.2]: constant; the surface must be a non-constant 1-periodic profile "
            "(eq. 3.5: omega_+ = max w' > 0 > omega_- = min w')");

  EXPECT_EQ(message_of([] {
              Profile::custom([](double) { return 0.5; }, [](double) { return 0.0; }, [](double) { return 0.0; },
                              "surface");
            }),
            "surface = custom: constant (max w' = 0, min w' = 0); the surface must be a non-constant 1-periodic "
            "profile (eq. 3.5: omega_+ = max w' > 0 > omega_- = min w')");

  ProfileParams sine;
  sine.amplitude = 0.0;
  EXPECT_EQ(message_of([&] { Profile p(sine); }), "profile.amplitude = 0: must be > 0");
}

TEST(ProfileErrors, NonPeriodicProfiles) {
  ProfileParams table;
  table.kind = ProfileKind::table;
  table.x = {0.0, 0.3, 0.6, 1.0};
  table.w = {0.0, 0.1, -0.1, 0.3};
  EXPECT_EQ(message_of([&] { Profile p(table); }),
            "profile.w[3] = 0.3: must equal profile.w[0] = 0 (the profile is not periodic; it must be 1-periodic: "
            "w(1) = w(0))");

  table.w = {0.0, 0.1, -0.1, 0.0};
  table.x = {0.0, 0.3, 0.6, 0.9};
  EXPECT_EQ(message_of([&] { Profile p(table); }),
            "profile.x[3] = 0.9: must be 1 (the table spans one period, 0 <= x <= 1)");
  table.x = {0.0, 0.6, 0.3, 1.0};
  EXPECT_EQ(message_of([&] { Profile p(table); }),
            "profile.x[2] = 0.3: must be > profile.x[1] = 0.6 (strictly increasing)");

  // A ramp is not periodic: w(x + 1) != w(x).
  EXPECT_EQ(message_of([] {
              Profile::custom([](double x) { return 0.1 * x + 0.01 * std::sin(kTwoPi * x); },
                              [](double x) { return 0.1 + 0.01 * kTwoPi * std::cos(kTwoPi * x); },
                              [](double x) { return -0.01 * kTwoPi * kTwoPi * std::sin(kTwoPi * x); }, "surface");
            }),
            "surface: w(0) = 0 but w(1) = 0.1: the profile is not periodic; it must be 1-periodic and C^2 (w(x + 1) = "
            "w(x))");
}

TEST(ProfileErrors, RatchetAsymmetryAndTableShape) {
  ProfileParams ratchet;
  ratchet.kind = ProfileKind::ratchet;
  ratchet.asymmetry = 0.3;
  EXPECT_EQ(message_of([&] { Profile p(ratchet); }), "profile.asymmetry = 0.3: must lie in [-0.25, 0.25]");
  ProfileParams table;
  table.kind = ProfileKind::table;
  table.x = {0.0, 0.5, 1.0};
  table.w = {0.0, 0.1, 0.0};
  EXPECT_EQ(message_of([&] { Profile p(table); }),
            "profile.x = [0, 0.5, 1]: 3 points; a periodic spline needs at least 4 (x_0 = 0 < ... < x_n = 1)");
  EXPECT_EQ(message_of([] { profile_kind_from_string("profile.kind", "sinus"); }),
            "profile.kind = \"sinus\": unknown profile kind (valid: sine, ratchet, fourier, table); did you mean "
            "\"sine\"?");
}

}  // namespace
