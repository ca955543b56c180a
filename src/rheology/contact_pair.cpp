#include "bristle/rheology/contact_pair.hpp"

#include <fmt/format.h>

#include "bristle/core/error.hpp"

namespace bristle::rheology {

ContactPair::ContactPair(const RheologyParams& body1, const RheologyParams& body2) {
  body1.validate("body1");
  body2.validate("body2");
  if (body1.kind == RheologyKind::rigid && body2.kind == RheologyKind::rigid)
    throw InvalidInput("body1.type = \"rigid\": at least one body must deform (body2 is rigid too)");
  // eq. 58 (RheologyParams::eq58_tau): the dampings from the body's k0 as it is now
  const auto with_eq58 = [](const RheologyParams& b, std::string_view name) {
    if (b.eq58_tau.empty()) return b;
    RheologyParams applied = b;
    apply_eq58(applied, name);
    return applied;
  };
  body1_ = realise(with_eq58(body1, "body1"));
  body2_ = realise(with_eq58(body2, "body2"));
  if (body1.kind != RheologyKind::rigid && body2.kind != RheologyKind::rigid) {
    const Mat2 commutator = body1_.K0 * body2_.K0 - body2_.K0 * body1_.K0;
    const double scale = body1_.K0.norm() * body2_.K0.norm();
    if (commutator.norm() > 1e-10 * scale)
      throw InvalidInput(fmt::format("body2.k0 = {}: the elastic stiffnesses of the two bodies must share "
                                     "principal axes (commute with body1.k0 = {}), paper 1 eqs. 19 and 41",
                                     format_matrix(body2_.K0), format_matrix(body1_.K0)));
  }
  const Mat2 compliance = body1_.K0_inv + body2_.K0_inv;
  K0bar_inv_ = compliance;
  K0bar_ = compliance.inverse();  // eq. 16a
  K_static_ = (body1_.static_compliance() + body2_.static_compliance()).inverse();
  S1_ = K0bar_ * body1_.K0_inv;   // eq. 19b
  S2_ = K0bar_ * body2_.K0_inv;   // eq. 19c
  const int n1 = body1_.n, n2 = body2_.n;
  Cbar_ = Mat2X::Zero(2, 2 * (n1 + n2));
  S0_ = Mat2X::Zero(2, 2 * (n1 + n2));
  if (n1 > 0) Cbar_.leftCols(2 * n1) = K0bar_ * body1_.K0_inv * body1_.C;    // eq. 16b
  if (n2 > 0) Cbar_.rightCols(2 * n2) = -K0bar_ * body2_.K0_inv * body2_.C;  // eq. 16b
  if (body1.kind != RheologyKind::rigid && body2.kind != RheologyKind::rigid) {
    const Mat2 sum_inv = (body1_.K0 + body2_.K0).inverse();
    if (n1 > 0) S0_.leftCols(2 * n1) = -sum_inv * body1_.C;  // eq. 19a
    if (n2 > 0) S0_.rightCols(2 * n2) = -sum_inv * body2_.C;
  } else if (body2.kind == RheologyKind::rigid) {
    // K02 -> infinity: S0 -> 0 for body 1's columns (body 2 has none).
  } else {
    // K01 -> infinity: S0 -> 0 likewise.
  }
}

Vec2 ContactPair::relative_deformation(const Vec2& f, const double* zeta) const {
  const Vec2 z1 = body1_.deformation(f, zeta);
  const Vec2 z2 = body2_.deformation(-f, zeta + 2 * body1_.n);
  return z1 - z2;  // eq. 15
}

double ContactPair::stored_energy(const Vec2& f, const double* zeta) const {
  return body1_.stored_energy(f, zeta) + body2_.stored_energy(-f, zeta + 2 * body1_.n);  // eq. 85
}

double substrate_stiffness_from_s(std::string_view key_s, double s, double k01) {
  require_open_interval(key_s, s, 0.0, 1.0);
  const double k02 = k01 * (1.0 - s) / s;  // s = k01/(k01 + k02), errata §5
  // Blamed on s, which the user wrote: pair.s = 1e-200 was "body2.k0 = 2.4e+202: magnitude above 1e+150".
  if (!(k02 <= kMaxMagnitude))
    throw InvalidInput(fmt::format("{} = {}: gives the substrate stiffness k02 = k01 (1 - s) / s = {} (k01 = {}), "
                                   "above {}",
                                   key_s, format_value(s), format_value(k02), format_value(k01),
                                   format_value(kMaxMagnitude)));
  return k02;
}

}  // namespace bristle::rheology
