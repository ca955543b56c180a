// The crawler (beyond paper 2): the limit's incremental minimisation against the two-foot closed form,
// the eps-systems' advance per cycle converging to the limit's, and bad input.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "bristle/core/error.hpp"
#include "bristle/directional/crawler.hpp"
#include "bristle/directional/drive.hpp"
#include "directional/directional_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace bristle::directional;

using bristle::test::message_of;

/// omega_+ = -omega_- = 0.5.
Mechanism bristle_foot(MechanismKind kind) { return test::default_mechanism(kind); }

TEST(Crawler, TwoFootLimitMatchesTheClosedForm) {
  for (const auto kind : {MechanismKind::slanted, MechanismKind::angular}) {
    const Mechanism foot = bristle_foot(kind);
    for (const double stroke : {0.05, 0.2, 0.5}) {
      CrawlerParams c;
      c.stroke_m = stroke;
      const auto run = crawl_limit(foot, c, 4, 2000);
      const double expected = two_foot_advance(foot.limit().rho_plus, foot.limit().rho_minus, c.k_a_N_per_m, stroke);
      EXPECT_NEAR(run.advance_per_cycle_m, expected, 1e-9) << to_string(kind) << ", stroke = " << stroke;
    }
  }
  // The slanted spring crawls leftward (rho_+ > -rho_-), the angular one rightward (errata).
  CrawlerParams c;
  EXPECT_LT(crawl_limit(bristle_foot(MechanismKind::slanted), c, 3).advance_per_cycle_m, 0.0);
  EXPECT_GT(crawl_limit(bristle_foot(MechanismKind::angular), c, 3).advance_per_cycle_m, 0.0);
  // Too short a stroke to overcome the stick band: no advance.
  c.stroke_m = 0.01;
  EXPECT_EQ(crawl_limit(bristle_foot(MechanismKind::angular), c, 3).advance_per_cycle_m, 0.0);
}

TEST(Crawler, LimitEnergyBalance) {
  // E_el(T) + D(T) = E_el(0) + int d_t E_el dt with d_t E_el = -sum_j k_a s_j L_j' (s_j the spring
  // extensions), the power integral computed independently by the trapezoid rule on the samples.
  const Mechanism foot = bristle_foot(MechanismKind::angular);
  CrawlerParams c;
  c.feet = 3;
  const int cycles = 3, steps = 8000;
  const auto run = crawl_limit(foot, c, cycles, steps);
  const auto& t = run.series.column("t_s");
  auto extension = [&](int j, std::size_t i) {
    return run.series.column(fmt::format("x{}_m", j + 2))[i] - run.series.column(fmt::format("x{}_m", j + 1))[i] -
           c.rest_length(j, t[i]);
  };
  double work = 0.0, previous = 0.0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    double power = 0.0;
    for (int j = 0; j + 1 < c.feet; ++j) power -= c.k_a_N_per_m * extension(j, i) * c.rest_length_rate(j, t[i]);
    if (i > 0) work += 0.5 * (t[i] - t[i - 1]) * (power + previous);
    previous = power;
  }
  double elastic_end = 0.0;
  for (int j = 0; j + 1 < c.feet; ++j) elastic_end += 0.5 * c.k_a_N_per_m * std::pow(extension(j, t.size() - 1), 2);
  const double D = run.series.column("D_J").back();
  EXPECT_GT(D, 0.3);
  EXPECT_NEAR(elastic_end + D, work, 1e-3 * D);
}

