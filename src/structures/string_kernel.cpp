#include "string_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "bristle/structures/mode_response.hpp"
#include "quadrature.hpp"

namespace bristle::structures::detail {

namespace {

constexpr double kPi = std::numbers::pi;

/// x mod 2 in [0, 2).
double mod2(double x) {
  double v = x - 2.0 * std::floor(0.5 * x);
  if (v >= 2.0) v = 0.0;
  if (v < 0.0) v = 0.0;
  return v;
}

/// int_0^x mod2 = 2 floor(x/2) + mod2(x)^2 / 2.
double mod2_integral(double x) {
  const double v = mod2(x);
  return 2.0 * std::floor(0.5 * x) + 0.5 * v * v;
}

/// z / (1 - e^{-z}) by its Taylor series (Bernoulli numbers), |z| < 1/2.
Complex bernoulli_generating(Complex z) {
  const Complex z2 = z * z;
  return 1.0 + 0.5 * z + z2 * (1.0 / 12.0 + z2 * (-1.0 / 720.0 + z2 * (1.0 / 30240.0 + z2 * (-1.0 / 1209600.0 +
                                                                                          z2 / 47900160.0))));
}

}  // namespace

StringKernel::StringKernel(const TautStringParams& p, double chi_i, double chi_j)
    : rho_(p.density_kg_per_m),
      length_(p.length_m),
      speed_(p.wave_speed_m_per_s),
      damping_(p.damping_ratio),
      a_((chi_i - chi_j) / p.length_m),
      b_((chi_i + chi_j) / p.length_m) {
  const double x = std::min(chi_i, chi_j), xi = std::max(chi_i, chi_j);
  compliance_ = x * (length_ - xi) / (p.tension_N() * length_);
}

double StringKernel::right_limit() const {
  if (a_ != 0.0) return 0.0;
  const double sq = std::sqrt((1.0 - damping_) * (1.0 + damping_));
  return std::acos(damping_) / (kPi * rho_ * speed_ * sq);
}

double StringKernel::L1(double tau) const {
  if (!damped()) {
    const double s = speed_ * tau / length_;
    return (mod2(s + b_) + mod2(s - b_) - mod2(s + a_) - mod2(s - a_)) / (4.0 * rho_ * speed_);
  }
  if (tau == 0.0) return right_limit();
  const double w = kPi * speed_ / length_;
  const double sq = std::sqrt((1.0 - damping_) * (1.0 + damping_));
  const Complex mu_tau = Complex(-damping_, sq) * (w * tau);
  auto lg = [&](double shift) {
    const Complex z = mu_tau + Complex(0.0, kPi * std::remainder(shift, 2.0));
    if (std::exp(z.real()) < 0.5) return log1p(-std::exp(z));
    return std::log(-expm1(z));
  };
  const double im = (-lg(a_) - lg(-a_) + lg(b_) + lg(-b_)).imag();
  return im / (2.0 * rho_ * length_ * w * sq);
}

double StringKernel::K(double tau) const {
  if (!damped()) return 0.0;
  const double w = kPi * speed_ / length_;
  const double sq = std::sqrt((1.0 - damping_) * (1.0 + damping_));
  const Complex mu(-damping_ * w, sq * w);
  const Complex mu_tau = mu * tau;
  // mu e^z / (1 - e^z), z = mu tau + i pi shift; for z -> 0 the pole -1/tau is real and drops out of Im.
  auto g = [&](double shift) -> Complex {
    const double theta = kPi * std::remainder(shift, 2.0);
    const Complex z = mu_tau + Complex(0.0, theta);
    if (theta == 0.0 && std::abs(z) < 0.5) return -bernoulli_generating(z) / tau;
    return -mu * std::exp(z) / expm1(z);
  };
  const double im = (g(a_) + g(-a_) - g(b_) - g(-b_)).imag();
  return im / (2.0 * rho_ * length_ * w * sq);
}

double StringKernel::S(double tau, double* error) const {
  if (error) *error = 0.0;
  if (!(tau > 0.0)) return 0.0;
  if (!damped()) {
    const double s = speed_ * tau / length_;
    auto P = [&](double shift) { return mod2_integral(s + shift) - mod2_integral(shift); };
    return (length_ / speed_) * (P(b_) + P(-b_) - P(a_) - P(-a_)) / (4.0 * rho_ * speed_);
  }
  const double scale = std::max(right_limit(), 1.0 / (2.0 * rho_ * speed_));
  const QuadratureResult r =
      integrate_gk15([this](double t) { return L1(t); }, 0.0, tau, 1e-11 * scale * tau, 1e-10);
  if (error) *error = r.error;
  return r.value;
}

}  // namespace bristle::structures::detail
