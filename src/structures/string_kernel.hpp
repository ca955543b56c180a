#pragma once
// Private: closed forms of the taut-string kernels (all modes summed), see kernels.hpp and
// docs/structures.md §3.
#include "bristle/structures/modal_structure.hpp"

namespace bristle::structures::detail {

class StringKernel {
 public:
  StringKernel(const TautStringParams& p, double chi_i, double chi_j);

  bool damped() const { return damping_ > 0.0; }
  /// L1(tau), tau >= 0, right-continuous.
  double L1(double tau) const;
  /// dL1/dtau for tau > 0 (undamped: 0 between jumps).
  double K(double tau) const;
  /// S(tau) = int_0^tau L1: exact for the undamped string; for the damped one by adaptive quadrature
  /// (`error` receives its estimate).
  double S(double tau, double* error = nullptr) const;
  /// L1(0+).
  double right_limit() const;
  double static_compliance() const { return compliance_; }
  /// Period of the undamped kernel, 2 l / c.
  double period() const { return 2.0 * length_ / speed_; }

 private:
  double rho_, length_, speed_, damping_;
  double a_, b_;  // (chi_i - chi_j)/l, (chi_i + chi_j)/l
  double compliance_;
};

}  // namespace bristle::structures::detail
