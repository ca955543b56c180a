#include "bristle/structures/mode_response.hpp"

#include <cmath>

namespace bristle::structures {

namespace {
constexpr double kSeriesRadius = 0.5;
}

Complex expm1(Complex z) {
  const double x = z.real(), y = z.imag();
  // e^{x+iy} - 1 = (e^x - 1) cos y - 2 sin^2(y/2) + i e^x sin y
  const double s = std::sin(0.5 * y);
  return {std::expm1(x) * std::cos(y) - 2.0 * s * s, std::exp(x) * std::sin(y)};
}

Complex log1p(Complex z) {
  const double x = z.real(), y = z.imag();
  // |1 + z|^2 = 1 + 2x + x^2 + y^2
  return {0.5 * std::log1p(2.0 * x + x * x + y * y), std::atan2(y, 1.0 + x)};
}

Complex phi1(Complex z) {
  if (std::abs(z) < kSeriesRadius) {
    // sum_{n>=0} z^n / (n+1)!; 0.5^18/19! < 1e-22
    Complex sum = 0.0, term = 1.0;
    for (int n = 0; n < 20; ++n) {
      sum += term;
      term *= z / static_cast<double>(n + 2);
    }
    return sum;
  }
  return expm1(z) / z;
}

Complex phi2(Complex z) {
  if (std::abs(z) < kSeriesRadius) {
    // sum_{n>=0} z^n / (n+2)!
    Complex sum = 0.0, term = 0.5;
    for (int n = 0; n < 20; ++n) {
      sum += term;
      term *= z / static_cast<double>(n + 3);
    }
    return sum;
  }
  return (phi1(z) - 1.0) / z;
}

ModeResponse::ModeResponse(double omega_rad_per_s, double damping_ratio)
    : omega(omega_rad_per_s),
      damping(damping_ratio),
      omega_d(omega_rad_per_s * std::sqrt((1.0 - damping_ratio) * (1.0 + damping_ratio))),
      lambda(-damping_ratio * omega_rad_per_s, omega_d) {}

double ModeResponse::h(double tau) const { return std::exp(lambda.real() * tau) * std::sin(omega_d * tau) / omega_d; }

double ModeResponse::h_dot(double tau) const {
  const double e = std::exp(lambda.real() * tau);
  return e * (std::cos(omega_d * tau) - damping * omega / omega_d * std::sin(omega_d * tau));
}

double ModeResponse::S(double tau) const { return tau * phi1(lambda * tau).imag() / omega_d; }

double ModeResponse::S0(double tau) const { return (std::exp(lambda * tau) / lambda).imag() / omega_d; }

double ModeResponse::Q(double tau) const { return tau * tau * phi2(lambda * tau).imag() / omega_d; }

double ModeResponse::Q0(double tau) const { return (tau * phi1(lambda * tau) / lambda).imag() / omega_d; }

}  // namespace bristle::structures
