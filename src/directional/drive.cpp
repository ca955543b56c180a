// A bristle pulled through a horizontal spring (paper 2, §3, eqs. 3.1-3.3).
#include "bristle/directional/drive.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <limits>

#include "bristle/core/error.hpp"

namespace bristle::directional {

void DriveParams::validate(std::string_view prefix) const {
  const std::string p = prefix.empty() ? "" : fmt::format("{}.", prefix);
  require_finite(p + "k_h_N_per_m", k_h_N_per_m);
  if (!(k_h_N_per_m > 0.0))
    throw InvalidInput(fmt::format("{}k_h_N_per_m = {}: must be > 0 (Phi = k_h/2 z^2 must be uniformly convex; paper 2, "
                                   "eqs. 2.1 and 3.3)",
                                   p, format_value(k_h_N_per_m)));
  require_finite(p + "rest_length_m", rest_length_m);
}

Loading drive_loading(const Mechanism& mechanism, const DriveParams& drive, const Loading& q) {
  drive.validate();
  // l = k_h (q - L_h + gap), eq. 3.3 with the gap of z = u + gap kept (see drive.hpp).
  return q.affine(drive.k_h_N_per_m, drive.k_h_N_per_m * (mechanism.gap() - drive.rest_length_m));
}

SlidingForce measure_sliding_force(const Mechanism& mechanism, const EpsilonParams& eps, int direction,
                                   const SlidingOptions& options) {
  return measure_sliding_force(mechanism, eps, direction, options, WigglySystem::default_options(eps.epsilon));
}

SlidingForce measure_sliding_force(const Mechanism& mechanism, const EpsilonParams& eps, int direction,
                                   const SlidingOptions& options, const integrate::Options& integrator,
                                   const Progress& progress) {
  eps.validate();
  if (direction != 1 && direction != -1)
    throw InvalidInput(fmt::format("direction = {}: must be +1 (rightward) or -1 (leftward)", direction));
  require_positive("sliding.k_h_N_per_m", options.k_h_N_per_m);
  require_positive("sliding.speed_mps", options.speed_mps);
  if (options.transient_wiggles < 1 || options.averaged_wiggles < 1 || options.samples_per_wiggle < 2)
    throw InvalidInput(fmt::format("sliding: transient_wiggles = {}, averaged_wiggles = {} (must be >= 1), "
                                   "samples_per_wiggle = {} (must be >= 2)",
                                   options.transient_wiggles, options.averaged_wiggles, options.samples_per_wiggle));
  // Each wiggle is resolved by the integrator (~0.6 ms) and each sample is held: 10^9 samples per wiggle
  // failed in vector::reserve with a message naming no key.
  constexpr double kMaxSamples = 1e7;
  if (double(options.transient_wiggles) + options.averaged_wiggles > kMaxWiggles ||
      double(options.averaged_wiggles) * options.samples_per_wiggle > kMaxSamples)
    throw InvalidInput(fmt::format("sliding: transient_wiggles = {}, averaged_wiggles = {}, samples_per_wiggle = {}: "
                                   "at most {:g} wiggles and {:g} samples (averaged_wiggles x samples_per_wiggle)",
                                   options.transient_wiggles, options.averaged_wiggles, options.samples_per_wiggle,
                                   kMaxWiggles, kMaxSamples));
  const auto& limit = mechanism.limit();
  const double rho = direction > 0 ? limit.rho_plus : limit.rho_minus;
  const double k = options.k_h_N_per_m, v = options.speed_mps * direction;
  // Start at z = 0 on the sliding edge of the limit: l(0) - Phi'(0) = rho, then l' = k v.
  const Loading l = Loading::ramp(rho, k * v);
  const WigglySystem system(WigglyPotential(mechanism, eps.epsilon), ConvexEnergy({k, 0.0}), l, eps.gamma);
  const double period = eps.epsilon / options.speed_mps;  // one wiggle, in time
  const double t1 = options.transient_wiggles * period;
  const int samples = options.averaged_wiggles * options.samples_per_wiggle;
  std::vector<double> times;
  // With a progress callback and an adaptive method (whose steps do not depend on the output times), the
  // transient gets 100 outputs of its own, only for progress (and so Ctrl-C) there; they are not averaged.
  const int transient_outputs = progress && integrate::is_adaptive(integrator.method) ? 100 : 0;
  times.reserve(static_cast<std::size_t>(transient_outputs + samples) + 1);
  for (int i = 1; i <= transient_outputs; ++i) times.push_back(t1 * (i - 1) / transient_outputs);
  for (int i = 0; i <= samples; ++i) times.push_back(t1 + options.averaged_wiggles * period * i / samples);
  const auto run = system.run(0.0, 0.0, times, integrator, progress);
  const auto first = static_cast<std::size_t>(transient_outputs);  // the first averaged sample
  const auto& impulse = run.series.column("I_Ns");
  const auto& force = run.series.column("F_N");
  const auto averaged = force.begin() + static_cast<std::ptrdiff_t>(first);
  SlidingForce out;
  out.mean_N = (impulse.back() - impulse[first]) / (times.back() - times[first]);
  out.min_N = *std::min_element(averaged, force.end());
  out.max_N = *std::max_element(averaged, force.end());
  out.limit_N = rho;
  out.simulated_s = times.back();
  out.stats = run.stats;
  out.wall_seconds = run.wall_seconds;
  return out;
}

namespace {
/// The distance q(t) travels over [a, b], without sampling its rate (turning_points of a custom loading may take 1e8
/// calls): exact between the kinks of a piecewise-linear loading (table, ramp, triangle), the bound
/// 4 |amplitude| (periods + 1) for a sine, and for a custom loading its variation over the output `times` (a
/// lower bound: the integrator's step budget covers the rest).
double driver_path(const Loading& q, double a, double b, const std::vector<double>& times) {
  const Loading::Recipe& r = q.recipe();
  if (r.kind == "affine") return std::abs(r.numbers[0]) * driver_path(*r.base, a, b, times);
  if (r.kind == "sine") return 4.0 * std::abs(r.numbers[1]) * ((b - a) / r.numbers[2] + 1.0);
  std::vector<double> points{a, b};
  for (const double t : r.kind == "custom" ? times : q.kinks())
    if (t > a && t < b) points.push_back(t);
  std::sort(points.begin(), points.end());
  double path = 0.0;
  for (std::size_t i = 1; i < points.size(); ++i) path += std::abs(q.value(points[i]) - q.value(points[i - 1]));
  return path;
}
}  // namespace

Loop epsilon_loop(const Mechanism& mechanism, const EpsilonParams& eps, const DriveParams& drive, const Loading& q,
                  const std::vector<double>& times) {
  return epsilon_loop(mechanism, eps, drive, q, times, WigglySystem::default_options(eps.epsilon));
}

Loop epsilon_loop(const Mechanism& mechanism, const EpsilonParams& eps, const DriveParams& drive, const Loading& q,
                  const std::vector<double>& times, const integrate::Options& integrator,
                  const Progress& progress) {
  eps.validate();
  drive.validate();
  if (times.empty()) throw InvalidInput("times: empty; at least one output time is required");
  const double t0 = std::min(0.0, times.front());
  require_wiggles(driver_path(q, t0, std::max(t0, times.back()), times), eps.epsilon,
                  "the driver's path q over the output times");
  const WigglyPotential V(mechanism, eps.epsilon);
  const WigglySystem system(V, ConvexEnergy({drive.k_h_N_per_m, 0.0}), drive_loading(mechanism, drive, q), eps.gamma);
  const double u0 = q.value(t0) - drive.rest_length_m;  // F = 0 at the start
  const auto run = system.run(u0 + mechanism.gap(), t0, times, integrator, progress);
  Loop out;
  out.series = TimeSeries({"t_s", "q_m", "u_m", "p_m", "angle_rad", "F_N", "D_J"});
  const auto& t = run.series.column("t_s");
  const auto& z = run.series.column("z_m");
  const auto& F = run.series.column("F_N");
  const auto& D = run.series.column("D_J");
  for (std::size_t i = 0; i < t.size(); ++i) {
    const auto point = V.at(z[i]);
    out.series.add_row({t[i], q.value(t[i]), z[i] - mechanism.gap(), point.p, mechanism.angle(point.y), F[i], D[i]});
  }
  out.stats = run.stats;
  out.wall_seconds = run.wall_seconds;
  return out;
}

Loop limit_loop(const Mechanism& mechanism, const DriveParams& drive, const Loading& q,
                const std::vector<double>& times) {
  drive.validate();
  if (times.empty()) throw InvalidInput("times: empty; at least one output time is required");
  const double t0 = std::min(0.0, times.front());
  const auto& limit = mechanism.limit();
  const LimitSystem system(ConvexEnergy({drive.k_h_N_per_m, 0.0}), drive_loading(mechanism, drive, q), limit.rho_plus,
                           limit.rho_minus);
  const double u0 = q.value(t0) - drive.rest_length_m;
  const auto start = std::chrono::steady_clock::now();
  const auto run = system.run(u0 + mechanism.gap(), t0, times);
  Loop out;
  out.series = TimeSeries({"t_s", "q_m", "u_m", "p_m", "angle_rad", "F_N", "D_J"});
  const auto& t = run.column("t_s");
  const auto& z = run.column("z_m");
  const auto& F = run.column("F_N");
  const auto& D = run.column("D_J");
  for (std::size_t i = 0; i < t.size(); ++i)  // flat surface: the tip is at p = z (y = 0)
    out.series.add_row({t[i], q.value(t[i]), z[i] - mechanism.gap(), z[i], mechanism.theta_lim(), F[i], D[i]});
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace bristle::directional
