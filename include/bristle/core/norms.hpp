#pragma once
// Regularised norm and sign used by the friction laws.
#include <cmath>

#include "bristle/core/types.hpp"

namespace bristle {

/// ||y||_{2,eps} = sqrt(||y||_2^2 + eps), eps >= 0 in m^2/s^2; paper 1, §2.2.1 (after eq. 2).
inline double regularised_norm(const Vec2& y, double eps) { return std::sqrt(y.squaredNorm() + eps); }

/// |y|_eps = sqrt(y^2 + eps), the scalar form used in eqs. 60-62.
inline double regularised_abs(double y, double eps) { return std::sqrt(y * y + eps); }

/// sgn_eps(y) = y / |y|_eps (0 at y = 0 when eps = 0); eqs. 61-62.
inline double regularised_sign(double y, double eps) {
  const double a = regularised_abs(y, eps);
  return a > 0.0 ? y / a : 0.0;
}

}  // namespace bristle
