// With and against the nap (paper 2, §3.4).
#include "bristle/directional/nap.hpp"

#include <fmt/format.h>

#include <cmath>

#include "bristle/core/error.hpp"

namespace bristle::directional {

namespace {

void require_angular(const MechanismParams& p, std::string_view what) {
  if (p.kind != MechanismKind::angular)
    throw InvalidInput(fmt::format("mechanism.kind = \"{}\": {} needs the angular spring (paper 2, §3.3-3.4)",
                                   to_string(p.kind), what));
}

void check_compression(std::vector<std::string>& warnings, std::string_view phase, double tension,
                       std::optional<double> buckling_load) {
  if (!(tension < 0.0)) return;
  if (buckling_load && -tension < *buckling_load) return;
  warnings.push_back(fmt::format(
      "{} the nap the rod is compressed: T = {} N (eq. 3.25){}; a flexible bristle may buckle, and the "
      "angular-spring model (§3.3) would no longer apply",
      phase, format_value(tension),
      buckling_load ? fmt::format(", at or beyond the buckling load P_cr = {} N", format_value(*buckling_load))
                    : std::string()));
}

void check_buckling_load(std::optional<double> buckling_load) {
  if (buckling_load) require_positive("buckling_load_N", *buckling_load);
}

}  // namespace

double axial_tension(const Mechanism& angular, double rho) {
  require_angular(angular.params(), "the axial tension of eq. 3.25");
  const auto& p = angular.params();
  const double theta_lim = angular.theta_lim();
  // eq. 3.25
  return -(p.k / p.length_m) * (theta_lim - p.theta_rest_rad) / std::tan(theta_lim) + rho / std::sin(theta_lim);
}

NapEffect geometric_nap_effect(const Mechanism& angular, std::optional<double> buckling_load_N) {
  require_angular(angular.params(), "the with/against the nap analysis");
  check_buckling_load(buckling_load_N);
  const auto& limit = angular.limit();
  NapEffect out;
  // Same configuration both ways: with the nap = rightward (tip trailing, p < u), against = leftward.
  out.alpha_with_N = out.alpha_against_N = limit.alpha;
  out.mu_with = limit.mu_plus;
  out.mu_against = -limit.mu_minus;
  out.rho_with_N = limit.rho_plus;
  out.rho_against_N = -limit.rho_minus;
  out.tension_with_N = axial_tension(angular, limit.rho_plus);
  out.tension_against_N = axial_tension(angular, limit.rho_minus);
  check_compression(out.warnings, "with", out.tension_with_N, buckling_load_N);
  check_compression(out.warnings, "against", out.tension_against_N, buckling_load_N);
  return out;
}

NapEffect energetic_nap_effect(const MechanismParams& params, const Profile& profile,
                               std::optional<double> buckling_load_N, std::string_view prefix) {
  require_angular(params, "the with/against the nap analysis");
  check_buckling_load(buckling_load_N);
  const std::string key = prefix.empty() ? "theta_rest_rad" : fmt::format("{}.theta_rest_rad", prefix);
  require_finite(key, params.theta_rest_rad);
  if (!(params.theta_rest_rad > 0.0))
    throw InvalidInput(fmt::format("{} = {}: must be > 0 (theta_with, the rest angle with the nap, leans the tip "
                                   "behind the root; paper 2, §3.4)",
                                   key, format_value(params.theta_rest_rad)));
  const Mechanism with(params, profile, prefix);  // checks eq. 3.16 (theta_with < theta_lim) and eq. 3.17
  MechanismParams mirrored = params;
  mirrored.theta_rest_rad = -params.theta_rest_rad;
  const Mechanism against(mirrored, profile.mirrored(), prefix);
  NapEffect out;
  out.alpha_with_N = with.limit().alpha;
  out.alpha_against_N = against.limit().alpha;
  out.mu_with = with.limit().mu_plus;
  out.mu_against = against.limit().mu_plus;  // mu_+ of the mirrored profile (eq. 3.24)
  out.rho_with_N = with.limit().rho_plus;
  out.rho_against_N = against.limit().rho_plus;
  out.tension_with_N = axial_tension(with, out.rho_with_N);
  out.tension_against_N = axial_tension(against, out.rho_against_N);
  check_compression(out.warnings, "with", out.tension_with_N, buckling_load_N);
  check_compression(out.warnings, "against", out.tension_against_N, buckling_load_N);
  return out;
}

}  // namespace bristle::directional
