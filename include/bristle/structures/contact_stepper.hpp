#pragma once
// A linear structure as seen from its M contact points, advanced in steps of length dt with the contact
// forces linear over each step (first-order hold). Every implementation is exact for such forces up to
// its own, stated approximation (mode truncation, far-field truncation); they differ only in how the
// history is represented:
//
//   v_{n+1} = v_pred + A (f_{n+1} - f_n)
//
// v_pred is the contact velocity at t_{n+1} if the forces stayed at f_n, A = dv_{n+1}/df_{n+1} the
// one-step admittance (m/(N s)): A = S(dt)/dt with S the step response (kernels.hpp), which tends to
// L1(0+) as dt -> 0. A contact law closes the step by choosing f_{n+1} (stick_slip.hpp). Forces are
// those acting on the structure (N), velocities and displacements those of its contact points.
// The structure starts at rest and unloaded (w = v = f = 0 at t = 0).
#include <string>
#include <vector>

#include "bristle/core/types.hpp"

namespace bristle::structures {

/// Gauss-Legendre samples of the last step [t_n, t_{n+1}] (models that can evaluate their exact
/// intra-step solution; used for the energy account).
struct StepQuadrature {
  std::vector<double> fraction;  // nodes in (0, 1) of the step
  std::vector<double> weight;    // weights, summing to 1 (multiply by dt)
  MatX velocity;                 // M x G contact velocities at the nodes (m/s)
  double damping_work_J = 0.0;   // int over the step of sum_k 2 D_k omega_k q_k'^2
  double stored_energy_J = 0.0;  // sum_k (q_k'^2 + omega_k^2 q_k^2)/2 at t_{n+1}
};

class ContactStepper {
 public:
  virtual ~ContactStepper() = default;
  ContactStepper(const ContactStepper&) = delete;
  ContactStepper& operator=(const ContactStepper&) = delete;

  int contact_count() const { return contact_count_; }
  double step_s() const { return dt_; }
  long steps_taken() const { return steps_; }
  double time_s() const { return static_cast<double>(steps_) * dt_; }

  /// Contact velocities at t_{n+1} if the forces stay f_n over the step (m/s).
  const VecX& predicted_velocity() const { return v_pred_; }
  /// dv_{n+1}/df_{n+1} (M x M, m/(N s)); constant.
  const MatX& admittance() const { return admittance_; }
  /// Forces, velocities and displacements at t_n. The displacement is that of the last advance()
  /// called with compute_displacement = true (NaN otherwise).
  const VecX& force() const { return f_; }
  const VecX& velocity() const { return v_; }
  const VecX& displacement() const { return w_; }

  /// Accepts f_{n+1} (M entries; forces linear over the step) and moves to t_{n+1}.
  virtual void advance(const VecX& f_next, bool compute_displacement = true) = 0;
  /// Work per step in history terms (window length x M^2 + exponentials or modes x M): the cost model.
  virtual long history_terms() const = 0;
  virtual std::string description() const = 0;
  /// Intra-step samples of the last step, or nullptr when the model does not provide them.
  virtual const StepQuadrature* step_quadrature() const { return nullptr; }

 protected:
  ContactStepper(int contact_count, double dt);

  int contact_count_ = 0;
  double dt_ = 0.0;
  long steps_ = 0;
  VecX f_, v_, w_, v_pred_;
  MatX admittance_;
};

}  // namespace bristle::structures
