// Set-valued Coulomb-Stribeck friction (laws/coulomb_stribeck.hpp; paper 3, §III).
#include "bristle/laws/coulomb_stribeck.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "bristle/core/error.hpp"

namespace bristle::laws {

double steepest_descent(const StribeckParams& p) {
  // With x = v/v_S the Stribeck term's slope magnitude (mu_s - mu_d) d x^(d-1) e^{-x^d} / v_S peaks at
  // x^d = (d - 1)/d for d > 1, at x -> 0 for d = 1 and is unbounded for 0 < d < 1.
  const double d = p.delta_s, drop = p.mu_s - p.mu_d;
  if (d == 0.0 || drop <= 0.0) return -p.mu_v;
  if (d < 1.0) return std::numeric_limits<double>::infinity();
  if (d == 1.0) return drop / p.v_s - p.mu_v;
  const double xd = (d - 1.0) / d;  // x^d at the peak
  return drop * d * std::pow(xd, (d - 1.0) / d) * std::exp(-xd) / p.v_s - p.mu_v;
}

CoulombStribeck::CoulombStribeck(const CoulombStribeckParams& params, double admittance, double normal_load_N,
                                 std::string_view prefix)
    : p_(params), a_(admittance), N_(normal_load_N) {
  p_.validate(prefix);
  mu_static_ = stribeck_mu(p_.mu, 0.0);
  well_posed_ = a_ * N_ * steepest_descent(p_.mu) < 1.0;
}

CoulombStribeckStep CoulombStribeck::step(double c, double guess) const {
  CoulombStribeckStep out;
  const double a = a_, N = N_;
  const StribeckParams& friction = p_.mu;
  const double F_stick = -c / a;
  if (std::abs(F_stick) <= mu_static_ * N) {
    out.force = F_stick;
    out.stick = true;
    return out;
  }
  const double C = std::abs(c);
  auto g = [&](double x) { return x - C + a * N * stribeck_mu(friction, x); };
  double x = 0.0, mu_x = 0.0;
  if (well_posed_) {
    // g increasing on (0, C): safeguarded Newton from the guess, else from the middle of the bracket.
    double lo = 0.0, hi = C;
    x = guess >= 0.0 ? guess : 0.5 * C;
    const double tol = 4.0 * std::numeric_limits<double>::epsilon() * C;
    bool have_mu = false;  // mu_x = mu(x) for the final x (saves one exponential)
    for (int it = 0; it < 100; ++it) {
      double slope = 0.0;  // d mu / d v from the same exponential (the Newton step needs both)
      const double mu = stribeck_mu(friction, x, &slope);
      const double gx = x - C + a * N * mu;
      if (std::abs(gx) <= tol) {  // g is evaluated to about eps C: converged
        mu_x = mu;
        have_mu = true;
        break;
      }
      if (gx > 0.0) hi = x; else lo = x;
      double next = x - gx / (1.0 + a * N * slope);
      if (!(next >= lo && next <= hi)) next = 0.5 * (lo + hi);
      const bool done = std::abs(next - x) <= tol || hi - lo <= tol;
      x = next;
      if (done) break;
    }
    if (!have_mu) mu_x = stribeck_mu(friction, x);
  } else {
    // smallest root: scan a log + linear grid for the first sign change, then bisect.
    std::vector<double> grid;
    for (int k = 60; k >= 1; --k) grid.push_back(C * std::pow(2.0, -k));
    for (int k = 1; k <= 400; ++k) grid.push_back(C * k / 400.0);
    double lo = 0.0, hi = C;
    for (const double xg : grid) {
      if (g(xg) > 0.0) {
        hi = xg;
        break;
      }
      lo = xg;
    }
    for (int it = 0; it < 200 && hi - lo > 1e-15 * C; ++it) {
      const double mid = 0.5 * (lo + hi);
      if (g(mid) > 0.0) hi = mid; else lo = mid;
    }
    x = 0.5 * (lo + hi);
    mu_x = stribeck_mu(friction, x);
  }
  const double sgn = c > 0.0 ? 1.0 : -1.0;
  out.force = -sgn * mu_x * N;
  out.stick = false;
  out.slip_speed = x;
  return out;
}

}  // namespace bristle::laws
