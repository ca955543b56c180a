// The limit rate-independent system (paper 2, eq. 2.3): an exact play-operator update.
#include "bristle/directional/limit_system.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "bristle/core/error.hpp"

namespace bristle::directional {

namespace {
std::string join(std::string_view prefix, std::string_view key) {
  return prefix.empty() ? std::string(key) : fmt::format("{}.{}", prefix, key);
}
}  // namespace

LimitSystem::LimitSystem(ConvexEnergy phi, Loading l, double rho_plus, double rho_minus, std::string_view prefix)
    : phi_(std::move(phi)), l_(std::move(l)), rho_plus_(rho_plus), rho_minus_(rho_minus) {
  const std::string kp = join(prefix, "rho_plus"), km = join(prefix, "rho_minus");
  require_finite(kp, rho_plus);
  require_finite(km, rho_minus);
  if (!(rho_plus > 0.0))
    throw InvalidInput(fmt::format("{} = {}: must be > 0 (paper 2, eq. 2.2)", kp, format_value(rho_plus)));
  if (!(rho_minus < 0.0))
    throw InvalidInput(fmt::format("{} = {}: must be < 0 (paper 2, eq. 2.2)", km, format_value(rho_minus)));
}

double LimitSystem::energy(double t, double z) const { return phi_.value(z) - l_.value(t) * z; }

std::pair<double, double> LimitSystem::strip(double t) const {
  const double l = l_.value(t);
  return {phi_.d1_inverse(l - rho_plus_), phi_.d1_inverse(l - rho_minus_)};  // eq. 5.6
}

LimitSystem::State LimitSystem::start(double t0, double z0, std::string_view key) const {
  require_finite(key, z0);
  require_finite("t0", t0);
  State s;
  s.t = t0;
  s.l = l_.value(t0);
  const auto [lo, hi] = strip(t0);
  // Eq. 2.10, with a round-off allowance for a z0 computed as an edge of the strip.
  const double slack = 1e-12 * std::max({1.0, std::abs(lo), std::abs(hi)});
  if (!(z0 >= lo - slack && z0 <= hi + slack))
    throw InvalidInput(fmt::format("{} = {}: must lie in [{}, {}] (paper 2, eq. 2.10: Phi'(z0) in [l(0) - rho_+, "
                                   "l(0) - rho_-] = [{}, {}])",
                                   key, format_value(z0), format_value(lo), format_value(hi),
                                   format_value(s.l - rho_plus_), format_value(s.l - rho_minus_)));
  s.z = std::clamp(z0, lo, hi);
  return s;
}

void LimitSystem::monotone_step(State& s, double t1, double l1) const {
  const double l0 = s.l;
  if (l1 > l0) {
    // l increasing: the lower edge z~_- rises; sliding (z' > 0, F = rho_+) starts at l = Phi'(z) + rho_+.
    const double l_slip = phi_.d1(s.z) + rho_plus_;
    if (l1 > l_slip) {
      const double l_from = std::max(l0, l_slip);
      s.power -= s.z * (l_from - l0);  // stuck part
      const double z1 = std::max(s.z, phi_.d1_inverse(l1 - rho_plus_));
      s.power -= phi_.conjugate(l1 - rho_plus_) - phi_.conjugate(l_from - rho_plus_);  // sliding on the edge
      s.dissipation += rho_plus_ * (z1 - s.z);  // eq. 2.2, z' >= 0
      s.z = z1;
    } else {
      s.power -= s.z * (l1 - l0);
    }
  } else if (l1 < l0) {
    const double l_slip = phi_.d1(s.z) + rho_minus_;
    if (l1 < l_slip) {
      const double l_from = std::min(l0, l_slip);
      s.power -= s.z * (l_from - l0);
      const double z1 = std::min(s.z, phi_.d1_inverse(l1 - rho_minus_));
      s.power -= phi_.conjugate(l1 - rho_minus_) - phi_.conjugate(l_from - rho_minus_);
      s.dissipation += rho_minus_ * (z1 - s.z);  // eq. 2.2, z' <= 0
      s.z = z1;
    } else {
      s.power -= s.z * (l1 - l0);
    }
  }
  s.t = t1;
  s.l = l1;
}

void LimitSystem::advance(State& s, double t1) const {
  require_finite("t", t1);
  if (t1 < s.t)
    throw InvalidInput(fmt::format("t = {}: must be >= the current time {} (the limit system runs forward)",
                                   format_value(t1), format_value(s.t)));
  if (t1 == s.t) return;
  for (const double tk : l_.turning_points(s.t, t1)) monotone_step(s, tk, l_.value(tk));
  monotone_step(s, t1, l_.value(t1));
}

TimeSeries LimitSystem::run(double z0, double t0, const std::vector<double>& times) const {
  TimeSeries out({"t_s", "l_N", "z_m", "F_N", "E_J", "D_J", "P_J"});
  State s = start(t0, z0);
  for (const double t : times) {
    advance(s, t);
    out.add_row({t, s.l, s.z, s.l - phi_.d1(s.z), energy(t, s.z), s.dissipation, s.power});
  }
  return out;
}

}  // namespace bristle::directional