TEST(Crawler, EpsilonAdvanceConvergesToTheLimit) {
  const Mechanism foot = bristle_foot(MechanismKind::angular);
  std::printf("Crawler (angular bristle feet, omega = +-0.5, k_a = 10 N/m, stroke 0.2 m, gamma = 1): advance per "
              "cycle\n");
  for (const int feet : {2, 3}) {
    CrawlerParams c;
    c.feet = feet;
    const auto limit = crawl_limit(foot, c, 4, 4000);
    std::printf("  %d feet: limit law %.6f m/cycle%s\n", feet, limit.advance_per_cycle_m,
                feet == 2 ? " (closed form, crawler.hpp)" : "");
    std::printf("      eps      eps-system (m/cycle)   |difference|     steps    wall (s)\n");
    double previous = 1.0;
    for (const double eps : {1e-1, 1e-2, 1e-3}) {
      const auto run = crawl_epsilon(foot, c, {eps, 1.0}, 3);
      const double difference = std::abs(run.advance_per_cycle_m - limit.advance_per_cycle_m);
      std::printf("    %7.0e   %18.6f     %12.3e   %8ld   %7.2f\n", eps, run.advance_per_cycle_m, difference,
                  run.stats.steps, run.wall_seconds);
      // Each foot advances a whole number of wiggles per cycle and each of its two slides per cycle ends
      // within about a wiggle of the limit's stopping point: the difference is O(eps), up to ~2 eps.
      EXPECT_LT(difference, 3.0 * eps) << feet << " feet, eps = " << eps;
      if (eps < 1e-1) {
        EXPECT_LT(difference, previous);
      }
      previous = difference;
    }
  }
}

TEST(CrawlerErrors, BadInput) {
  CrawlerParams c;
  c.feet = 4;
  EXPECT_EQ(message_of([&] { c.validate(); }), "crawler.feet = 4: must be 2 or 3");
  c.feet = 2;
  c.phase_lag = 1.0;
  EXPECT_EQ(message_of([&] { c.validate(); }), "crawler.phase_lag = 1: must lie in [0, 1) (a fraction of the period)");
  c.phase_lag = 0.25;
  c.stroke_m = 0.0;
  EXPECT_EQ(message_of([&] { c.validate(); }), "crawler.stroke_m = 0: must be > 0");
  c.stroke_m = 0.2;
  EXPECT_EQ(message_of([&] { crawl_limit(bristle_foot(MechanismKind::angular), c, 1); }),
            "cycles = 1: must be >= 2 (the first is a transient)");
  // The eps-systems resolve every wiggle: 2 x 2 feet x 0.2 m x 3 cycles at eps = 1e-6 are 2.4e6 of them (hours),
  // refused before any work; the loop counts the driver's path the same way (helper-46: 27 min at eps = 1e-6).
  EXPECT_EQ(message_of([&] { crawl_epsilon(bristle_foot(MechanismKind::angular), c, {1e-6, 1.0}, 3); }),
            "epsilon = 1e-06: the eps-system would resolve 2.4e+06 wiggles (2 x feet x stroke_m x cycles = 2.4 m, "
            "over epsilon): at most 100000 (a larger epsilon or a shorter path)");
  const Mechanism m = bristle_foot(MechanismKind::angular);
  const Loading q = Loading::triangle(0.0, 0.8, 2.0, 1.0);  // 4 x 0.8 m of path
  EXPECT_EQ(message_of([&] { epsilon_loop(m, {1e-5, 1.0}, DriveParams{}, q, {0.0, 1.0, 2.0, 3.0}); }),
            "epsilon = 1e-05: the eps-system would resolve 3.2e+05 wiggles (the driver's path q over the output "
            "times = 3.2 m, over epsilon): at most 100000 (a larger epsilon or a shorter path)");
  // A custom loading's path is its variation over the output times: its rate is not sampled (turning_points at a
  // resolution of 1e-9 s refused the run, at 1e-6 s it took 0.6 s; helper-47): sum |sin t_i+1 - sin t_i|.
  const Loading custom = Loading::custom([](double t) { return std::sin(t); }, [](double t) { return std::cos(t); },
                                         1e-9);
  std::vector<double> times;
  double variation = 0.0;
  for (int i = 0; i <= 20; ++i) {
    times.push_back(0.1 * i);
    if (i > 0) variation += std::abs(std::sin(times[i]) - std::sin(times[i - 1]));
  }
  EXPECT_EQ(message_of([&] { epsilon_loop(m, {1e-6, 1.0}, DriveParams{}, custom, times); }),
            fmt::format("epsilon = 1e-06: the eps-system would resolve {:.3g} wiggles (the driver's path q over the "
                        "output times = {:.6g} m, over epsilon): at most 100000 (a larger epsilon or a shorter path)",
                        variation / 1e-6, variation));
}

}  // namespace
