#pragma once
// A bristle pulled through a horizontal spring (paper 2, §3 "The limit system", Fig. 1, eqs. 3.1-3.3).
//
// The driver moves one end of a horizontal spring (stiffness k_h, rest length L_h) along q(t); the other
// end u carries the bristle. With z = u + gap (mechanism.hpp),
//
//   E = k_h/2 (L_h - q(t) + u)^2  =  Phi(z) - l(t) z + const,
//   Phi(z) = k_h/2 z^2,   l(t) = k_h (q(t) - L_h + gap)                               eq. 3.3
//
// NOTE: eq. 3.3 prints l(t) = k_h (q(t) - L_h), i.e. it drops the constant gap of z = u + c; expanding
// the square with u = z - gap gives the extra k_h gap, which we keep (it shifts the load, not rho_+-).
// The spring force on the bristle's root is F = k_h (q - L_h - u) = l(t) - Phi'(z): in the limit it is
// the friction force of eq. 3.1 (F = rho_+ while sliding right, rho_- while sliding left).
//
// measure_sliding_force() drives the eps-system at constant speed and averages F over whole wiggles once
// the stick-slip has settled: rho_+- "from simulation", to be compared with alpha mu_+- (eq. 2.17).
// epsilon_loop() and limit_loop() give the force-displacement loops of a driver moved back and forth.
//
// | key            | meaning                               | unit | range |
// |----------------|---------------------------------------|------|-------|
// | k_h_N_per_m    | horizontal spring stiffness k_h       | N/m  | > 0   |
// | rest_length_m  | horizontal spring rest length L_h     | m    | finite|
#include <string_view>
#include <vector>

#include "bristle/core/schema.hpp"
#include "bristle/core/progress.hpp"
#include "bristle/core/time_series.hpp"
#include "bristle/directional/energy.hpp"
#include "bristle/directional/epsilon_system.hpp"
#include "bristle/directional/limit_system.hpp"
#include "bristle/directional/mechanism.hpp"
#include "bristle/integrate/ode.hpp"

namespace bristle::directional {

struct DriveParams {
  double k_h_N_per_m = 1.0;
  double rest_length_m = 0.0;
  void validate(std::string_view prefix = "drive") const;
};

/// The schema of DriveParams (core/schema.hpp): the horizontal spring of [drive] (its rules are validate()'s).
template <class Archive, schema::Of<DriveParams> Self>
void serialize(Archive& a, Self& p) {
  a.number(p.k_h_N_per_m, {.key = "k_h_N_per_m", .unit = "N/m", .default_value = "1", .range = schema::finite(),
                           .doc = "stiffness k_h > 0 of the horizontal spring", .equation = "paper 2, eq. 3.3",
                           .log_scale = true});
  a.number(p.rest_length_m, {.key = "rest_length_m", .unit = "m", .default_value = "0", .range = schema::finite(),
                             .doc = "rest length L_h of the horizontal spring", .equation = "paper 2, eq. 3.3"});
}

/// l(t) = k_h (q(t) - L_h + gap) (eq. 3.3 with the gap kept).
Loading drive_loading(const Mechanism& mechanism, const DriveParams& drive, const Loading& q);

struct SlidingOptions {
  double k_h_N_per_m = 1.0;    // Phi = k_h/2 z^2
  double speed_mps = 1.0;      // driver speed
  int transient_wiggles = 8;   // wiggles simulated before averaging
  int averaged_wiggles = 16;   // whole wiggles averaged over
  int samples_per_wiggle = 64; // output samples (for min/max of F)
};

/// The schema of SlidingOptions (core/schema.hpp); measure_sliding_force checks them and bounds their work.
template <class Archive, schema::Of<SlidingOptions> Self>
void serialize(Archive& a, Self& o) {
  using schema::Type;
  a.number(o.k_h_N_per_m, {.key = "k_h_N_per_m", .unit = "N/m", .default_value = "1", .range = schema::positive(),
                           .doc = "stiffness of the driving spring, Phi = k_h/2 z^2", .log_scale = true});
  a.number(o.speed_mps, {.key = "speed_mps", .unit = "m/s", .default_value = "1", .range = schema::positive(),
                         .doc = "driver speed", .log_scale = true});
  a.integer(o.transient_wiggles, {.key = "transient_wiggles", .type = Type::integer, .default_value = "8",
                                  .range = schema::at_least(1), .doc = "wiggles simulated before averaging"});
  a.integer(o.averaged_wiggles, {.key = "averaged_wiggles", .type = Type::integer, .default_value = "16",
                                 .range = schema::at_least(1), .doc = "whole wiggles averaged over"});
  a.integer(o.samples_per_wiggle, {.key = "samples_per_wiggle", .type = Type::integer, .default_value = "64",
                                   .range = schema::at_least(2), .doc = "output samples per wiggle (min/max of F)"});
}

struct SlidingForce {
  double mean_N = 0.0;     // time average of F over the averaged wiggles
  double min_N = 0.0, max_N = 0.0;  // sampled extremes of F there
  double limit_N = 0.0;    // rho_+ or rho_- (eq. 2.17)
  double simulated_s = 0.0;
  integrate::Stats stats;
  double wall_seconds = 0.0;
};

/// Drives the eps-system of `mechanism` (eps, gamma) at constant speed in `direction` (+1 right, -1 left)
/// starting on the limit's sliding edge, and averages the spring force over `averaged_wiggles` whole
/// wiggles (period eps / speed in time) after `transient_wiggles`.
SlidingForce measure_sliding_force(const Mechanism& mechanism, const EpsilonParams& eps, int direction,
                                   const SlidingOptions& options = {});
/// `progress` as in WigglySystem::run; with an adaptive method also during the transient wiggles (100 extra
/// outputs there, which do not change the result), with a fixed-step one only from the averaging on.
SlidingForce measure_sliding_force(const Mechanism& mechanism, const EpsilonParams& eps, int direction,
                                   const SlidingOptions& options, const integrate::Options& integrator,
                                   const Progress& progress = {});

/// A force-displacement record: columns t_s, q_m, u_m, p_m (tip), angle_rad, F_N, D_J (dissipated).
struct Loop {
  TimeSeries series;
  integrate::Stats stats;  // empty for the limit
  double wall_seconds = 0.0;
};

/// The eps-system driven along q(t), starting at rest (F = 0): u(0) = q(0) - L_h.
Loop epsilon_loop(const Mechanism& mechanism, const EpsilonParams& eps, const DriveParams& drive, const Loading& q,
                  const std::vector<double>& times);
Loop epsilon_loop(const Mechanism& mechanism, const EpsilonParams& eps, const DriveParams& drive, const Loading& q,
                  const std::vector<double>& times, const integrate::Options& integrator,
                  const Progress& progress = {});  // as in WigglySystem::run
/// The limit system (exact play operator) driven along q(t), starting at rest.
Loop limit_loop(const Mechanism& mechanism, const DriveParams& drive, const Loading& q,
                const std::vector<double>& times);

}  // namespace bristle::directional
