// Private scalar numerics of the directional module (see numerics.hpp).
#include "numerics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bristle::directional::detail {

std::pair<double, double> brent_minimize(const std::function<double(double)>& f, double a, double b) {
  // R. P. Brent, Algorithms for Minimization without Derivatives (1973), ch. 5, procedure localmin.
  constexpr double kGolden = 0.3819660112501051;  // (3 - sqrt 5) / 2
  const double rel = std::sqrt(std::numeric_limits<double>::epsilon());
  constexpr double kAbs = 1e-16;
  double v = a + kGolden * (b - a), w = v, x = v;
  double fx = f(x), fv = fx, fw = fx;
  double d = 0.0, e = 0.0;
  for (int iteration = 0; iteration < 200; ++iteration) {
    const double m = 0.5 * (a + b);
    const double tol = rel * std::abs(x) + kAbs;
    const double t2 = 2.0 * tol;
    if (std::abs(x - m) <= t2 - 0.5 * (b - a)) break;
    double p = 0.0, q = 0.0, r = 0.0;
    if (std::abs(e) > tol) {  // trial parabola through x, v, w
      r = (x - w) * (fx - fv);
      q = (x - v) * (fx - fw);
      p = (x - v) * q - (x - w) * r;
      q = 2.0 * (q - r);
      if (q > 0.0) p = -p; else q = -q;
      r = e;
      e = d;
    }
    if (std::abs(p) < std::abs(0.5 * q * r) && p > q * (a - x) && p < q * (b - x)) {
      d = p / q;  // parabolic step
      const double u = x + d;
      if (u - a < t2 || b - u < t2) d = x < m ? tol : -tol;
    } else {
      e = (x < m ? b : a) - x;  // golden-section step
      d = kGolden * e;
    }
    const double u = std::abs(d) >= tol ? x + d : (d > 0.0 ? x + tol : x - tol);
    const double fu = f(u);
    if (fu <= fx) {
      if (u < x) b = x; else a = x;
      v = w; fv = fw;
      w = x; fw = fx;
      x = u; fx = fu;
    } else {
      if (u < x) a = u; else b = u;
      if (fu <= fw || w == x) {
        v = w; fv = fw;
        w = u; fw = fu;
      } else if (fu <= fv || v == x || v == w) {
        v = u; fv = fu;
      }
    }
  }
  return {x, fx};
}

bool newton_bracketed(const std::function<std::pair<double, double>(double)>& f_and_df, double lo, double hi,
                      double& x) {
  const double f_lo = f_and_df(lo).first;
  const double f_hi = f_and_df(hi).first;
  if (f_lo == 0.0) { x = lo; return true; }
  if (f_hi == 0.0) { x = hi; return true; }
  if (!(f_lo < 0.0 && f_hi > 0.0)) {
    x = 0.5 * (lo + hi);
    return false;
  }
  if (!(x > lo && x < hi)) x = 0.5 * (lo + hi);
  double step_before = hi - lo, step = step_before;
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  for (int iteration = 0; iteration < 300; ++iteration) {
    const auto [f, df] = f_and_df(x);
    if (f == 0.0) return true;
    if (f < 0.0) lo = x; else hi = x;
    double next = x - f / df;
    const bool newton_ok = df > 0.0 && std::isfinite(next) && next > lo && next < hi &&
                           std::abs(2.0 * f) <= std::abs(step_before * df);
    if (newton_ok) {
      step_before = step;
      step = x - next;
    } else {
      step_before = step;
      step = 0.5 * (hi - lo);
      next = lo + step;
    }
    const double resolution = 2.0 * kEps * std::max(std::abs(lo), std::abs(hi)) + 1e-300;
    if (std::abs(next - x) <= resolution || hi - lo <= resolution) {
      x = next;
      return true;
    }
    x = next;
  }
  return true;  // the bracket has been halved at least 300 times or Newton has converged
}

std::vector<double> solve_cyclic_tridiagonal(const std::vector<double>& lower, const std::vector<double>& diag,
                                             const std::vector<double>& upper, const std::vector<double>& rhs) {
  const std::size_t n = diag.size();
  // Sherman-Morrison: A = B + u v^T with u = (gamma, 0, ..., 0, upper[n-1]),
  // v = (1, 0, ..., 0, lower[0] / gamma); B is tridiagonal with modified corners.
  const double gamma = -diag[0];
  std::vector<double> b_diag(diag);
  b_diag[0] -= gamma;
  b_diag[n - 1] -= upper[n - 1] * lower[0] / gamma;
  auto thomas = [&](std::vector<double> d) {
    std::vector<double> c(n), x(n);
    double denom = b_diag[0];
    c[0] = upper[0] / denom;
    d[0] /= denom;
    for (std::size_t i = 1; i < n; ++i) {
      denom = b_diag[i] - lower[i] * c[i - 1];
      c[i] = i + 1 < n ? upper[i] / denom : 0.0;
      d[i] = (d[i] - lower[i] * d[i - 1]) / denom;
    }
    x[n - 1] = d[n - 1];
    for (std::size_t i = n - 1; i-- > 0;) x[i] = d[i] - c[i] * x[i + 1];
    return x;
  };
  const std::vector<double> y = thomas(rhs);
  std::vector<double> u(n, 0.0);
  u[0] = gamma;
  u[n - 1] = upper[n - 1];
  const std::vector<double> z = thomas(u);
  const double v_y = y[0] + lower[0] / gamma * y[n - 1];
  const double v_z = z[0] + lower[0] / gamma * z[n - 1];
  const double factor = v_y / (1.0 + v_z);
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = y[i] - factor * z[i];
  return x;
}

}  // namespace bristle::directional::detail
