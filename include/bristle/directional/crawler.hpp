#pragma once
// A crawler on a wiggly surface (beyond paper 2; cf. its §1 and ref. [21], Noselli & DeSimone 2014).
//
// n = 2 or 3 feet at x_1 < ... < x_n; consecutive feet are joined by actuated springs (stiffness k_a)
// whose rest lengths cycle,
//
//   L_j(t) = L0 + (stroke/2) (1 - cos(2 pi t / T - 2 pi phase_lag (j - 1))),   j = 1..n-1,
//
// and every foot touches the surface through the same bristle (mechanism.hpp). The elastic energy is
// E_el(t, x) = sum_j k_a/2 (x_{j+1} - x_j - L_j(t))^2. The feet start at rest with every spring relaxed:
// x_1 = 0, x_{j+1} = x_j + L_j(0).
//
//   eps-system   eps^gamma x_i' = -d_i E_el(t, x) - V_eps'(x_i + gap)                   (eq. 2.8 per foot)
//   limit        0 in dR(x_i') + d_i E_el(t, x),  R of eq. 2.2 with the bristle's rho_+-   (eq. 2.3 per foot)
//
// E_el is invariant under translations, so the theory of paper 2 (uniformly convex Phi) does not cover
// this system as a whole; the limit is still a convex rate-independent problem, solved here by
// incremental minimisation: at each time step x^{k+1} = argmin E_el(t_{k+1}, x) + sum_i R(x_i - x_i^k),
// found exactly by enumerating the 3^n stick/slide-right/slide-left patterns and checking the KKT
// conditions (a convex problem: the KKT point is the minimiser).
//
// For two feet the limit has a closed form: the spring force S = k_a (x_2 - x_1 - L) is confined to
// [max(rho_-, -rho_+), min(rho_+, -rho_-)], and each stroke moves one foot in the easy direction, so
//   advance per cycle = max(0, stroke - (min(rho_+, -rho_-) - max(rho_-, -rho_+)) / k_a) (signed).
//
// | key            | meaning                                   | unit | range   |
// |----------------|-------------------------------------------|------|---------|
// | feet           | number of feet                            | -    | 2 or 3  |
// | k_a_N_per_m    | actuated spring stiffness                 | N/m  | > 0     |
// | rest_length_m  | L0                                        | m    | > 0     |
// | stroke_m       | stroke of the rest length                 | m    | > 0     |
// | period_s       | actuation period T                        | s    | > 0     |
// | phase_lag      | lag between successive springs (periods)  | -    | [0, 1)  |
#include <string_view>

#include "bristle/core/schema.hpp"
#include "bristle/core/progress.hpp"
#include "bristle/core/time_series.hpp"
#include "bristle/directional/epsilon_system.hpp"
#include "bristle/directional/mechanism.hpp"
#include "bristle/integrate/ode.hpp"

namespace bristle::directional {

struct CrawlerParams {
  int feet = 2;
  double k_a_N_per_m = 10.0;
  double rest_length_m = 1.0;
  double stroke_m = 0.2;
  double period_s = 1.0;
  double phase_lag = 0.25;

  void validate(std::string_view prefix = "crawler") const;
  double rest_length(int spring, double t) const;  // L_j(t), spring = 0..feet-2
  double rest_length_rate(int spring, double t) const;
};

/// The schema of CrawlerParams (core/schema.hpp): the [crawler] table (its rules are validate()'s).
template <class Archive, schema::Of<CrawlerParams> Self>
void serialize(Archive& a, Self& p) {
  using schema::Type;
  a.integer(p.feet, {.key = "feet", .type = Type::integer, .default_value = "2", .doc = "number of feet: 2 or 3"});
  a.number(p.k_a_N_per_m, {.key = "k_a_N_per_m", .unit = "N/m", .default_value = "10", .range = schema::finite(),
                           .doc = "stiffness of the actuated springs between the feet", .log_scale = true});
  a.number(p.rest_length_m, {.key = "rest_length_m", .unit = "m", .default_value = "1", .range = schema::finite(),
                             .doc = "mean rest length of the actuated springs"});
  a.number(p.stroke_m, {.key = "stroke_m", .unit = "m", .default_value = "0.2", .range = schema::finite(),
                        .doc = "amplitude of the rest length's oscillation"});
  a.number(p.period_s, {.key = "period_s", .unit = "s", .default_value = "1", .range = schema::finite(),
                        .doc = "period of the gait"});
  a.number(p.phase_lag, {.key = "phase_lag", .default_value = "0.25", .range = schema::finite(),
                         .doc = "phase lag between the springs, in [0, 1) periods"});
}

struct CrawlerRun {
  /// Columns: t_s, x1_m, ..., xn_m, center_m, D_J (dissipated energy).
  TimeSeries series;
  double advance_per_cycle_m = 0.0;  // center displacement per cycle, averaged over cycles 2..N
  integrate::Stats stats;            // eps-system only
  double wall_seconds = 0.0;
};

/// The most cycles of a crawler run, and the most rows (cycles x samples or steps per cycle, held in memory).
inline constexpr int kMaxCrawlCycles = 1000;
inline constexpr double kMaxCrawlRows = 1e7;

/// The eps-system over `cycles` periods (>= 2), sampled `samples_per_cycle` times per period. `progress`: the
/// fraction of the run done at the samples, as core/progress.hpp says.
CrawlerRun crawl_epsilon(const Mechanism& bristle, const CrawlerParams& crawler, const EpsilonParams& eps, int cycles,
                         int samples_per_cycle = 200, const Progress& progress = {});
/// The limit by exact incremental minimisation with `steps_per_cycle` steps per period.
CrawlerRun crawl_limit(const Mechanism& bristle, const CrawlerParams& crawler, int cycles,
                       int steps_per_cycle = 2000);
/// The closed-form advance per cycle of the two-footed limit crawler (signed: > 0 rightward).
double two_foot_advance(double rho_plus, double rho_minus, double k_a, double stroke);

}  // namespace bristle::directional
