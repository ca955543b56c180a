#pragma once
// Surfaces and mechanisms shared by the paper 2 (directional friction) tests.
#include <numbers>

#include "bristle/directional/mechanism.hpp"
#include "bristle/directional/profile.hpp"

namespace bristle::directional::test {

/// The sine surface with slopes omega_+ = -omega_- = omega (amplitude omega / 2 pi, period 1).
inline Profile sine_surface(double omega = 0.5) {
  ProfileParams p;
  p.kind = ProfileKind::sine;
  p.amplitude = omega / (2.0 * std::numbers::pi);
  return Profile(p);
}

/// The ratchet with r = 1/4 and amplitude 0.5 / 2 pi: omega_+ = 0.625, omega_- = -0.375.
inline Profile ratchet_surface() {
  ProfileParams p;
  p.kind = ProfileKind::ratchet;
  p.amplitude = 0.5 / (2.0 * std::numbers::pi);
  p.asymmetry = 0.25;
  return Profile(p);
}

/// The default mechanism of each kind (mechanism.hpp: k = 1, h = 1; slanted L_rest = 1.5, theta = 0.5;
/// vertical L_rest = 1.5; angular L = 1.25, theta_rest = 0) on `w` (by default omega_+ = -omega_- = 0.5).
inline Mechanism default_mechanism(MechanismKind kind, const Profile& w = sine_surface()) {
  MechanismParams p;
  p.kind = kind;
  return Mechanism(p, w);
}

}  // namespace bristle::directional::test
