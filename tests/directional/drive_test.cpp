// The bristle pulled through a horizontal spring (paper 2, §3, eqs. 3.1-3.3): force-displacement loops of
// the eps-systems approach the limit loop (a parallelogram between rho_- and rho_+), the spring force of
// the limit is the friction law of eq. 3.1, and the loading of eq. 3.3 keeps the gap.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numbers>
#include <string>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/directional/crawler.hpp"
#include "bristle/directional/drive.hpp"
#include "bristle/directional/epsilon_system.hpp"
#include "directional/directional_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace bristle::directional;

using bristle::test::message_of;

Mechanism make(MechanismKind kind) { return test::default_mechanism(kind); }

std::vector<double> grid(double t_end, int n) {
  std::vector<double> t;
  for (int i = 0; i <= n; ++i) t.push_back(t_end * i / n);
  return t;
}

TEST(Drive, LimitLoopIsTheDryFrictionParallelogram) {
  const Mechanism m = make(MechanismKind::slanted);
  const DriveParams drive{2.0, 0.3};
  const Loading q = Loading::triangle(0.3, 1.0, 4.0, 2.0);  // q in [-0.7, 1.3], starts at rest (F = 0)
  const auto loop = limit_loop(m, drive, q, grid(8.0, 8000));
  const auto& t = loop.series.column("t_s");
  const auto& u = loop.series.column("u_m");
  const auto& F = loop.series.column("F_N");
  for (std::size_t i = 1; i < t.size(); ++i) {
    EXPECT_NEAR(F[i], drive.k_h_N_per_m * (q.value(t[i]) - drive.rest_length_m - u[i]), 1e-13);
    EXPECT_LE(F[i], m.limit().rho_plus + 1e-13);  // eq. 3.1
    EXPECT_GE(F[i], m.limit().rho_minus - 1e-13);
    if (u[i] > u[i - 1] + 1e-12) {
      EXPECT_NEAR(F[i], m.limit().rho_plus, 1e-12);
    } else if (u[i] < u[i - 1] - 1e-12) {
      EXPECT_NEAR(F[i], m.limit().rho_minus, 1e-12);
    }
  }
  EXPECT_NEAR(u.front(), 0.0, 1e-15);  // at rest: u(0) = q(0) - L_h
  // One full loop (second cycle) dissipates (rho_+ - rho_-) times the sliding distance each way.
  const auto& D = loop.series.column("D_J");
  const double slide = 2.0 * 1.0 - (m.limit().rho_plus - m.limit().rho_minus) / drive.k_h_N_per_m;
  EXPECT_NEAR(D[7000] - D[3000], (m.limit().rho_plus - m.limit().rho_minus) * slide, 1e-12);
}

TEST(Drive, EpsilonLoopsApproachTheLimitLoop) {
  const DriveParams drive{1.0, 0.0};
  const Loading q = Loading::triangle(0.0, 0.8, 2.0, 1.0);
  const auto times = grid(2.0, 2000);
  std::printf("Force-displacement loops (driver triangle +-0.8 m, k_h = 1 N/m, period 2 s, gamma = 1):\n");
  std::printf("  mechanism    eps      max |F_eps - F_lim|   max |u_eps - u_lim|   D_eps(T) - D(T)\n");
  for (const auto kind : {MechanismKind::vertical, MechanismKind::slanted, MechanismKind::angular}) {
    const Mechanism m = make(kind);
    const auto limit = limit_loop(m, drive, q, times);
    double previous = 1.0;
    for (const double eps : {1e-1, 1e-2, 1e-3}) {
      const auto loop = epsilon_loop(m, {eps, 1.0}, drive, q, times);
      double dF = 0.0, du = 0.0;
      for (std::size_t i = 0; i < times.size(); ++i) {
        dF = std::max(dF, std::abs(loop.series.column("F_N")[i] - limit.series.column("F_N")[i]));
        du = std::max(du, std::abs(loop.series.column("u_m")[i] - limit.series.column("u_m")[i]));
      }
      const double dD = loop.series.column("D_J").back() - limit.series.column("D_J").back();
      std::printf("  %-9s %7.0e   %12.4e          %12.4e          %12.4e\n", std::string(to_string(kind)).c_str(), eps,
                  dF, du, dD);
      EXPECT_LT(du, previous) << to_string(kind);
      EXPECT_LT(du, 2.0 * eps) << to_string(kind);
      EXPECT_LT(std::abs(dD), 2.0 * eps) << to_string(kind);
      previous = du;
    }
  }
}

