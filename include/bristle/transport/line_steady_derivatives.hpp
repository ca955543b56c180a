#pragma once
// The derivative of the steady line force (transport::steady_state, exact path) with respect to parameters of the
// contact model (law, bodies, pair), for the line_steady fit (fit/line.hpp).
//
// On the exact path the force is a linear functional of y(L) = exp(X) y0 with X = aug(p) L, the augmented matrix of
// the affine source (src/transport/line_steady.cpp) and y0 fixed by the boundary values. Its derivative is
//
//   dF/dp_j = w . (L_exp(X, dX_j) y0 + exp(X) dy0_j),    dX_j = (aug(p + h_j e_j) - aug(p - h_j e_j)) L / (2 h_j)
//
// with L_exp(X, E) the Fréchet derivative of the matrix exponential, exact to rounding as the upper-right block of
// exp([[X, E], [0, X]]) (Higham, Functions of Matrices, eq. 10.43), and dy0 from differentiating the boundary solve
// S x = r (components entering at xi = L). Only the pointwise matrices (the source's J, b and the characteristic
// speeds, smooth algebraic functions of p) are differenced, at the caller's h_j (1e-6 |p_j|): error ~1e-10, no
// solver noise, as the patch's and the lumped fit's sensitivities.
#include <optional>
#include <vector>

#include "bristle/contact/contact_model.hpp"
#include "bristle/transport/line_contact.hpp"

namespace bristle::transport {

struct SteadyLineDerivatives {
  Vec2 force_N = Vec2::Zero();  // as steady_state (bitwise)
  /// d force_N / d p_j, one column per parameter.
  Eigen::Matrix<double, 2, Eigen::Dynamic> dforce_N;
};

/// The steady force at (V1, V2, v_y = 0) and its derivatives. plus[j], minus[j]: the contact model at
/// p_j + h[j] and p_j - h[j]. nullopt where the exact path does not apply (a source that is not affine, LuGre output
/// terms, a tabulated pressure, no advection) or a perturbed model changes the structure (which components move,
/// and in which direction).
std::optional<SteadyLineDerivatives> steady_state_derivatives(const contact::ContactModel& model,
                                                             const std::vector<const contact::ContactModel*>& plus,
                                                             const std::vector<const contact::ContactModel*>& minus,
                                                             const std::vector<double>& h,
                                                             const LineContactParams& params, double V1, double V2);

}  // namespace bristle::transport
