// The bounded minimiser every fit runs (src/fit/driver.hpp, detail::minimise): the active set of bounds on
// analytic residuals, where the answer is known exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "../../src/fit/driver.hpp"  // the private minimiser
#include "../../src/fit/engine.hpp"  // the private statistics

namespace bristle::fit::detail {
namespace {

/// Residuals r(u) with an analytic Jacobian, as a CostInU.
class AnalyticCost final : public CostInU {
 public:
  using Fn = std::function<void(const VecX& u, VecX& r, Eigen::MatrixXd* J)>;
  AnalyticCost(int n, int p, Fn fn) : fn_(std::move(fn)), n_(n) {
    set_num_residuals(n);
    mutable_parameter_block_sizes()->push_back(p);
  }
  Eigen::MatrixXd jacobian_at(const VecX& u, VecX& r) const override {
    Eigen::MatrixXd J;
    fn_(u, r, &J);
    return J;
  }
  bool Evaluate(double const* const* parameters, double* residuals, double** jacobians) const override {
    const VecX u = Eigen::Map<const VecX>(parameters[0], parameter_block_sizes()[0]);
    VecX r;
    Eigen::MatrixXd J;
    fn_(u, r, jacobians && jacobians[0] ? &J : nullptr);
    std::copy(r.data(), r.data() + n_, residuals);
    if (jacobians && jacobians[0])
      Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(jacobians[0], J.rows(),
                                                                                         J.cols()) = J;
    return true;
  }

 private:
  Fn fn_;
  int n_;
};

const auto kDefaultRadius = [](const VecX&) { return 1e4; };

/// r = (u0 - 4, 2 (u1 - 0.5), u0 u1 - 2), to be fitted with u0 in [0, 3], u1 in [-10, 10] from (1, 0): the
/// constrained optimum has u0 = 3 (the gradient points out of the box there) and u1 minimising
/// (3 - 4)^2 + 4 (u1 - 0.5)^2 + (3 u1 - 2)^2: u1 = 8/13.
AnalyticCost held_problem() {
  return AnalyticCost(3, 2, [](const VecX& u, VecX& r, Eigen::MatrixXd* J) {
    r.resize(3);
    r << u[0] - 4.0, 2.0 * (u[1] - 0.5), u[0] * u[1] - 2.0;
    if (J) {
      J->resize(3, 2);
      *J << 1.0, 0.0, 0.0, 2.0, u[1], u[0];
    }
  });
}

TEST(Minimise, AFirstStepProjectedOntoABoundIsReleasedWhenTheOptimumIsInside) {
  // r(u) = atan(u - 1): optimum u = 1 inside [-5, 3]. From u = -2 the Gauss-Newton step (+12.5) leaves the box;
  // projected onto u = 3 it lowers the cost (atan 2 < |atan(-3)|) and is accepted. The parameter is then on its
  // bound with the gradient pointing back in: it must be released, not reported as converged at 3.
  AnalyticCost cost(1, 1, [](const VecX& u, VecX& r, Eigen::MatrixXd* J) {
    r = VecX::Constant(1, std::atan(u[0] - 1.0));
    if (J) *J = Eigen::MatrixXd::Constant(1, 1, 1.0 / (1.0 + (u[0] - 1.0) * (u[0] - 1.0)));
  });
  const Minimum m = minimise(cost, VecX::Constant(1, -2.0), VecX::Constant(1, -5.0), VecX::Constant(1, 3.0), Options{},
                             {}, kDefaultRadius);
  EXPECT_TRUE(m.converged) << m.message;
  EXPECT_NEAR(m.u[0], 1.0, 1e-6) << m.message;
}

TEST(Minimise, AnOptimumBeyondABoundStaysHeldThereAndTheOthersConverge) {
  // held_problem(): u0 held on its upper bound 3, u1 = 8/13.
  AnalyticCost cost = held_problem();
  const VecX lo = (VecX(2) << 0.0, -10.0).finished(), hi = (VecX(2) << 3.0, 10.0).finished();
  const VecX u0 = (VecX(2) << 1.0, 0.0).finished();
  const Minimum m = minimise(cost, u0, lo, hi, Options{}, {}, kDefaultRadius);
  EXPECT_TRUE(m.converged) << m.message;
  EXPECT_EQ(m.u[0], 3.0);
  EXPECT_NEAR(m.u[1], 8.0 / 13.0, 1e-8);
}

TEST(Minimise, ABudgetSpreadOverPhasesIsCountedWhole) {
  // held_problem() with a budget of 2 iterations: whatever the phases, no more than 2 in all, and not converged
  // unless it got there.
  AnalyticCost cost = held_problem();
  const VecX lo = (VecX(2) << 0.0, -10.0).finished(), hi = (VecX(2) << 3.0, 10.0).finished();
  const VecX u0 = (VecX(2) << 1.0, 0.0).finished();
  Options options;
  options.max_iterations = 2;
  const Minimum m = minimise(cost, u0, lo, hi, options, {}, kDefaultRadius);
  EXPECT_LE(m.iterations, 2);
  if (!m.converged) {
    EXPECT_NE(m.message.find("Maximum number of iterations"), std::string::npos) << m.message;
  }
}

TEST(Statistics, AParameterTheDataCannotSeeIsFlaggedAloneAndTheOthersKeepTheirErrors) {
  // helper-48: one zero Jacobian column (a parameter the data cannot see) nulled every standard error and warned that
  // the other parameters "move together". Its direction is its own (singular value 0): the others' errors are those
  // of the fit without it.
  const int n = 40;
  Eigen::MatrixXd J(n, 3);
  VecX r(n);
  for (int i = 0; i < n; ++i) {
    const double t = i / 10.0;
    J.row(i) << std::sin(t), 1.0 + t * t, 0.0;
    r[i] = 0.01 * std::cos(7.0 * t);
  }
  const std::vector<ParameterSpec> specs = {{"a", 1.0, -10.0, 10.0, Scale::linear},
                                            {"b", 1.0, -10.0, 10.0, Scale::linear},
                                            {"c", 1.0, -10.0, 10.0, Scale::linear}};
  const auto stats = [&](const Eigen::MatrixXd& jac, std::size_t np) {
    Result result;
    result.parameters.resize(np);
    const std::vector<ParameterSpec> used(specs.begin(), specs.begin() + static_cast<long>(np));
    statistics(result, used, VecX::Ones(static_cast<Eigen::Index>(np)), r, jac);
    return result;
  };
  const Result three = stats(J, 3);
  const Result two = stats(J.leftCols(2), 2);
  ASSERT_EQ(three.warnings.size(), 1u);
  EXPECT_NE(three.warnings[0].find("c does not change the fit"), std::string::npos) << three.warnings[0];
  EXPECT_FALSE(std::isfinite(three.parameters[2].std_error));
  for (int j = 0; j < 2; ++j) {  // the variance divides by n - 3 instead of n - 2
    EXPECT_NEAR(three.parameters[j].std_error, two.parameters[j].std_error * std::sqrt((n - 2.0) / (n - 3.0)),
                1e-12 * two.parameters[j].std_error);
    EXPECT_TRUE(std::isfinite(three.parameters[j].ci95_low));
  }
  EXPECT_NEAR(three.correlation(0, 1), two.correlation(0, 1), 1e-12);
  EXPECT_FALSE(std::isfinite(three.condition_number));
}

}  // namespace
}  // namespace bristle::fit::detail
