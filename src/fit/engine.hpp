#pragma once
// Private to src/fit: the pieces of fit::fit (fit.cpp) that the fits of the other kinds share with it (the
// scaled coordinates u and the statistics at the optimum; fit/fit.hpp documents both).
#include <functional>
#include <vector>

#include "bristle/fit/fit.hpp"

namespace bristle::fit::detail {

double scale_of(const ParameterSpec& p);            // |initial|, else the range, else 1
double to_u(const ParameterSpec& p, double value);  // p / scale (linear) or ln p (log)
double to_p(const ParameterSpec& p, double u);
/// The checks of the parameter specs alone (bounds, start values, duplicates), as fit::validate makes them.
void validate_parameters(const std::vector<ParameterSpec>& parameters);
/// Fills result's cost, s^2, AIC/BIC, condition number, covariance-based std_error/ci95, correlation, and the
/// at-bound and non-identifiable warnings from the residuals r and the Jacobian J = dr/du at u.
/// dr/dp by central differences of `residuals` in p (step fd_step |p_j|, fd_step where p_j = 0): every kind's
/// difference Jacobian in the parameters' own units (the optimisers' quotients in u are driver.cpp's and fit.cpp's).
Eigen::MatrixXd central_differences(const std::function<VecX(const VecX&)>& residuals, const VecX& p, double fd_step);
void statistics(Result& result, const std::vector<ParameterSpec>& parameters, const VecX& u, const VecX& r,
                const Eigen::MatrixXd& J);

}  // namespace bristle::fit::detail
