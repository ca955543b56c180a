// The interrupt check of the library's long loops (core/interrupt.hpp): called once per kPollsPerCheck polls
// of a thread, stops LineContact::advance_to and patch::check_eq84 by its exception, and leaves the contact
// usable at the step reached.
#include "bristle/core/interrupt.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <stdexcept>
#include <thread>

#include "bristle/core/error.hpp"
#include "bristle/patch/patch.hpp"
#include "bristle/rheology/rheology.hpp"
#include "bristle/transport/line_contact.hpp"

namespace bristle {
namespace {

std::atomic<long> checks{0};
long stop_after = -1;  // the check throws on its stop_after-th call (-1: never)

struct Stop : std::runtime_error {
  Stop() : std::runtime_error("stop") {}
};
void counting_check() {
  if (++checks == stop_after) throw Stop();
}

/// Installs counting_check for one test and restores the previous check.
class WithCheck {
 public:
  explicit WithCheck(long stop) {
    checks = 0;
    stop_after = stop;
    previous_ = set_interrupt_check(&counting_check);
  }
  ~WithCheck() { set_interrupt_check(previous_); }

 private:
  InterruptCheck previous_;
};

const contact::ContactModel& model() {  // LineContact keeps a reference: the model outlives it
  static const contact::ContactModel m = [] {
    laws::LawParams law;
    law.kind = laws::LawKind::frbd;
    law.M.axis1 = laws::StribeckParams{1.0, 0.7, 6.0, 2.0, 0.0};
    return contact::ContactModel(law, rheology::elastic(240.0), rheology::elastic(1e3));
  }();
  return m;
}

transport::LineContactParams line() {
  transport::LineContactParams p;
  p.L_m = 0.2;
  p.normal_load_N = 10.0;
  p.cells = 20;
  p.V2 = contact::Signal::constant_value(0.3);
  return p;
}

TEST(Interrupt, NoCheckByDefaultAndSetReturnsThePrevious) {
  EXPECT_EQ(set_interrupt_check(nullptr), nullptr);
  EXPECT_EQ(set_interrupt_check(&counting_check), nullptr);
  EXPECT_EQ(set_interrupt_check(nullptr), &counting_check);
}

TEST(Interrupt, CheckedOncePerKPollsOfAThread) {
  WithCheck with(-1);
  for (unsigned k = 0; k < 5 * kPollsPerCheck; ++k) poll_interrupt();
  EXPECT_EQ(checks.load(), 5);
  std::thread other([] {  // a thread counts its own polls
    for (unsigned k = 0; k < 3 * kPollsPerCheck; ++k) poll_interrupt();
  });
  other.join();
  EXPECT_EQ(checks.load(), 8);
}

TEST(Interrupt, APollOfMuchWorkChecksAtOnce) {
  WithCheck with(-1);
  for (int k = 0; k < 3; ++k) poll_interrupt(1'000'000);  // a line-contact step of 10^6 cells
  EXPECT_EQ(checks.load(), 3);
  poll_interrupt(kPollsPerCheck - 1);
  EXPECT_EQ(checks.load(), 3);
  poll_interrupt();
  EXPECT_EQ(checks.load(), 4);
}

TEST(Interrupt, StopsLineContactAdvanceToAtAStep) {
  transport::LineContact lc(model(), line());
  {
    // A step polls its 20 cells: the third check after ~100-155 of ~6e9 steps (1.3e11 cell updates, within
    // LineContact::kMaxCellUpdates).
    WithCheck with(3);
    EXPECT_THROW(lc.advance_to(1e9), Stop);
  }
  const double t = lc.time();
  EXPECT_GE(lc.steps_taken(), 2 * static_cast<long>(kPollsPerCheck) / 20);
  EXPECT_LE(lc.steps_taken(), 3 * static_cast<long>(kPollsPerCheck) / 20 + 2);
  EXPECT_GT(t, 0.0);
  lc.advance_to(t + 0.01);  // usable: goes on from the step reached
  EXPECT_EQ(lc.time(), t + 0.01);
  EXPECT_TRUE(lc.state().allFinite());
}

TEST(Interrupt, StopsTheEq84Grid) {
  patch::PatchParams p;
  const patch::PatchGeometry g(p);
  const patch::PatchKinematics kin = patch::rolling(16.0, 0.6, 0.0, 0.0);
  WithCheck with(2);
  EXPECT_THROW(patch::check_eq84(g, kin, 10'000), Stop);  // 1e8 points, a poll per row of 10,000
}

TEST(Interrupt, Eq84AndEdgeSamplesAreBounded) {
  patch::PatchParams p;
  const patch::PatchGeometry g(p);
  const patch::PatchKinematics kin = patch::rolling(16.0, 0.6, 0.0, 0.0);
  EXPECT_THROW(patch::check_eq84(g, kin, patch::kMaxEq84Samples + 1), InvalidInput);
  EXPECT_THROW(patch::check_eq84(g, kin, 1), InvalidInput);
  const patch::Riemann r = patch::riemann(model().pair());
  EXPECT_THROW(patch::classify_edges(g, r, kin, -1), InvalidInput);  // was std::length_error from reserve()
  EXPECT_THROW(patch::classify_edges(g, r, kin, patch::kMaxEdgeSamples + 1), InvalidInput);
  EXPECT_THROW(patch::classify_edges(g, r, kin, 720, std::nan("")), InvalidInput);
}

}  // namespace
}  // namespace bristle
