#include "quadrature.hpp"

#include <array>

namespace bristle::structures::detail {

namespace {

// Kronrod 15-point nodes (positive half) and weights, with the embedded Gauss 7-point weights.
constexpr std::array<double, 8> kXk = {0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
                                       0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
                                       0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
                                       0.207784955007898467600689403773245, 0.000000000000000000000000000000000};
constexpr std::array<double, 8> kWk = {0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
                                       0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
                                       0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
                                       0.204432940075298892414161999234649, 0.209482141084727828012999174891714};
constexpr std::array<double, 4> kWg = {0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
                                       0.381830050505118944950369775488975, 0.417959183673469387755102040816327};

void panel(const std::function<double(double)>& f, double a, double b, double& k15, double& g7) {
  const double c = 0.5 * (a + b), h = 0.5 * (b - a);
  const double fc = f(c);
  k15 = kWk[7] * fc;
  g7 = kWg[3] * fc;
  for (int i = 0; i < 7; ++i) {
    const double x = h * kXk[static_cast<std::size_t>(i)];
    const double s = f(c - x) + f(c + x);
    k15 += kWk[static_cast<std::size_t>(i)] * s;
    if (i % 2 == 1) g7 += kWg[static_cast<std::size_t>(i / 2)] * s;
  }
  k15 *= h;
  g7 *= h;
}

void recurse(const std::function<double(double)>& f, double a, double b, double tol_per_width, double rel_tol,
             double min_width, int depth, QuadratureResult& out) {
  double k15 = 0.0, g7 = 0.0;
  panel(f, a, b, k15, g7);
  const double err = std::abs(k15 - g7);
  const double allowed = std::max(tol_per_width * (b - a), rel_tol * std::abs(k15));
  if (err <= allowed || depth <= 0 || (b - a) <= min_width) {
    out.value += k15;
    out.error += err;
    return;
  }
  const double m = 0.5 * (a + b);
  recurse(f, a, m, tol_per_width, rel_tol, min_width, depth - 1, out);
  recurse(f, m, b, tol_per_width, rel_tol, min_width, depth - 1, out);
}

void panel_pair(const std::function<double(double)>& f, double a, double b, double c, double& k15, double& g7,
                double& m15) {
  const double mid = 0.5 * (a + b), h = 0.5 * (b - a);
  const double fc = f(mid);
  k15 = kWk[7] * fc;
  g7 = kWg[3] * fc;
  m15 = kWk[7] * fc * (c - mid);
  for (int i = 0; i < 7; ++i) {
    const double x = h * kXk[static_cast<std::size_t>(i)];
    const double fl = f(mid - x), fr = f(mid + x);
    k15 += kWk[static_cast<std::size_t>(i)] * (fl + fr);
    m15 += kWk[static_cast<std::size_t>(i)] * (fl * (c - mid + x) + fr * (c - mid - x));
    if (i % 2 == 1) g7 += kWg[static_cast<std::size_t>(i / 2)] * (fl + fr);
  }
  k15 *= h;
  g7 *= h;
  m15 *= h;
}

void recurse_pair(const std::function<double(double)>& f, double a, double b, double c, double tol_per_width,
                  double rel_tol, double min_width, int depth, QuadraturePair& out) {
  double k15 = 0.0, g7 = 0.0, m15 = 0.0;
  panel_pair(f, a, b, c, k15, g7, m15);
  const double err = std::abs(k15 - g7);
  if (err <= std::max(tol_per_width * (b - a), rel_tol * std::abs(k15)) || depth <= 0 || (b - a) <= min_width) {
    out.value += k15;
    out.moment += m15;
    return;
  }
  const double m = 0.5 * (a + b);
  recurse_pair(f, a, m, c, tol_per_width, rel_tol, min_width, depth - 1, out);
  recurse_pair(f, m, b, c, tol_per_width, rel_tol, min_width, depth - 1, out);
}

}  // namespace

QuadraturePair integrate_gk15_pair(const std::function<double(double)>& f, double a, double b, double c,
                                   double abs_tol, double rel_tol, int max_depth) {
  QuadraturePair out;
  if (!(b > a)) return out;
  recurse_pair(f, a, b, c, abs_tol / (b - a), rel_tol, 1e-14 * (b - a), max_depth, out);
  return out;
}

QuadratureResult integrate_gk15(const std::function<double(double)>& f, double a, double b, double abs_tol,
                                double rel_tol, int max_depth) {
  QuadratureResult out;
  if (!(b > a)) return out;
  recurse(f, a, b, abs_tol / (b - a), rel_tol, 1e-14 * (b - a), max_depth, out);
  return out;
}

void gauss_legendre(int n, std::vector<double>& nodes, std::vector<double>& weights) {
  nodes.assign(static_cast<std::size_t>(n), 0.0);
  weights.assign(static_cast<std::size_t>(n), 0.0);
  const double pi = 3.14159265358979323846;
  for (int i = 0; i < (n + 1) / 2; ++i) {
    // Newton on P_n from the Tricomi estimate of the i-th root (descending in x).
    double x = std::cos(pi * (i + 0.75) / (n + 0.5));
    double dp = 1.0;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1.0, p1 = x;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      if (n == 1) p0 = 1.0;
      dp = n * (x * p1 - p0) / (x * x - 1.0);
      const double dx = p1 / dp;
      x -= dx;
      if (std::abs(dx) < 1e-16) break;
    }
    const double w = 2.0 / ((1.0 - x * x) * dp * dp);
    // map [-1, 1] -> [0, 1]; store ascending
    nodes[static_cast<std::size_t>(i)] = 0.5 * (1.0 - x);
    nodes[static_cast<std::size_t>(n - 1 - i)] = 0.5 * (1.0 + x);
    weights[static_cast<std::size_t>(i)] = 0.5 * w;
    weights[static_cast<std::size_t>(n - 1 - i)] = 0.5 * w;
  }
}

}  // namespace bristle::structures::detail
