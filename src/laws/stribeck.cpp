#include "bristle/laws/stribeck.hpp"

#include <cmath>
#include <string>

#include "bristle/core/error.hpp"

namespace bristle::laws {

void StribeckParams::validate(std::string_view prefix) const {
  const std::string p(prefix);
  require_positive(p + ".mu_s", mu_s);
  require_positive(p + ".mu_d", mu_d);
  require_positive(p + ".v_s", v_s);
  require_non_negative(p + ".delta_s", delta_s);
  require_non_negative(p + ".mu_v", mu_v);
}

namespace {
/// exp(-x) is 0 in binary64 for x > 745.14; beyond this the call (glibc's slow underflow path) is skipped.
constexpr double kExpUnderflow = 746.0;
}  // namespace

double stribeck_mu(const StribeckParams& p, double speed, double* slope) {
  // paper 1, eq. 53; the common exponents 1 and 2 without pow(). 1 / v_S does not wait for the speed, so
  // only a multiplication follows it on an integrator's chain of evaluations.
  const double inv_v_s = 1.0 / p.v_s;
  const double r = speed * inv_v_s;
  const double power = p.delta_s == 2.0 ? r * r : p.delta_s == 1.0 ? r : std::pow(r, p.delta_s);
  const double decay = power > kExpUnderflow ? 0.0 : std::exp(-power);
  if (slope) {
    // d(power)/d(speed) = delta_S r^(delta_S - 1) / v_S (right derivative at 0; infinite there if delta_S < 1)
    const double dpower = p.delta_s == 2.0   ? 2.0 * r * inv_v_s
                          : p.delta_s == 1.0 ? inv_v_s
                          : p.delta_s == 0.0 ? 0.0
                                             : p.delta_s * std::pow(r, p.delta_s - 1.0) * inv_v_s;
    *slope = decay == 0.0 ? p.mu_v : -(p.mu_s - p.mu_d) * decay * dpower + p.mu_v;
  }
  // Eq. 53 as written loses log10(mu_d / mu_s) digits near v = 0, where the difference cancels against mu_d
  // (mu_s = 1e-200, mu_d = 0.7 gave mu(0) = 0 and NaN forces). Below mu_s = 1e-8 mu_d (8 digits lost) it is the
  // convex combination, exact at both ends; above, eq. 53 as written, so that results stay bitwise those of before
  // (a fit whose optimum is flat, examples/fit_seal.toml at its bound mu_s = 0.01 mu_d, moved by 5e-4 in k0 when
  // the ulps of every mu_s < mu_d / 2 changed).
  if (p.mu_s < 1e-8 * p.mu_d)
    return p.mu_s * decay + p.mu_d * (power > kExpUnderflow ? 1.0 : -std::expm1(-power)) + p.mu_v * speed;
  return p.mu_d + (p.mu_s - p.mu_d) * decay + p.mu_v * speed;
}

void FrictionCoefficient::validate(std::string_view prefix) const {
  const std::string p(prefix);
  axis1.validate(anisotropic ? p + ".axis1" : p);
  if (anisotropic) {
    axis2.validate(p + ".axis2");
    require_finite(p + ".angle_rad", angle_rad);
  }
}

Mat2 FrictionCoefficient::M(const Vec2& v_r) const {
  const double speed = v_r.norm();
  if (!anisotropic) return stribeck_mu(axis1, speed) * Mat2::Identity();
  const Mat2 r = rotation(angle_rad);
  Mat2 d = Mat2::Zero();
  d(0, 0) = stribeck_mu(axis1, speed);
  d(1, 1) = stribeck_mu(axis2, speed);
  return r * d * r.transpose();
}

}  // namespace bristle::laws
