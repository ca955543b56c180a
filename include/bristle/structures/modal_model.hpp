#pragma once
// The truncated N-mode model (paper 3, eq. II.3 with k <= N), the reference the reduced model is
// compared with. Each mode is propagated exactly over a step for forces linear over the step
// (first-order hold), so the scheme is stable and exact for any N and dt:
//
//   x_k = (q_k, q_k'),  u_k(t) = sum_j n_k(chi_j) f_j(t),
//   x_k(t_{n+1}) = Phi_k x_k(t_n) + Gamma0_k u_k(t_n) + Gamma1_k (u_k(t_{n+1}) - u_k(t_n))
//   Phi_k    = [[h' + 2 D w h, h], [-w^2 h, h']](dt)
//   Gamma0_k = (S(dt), h(dt)),   Gamma1_k = (Q(dt)/dt, S(dt)/dt)       (mode_response.hpp)
//
// Contact velocity v_j = sum_k n_k(chi_j) q_k', displacement w_j = sum_k n_k(chi_j) q_k. With
// track_energy, every step also evaluates the exact intra-step solution at Gauss-Legendre nodes
// (enough nodes for omega_N dt <= 100) for the energy account: the work of the contact forces equals
// the modal damping work plus the change of the stored energy sum_k (q_k'^2 + w_k^2 q_k^2)/2.
#include <memory>
#include <string>

#include "bristle/structures/contact_stepper.hpp"
#include "bristle/structures/modal_structure.hpp"

namespace bristle::structures {

struct ModalModelOptions {
  bool track_energy = false;
  /// The names the messages give the number of modes and the step (a scenario passes its key paths).
  std::string modes_key = "modes";
  std::string dt_key = "dt_s";
};

class ModalModel final : public ContactStepper {
 public:
  /// The first `modes` modes of `structure` (all of them: modes = structure.mode_count() for a finite
  /// one). Throws InvalidInput for dt <= 0, modes < 1 or more modes than a finite structure has, and
  /// with track_energy when omega_N dt > 100.
  ModalModel(const Structure& structure, long modes, double dt, const ModalModelOptions& options = {});

  void advance(const VecX& f_next, bool compute_displacement = true) override;
  long history_terms() const override { return mode_count_ * contact_count_; }
  std::string description() const override;
  const StepQuadrature* step_quadrature() const override { return track_energy_ ? &quadrature_ : nullptr; }

  long mode_count() const { return mode_count_; }
  /// The structure and options it was built with (a copy: what rebuilds it, e.g. for pickling).
  const Structure& structure() const { return structure_; }
  const ModalModelOptions& options() const { return options_; }
  /// sum_k (q_k'^2 + omega_k^2 q_k^2)/2 at t_n (J).
  double stored_energy() const;

 private:
  void predict();
  void sample_step(const VecX& f_old, const VecX& df, const std::vector<double>& q0, const std::vector<double>& p0);

  long mode_count_ = 0;
  bool track_energy_ = false;
  Structure structure_;
  ModalModelOptions options_;
  MatX n_;  // N x M mode values
  std::vector<double> omega_, q_, p_;
  std::vector<double> a11_, a12_, a21_, a22_, g0q_, g0p_, g1q_, g1p_;
  std::vector<double> damping_rate_;  // 2 D_k omega_k
  // Energy tracking: per mode and node, p(tau_g) = c21 q0 + c22 p0 + ch u + cs du.
  std::vector<double> c21_, c22_, ch_, cs_;
  StepQuadrature quadrature_;
  std::vector<double> scratch_q_, scratch_p_;
  VecX df_;  // scratch: f_{n+1} - f_n
};

}  // namespace bristle::structures
