#pragma once
// Private: the energy budget of the patch (docs/patch.md, "Energy budget"), shared by the steady and
// transient solvers. On the mapped square with load density q = p J (J = |d(x, y)/d(xi, eta)|) and
// per-family storage w_k (eq. 85 split by transported family),
//   dW/dt = P_supplied - D - Phi_out + Gamma + (dF_z/dt / F_z) W
//   Phi_out = sum_k  int_{dC, W_k . n > 0} q w_k (W_k . n) dl          (trailing edges; >= 0)
//   Gamma   = sum_k  int_C div(p (c_k - V_dC)) w_k dA                 (<= 0 under eq. 84, fixed patch)
// and the inflow through the leading edges vanishes by eqs. 50-51.
#include <array>
#include <functional>
#include <vector>

#include "bristle/patch/patch.hpp"

namespace bristle::patch::detail {

/// w(u) of eq. 85 split by transported family: w = w_f1(f~1) + w_f2(f~2) + w_zeta1(zeta1) + w_zeta2(zeta2).
/// Exact for elastic, GKV and rigid bodies with commuting stiffnesses (the f~ part is diagonal in the
/// Riemann variables, eqs. 80-82; when the two f~ families move together the f part is kept whole).
/// Generalised Maxwell bodies couple f and zeta in the storage: separable() is false and the budget's
/// flux terms are not defined (NaN).
class EnergySplit {
 public:
  EnergySplit(const contact::ContactModel& model, const Riemann& r);
  bool separable() const { return separable_; }
  /// Per-family storage (per unit pressure, m) at the Riemann state ut (state_size() entries).
  std::array<double, 4> operator()(const double* ut) const;

 private:
  double w(const VecX& u) const { return model_.stored_energy(u.data()); }
  const contact::ContactModel& model_;
  Mat2 R_;
  int m_;
  bool separable_ = true, merged_f_ = false;
  mutable VecX u_, part_;
};

/// Where the transported fields and the pressure live: the physical patch is (sigma_x X, sigma_y Y) over
/// the reference patch `geometry` (sigma = 1 and rate = 0 for a fixed patch), p(x) = pressure_factor p_ref(X).
struct BudgetFrame {
  const PatchGeometry* geometry = nullptr;
  int nx = 0, ny = 0, m = 0;
  Vec2 sigma = Vec2::Ones();  // (sigma_x, sigma_y)
  Vec2 rate = Vec2::Zero();   // (sigma_x'/sigma_x, sigma_y'/sigma_y): V_dC = (rate_x x, rate_y y)
  double pressure_factor = 1.0;
  std::array<bool, 4> present{true, true, false, false};
  std::function<Vec2(int family, const Vec2& x)> velocity;  // c_k(x), the family's material velocity
};

struct BudgetTerms {
  double outflow_W = 0.0;      // Phi_out
  double compression_W = 0.0;  // Gamma
};

/// Phi_out and Gamma for the Riemann state ut (node-major, node = i ny + j), face values of the trailing
/// edges by linear extrapolation from the two cells beside the face (second order).
BudgetTerms energy_flux_terms(const BudgetFrame& frame, const EnergySplit& split, const std::vector<double>& ut);

}  // namespace bristle::patch::detail
