#pragma once
// Private scalar numerics of the directional module: Brent minimisation, a safeguarded Newton root
// finder for increasing functions, and a cyclic tridiagonal solver (periodic splines).
#include <functional>
#include <utility>
#include <vector>

namespace bristle::directional::detail {

/// Brent's method (golden section + parabolic interpolation) for a minimum of f on [a, b].
/// Returns {x, f(x)}; the value is accurate to round-off (the location to ~sqrt(eps)).
std::pair<double, double> brent_minimize(const std::function<double(double)>& f, double a, double b);

/// The root of an increasing function f on the bracket [lo, hi] (f(lo) <= 0 <= f(hi) required),
/// by Newton's method with bisection whenever a Newton step leaves the current bracket or fails to
/// halve it. `f_and_df` returns {f(x), f'(x)}. Converges to the last representable bracket.
/// Returns false (with x the best estimate) if the bracket's signs are wrong.
bool newton_bracketed(const std::function<std::pair<double, double>(double)>& f_and_df, double lo, double hi,
                      double& x);

/// Solves the cyclic tridiagonal system
///   lower[i] x[i-1] + diag[i] x[i] + upper[i] x[i+1] = rhs[i]   (indices mod n, n >= 3)
/// by the Sherman-Morrison reduction to two tridiagonal (Thomas) solves.
std::vector<double> solve_cyclic_tridiagonal(const std::vector<double>& lower, const std::vector<double>& diag,
                                             const std::vector<double>& upper, const std::vector<double>& rhs);

}  // namespace bristle::directional::detail
