#pragma once
// The reduced model: the structure eliminated, an equation with memory in the contact variables only
// (paper 3, eqs. III.11 and III.20; docs/structures.md §4). For forces linear over steps of length
// dt (first-order hold) and the structure at rest at t = 0, the kernel representation of kernels.hpp
// gives exactly
//
//   v_{n+1} = sum_{j>=0} e_j (f_{n+1-j} - f_{n-j}),   e_j = (1/dt) int_{j dt}^{(j+1) dt} L1(tau) dtau
//   w_{n+1} = sum_{j>=0} d_j (f_{n+1-j} - f_{n-j}),   d_j = (1/dt) int_{j dt}^{(j+1) dt} S(tau) dtau
//
// (e_j, d_j are M x M). The history is split at tau_w = n_w dt:
//   near field  j < n_w: the weights from the full kernel (all modes: closed forms or tail-bounded sums),
//               a direct sum over a fixed window;
//   far field   j >= n_w: e_j and d_j - G are sums of exponentials z_k^j, z_k = e^{lambda_k dt}, over the
//               modes still alive at tau_w; each is one complex recursion
//               Y_k <- z_k Y_k + z_k^{n_w} n_k . (f_{m+1} - f_m),  m = n + 1 - n_w,
//               and the constant part gives G f_{n+1-n_w}. Modes whose far-field contribution is below
//               the tolerance are dropped, with the rigorous bound (per unit sup|f|)
//               sum_dropped |n_k(chi_i) n_k(chi_j)| e^{-D_k w_k tau_w} (1/w_dk + 1/(D_k w_k sqrt(1-D_k^2))).
// The work per step is n_w M^2 + (far modes) M, independent of the length of the history and of the
// number of modes the structure has. Every mode must be damped (the memory must fade) unless the
// structure is finite; the undamped taut string has the exact neutral delay form instead:
//
//   v_i(t) - v_i(t - 2l/c) = (1/(2 rho c)) sum_j [f_j(t - |chi_i - chi_j|/c) + f_j(t - (2l - |chi_i - chi_j|)/c)
//                                                - f_j(t - (chi_i + chi_j)/c) - f_j(t - (2l - chi_i - chi_j)/c)]
//
// (d'Alembert; for i = j the note's  f(t) - f(t - 2 chi/c) - f(t - 2(l - chi)/c) + f(t - 2l/c)), integrated
// exactly for piecewise-linear forces when dt divides 2l/c (displacements from the same relation for
// the integrals of f).
#include <memory>
#include <string>
#include <string_view>

#include "bristle/core/schema.hpp"
#include "bristle/structures/contact_stepper.hpp"
#include "bristle/structures/kernels.hpp"
#include "bristle/structures/modal_structure.hpp"

namespace bristle::structures {

/// The reduced model's limits (ReducedModel's constructor; a scenario checks them first with its own keys):
/// the slowest mode may turn at most kMaxOmegaDt rad per step (beyond it the step resolves none of the motion and
/// the near-field weights cancel: a string with omega_1 dt = 3e5 gave an admittance 26 orders too small), and a
/// positive damping ratio of a continuum is at least kMinDampingRatio (its kernels decay over 1/(D omega), the window
/// kept; a scenario applies it to every structure).
inline constexpr double kMaxOmegaDt = 1e3;
inline constexpr double kMinDampingRatio = 1e-6;

struct ReducedModelOptions {
  long window_steps = 0;          // n_w; 0 = chosen to minimise the work per step
  double far_tolerance = 1e-10;   // dropped far-field modes: bound <= far_tolerance * (B / omega_1)
  KernelOptions kernel{1L << 17, 1e-15};  // near-field weight evaluation for the continua
  std::string dt_key = "dt_s";            // the step's name in messages (a scenario passes its key path)

  void validate(std::string_view prefix) const;
};

/// The schema of ReducedModelOptions (core/schema.hpp): its keys of [model] (`applies`: the reduced model is the
/// one chosen). `kernel` and `dt_key` are not keys: the near-field weights' options and the step's name.
template <class Archive, schema::Of<ReducedModelOptions> Self>
void serialize(Archive& a, Self& o, bool applies = true) {
  using schema::Type;
  a.integer(o.window_steps, {.key = "window_steps", .type = Type::integer, .default_value = "0 (automatic)",
                             .range = schema::at_least(0), .doc = "history window n_w of the reduced model",
                             .used_by = "reduced"},
            applies);
  a.number(o.far_tolerance, {.key = "far_tolerance", .default_value = "1e-10", .range = schema::positive(),
                             .doc = "bound of the dropped far-field modes, relative to B / omega_1",
                             .used_by = "reduced", .log_scale = true, .numerics = true},
           applies);
}

class ReducedModel final : public ContactStepper {
 public:
  /// Validates `options` under "model" (the scenario table). Throws InvalidInput for an undamped
  /// continuum (use StringDelayModel / make_reduced_model), a continuum's damping ratio in (0, kMinDampingRatio)
  /// and a step with omega_1 dt > kMaxOmegaDt (omega_1 the slowest mode).
  ReducedModel(const Structure& structure, double dt, const ReducedModelOptions& options = {});

