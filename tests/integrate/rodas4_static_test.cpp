// The Rosenbrock driver (RODAS4 and Rodas5P) as a template on a statically typed system (include/bristle/integrate/rosenbrock.hpp),
// with a quadrature component: against the closed form, and against the same system given to integrate()
// as an OdeSystem (no quadratures, LU of the full matrix).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "bristle/integrate/ode.hpp"
#include "bristle/integrate/rosenbrock.hpp"

namespace bristle::integrate {
namespace {

// y0' = -a y0 + y1, y1' = -b y1 (stiff for b = 1e4), q' = y0^2: q is a quadrature (it enters no derivative).
constexpr double kA = 2.0, kB = 1e4;

struct DecayWithQuadrature {
  static constexpr int kSize = 3;
  static constexpr int kQuadratures = 1;
  int size() const { return kSize; }
  int error_norm_count() const { return 0; }
  bool autonomous() const { return true; }
  bool has_jacobian() const { return true; }
  int switch_count() const { return 0; }
  void rhs(double, const double* x, double* dx) const {
    dx[0] = -kA * x[0] + x[1];
    dx[1] = -kB * x[1];
    dx[2] = x[0] * x[0];
  }
  void jacobian(double, const double* x, double* j) const {  // column-major 3 x 3, zero-filled by the driver
    j[0] = -kA;
    j[2] = 2.0 * x[0];
    j[3] = 1.0;
    j[4] = -kB;
  }
  void switches(double, const double*, double*) const {}
};

/// The closed form from y0(0) = 1, y1(0) = 1, q(0) = 0: y0 = A e^-at + C e^-bt with C = 1 / (a - b), A = 1 - C.
VecX exact(double t) {
  const double c = 1.0 / (kA - kB), a = 1.0 - c;
  const double y0 = a * std::exp(-kA * t) + c * std::exp(-kB * t);
  const double q = a * a * (1.0 - std::exp(-2.0 * kA * t)) / (2.0 * kA) +
                   2.0 * a * c * (1.0 - std::exp(-(kA + kB) * t)) / (kA + kB) +
                   c * c * (1.0 - std::exp(-2.0 * kB * t)) / (2.0 * kB);
  VecX x(3);
  x << y0, std::exp(-kB * t), q;
  return x;
}

TEST(Rodas4Static, QuadratureSystemMatchesTheClosedFormAndTheOdeSystemPath) {
  std::vector<double> times;
  for (int i = 0; i <= 100; ++i) times.push_back(0.02 * i);
  Options o;
  for (const Method method : {Method::rodas4, Method::rodas5p})
  for (const double rtol : {1e-5, 1e-9}) {
    SCOPED_TRACE(to_string(method));
    o.method = method;
    o.rtol = rtol;
    o.atol = rtol * 1e-3;
    DecayWithQuadrature system;
    VecX x(3);
    x << 1.0, 1.0, 0.0;
    std::vector<VecX> rows;
    const auto record = [&](double, const double* y) { rows.emplace_back(Eigen::Map<const VecX>(y, 3)); };
    const Stats s = method == Method::rodas4 ? rodas4(system, x, 0.0, times, o, record)
                                             : rodas5p(system, x, 0.0, times, o, record);
    EXPECT_EQ(s.method_used, method);
    ASSERT_EQ(rows.size(), times.size());
    double worst = 0.0;
    for (std::size_t i = 0; i < times.size(); ++i) worst = std::max(worst, (rows[i] - exact(times[i])).cwiseAbs().maxCoeff());
    EXPECT_LT(worst, 50.0 * rtol) << "rtol " << rtol << ", " << s.steps << " steps";

    // The same system through integrate(): no quadratures, the full 3 x 3 LU.
    OdeSystem ode;
    ode.size = 3;
    ode.autonomous = true;
    ode.rhs = [&](double t, const double* y, double* dy) { system.rhs(t, y, dy); };
    ode.jacobian = [&](double t, const double* y, double* j) {
      std::fill(j, j + 9, 0.0);
      system.jacobian(t, y, j);
    };
    VecX x2(3);
    x2 << 1.0, 1.0, 0.0;
    std::vector<VecX> rows2;
    const Stats s2 = integrate(ode, x2, 0.0, times, o, [&](double, const double* y) { rows2.emplace_back(Eigen::Map<const VecX>(y, 3)); });
    // The same stages solved two ways: equal up to rounding, hence the same steps.
    EXPECT_EQ(s.steps, s2.steps) << "rtol " << rtol;
    double diff = 0.0;
    for (std::size_t i = 0; i < times.size(); ++i) diff = std::max(diff, (rows[i] - rows2[i]).cwiseAbs().maxCoeff());
    EXPECT_LT(diff, 1e-12) << "rtol " << rtol;
  }
}

}  // namespace
}  // namespace bristle::integrate
