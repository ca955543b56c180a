// The 1-D fast path of the benches (Bench::x_system, taken by contact::run with rodas4 when the y
// components stay exactly zero) against the full 2-D system: its right-hand side, Jacobian and switches
// are the full system's bitwise; runs take the same steps and give the same rows to rounding for several
// laws, rheologies, drives and inputs; and the path is not taken where the y components do not stay zero
// (a y input, anisotropic friction, a coupled rheology, a non-zero initial y state). The compiled scalar
// kernel that run() takes for elastic pairs is tested against this path in bench_kernel_test.cpp.
//
// "To rounding": the two runs differ only in the arithmetic of the linear solves (6 vs 10 unknowns; in
// the full system the difference quotient in v_y puts spurious non-zero entries into the x rows, which
// change the pivoting and the rounding, not the exact solution). How much a rounding difference moves
// the rows is measured on the full system itself, by changing rtol in its last bits (4e-16 relative):
// the fast path must stay within 10 times that spread (it is 0 for the velocity drive, which has no v_y
// column, and 1e-9 ... 2.5e-5 for the others).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "bristle/contact/bench.hpp"
#include "contact/bench_test_support.hpp"

namespace bristle::contact {
namespace {

using laws::LawKind;
using laws::LawParams;
using laws::StribeckParams;
namespace rh = bristle::rheology;

using test::grid;
using test::rodas4;
using test::spring;

LawParams law(LawKind kind) {
  LawParams p;
  p.kind = kind;
  p.M.axis1 = StribeckParams{1.5, 1.0, 1e-3, 2.0, 0.0};
  if (kind == LawKind::dahl) p.M.axis1.mu_s = p.M.axis1.mu_d;
  if (kind == LawKind::lugre) {
    p.sigma1 = std::sqrt(1e5) * Mat2::Identity();
    p.sigma2 = 0.4 * Mat2::Identity();
  }
  if (kind == LawKind::bouc_wen) {
    p.A = 1.0;
    p.beta1 = 1e8;
    p.gamma = 1e7;
  }
  return p;
}

BenchParams force_drive() {
  BenchParams p;
  p.drive = DriveKind::force;
  p.mass_kg = 0.5;
  p.input_x.kind = SignalKind::sine;
  p.input_x.amplitude = 2.0;
  p.input_x.omega = 3.0;
  return p;
}

BenchParams velocity_drive() {
  BenchParams p;
  p.drive = DriveKind::velocity;
  p.input_x.kind = SignalKind::sine;
  p.input_x.offset = 1e-3;
  p.input_x.amplitude = 2e-3;
  p.input_x.omega = 5.0;
  return p;
}

struct Case {
  std::string name;
  LawParams law;
  rh::RheologyParams body1, body2;
  BenchParams bench;
  double t_end;
};

/// Largest |a - b| over every row and column, relative to the column's largest |b| (at least 1e-300).
double max_relative_difference(const TimeSeries& a, const TimeSeries& b) {
  double worst = 0.0;
  for (std::size_t c = 0; c < b.columns.size(); ++c) {
    double scale = 1e-300, diff = 0.0;
    for (std::size_t i = 0; i < b.rows(); ++i) {
      scale = std::max(scale, std::abs(b.columns[c][i]));
      diff = std::max(diff, std::abs(a.columns[c][i] - b.columns[c][i]));
    }
    worst = std::max(worst, diff / scale);
  }
  return worst;
}

// Horizons end before the spring drives' first slips multiply the rounding spread further.
TEST(XOnlyFastPath, SameTrajectoryAsTheFullSystem) {
  const std::vector<Case> cases = {
      {"lugre stick-slip, elastic/rigid", law(LawKind::lugre), rh::elastic(1e5), rh::rigid(), spring(0.1), 9.0},
      {"lugre stick-slip, gkv/elastic", law(LawKind::lugre), rh::gkv(1e5, {50.0}, {1e-3}), rh::elastic(2e5),
       spring(0.1), 9.0},
      {"frbd, force drive, gm/rigid", law(LawKind::frbd), rh::gm(5e4, {5e4}, {2e-3}), rh::rigid(), force_drive(),
       2.0},
      {"dahl, velocity drive", law(LawKind::dahl), rh::elastic(1e5), rh::rigid(), velocity_drive(), 3.0},
      {"bouc-wen, spring drive", law(LawKind::bouc_wen), rh::elastic(1e5), rh::rigid(), spring(0.05), 2.0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const ContactModel model(c.law, c.body1, c.body2);
    const Bench bench(model, c.bench);
    const std::vector<double> times = grid(0.0, c.t_end, 1000);
    for (double rtol : {1e-3, 1e-6}) {
      const BenchRun fast = run(bench, times, rodas4(rtol), {}, {}, true, false);  // not the scalar kernel
      const BenchRun full = run(bench, times, rodas4(rtol), {}, {}, false);
      ASSERT_TRUE(fast.x_only);
      ASSERT_FALSE(full.x_only);
      // The x system and the full one differ only by rounding (their linear algebra has different sizes;
      // their functions are bitwise the same, FunctionsAreTheFullSystemsRestricted). The full system's own
      // sensitivity to rounding: its runs with rtol changed in the last bits, three ways; the x system stays
      // within ten times the widest of these spreads, or, where a rounding flip changed the step sequence
      // (an attempt whose scaled error is 1 to rounding goes either way), within the tolerance rtol: the
      // frbd/gm case at rtol 1e-6 shows 339/341 steps, 17/20 rejections and a difference of 6.8e-7 against
      // a nudged spread of 6.1e-8. Step counts: within the nudged runs' range, widened by 2 accepted steps
      // and by 3 + 10 % rejected attempts.
      double own = 0.0;
      long steps_lo = full.stats.steps, steps_hi = full.stats.steps;
      long fails_lo = full.stats.error_test_failures, fails_hi = full.stats.error_test_failures;
      for (double nudge : {1.0 + 4e-16, 1.0 - 4e-16, 1.0 + 1.2e-15}) {
        const BenchRun nudged = run(bench, times, rodas4(rtol * nudge), {}, {}, false);
        own = std::max(own, max_relative_difference(nudged.series, full.series));
        steps_lo = std::min(steps_lo, nudged.stats.steps);
        steps_hi = std::max(steps_hi, nudged.stats.steps);
        fails_lo = std::min(fails_lo, nudged.stats.error_test_failures);
        fails_hi = std::max(fails_hi, nudged.stats.error_test_failures);
      }
      const double diff = max_relative_difference(fast.series, full.series);
      const bool same_sequence = fast.stats.steps == full.stats.steps &&
                                 fast.stats.error_test_failures == full.stats.error_test_failures;
      EXPECT_LE(diff, std::max(1e-12, same_sequence ? 10.0 * own : std::max(10.0 * own, rtol)))
          << "rtol " << rtol << ": the full system's own spread " << own << (same_sequence ? "" : ", another step sequence");
      EXPECT_GE(fast.stats.steps, steps_lo - 2) << "rtol " << rtol;
      EXPECT_LE(fast.stats.steps, steps_hi + 2) << "rtol " << rtol;
      EXPECT_GE(fast.stats.error_test_failures, fails_lo - 3 - fails_lo / 10) << "rtol " << rtol;
      EXPECT_LE(fast.stats.error_test_failures, fails_hi + 3 + fails_hi / 10) << "rtol " << rtol;
      EXPECT_EQ(fast.stats.restarts, full.stats.restarts) << "rtol " << rtol;
      for (const char* y : {"y_m", "vy_mps", "Fy_N", "f_y", "z_y_m"})
        for (double value : fast.series.column(y)) ASSERT_EQ(value, 0.0) << y;
    }
  }
}

// The x subsystem's right-hand side, Jacobian and switches are the full system's, restricted: bitwise, at
// states along a stick-slip run (sticking, slipping, reversing).
TEST(XOnlyFastPath, FunctionsAreTheFullSystemsRestricted) {
  const ContactModel model(law(LawKind::lugre), rh::elastic(1e5), rh::rigid());
  const Bench bench(model, spring(0.1));
  const integrate::OdeSystem full = bench.system(), reduced = bench.x_system();
  const std::vector<int> keep = bench.x_components();
  const int n = full.size, r = reduced.size;
  ASSERT_EQ(r, 6);
  ASSERT_EQ(reduced.error_norm_count, n);
  const BenchRun ref = run(bench, grid(0.0, 30.0, 300), rodas4(1e-6), {}, {}, false);
  for (std::size_t row = 0; row < ref.series.rows(); row += 7) {
    // The full state from the recorded columns: x, v, x_p = x + F_applied / k, f, energies.
    VecX s = VecX::Zero(n);
    const auto at = [&](const char* c) { return ref.series.column(c)[row]; };
    const double t = at("t_s");
    s[0] = at("x_m");
    s[2] = at("v_mps");
    s[4] = at("x_m") + at("F_applied_N") / 2.0;
    s[6] = at("f_x");
    s[8] = at("E_supplied_J");
    s[9] = at("E_dissipated_J");
    VecX sr(r);
    for (int i = 0; i < r; ++i) sr[i] = s[keep[i]];
    VecX df(n), dr(r);
    full.rhs(t, s.data(), df.data());
    reduced.rhs(t, sr.data(), dr.data());
    for (int i = 0; i < r; ++i) ASSERT_EQ(dr[i], df[keep[i]]) << "t = " << t << ", component " << keep[i];
    for (int i = 1; i < 8; i += 2) ASSERT_EQ(df[i], 0.0) << "y derivative " << i << " at t = " << t;
    MatX jf(n, n), jr(r, r);
    full.jacobian(t, s.data(), jf.data());
    reduced.jacobian(t, sr.data(), jr.data());
    for (int j = 0; j < r; ++j)
      for (int i = 0; i < r; ++i) ASSERT_EQ(jr(i, j), jf(keep[i], keep[j])) << "t = " << t;
    // The y rows of the x columns are exactly zero: the y components never feel the x ones.
    for (int j : keep)
      for (int i = 1; i < 8; i += 2) ASSERT_EQ(jf(i, j), 0.0) << "J(" << i << ", " << j << ") at t = " << t;
    std::vector<double> gf(static_cast<std::size_t>(full.switch_count)), gr(static_cast<std::size_t>(reduced.switch_count));
    full.switches(t, s.data(), gf.data());
    reduced.switches(t, sr.data(), gr.data());
    ASSERT_EQ(gr.size() + 1, gf.size());
    EXPECT_EQ(gr[0], gf[0]);
    EXPECT_EQ(gf[1], 0.0);
  }
}

TEST(XOnlyFastPath, NotTakenWhereYDoesNotStayZero) {
  const std::vector<double> times = grid(0.0, 2.0, 200);
  const ContactModel isotropic(law(LawKind::lugre), rh::elastic(1e5), rh::rigid());
  {  // a y input: a 2-D run
    BenchParams p = spring(0.1);
    p.input_y = Signal::constant_value(0.05);
    const Bench bench(isotropic, p);
    const BenchRun r = run(bench, times, rodas4(1e-5));
    EXPECT_FALSE(r.x_only);
    EXPECT_GT(std::abs(r.series.column("y_m").back()), 1e-7);
  }
  {  // a non-zero initial y velocity
    BenchParams p = spring(0.1);
    p.v0 = Vec2(0.0, 0.01);
    EXPECT_FALSE(Bench(isotropic, p).x_only(Bench(isotropic, p).initial_state()));
  }
  {  // anisotropic friction rotated off the axes: x input, but y force
    LawParams l = law(LawKind::frbd);
    l.M.anisotropic = true;
    l.M.axis2 = StribeckParams{0.5, 0.3, 1e-3, 2.0, 0.0};
    l.M.angle_rad = 0.3;
    const ContactModel model(l, rh::elastic(1e5), rh::rigid());
    const Bench bench(model, spring(0.1));
    EXPECT_FALSE(model.axes_decoupled());
    const BenchRun r = run(bench, times, rodas4(1e-5));
    EXPECT_FALSE(r.x_only);
    EXPECT_GT(std::abs(r.series.column("Fy_N").back()), 1e-5);
  }
  {  // a bristle stiffness coupling x and y
    rh::RheologyParams body = rh::elastic(1e5);
    body.k_elastic << 1e5, 3e4, 3e4, 1e5;
    const ContactModel model(law(LawKind::lugre), body, rh::rigid());
    EXPECT_FALSE(model.axes_decoupled());
    const BenchRun r = run(Bench(model, spring(0.1)), times, rodas4(1e-5));
    EXPECT_FALSE(r.x_only);
    EXPECT_GT(std::abs(r.series.column("f_y").back()), 1e-6);
  }
  {  // cvode_bdf never takes it (its error norm counts the components)
    integrate::Options o = rodas4(1e-5);
    o.method = integrate::Method::cvode_bdf;
    EXPECT_FALSE(run(Bench(isotropic, spring(0.1)), times, o).x_only);
  }
}

}  // namespace
}  // namespace bristle::contact
