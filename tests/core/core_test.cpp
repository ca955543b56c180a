// Validation helpers, regularised norms and the TimeSeries table.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "bristle/core/error.hpp"
#include "bristle/core/norms.hpp"
#include "bristle/core/time_series.hpp"
#include "support/test_support.hpp"

namespace bristle {
namespace {

using test::message_of;

TEST(Validation, MessagesNameKeyValueAndRule) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(message_of([] { require_positive("body1.k0", 0.0); }), "body1.k0 = 0: must be > 0");
  EXPECT_EQ(message_of([&] { require_positive("body1.k0", inf); }), "body1.k0 = inf: must be finite");
  EXPECT_EQ(message_of([] { require_non_negative("law.mu_v", -0.5); }), "law.mu_v = -0.5: must be >= 0");
  EXPECT_EQ(message_of([] { require_open_interval("pair.s", 1.0, 0.0, 1.0); }), "pair.s = 1: must lie in (0, 1)");
  EXPECT_EQ(message_of([] { require_finite("x", std::nan("")); }), "x = nan: must be finite");
  EXPECT_EQ(message_of([] { require_spd("k", Mat2{{1.0, 0.0}, {0.0, -1.0}}); }),
            "k = [[1, 0], [0, -1]]: must be positive definite");
  EXPECT_EQ(message_of([] { require_spd("k", Mat2{{1.0, 0.5}, {0.4, 1.0}}); }),
            "k = [[1, 0.5], [0.4, 1]]: must be symmetric");
  EXPECT_EQ(message_of([] { require_spd("k", Mat2{{2.0, 1.0}, {1.0, 2.0}}); }), "(no error)");
  // helper-39: the determinant of a matrix of entries below ~1.5e-162 underflowed: k0 = 1e-200 was "not positive
  // definite"
  EXPECT_EQ(message_of([] { require_spd("k", Mat2::Identity() * 1e-200); }), "(no error)");
  EXPECT_EQ(message_of([] { require_spsd("k", Mat2{{2e-200, 1e-200}, {1e-200, 2e-200}}); }), "(no error)");
  EXPECT_EQ(message_of([] { require_spd("k", Mat2{{1e-200, 2e-200}, {2e-200, 1e-200}}); }),
            "k = [[1e-200, 2e-200], [2e-200, 1e-200]]: must be positive definite");
}

TEST(Validation, NearestWordSuggestsCloseKeysOnly) {
  const std::vector<std::string> keys{"mu_s", "mu_d", "v_s", "delta_s", "sigma1"};
  EXPECT_EQ(nearest_word("mu_z", keys), "mu_s");
  EXPECT_EQ(nearest_word("sigma_1", keys), "sigma1");
  EXPECT_EQ(nearest_word("completely_unrelated", keys), "");
}

TEST(Validation, NearestWordPrefersACompletionAtEqualDistance) {
  // "rodas5" is one edit from "rodas4" and from "rodas5p": the truncated name's completion wins, in either
  // order of the candidates; without a completion the first at the smallest distance.
  EXPECT_EQ(nearest_word("rodas5", {"auto", "cvode_bdf", "rodas4", "rodas5p"}), "rodas5p");
  EXPECT_EQ(nearest_word("rodas5", {"rodas5p", "rodas4"}), "rodas5p");
  EXPECT_EQ(nearest_word("rodas3", {"rodas4", "rodas5p"}), "rodas4");
  EXPECT_EQ(nearest_word("mu_x", {"mu_s", "mu_d"}), "mu_s");
}

TEST(Norms, RegularisedNormAndSign) {
  EXPECT_DOUBLE_EQ(regularised_norm(Vec2(3.0, 4.0), 0.0), 5.0);
  EXPECT_DOUBLE_EQ(regularised_norm(Vec2(0.0, 0.0), 1e-4), 1e-2);
  EXPECT_DOUBLE_EQ(regularised_sign(-2.0, 0.0), -1.0);
  EXPECT_DOUBLE_EQ(regularised_sign(0.0, 0.0), 0.0);
  EXPECT_NEAR(regularised_sign(1e-3, 1e-6), 1e-3 / std::sqrt(2e-6), 1e-15);
}

TEST(TimeSeries, ColumnsByName) {
  TimeSeries ts({"t_s", "F_N"});
  ts.add_row({0.0, 1.0});
  ts.add_row({0.1, 2.0});
  EXPECT_EQ(ts.rows(), 2u);
  EXPECT_EQ(ts.column("F_N")[1], 2.0);
  EXPECT_TRUE(ts.has("t_s"));
  EXPECT_FALSE(ts.has("x_m"));
  EXPECT_THROW(ts.column("x_m"), std::out_of_range);
  EXPECT_THROW(ts.add_row({1.0}), std::logic_error);
}

}  // namespace
}  // namespace bristle

namespace bristle {
namespace {

// The number rule of a scenario, now every validator's (core/error.hpp): a parameter is 0 or of magnitude
// 2.2e-308 .. 1e150 after its own rule; require_finite (also inputs: a velocity) applies only the 1e150 bound.
TEST(NumberRule, ParametersAreNormalAndAtMost1e150InputsAtMost1e150) {
  const std::string huge = ": magnitude above 1e+150; no scenario quantity is that large (products of two such would "
                           "overflow to inf or NaN)";
  EXPECT_EQ(message_of([] { require_positive("law.mu_s", 1e160); }), "law.mu_s = 1e+160" + huge);
  EXPECT_EQ(message_of([] { require_positive("law.mu_s", -1e300); }), "law.mu_s = -1e+300: must be > 0");
  EXPECT_EQ(message_of([] { require_non_negative("law.mu_v", 1e200); }), "law.mu_v = 1e+200" + huge);
  EXPECT_EQ(message_of([] { require_positive("law.v_s", 5e-324); }),
            "law.v_s = 5e-324: a subnormal number; give 0 or a magnitude of at least 2.2250738585072014e-308 (the "
            "smallest normal double)");
  EXPECT_EQ(message_of([] { require_non_negative("law.mu_v", 0.0); }), "(no error)");
  EXPECT_EQ(message_of([] { require_positive("k", 1e150); }), "(no error)");
  EXPECT_EQ(message_of([] { require_finite("v_mps", -4e-310); }), "(no error)");  // an input may be subnormal
  EXPECT_EQ(message_of([] { require_finite("v_mps", 1e160); }), "v_mps = 1e+160" + huge);
  EXPECT_EQ(message_of([] { require_finite("x0_m", Vec2(0.0, -1e300)); }), "x0_m = -1e+300" + huge);
  EXPECT_EQ(message_of([] { require_spd("body1.k0", Mat2::Identity() * 1e300); }), "body1.k0 = 1e+300" + huge);
}

}  // namespace
}  // namespace bristle