  void advance(const VecX& f_next, bool compute_displacement = true) override;
  long history_terms() const override;
  std::string description() const override;

  long window_steps() const { return window_; }
  /// The structure and options it was built with (a copy: what rebuilds it, e.g. for pickling).
  const Structure& structure() const { return structure_; }
  const ReducedModelOptions& options() const { return options_; }
  long far_modes() const { return static_cast<long>(z_re_.size()); }
  /// Bound on the velocity error of the dropped far-field modes per newton of sup|f| (m/(N s)).
  double far_error_bound() const { return far_bound_; }
  /// Near-field weights e_j, d_j (entry (i, j) of lag `lag`, for tests).
  double velocity_weight(long lag, int i, int j) const;
  double displacement_weight(long lag, int i, int j) const;

 private:
  void predict();
  void push_increment(const VecX& df);

  Structure structure_;
  ReducedModelOptions options_;
  long window_ = 0;
  double far_bound_ = 0.0;
  MatX G_;
  // Near field: weights e_j, d_j stored lag-major, M x M blocks row-major; history of force increments
  // (newest first) in a doubled ring buffer so that each window is contiguous.
  std::vector<double> e_, d_;
  std::vector<double> history_;
  long head_ = 0;
  VecX far_force_;  // f_{n+1-n_w}: the increments that left the window
  // Far field (structure of arrays, Eigen arrays: the updates are vectorised). Per mode the state is
  // the scaled Ytilde = o_v n^s Y (o_v = phi1(lambda dt)/omega_d; s = 1 for M = 1, else 0), so that
  //   Ytilde <- z Ytilde + b u,   b = o_v c n^s,   z = e^{lambda dt},   c = z^{n_w},
  // u = n . Delta f (= Delta f for M = 1), its velocity share is n^(1-s) Im Ytilde and its displacement
  // share n^(1-s) Im(r Ytilde) with r = 1/lambda (o_w = o_v / lambda).
  Eigen::ArrayXd z_re_, z_im_, b_re_, b_im_, r_re_, r_im_, y_re_, y_im_, y_tmp_;
  VecX far_u_;  // scratch: u per mode (M > 1)
  MatX far_n_;  // K x M
  VecX df_;     // scratch: f_{n+1} - f_n
  VecX far_v_;  // the far field's share of the next predicted velocity (M entries)
};

/// The exact neutral delay form of the undamped taut string (see above).
class StringDelayModel final : public ContactStepper {
 public:
  /// Throws InvalidInput unless `structure` is an undamped taut string and 2 l / c is an integer
  /// multiple of dt (to 1e-9 relative); string_delay_step() gives such a step.
  StringDelayModel(const Structure& structure, double dt, std::string_view dt_key = "dt_s");

  void advance(const VecX& f_next, bool compute_displacement = true) override;
  long history_terms() const override { return 4L * contact_count_ * contact_count_ + contact_count_; }
  std::string description() const override;
  long period_steps() const { return period_steps_; }
  /// The structure it was built with (a copy: what rebuilds it, e.g. for pickling).
  const Structure& structure() const { return structure_; }

 private:
  struct Delay {
    int i, j;
    double sign;
    long lag;      // whole steps: t_{n+1} - d = t_{n+1-lag} + theta dt ... (see .cpp)
    double theta;  // fraction in [0, 1)
  };
  double f_at(int j, long m) const;   // f_j(t_m), 0 for m <= 0
  double fi_at(int j, long m) const;  // int_0^{t_m} f_j
  double v_at(int i, long m) const;
  double w_at(int i, long m) const;
  void predict();

  Structure structure_;
  long period_steps_ = 0;
  double gain_ = 0.0;
  std::vector<Delay> delays_;
  long ring_ = 0;
  std::vector<double> f_hist_, fi_hist_, v_hist_, w_hist_;  // ring buffers, M per slot
};

/// The largest dt' <= dt that divides 2 l / c (for StringDelayModel).
double string_delay_step(const TautStringParams& params, double dt);

/// The reduced model of `structure`: StringDelayModel for an undamped taut string, ReducedModel otherwise.
std::unique_ptr<ContactStepper> make_reduced_model(const Structure& structure, double dt,
                                                   const ReducedModelOptions& options = {});

}  // namespace bristle::structures
