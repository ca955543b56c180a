// The truncated modal model: exact propagation of each mode for piecewise-linear forces, stability for
// many modes and large omega dt, and the energy account of its intra-step solution.
#include "bristle/structures/modal_model.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "bristle/core/error.hpp"
#include "bristle/structures/kernels.hpp"
#include "bristle/structures/mode_response.hpp"

namespace bristle::structures {
namespace {

Structure one_mode(double omega, double damping, double n) {
  GenericModalParams g;
  g.frequencies_rad_per_s = {omega};
  g.damping_ratios = {damping};
  g.mode_values = {{n}};
  return Structure::generic(g);
}

TEST(ModalModel, StepAndRampResponsesAreExactForAnyStep) {
  // A force that is constant (a step at t = 0+, reached over the first step) and then a ramp: the
  // response equals the convolution of the piecewise-linear force with the impulse response exactly.
  const double omega = 40.0, D = 0.05, n = 0.7, dt = 0.2;  // omega dt = 8: far beyond an explicit scheme
  ModalModel m(one_mode(omega, D, n), 1, dt);
  const ModeResponse r(omega, D);
  VecX f(1);
  f[0] = 2.0;
  m.advance(f);  // f linear from 0 to 2 over [0, dt]
  // w(dt) = n^2 * 2 * Q(dt)/dt, v(dt) = n^2 * 2 * S(dt)/dt
  EXPECT_NEAR(m.displacement()[0], n * n * 2.0 * r.Q(dt) / dt, 1e-15);
  EXPECT_NEAR(m.velocity()[0], n * n * 2.0 * r.S(dt) / dt, 1e-15);
  for (int k = 0; k < 20; ++k) m.advance(f);
  // after the ramp, constant force: w(t) = 2 n^2 [Q(t) - Q(t - dt)]/dt
  const double t = 21 * dt;
  EXPECT_NEAR(m.displacement()[0], 2.0 * n * n * (r.Q(t) - r.Q(t - dt)) / dt, 1e-14);
  EXPECT_NEAR(m.velocity()[0], 2.0 * n * n * (r.S(t) - r.S(t - dt)) / dt, 1e-14);
  EXPECT_NEAR(m.admittance()(0, 0), n * n * r.S(dt) / dt, 1e-16);
}

TEST(ModalModel, ManyModesStayStableAndMatchTheKernel) {
  // 20000 string modes with dt = 1e-3: omega_N dt = 63. A unit force applied over the first step and
  // held: the velocity equals the kernel average (S(t) - S(t - dt))/dt of the truncated kernel.
  TautStringParams p;
  p.damping_ratio = 0.0;
  const Structure s = Structure::taut_string(p);
  const long N = 20000;
  const double dt = 1e-3;
  ModalModel m(s, N, dt);
  VecX f(1);
  f[0] = 1.0;
  for (int k = 0; k < 3000; ++k) m.advance(f, false);
  const double t = 3000 * dt;
  const std::vector<double> S = truncated_kernel(s, 0, 0, N, KernelQuantity::step, {t, t - dt});
  EXPECT_NEAR(m.velocity()[0], (S[0] - S[1]) / dt, 1e-10);
  EXPECT_TRUE(std::isnan(m.displacement()[0]));
  m.advance(f, true);
  EXPECT_TRUE(std::isfinite(m.displacement()[0]));
  EXPECT_LT(std::abs(m.velocity()[0]), 1.0);  // bounded: no growth from the high modes
}

TEST(ModalModel, EnergyOfTheIntraStepSolutionCloses) {
  // Work of the contact force = modal damping + change of stored energy, evaluated on the exact
  // intra-step solution (Gauss-Legendre nodes), for a damped cantilever under a rough force.
  BeamParams bp;
  bp.damping_ratio = 0.02;
  const Structure c = Structure::cantilever(bp);
  const double dt = 2e-3;
  ModalModel m(c, 40, dt, {true});  // omega_40 dt = 31
  ASSERT_NE(m.step_quadrature(), nullptr);
  double work = 0.0, damping = 0.0;
  VecX f(1);
  for (int k = 1; k <= 3000; ++k) {
    const double f_old = m.force()[0];
    f[0] = std::sin(0.013 * k * k) + (k % 50 < 25 ? 0.5 : -0.5);
    m.advance(f, false);
    const StepQuadrature& q = *m.step_quadrature();
    double w = 0.0;
    for (std::size_t g = 0; g < q.fraction.size(); ++g)
      w += q.weight[g] * (f_old + (f[0] - f_old) * q.fraction[g]) * q.velocity(0, static_cast<long>(g));
    work += w * dt;
    damping += q.damping_work_J;
  }
  const double stored = m.stored_energy();
  EXPECT_GT(damping, 0.1 * work);
  EXPECT_NEAR(work, damping + stored, 1e-12 * work);
  EXPECT_NEAR(m.step_quadrature()->stored_energy_J, stored, 0.0);
}

TEST(ModalModel, BadInput) {
  TautStringParams p;
  const Structure s = Structure::taut_string(p);
  try {
    ModalModel m(s, 0, 1e-3);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), "modes = 0: must be >= 1");
  }
  try {
    ModalModel m(s, 10, -1e-3);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), "dt_s = -0.001: must be > 0");
  }
  try {
    ModalModel m(one_mode(1.0, 0.0, 1.0), 2, 1e-3);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), "modes = 2: the structure has only 1 modes");
  }
  try {
    ModalModel m(s, 1000, 0.1, {true});
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()),
              "dt_s = 0.1: energy tracking needs omega_N dt <= 100 (omega_N = 3141.592653589793 rad/s)");
  }
}

}  // namespace
}  // namespace bristle::structures
