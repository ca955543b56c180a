#pragma once
// Private: adaptive Gauss-Kronrod (7-15) quadrature of smooth functions, used for the integrals of the
// closed-form string kernels (step response, per-step kernel averages).
#include <cmath>
#include <functional>
#include <vector>

namespace bristle::structures::detail {

struct QuadratureResult {
  double value = 0.0;
  double error = 0.0;  // estimated absolute error (sum of |K15 - G7| over the accepted panels)
};

/// int_a^b f, subdividing until each panel's |K15 - G7| <= max(abs_tol (width/(b - a)), rel_tol |K15|),
/// or the panel is narrower than 1e-14 (b - a). The accepted value is the Kronrod one; for analytic
/// integrands its error is far below |K15 - G7| (roughly that to the power 23/14), so a tolerance of
/// 1e-9 already gives values accurate to roundoff. `error` reports the (pessimistic) |K15 - G7| sum.
QuadratureResult integrate_gk15(const std::function<double(double)>& f, double a, double b, double abs_tol,
                                double rel_tol, int max_depth = 40);

/// The pair (int_a^b f, int_a^b (c - t) f(t) dt) with shared evaluations of f (same acceptance test,
/// applied to the first integral).
struct QuadraturePair {
  double value = 0.0, moment = 0.0;
};
QuadraturePair integrate_gk15_pair(const std::function<double(double)>& f, double a, double b, double c,
                                   double abs_tol, double rel_tol, int max_depth = 40);

/// n-point Gauss-Legendre rule on [0, 1] (nodes ascending, weights summing to 1).
void gauss_legendre(int n, std::vector<double>& nodes, std::vector<double>& weights);

}  // namespace bristle::structures::detail
