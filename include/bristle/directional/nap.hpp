#pragma once
// With and against the nap (paper 2, §3.4), for the angular-spring bristle (§3.3).
//
// Axial tension of the rod in the limit, the tip sliding on the flat surface with friction rho
// (rho = rho_+ moving right, rho_- moving left; T > 0 is traction):
//
//   T = -(k/L) (theta_lim - theta_rest) cot(theta_lim) + rho / sin(theta_lim)         eq. 3.25
//
// Geometric effect (a stiff bristle keeps its configuration): with the nap is rightward (the tip
// trails, p < u), against the nap leftward. Eq. 3.24 gives mu_+ < -mu_- on a symmetric surface, so
//   rho_with = rho_+ < rho_against = -rho_-
// (the printed "rho_+ > -rho_-" in §3.4 is a typo: shared/notes/errata.md). Against the nap T < 0
// always: the rod is compressed and a flexible bristle may buckle (a warning is issued).
//
// Energetic effect (a flexible bristle flips so that its tip always trails): both phases are the
// angular model moving "rightward" in their own frame. With the nap: theta_rest = theta_with > 0 on the
// profile w. Against the nap the frame is mirrored (x -> -x): theta_rest = -theta_with on the mirrored
// profile w(-x), whose slopes are omega~_+ = -omega_-, omega~_- = -omega_+. From eqs. 3.23 and 3.24:
//   rho_with    = alpha(theta_with)  mu_+[w],        alpha(th) = k (theta_lim - th) / sqrt(L^2 - h^2)
//   rho_against = alpha(-theta_with) mu_+[w(-x)],    mu_+[w(-x)] = -omega_- / (1 - omega_- cot(theta_lim))
// (the same mu_+ for a symmetric surface, as the paper assumes).
// For a symmetric surface this is the paper's pair rho_with/against = (k/h) mu_+ (theta_lim -+ theta_with)
// / tan(theta_lim); NOTE: the display in §3.4 omits the factor k/h (sqrt(L^2 - h^2) = h tan(theta_lim));
// the ratio rho_against/rho_with = (theta_lim + theta_with)/(theta_lim - theta_with) is as printed.
// Both tensions get a positive friction term. NOTE: with rho = alpha mu_+ eq. 3.25 becomes
//   T = (k/L) (theta_lim - theta_rest) / sin^2(theta_lim) (mu_+ - sin(theta_lim) cos(theta_lim)),
// and eq. 3.17 (omega_+ < cot theta_lim) forces mu_+ < sin cos, so T < 0 in every phase: the traction
// suggested in §3.4 for rough surfaces and soft bristles does not occur while the model is valid
// (tests/directional/nap_test.cpp checks it over a parameter sweep).
//
// A warning is issued for every compressed phase (T < 0); if a buckling load P_cr > 0 is given, only
// when the compression reaches it (-T >= P_cr).
//
// | key             | meaning                                              | unit | range              |
// |-----------------|------------------------------------------------------|------|--------------------|
// | theta_rest_rad  | (energetic effect) theta_with, the rest angle        | rad  | (0, theta_lim)     |
// | buckling_load_N | optional critical compression P_cr of the bristle    | N    | > 0                |
#include <optional>
#include <string>
#include <vector>

#include "bristle/directional/mechanism.hpp"

namespace bristle::directional {

/// Eq. 3.25 for an angular-spring mechanism and a friction threshold rho (N).
double axial_tension(const Mechanism& angular, double rho);

struct NapEffect {
  double rho_with_N = 0.0;        // friction threshold moving with the nap (> 0)
  double rho_against_N = 0.0;     // moving against the nap (> 0, a magnitude)
  double alpha_with_N = 0.0, alpha_against_N = 0.0;  // energetic factors (eq. 3.23)
  double mu_with = 0.0, mu_against = 0.0;            // geometric factors (> 0)
  double tension_with_N = 0.0;    // eq. 3.25
  double tension_against_N = 0.0;
  std::vector<std::string> warnings;  // compression (buckling) warnings
};

/// Geometric effect for `angular` (kind angular): with = rightward, against = leftward.
NapEffect geometric_nap_effect(const Mechanism& angular, std::optional<double> buckling_load_N = std::nullopt);

/// Energetic effect: `params` is an angular spring whose theta_rest_rad is theta_with (0 < theta_with <
/// theta_lim); the against-the-nap phase uses theta_rest = -theta_with on the mirrored profile.
NapEffect energetic_nap_effect(const MechanismParams& params, const Profile& profile,
                               std::optional<double> buckling_load_N = std::nullopt,
                               std::string_view prefix = "mechanism");

}  // namespace bristle::directional
