// ProgressThrottle: what every solver's progress callback sees (core/progress.hpp).
#include "bristle/core/progress.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace bristle {
namespace {

std::vector<double> throttled(const std::vector<double>& fractions, double step = 0.005) {
  std::vector<double> seen;
  const Progress record = [&seen](double f) { seen.push_back(f); };
  ProgressThrottle throttle(record, step);
  for (const double f : fractions) throttle(f);
  return seen;
}

TEST(ProgressThrottle, AtMostOncePerStepAndExactlyOneAtTheEnd) {
  // 1000 calls 0.1 % apart: one per 0.5 % (every fifth), and 1 once, whatever overshoots it.
  std::vector<double> fractions;
  for (int k = 0; k <= 1000; ++k) fractions.push_back(k / 1000.0);
  fractions.push_back(1.0 + 1e-12);
  fractions.push_back(1.0);
  const std::vector<double> seen = throttled(fractions);
  ASSERT_GE(seen.size(), 190u);
  EXPECT_LE(seen.size(), 201u);
  EXPECT_EQ(seen.front(), 0.001);  // 0 (nothing done) is not reported
  EXPECT_EQ(seen.back(), 1.0);
  for (std::size_t k = 1; k + 1 < seen.size(); ++k) EXPECT_GE(seen[k], seen[k - 1] + 0.005) << k;
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1.0), 1);
}

TEST(ProgressThrottle, CoarseCallsPassAndAnEmptyCallbackIsNeverCalled) {
  EXPECT_EQ(throttled({0.25, 0.5, 0.75, 1.0}), (std::vector<double>{0.25, 0.5, 0.75, 1.0}));
  EXPECT_EQ(throttled({0.5, 0.4, 0.6}), (std::vector<double>{0.5, 0.6}));  // never backwards
  EXPECT_EQ(throttled({1.0}), (std::vector<double>{1.0}));                  // a run of one output
  EXPECT_EQ(throttled({0.0, 0.0}), (std::vector<double>{}));
  const Progress none;
  ProgressThrottle throttle(none);
  EXPECT_FALSE(throttle);
  throttle(0.5);  // no call, no throw
  throttle(1.0);
}

}  // namespace
}  // namespace bristle
