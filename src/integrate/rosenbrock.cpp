// Adaptive linearly implicit Rosenbrock methods, one driver (include/bristle/integrate/rosenbrock.hpp) with
// two tableaus:
//   rodas4   RODAS4 (Hairer & Wanner, Solving ODEs II, §IV.7, 2nd ed. 1996; coefficients of their code RODAS
//            in the notation of Sandu et al., Atmos. Environ. 31(20), 1997): six stages, order 4 with an
//            embedded order-3 solution, gamma = 1/4;
//   rodas5p  Rodas5P (Steinebach, BIT Numer. Math. 63, 27, 2023; coefficients from
//            /work/shared/notes/rodas5p.md): eight stages, order 5 with an embedded order-4 solution.
// Both L-stable and stiffly accurate. No Newton iterations: every stage is one linear solve with the same
// matrix.
//
// Step from (t, y) with size h, J = df/dy (t, y), f_t = df/dt (t, y), s stages:
//   G = I / (h gamma) - J                                          (LU-factorised once per step)
//   G K_i = f(t + alpha_i h, y + sum_{j<i} a_ij K_j) + sum_{j<i} (c_ij / h) K_j + gamma_i h f_t
//   y_1 = y + sum_i m_i K_i,  error estimate K_s                   (m = row s of a plus e_s: stiffly accurate)
// The first stage's f(t, y) is the previous step's end value (one evaluation saved per step).
//
// Error control: weighted RMS norm of K_s with weights 1 / (atol_i + rtol max(|y_i|, |y_1,i|)), averaged
// over system.error_norm_count components if given (a reduced system counts its zero components); a step
// is accepted if it is <= 1. Step-size selection with Gustafsson's predictive controller (as in RODAS):
// h_new = h / q, q = max(err^(1/p) / 0.9, (h_prev / h) (err^2 / err_prev)^(1/p) / 0.9) clamped to
// [1/6, 5], p = 4 (rodas4) or 5 (rodas5p, whose error estimate is O(h^5)); after a rejection the step does
// not grow.
//
// Jacobian: system.jacobian if given, else forward differences (increments sqrt(eps) max(|y_j|,
// atol_j / rtol)); f_t by a forward difference in t (backward at the end time, so that f is never
// evaluated beyond it; zero if system.autonomous). Both are computed once per accepted step and kept on rejection.
//
// Dense output: the method's continuous extension, RODAS's (order 3) from the stages K_1..K_5 (Hairer &
// Wanner's code), y(t + s h) = (1 - s) y + s (y_1 + (1 - s) (d_1 + s d_2)), or Rodas5P's from K_1..K_8 with
// one more term, (1 - s) (d_1 + s (d_2 + s d_3)) (order 5 at s = 1/2, measured order 4 over the step). Unlike a Hermite interpolant it does not use
// f at the step ends, which on stiff components would amplify the state error by the stiffness. Output
// times are served from it; steps never land on output times, so a dense output grid costs no steps.
//
// Switches: after a step passes the error test, the switching functions are evaluated at its end; a
// sign change is located on the dense output (Illinois regula falsi) and the step is taken again, ending
// at the root, so that no step straddles a kink of the right-hand side (|v| at v = 0, input corners).
// A step shortened to a root is accepted whatever the switches do at its end, and that switch counts as
// zero there, so a root that the interpolant placed slightly early does not trigger another retake: the
// next step crosses it under ordinary error control (as cvode_bdf does after a restart).
//
// State dimension: the driver is a template on the size; sizes 2 to 8 and 10 (the lumped benches: velocity,
// force and spring drives of a rigid/elastic pair or one viscoelastic branch, in 2-D or as the 1-D x
// subsystem of contact::Bench::x_system) use fixed-size Eigen matrices, with no heap
// allocation in the step loop; other sizes use dynamic matrices allocated once per run.
#include "bristle/integrate/rosenbrock.hpp"

#include "drivers.hpp"

namespace bristle::integrate::detail {

namespace {

/// An OdeSystem seen as a StaticSystem of size N (or Eigen::Dynamic) without quadratures.
template <int N>
struct FunctionSystem {
  static constexpr int kSize = N;
  static constexpr int kQuadratures = 0;
  const OdeSystem& system;

  int size() const { return system.size; }
  int error_norm_count() const { return system.error_norm_count; }
  bool autonomous() const { return system.autonomous; }
  bool has_jacobian() const { return static_cast<bool>(system.jacobian); }
  int switch_count() const { return system.switch_count; }
  void rhs(double t, const double* x, double* dxdt) const { system.rhs(t, x, dxdt); }
  void jacobian(double t, const double* x, double* jacobian) const { system.jacobian(t, x, jacobian); }
  void switches(double t, const double* x, double* g) const { system.switches(t, x, g); }
};

template <int N>
Stats run_sized(const OdeSystem& system, VecX& x, double t0, const std::vector<double>& output_times,
                const Options& options, const Observer& observe) {
  FunctionSystem<N> adapter{system};
  const auto relay = [&](double t, const double* y) {
    if (observe) observe(t, y);
  };
  if (options.method == Method::rodas5p)
    return rosenbrock<Rodas5PTableau>(adapter, x, t0, output_times, options, relay);
  return rosenbrock<Rodas4Tableau>(adapter, x, t0, output_times, options, relay);
}

}  // namespace

Stats integrate_rosenbrock(const OdeSystem& system, VecX& x, double t0, const std::vector<double>& output_times,
                       const Options& options, const Observer& observe) {
  switch (system.size) {
    case 2: return run_sized<2>(system, x, t0, output_times, options, observe);
    case 3: return run_sized<3>(system, x, t0, output_times, options, observe);
    case 4: return run_sized<4>(system, x, t0, output_times, options, observe);
    case 5: return run_sized<5>(system, x, t0, output_times, options, observe);
    case 6: return run_sized<6>(system, x, t0, output_times, options, observe);
    case 7: return run_sized<7>(system, x, t0, output_times, options, observe);
    case 8: return run_sized<8>(system, x, t0, output_times, options, observe);
    case 10: return run_sized<10>(system, x, t0, output_times, options, observe);
    default: return run_sized<Eigen::Dynamic>(system, x, t0, output_times, options, observe);
  }
}

}  // namespace bristle::integrate::detail
