#include "bristle/laws/friction_law.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "bristle/core/enum_names.hpp"
#include "bristle/core/error.hpp"
#include "bristle/core/norms.hpp"

namespace bristle::laws {

namespace {
constexpr NameTable<LawKind, 5> kLawNames{{
    {LawKind::dahl, "dahl"},
    {LawKind::lugre, "lugre"},
    {LawKind::frbd, "frbd"},
    {LawKind::bouc_wen, "bouc_wen"},
    {LawKind::frictionless, "frictionless"},
}};
}  // namespace

std::string_view to_string(LawKind kind) { return name_of(kLawNames, kind); }

LawKind law_kind_from_string(std::string_view key, std::string_view name) {
  return parse_name(kLawNames, key, name, "friction law");
}

void LawParams::validate(std::string_view prefix) const {
  const std::string p(prefix);
  require_non_negative(p + ".eps", eps);
  if (eps > LawParams::kMaxEps)  // sqrt(eps) grows the norm's floor, and with it the rate of z's relaxation (eqs. 2-6)
    throw InvalidInput(fmt::format("{}.eps = {}: must be <= {} m^2/s^2 (a regularisation: sqrt(eps) is the speed "
                                   "below which ||v|| is smoothed; a larger one makes z relax at sqrt(eps) / "
                                   "(the stiffness's length scale) and the run stiff; Limits in docs/scenarios.md)",
                                   p, format_value(eps), format_value(LawParams::kMaxEps)));
  switch (kind) {
    case LawKind::dahl:
      M.validate(p);
      if (sigma0) require_spd(p + ".sigma0", *sigma0);
      if (M.axis1.mu_s != M.axis1.mu_d || (M.anisotropic && M.axis2.mu_s != M.axis2.mu_d))
        throw InvalidInput(fmt::format("{}.mu_s = {}: the Dahl law has a constant friction coefficient, "
                                       "mu_s must equal mu_d = {} (use \"lugre\" for a Stribeck curve)",
                                       p, format_value(M.axis1.mu_s), format_value(M.axis1.mu_d)));
      // mu_v does not apply to a Dahl [law] (the reader refuses it), but stribeck_mu would add mu_v |v|
      if (M.axis1.mu_v != 0.0 || (M.anisotropic && M.axis2.mu_v != 0.0))
        throw InvalidInput(fmt::format("{}.mu_v = {}: the Dahl law has a constant friction coefficient, mu_v must be "
                                       "0 (use \"lugre\" or \"frbd\" for a viscous term)",
                                       p, format_value(M.axis1.mu_v != 0.0 ? M.axis1.mu_v : M.axis2.mu_v)));
      break;
    case LawKind::lugre:
      M.validate(p);
      if (sigma0) require_spd(p + ".sigma0", *sigma0);
      require_spsd(p + ".sigma1", sigma1);
      require_spsd(p + ".sigma2", sigma2);
      break;
    case LawKind::frbd:
      if (!G_inverse) M.validate(p);
      break;
    case LawKind::bouc_wen:
      require_positive(p + ".A", A);
      require_positive(p + ".beta1", beta1);
      require_non_negative(p + ".beta2", beta2);
      require_finite(p + ".gamma", gamma);
      if (!(beta1 + gamma > 0.0))
        throw InvalidInput(fmt::format("{}.gamma = {}: beta1 + gamma must be > 0 for a bounded hysteresis "
                                       "(beta1 = {})",
                                       p, format_value(gamma), format_value(beta1)));
      break;
    case LawKind::frictionless:
      break;
  }
}

FrictionLaw::FrictionLaw(LawParams params, const Mat2& k_static)
    : params_(std::move(params)), sigma0_(params_.sigma0.value_or(k_static)), k_static_(k_static) {
  params_.validate("law");
  has_output_terms_ = params_.kind == LawKind::lugre && (params_.sigma1.any() || params_.sigma2.any());
}

Mat2 FrictionLaw::G_inverse(const Vec2& v) const {
  if (params_.G_inverse) return params_.G_inverse(v);
  if (!params_.M.anisotropic) return isotropic_g(v.norm(), v.squaredNorm()) * Mat2::Identity();
  const Mat2 m = params_.M.M(v);
  const Mat2 m_inv = m.inverse();
  return m_inv * m_inv * regularised_norm(m * v, params_.eps);  // M^-2 ||M v||_{2,eps}
}

double FrictionLaw::isotropic_g(double speed, double speed_squared, double* slope) const {
  // M = mu I: M^-2 ||M v||_eps = sqrt(mu^2 ||v||^2 + eps) / mu^2 (eq. 3), without 2x2 inverses.
  double dmu = 0.0;
  const double mu = stribeck_mu(params_.M.axis1, speed, slope ? &dmu : nullptr);
  if (params_.eps == 0.0) {
    // The norm unregularised: g = |v| / mu exactly, without the square root (on the integrators' chain).
    const double g = speed / mu;
    if (slope) *slope = (1.0 - g * dmu) / mu;  // d(|v| / mu) / d|v|
    return g;
  }
  const double q = std::sqrt(mu * mu * speed_squared + params_.eps);
  const double g = q / (mu * mu);
  if (slope) {
    const double dq = (mu * dmu * speed_squared + mu * mu * speed) / q;  // dq/d|v|; q > 0 as eps > 0
    *slope = (dq - 2.0 * g * mu * dmu) / (mu * mu);  // dq / mu^2 - 2 q mu' / mu^3
  }
  return g;
}

Vec2 FrictionLaw::h0(const Vec2& z, const Vec2& f, const Vec2& v) const {
  switch (params_.kind) {
    case LawKind::dahl:
    case LawKind::lugre:
      return -G_inverse(v) * (sigma0_ * z) - v;  // eq. 2
    case LawKind::frbd:
      return -G_inverse(v) * f - v;  // eq. 3
    case LawKind::bouc_wen: {
      const double e = params_.eps;
      const double ax = regularised_abs(v[0] * z[0], e);
      const double ay = regularised_abs(v[1] * z[1], e);
      const double vz = v.dot(z);
      const double gx = params_.beta1 * ax + params_.beta2 * ay - params_.gamma * vz;  // eq. 6a
      const double gy = params_.beta2 * ax + params_.beta1 * ay - params_.gamma * vz;  // eq. 6b
      return Vec2(-gx * z[0], -gy * z[1]) - params_.A * v;                            // eq. 4
    }
    case LawKind::frictionless:
      return -v;  // eq. 7
  }
  return -v;
}

void FrictionLaw::h0_jacobian(const Vec2& z, const Vec2& /*f*/, const Vec2& v, Mat2& dz, Mat2& df) const {
  dz.setZero();
  df.setZero();
  switch (params_.kind) {
    case LawKind::dahl:
    case LawKind::lugre:
      dz = -G_inverse(v) * sigma0_;  // eq. 2
      break;
    case LawKind::frbd:
      df = -G_inverse(v);  // eq. 3
      break;
    case LawKind::bouc_wen: {
      const double e = params_.eps;
      const double px = v[0] * z[0], py = v[1] * z[1];
      const double ax = regularised_abs(px, e), ay = regularised_abs(py, e);
      const double sx = ax > 0.0 ? px / ax : 0.0, sy = ay > 0.0 ? py / ay : 0.0;  // d|p|_eps/dp
      const double vz = v.dot(z);
      const double b1 = params_.beta1, b2 = params_.beta2, g = params_.gamma;
      const double gx = b1 * ax + b2 * ay - g * vz;  // eq. 6a
      const double gy = b2 * ax + b1 * ay - g * vz;  // eq. 6b
      const double dgx_dzx = b1 * sx * v[0] - g * v[0], dgx_dzy = b2 * sy * v[1] - g * v[1];
      const double dgy_dzx = b2 * sx * v[0] - g * v[0], dgy_dzy = b1 * sy * v[1] - g * v[1];
      dz << -gx - z[0] * dgx_dzx, -z[0] * dgx_dzy, -z[1] * dgy_dzx, -gy - z[1] * dgy_dzy;  // eq. 4
      break;
    }
    case LawKind::frictionless:
      break;
  }
}

Vec2 FrictionLaw::output(const Vec2& f, const Vec2& zdot, const Vec2& v) const {
  if (!has_output_terms_) return f;
  return f + params_.sigma1 * zdot - params_.sigma2 * v;
}

namespace {
/// ||v||_2 without underflow or overflow of the squares (a denormal speed keeps its direction).
double safe_norm(const Vec2& v) { return std::hypot(v[0], v[1]); }
}  // namespace

Vec2 FrictionLaw::frbd_steady_force(const Vec2& v) const {
  // h0 = 0 of eq. 3: G^-1(v) f = -v.
  if (v[0] == 0.0 && v[1] == 0.0) return Vec2::Zero();  // f = 0 solves it for every G^-1(0) (see the header)
  if (params_.G_inverse) {
    const Mat2 g_inv = params_.G_inverse(v);
    const Eigen::FullPivLU<Mat2> lu(g_inv);
    const Vec2 f = -Vec2(lu.solve(v));
    if (!g_inv.allFinite() || !lu.isInvertible() || !f.allFinite())
      throw SolverError(fmt::format("steady force: G^-1(v) = {} at v = ({}, {}) m/s is singular or not finite: "
                                    "no steady state f = -G(v) v exists",
                                    format_matrix(g_inv), format_value(v[0]), format_value(v[1])));
    return f;
  }
  // f = -G v = -M^2 v / ||M v||_{2,eps}. With eps = 0 only the direction of v matters: it is scaled to a
  // unit-size vector first, so that a denormal speed gives the same |f| = mu as any other.
  const Mat2 m = params_.M.M(v);
  const Vec2 d = params_.eps == 0.0 ? Vec2(v / std::max(std::abs(v[0]), std::abs(v[1]))) : v;
  const Vec2 md = m * d;
  const double norm = params_.eps == 0.0 ? safe_norm(md) : std::sqrt(md.squaredNorm() + params_.eps);
  return -(m * md) / norm;
}

Vec2 FrictionLaw::steady_force(const Vec2& v) const {
  if (!v.allFinite())
    throw InvalidInput(fmt::format("steady force: v = ({}, {}) m/s: must be finite", format_value(v[0]),
                                   format_value(v[1])));
  if (v.cwiseAbs().maxCoeff() > kMaxMagnitude)  // ||M v||^2 overflowed: NaN at 1e300 m/s (helper-43)
    throw InvalidInput(fmt::format("steady force: v = ({}, {}) m/s: magnitude above {}", format_value(v[0]),
                                   format_value(v[1]), format_value(kMaxMagnitude)));
  switch (params_.kind) {
    case LawKind::dahl:
    case LawKind::lugre:
    case LawKind::frbd: {
      // h0 = 0:  G^-1 f = -v  ->  f = -G v (FrBD); for Dahl/LuGre Sigma0 z = -G v and f = K_static z.
      Vec2 f = frbd_steady_force(v);
      if (params_.kind == LawKind::frbd) return f;
      if (params_.sigma0) f = k_static_ * sigma0_.inverse() * f;
      return f - params_.sigma2 * v;
    }
    case LawKind::bouc_wen: {
      // At v = 0, h0 = -G(z, 0) z: z = 0 (see the header).
      if (v[0] == 0.0 && v[1] == 0.0) return Vec2::Zero();
      // h0(z) = 0 solved by Newton from the axis-wise closed form z_i = -sgn(v_i) sqrt(A/(beta1+gamma)),
      // exact when v is along an axis and eps = 0. h0 is homogeneous of degree 1 in v when eps = 0, so the
      // solve uses v scaled to unit size (a denormal v has the steady state of its direction).
      const Vec2 vs = params_.eps == 0.0 ? Vec2(v / std::max(std::abs(v[0]), std::abs(v[1]))) : v;
      Vec2 z = Vec2::Zero();
      const double a = std::sqrt(params_.A / (params_.beta1 + params_.gamma));
      for (int i = 0; i < 2; ++i)
        if (vs[i] != 0.0) z[i] = vs[i] > 0 ? -a : a;
      for (int iter = 0; iter < 60; ++iter) {
        const Vec2 r = h0(z, Vec2::Zero(), vs);
        if (r.norm() <= 1e-15 * (params_.A * vs.norm() + 1e-300)) break;
        Mat2 jac;
        for (int j = 0; j < 2; ++j) {
          const double dz = 1e-7 * std::max(a, std::abs(z[j]));
          Vec2 zp = z;
          zp[j] += dz;
          jac.col(j) = (h0(zp, Vec2::Zero(), vs) - r) / dz;
        }
        if (std::abs(jac.determinant()) < 1e-300) break;
        z -= jac.inverse() * r;
      }
      if (!z.allFinite())
        throw SolverError(fmt::format("steady force: the Bouc-Wen steady deformation at v = ({}, {}) m/s did not "
                                      "converge",
                                      format_value(v[0]), format_value(v[1])));
      return k_static_ * z;
    }
    case LawKind::frictionless:
      // h0 = -v: at v = 0 every z is at rest and f = 0 is taken (as for the other laws); otherwise z grows
      // without bound and no steady force exists.
      if (v[0] == 0.0 && v[1] == 0.0) return Vec2::Zero();
      throw InvalidInput(fmt::format("steady force: v = ({}, {}) m/s: the frictionless law has no steady state "
                                     "at v != 0 (z' = -v grows without bound)",
                                     format_value(v[0]), format_value(v[1])));
  }
  return Vec2::Zero();
}

}  // namespace bristle::laws
