// contact::Signal::at(t, hint): the forward cursor over a table gives operator()'s value bit for bit, whatever
// the order of the times (forward in small and large strides, backward, outside the table).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "bristle/contact/signal.hpp"

namespace bristle::contact {
namespace {

TEST(Signal, AtWithAHintEqualsTheBinarySearchBitForBit) {
  Signal s;
  s.kind = SignalKind::table;
  for (int i = 0; i < 1000; ++i) {
    s.times.push_back(0.01 * i + 1e-4 * std::sin(i));
    s.values.push_back(std::cos(0.37 * i));
  }
  std::vector<double> queries;
  for (int i = -10; i < 1100; ++i) queries.push_back(0.003 * i);    // forward, several per knot, beyond the ends
  for (int i = 0; i < 50; ++i) queries.push_back(9.0 - 0.17 * i);   // backward
  for (int i = 0; i < 20; ++i) queries.push_back(0.45 * i);         // forward, 45 knots per call
  std::size_t hint = 0;
  for (double t : queries) ASSERT_EQ(s.at(t, hint), s(t)) << t;
  std::size_t stale = 123456;  // a hint out of range is ignored
  EXPECT_EQ(s.at(2.5, stale), s(2.5));
  Signal c = Signal::constant_value(3.0);
  EXPECT_EQ(c.at(1.0, hint), 3.0);
}

}  // namespace
}  // namespace bristle::contact