TEST(Drive, LoadingKeepsTheGap) {
  // l = k_h (q - L_h + gap): at F = 0 the state z = u + gap satisfies l = Phi'(z) = k_h z.
  const Mechanism m = make(MechanismKind::angular);
  const DriveParams drive{3.0, 0.2};
  const Loading l = drive_loading(m, drive, Loading::ramp(0.5, 0.0));
  const double u = 0.5 - 0.2;
  EXPECT_NEAR(l.value(0.0), 3.0 * (u + m.gap()), 1e-15);
  EXPECT_EQ(message_of([&] { drive_loading(m, DriveParams{0.0, 0.0}, Loading::ramp(0.0, 1.0)); }),
            "drive.k_h_N_per_m = 0: must be > 0 (Phi = k_h/2 z^2 must be uniformly convex; paper 2, eqs. 2.1 and "
            "3.3)");
  EXPECT_EQ(message_of([&] { measure_sliding_force(m, {1e-2, 1.0}, 0); }),
            "direction = 0: must be +1 (rightward) or -1 (leftward)");
}

}  // namespace

namespace {

/// Records the fractions a run reports and checks them (core/progress.hpp): positive, at least 0.5 % apart,
/// the last exactly 1.
struct Fractions {
  std::vector<double> seen;
  bristle::Progress callback() {
    return [this](double f) { seen.push_back(f); };
  }
  void expect_complete(std::size_t calls) const {
    ASSERT_EQ(seen.size(), calls);
    EXPECT_GT(seen.front(), 0.0);
    EXPECT_EQ(seen.back(), 1.0);
    for (std::size_t k = 1; k + 1 < seen.size(); ++k) EXPECT_GE(seen[k], seen[k - 1] + 0.005);
  }
};

TEST(Drive, ProgressAtOutputTimesLeavesTheRunUnchangedAndCanStopIt) {
  const Mechanism m = make(MechanismKind::slanted);
  const EpsilonParams eps{1e-2, 1.0};
  const bristle::integrate::Options options = WigglySystem::default_options(eps.epsilon);
  struct Stop {};

  // epsilon_loop (through WigglySystem::run): at the output times, fraction (t - t0) / (t_end - t0), every
  // output time here (2 % apart) but the first (t = t0, nothing done).
  const DriveParams drive{1.0, 0.0};
  const Loading q = Loading::triangle(0.0, 0.8, 2.0, 1.0);
  const auto times = grid(2.0, 50);
  Fractions loop_progress;
  const Loop with = epsilon_loop(m, eps, drive, q, times, options, loop_progress.callback());
  const Loop without = epsilon_loop(m, eps, drive, q, times, options);
  EXPECT_EQ(with.series.columns, without.series.columns);
  loop_progress.expect_complete(times.size() - 1);
  EXPECT_EQ(loop_progress.seen[24], 0.5);
  int calls = 0;
  EXPECT_THROW(epsilon_loop(m, eps, drive, q, times, options,
                            [&](double f) {
                              ++calls;
                              if (f >= 0.25) throw Stop{};
                            }),
               Stop);
  EXPECT_EQ(calls, 13);  // t = 0.04, 0.08, ..., 0.52 s

  // measure_sliding_force: at its samples and, the method being adaptive, at 100 outputs of its own in the
  // transient wiggles (half the run here), which change nothing in the result.
  SlidingOptions sliding;
  sliding.transient_wiggles = 2;
  sliding.averaged_wiggles = 2;
  sliding.samples_per_wiggle = 8;
  Fractions sliding_progress;
  const SlidingForce f = measure_sliding_force(m, eps, +1, sliding, options, sliding_progress.callback());
  const SlidingForce plain = measure_sliding_force(m, eps, +1, sliding, options);
  EXPECT_EQ(f.mean_N, plain.mean_N);
  EXPECT_EQ(f.min_N, plain.min_N);
  EXPECT_EQ(f.max_N, plain.max_N);
  EXPECT_EQ(f.stats.steps, plain.stats.steps);
  sliding_progress.expect_complete(sliding_progress.seen.size());
  EXPECT_GE(sliding_progress.seen.size(), 17u + 40u);
  EXPECT_LE(sliding_progress.seen.front(), 0.01);  // reported from the start of the transient
  // a fixed-step method: its grid restarts at every output, so no outputs are added (samples only)
  bristle::integrate::Options fixed;
  fixed.method = bristle::integrate::Method::sdirk2;
  fixed.dt_s = 1e-5;
  Fractions fixed_progress;
  (void)measure_sliding_force(m, eps, +1, sliding, fixed, fixed_progress.callback());
  fixed_progress.expect_complete(17);
  EXPECT_EQ(fixed_progress.seen.front(), 0.5);

  // crawl_epsilon: at its samples but t = 0, fraction t / (cycles T).
  CrawlerParams crawler;
  Fractions crawl_progress;
  const CrawlerRun crawl = crawl_epsilon(m, crawler, {1e-1, 1.0}, 2, 20, crawl_progress.callback());
  crawl_progress.expect_complete(40);
  EXPECT_EQ(crawl.advance_per_cycle_m, crawl_epsilon(m, crawler, {1e-1, 1.0}, 2, 20).advance_per_cycle_m);
}

}  // namespace
