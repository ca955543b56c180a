// The eps-systems (paper 2, eq. 2.8) integrated by CVODE BDF, with dissipation and loading power.
#include "bristle/directional/epsilon_system.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <utility>

#include "bristle/core/error.hpp"
#include "validation.hpp"

namespace bristle::directional {

namespace {

std::string join(std::string_view prefix, std::string_view key) {
  return prefix.empty() ? std::string(key) : fmt::format("{}.{}", prefix, key);
}

}  // namespace

namespace detail {

void require_epsilon(std::string_view key, double epsilon) {
  require_finite(key, epsilon);
  if (!(epsilon > 0.0))
    throw InvalidInput(fmt::format("{} = {}: must be > 0 (the period of the surface wiggles, w_eps(x) = eps w(x/eps); "
                                   "paper 2, eq. 3.4)",
                                   key, format_value(epsilon)));
}

void require_gamma(std::string_view key, double gamma) {
  require_finite(key, gamma);
  if (!(gamma > 0.0))
    throw InvalidInput(fmt::format("{} = {}: must be > 0 (the viscosity eps^gamma must vanish as eps -> 0; paper 2, "
                                   "eq. 2.7)",
                                   key, format_value(gamma)));
}

}  // namespace detail

void require_wiggles(double path_m, double epsilon, std::string_view path_text) {
  if (const double wiggles = path_m / epsilon; !(wiggles <= kMaxWiggles))
    throw InvalidInput(fmt::format("epsilon = {}: the eps-system would resolve {:.3g} wiggles ({} = {:.6g} m, over "
                                   "epsilon): at most {:g} (a larger epsilon or a shorter path)",
                                   format_value(epsilon), wiggles, path_text, path_m, kMaxWiggles));
}

void EpsilonParams::validate(std::string_view prefix) const {
  detail::require_epsilon(join(prefix, "epsilon"), epsilon);
  detail::require_gamma(join(prefix, "gamma"), gamma);
}

WigglySystem::WigglySystem(WigglyPotential V, ConvexEnergy phi, Loading l, double gamma, std::string_view prefix)
    : V_(std::move(V)), phi_(std::move(phi)), l_(std::move(l)), gamma_(gamma) {
  detail::require_gamma(join(prefix, "gamma"), gamma);
  viscosity_ = std::pow(V_.epsilon(), gamma_);
}

double WigglySystem::energy(double t, double z) const {
  return phi_.value(z) - l_.value(t) * z + V_.value(z);  // eq. 2.4
}

double WigglySystem::velocity(double t, double z) const {
  return (l_.value(t) - phi_.d1(z) - V_.d1(z)) / viscosity_;  // eq. 2.8
}

integrate::OdeSystem WigglySystem::ode(double t0) const {
  integrate::OdeSystem s;
  s.size = 4;
  // x = [z, D, P, I]:  z' = (l - Phi' - V')/eps^g,  D' = eps^g z'^2,  P' = -l' z,  I' = l - Phi'.
  s.rhs = [this](double t, const double* x, double* dx) {
    const double z = x[0];
    const double l = l_.value(t);
    const double force = l - phi_.d1(z);
    const double v = (force - V_.d1(z)) / viscosity_;  // eq. 2.8
    dx[0] = v;
    dx[1] = viscosity_ * v * v;  // 2 R_eps(z'), eq. 2.7
    dx[2] = -l_.rate(t) * z;     // d_t E_eps = -l' z
    dx[3] = force;
  };
  s.jacobian = [this](double t, const double* x, double* j) {  // column-major 4 x 4, only column 0 non-zero
    const double z = x[0];
    const auto point = V_.at(z);
    const double force = l_.value(t) - phi_.d1(z);
    const double v = (force - point.dV) / viscosity_;
    const double dv = -(phi_.d2(z) + point.d2V) / viscosity_;
    j[0] = dv;
    j[1] = 2.0 * viscosity_ * v * dv;
    j[2] = -l_.rate(t);
    j[3] = -phi_.d2(z);
  };
  std::vector<double> kinks;
  for (const double k : l_.kinks())
    if (k > t0) kinks.push_back(k);
  if (!kinks.empty()) {
    s.switch_count = static_cast<int>(kinks.size());
    s.switches = [kinks](double t, const double*, double* g) {
      for (std::size_t i = 0; i < kinks.size(); ++i) g[i] = t - kinks[i];
    };
  }
  return s;
}

integrate::Options WigglySystem::default_options(double epsilon) {
  integrate::Options o;
  o.method = integrate::Method::cvode_bdf;
  o.rtol = 1e-10;
  o.atol_per_component = {1e-7 * epsilon, 1e-10 * epsilon, 1e-10 * epsilon, 1e-10 * epsilon};
  o.max_steps = kMaxSteps;
  return o;
}

long WigglySystem::step_budget(double path_m, double epsilon) {
  const double steps = static_cast<double>(kBaseSteps) + kStepsPerWiggle * std::abs(path_m) / epsilon;
  return steps < static_cast<double>(kMaxSteps) ? static_cast<long>(steps) : kMaxSteps;
}

void WigglySystem::apply_step_budget(integrate::Options& options, double path_m, double epsilon) {
  const long budget = step_budget(path_m, epsilon);
  if (budget > options.max_steps) return;
  options.max_steps = budget;
  options.max_steps_key = fmt::format("the eps-system's budget (the smaller of integrator.max_steps and {} + {} "
                                      "steps per wiggle passed over; Limits in docs/scenarios.md)",
                                      kBaseSteps, kStepsPerWiggle);
}

WigglyRun WigglySystem::run(double z0, double t0, const std::vector<double>& times, const integrate::Options& options,
                            const Progress& progress) const {
  require_finite("z0", z0);
  WigglyRun out;
  out.series = TimeSeries({"t_s", "l_N", "z_m", "F_N", "E_J", "D_J", "P_J", "I_Ns"});
  VecX x(4);
  x << z0, 0.0, 0.0, 0.0;
  const auto system = ode(t0);
  const double span = times.empty() ? 0.0 : times.back() - t0;
  ProgressThrottle report(progress);
  const auto start = std::chrono::steady_clock::now();
  out.stats = integrate::integrate(system, x, t0, times, options, [&](double t, const double* s) {
    const double l = l_.value(t);
    out.series.add_row({t, l, s[0], l - phi_.d1(s[0]), energy(t, s[0]), s[1], s[2], s[3]});
    if (report) report(span > 0.0 ? (t - t0) / span : 1.0);
  });
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace bristle::directional
