#pragma once
// Responses of one underdamped mode  q'' + 2 D omega q' + omega^2 q = u(t),  0 <= D < 1,
// written with the pole lambda = -D omega + i omega_d, omega_d = omega sqrt(1 - D^2):
//
//   h(tau)   = e^{-D omega tau} sin(omega_d tau) / omega_d = Im e^{lambda tau} / omega_d   impulse response
//   h'(tau)  = Im(lambda e^{lambda tau}) / omega_d                                      velocity per impulse
//   S(tau)   = int_0^tau h   = tau Im phi1(lambda tau) / omega_d                         step response
//   S0(tau)  = S - 1/omega^2 = Im(e^{lambda tau}/lambda) / omega_d                       its oscillating part
//   Q(tau)   = int_0^tau S   = tau^2 Im phi2(lambda tau) / omega_d                       ramp response
//   Q0(tau)  = int_0^tau S0  = Im((e^{lambda tau} - 1)/lambda^2) / omega_d
//
// with phi1(z) = (e^z - 1)/z and phi2(z) = (e^z - 1 - z)/z^2, evaluated by their Taylor series for
// |z| < 1/2 and directly otherwise, so that every function keeps full relative accuracy for small
// omega tau (no cancellation in 1 - cos) and for large omega tau. Summed over modes with weights
// n_k(chi_i) n_k(chi_j) these are the memory kernels of paper 3 (kernels.hpp).
#include <complex>

namespace bristle::structures {

using Complex = std::complex<double>;

/// phi1(z) = (e^z - 1)/z, phi1(0) = 1.
Complex phi1(Complex z);
/// phi2(z) = (e^z - 1 - z)/z^2, phi2(0) = 1/2.
Complex phi2(Complex z);
/// e^z - 1 without cancellation for small |z|.
Complex expm1(Complex z);
/// log(1 + z) without cancellation for small |z|.
Complex log1p(Complex z);

/// One mode, with its pole precomputed.
struct ModeResponse {
  double omega = 1.0;    // rad/s
  double damping = 0.0;  // D in [0, 1)
  double omega_d = 1.0;  // omega sqrt(1 - D^2)
  Complex lambda{0.0, 1.0};

  ModeResponse(double omega_rad_per_s, double damping_ratio);

  double h(double tau) const;
  double h_dot(double tau) const;
  double S(double tau) const;
  double S0(double tau) const;
  double Q(double tau) const;
  double Q0(double tau) const;
};

}  // namespace bristle::structures
