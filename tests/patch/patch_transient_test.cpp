// Transient patch (paper 1, §4, App. A.1): limit to the steady solver, the line-contact transient,
// measured convergence, passivity (eq. 79 with the storage of eq. 85), a load step.
#include "bristle/patch/transient.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <cmath>
#include <iostream>
#include <random>

#include <unsupported/Eigen/MatrixFunctions>

#include "bristle/core/error.hpp"
#include "bristle/transport/line_contact.hpp"
#include "patch/patch_test_support.hpp"
#include "support/test_support.hpp"

namespace bristle::patch {
namespace {

PatchTransientParams params(int nx, int ny) {
  PatchTransientParams p;
  p.patch.nx = nx;
  p.patch.ny = ny;
  return p;
}

LoadHistory constant_load(double Fz) {
  return [Fz](double) { return Fz; };
}

/// The transient's forces and moment at `s` equal the steady solver's on the same nx x ny grid (2e-3).
void expect_steady(const PatchSnapshot& s, const contact::ContactModel& model, const PatchKinematics& kin, int nx,
                   int ny, const char* label) {
  PatchParams pp;
  pp.nx = nx;
  pp.ny = ny;
  PatchSolver solver(model, pp);
  const SteadyPatch st = solver.solve(kin);
  std::cout << label << ": transient F = " << s.force_N.transpose() << " Mz " << s.Mz_Nm << "; steady F = "
            << st.force_N.transpose() << " Mz " << st.Mz_Nm << "\n";
  ASSERT_GT(st.force_N.norm(), 1.0);
  EXPECT_NEAR(s.force_N[0], st.force_N[0], 2e-3 * st.force_N.norm()) << label;
  EXPECT_NEAR(s.force_N[1], st.force_N[1], 2e-3 * st.force_N.norm()) << label;
  EXPECT_NEAR(s.Mz_Nm, st.Mz_Nm, 2e-3 * std::abs(st.Mz_Nm)) << label;
}

// At constant kinematics the transient settles on the steady solution (same grid; the splitting's
// fixed point differs by O(dt^2)).
TEST(PatchTransient, SettlesOnTheSteadySolution) {
  const auto model = test::gkv_pair(test::table2_law(), 0.4);
  const PatchKinematics kin = rolling(16.0, 0.6, 0.4, 6.0);
  PatchTransient tr(model, params(30, 12), [&](double) { return kin; }, constant_load(3000.0));
  tr.advance_to(0.03);  // five transit times L/V_r (every family is advected at ~16 m/s)
  expect_steady(tr.snapshot(), model, kin, 30, 12, "GKV");
}

// Uniform conditions, no spin: the patch transient is the line transient (transport::LineContact).
TEST(PatchTransient, ReproducesTheLineTransient) {
  const auto model = test::gkv_pair(test::table2_law(), 0.4);
  const double Vr = 16.0, vx = 1.5;
  PatchTransient tr(model, params(200, 2), [&](double) { return rolling(Vr, vx, 0.0, 0.0); }, constant_load(3000.0));
  transport::LineContactParams lp;
  lp.L_m = 0.1;
  lp.normal_load_N = 3000.0;
  lp.cells = 400;
  lp.V1 = contact::Signal::constant_value(Vr);
  lp.V2 = contact::Signal::constant_value(Vr + vx);
  transport::LineContact line(model, lp);
  double worst = 0.0, scale = 0.0;
  for (double t : {0.001, 0.003, 0.006, 0.02, 0.1}) {
    tr.advance_to(t);
    line.advance_to(t);
    const double a = tr.snapshot().force_N[0], b = line.total_force()[0];
    scale = std::max(scale, std::abs(b));
    worst = std::max(worst, std::abs(a - b));
    std::cout << "t=" << t << " patch " << a << " line " << b << "\n";
  }
  EXPECT_LT(worst, 2e-3 * scale);
}

// Self-convergence of F(t) with a time-varying creep v_x(t) = 0.8 + 0.5 sin(300 t) m/s (grid and step
// refined together at fixed Courant number), measured after the run-in front has left the patch (the
// front from the unloaded start carries a kink, behind which the order drops to about one).
TEST(PatchTransient, MeasuredOrderOfConvergence) {
  const auto model = test::elastic_pair(test::table2_law(), 0.4);
  const auto kin = [](double t) { return rolling(16.0, 0.8 + 0.5 * std::sin(300.0 * t), 0.0, 0.0); };
  std::vector<Vec2> F;
  for (int n : {25, 50, 100, 200}) {
    PatchTransient tr(model, params(n, 2), kin, constant_load(3000.0));
    tr.advance_to(0.012);
    F.push_back(tr.snapshot().force_N);
  }
  const double e1 = (F[1] - F[0]).norm(), e2 = (F[2] - F[1]).norm(), e3 = (F[3] - F[2]).norm();
  std::cout << "self-differences " << e1 << " " << e2 << " " << e3 << " orders " << std::log2(e1 / e2) << " "
            << std::log2(e2 / e3) << "\n";
  EXPECT_GT(std::log2(e1 / e2), 1.8);
  EXPECT_GT(std::log2(e2 / e3), 1.8);
}

// Passivity (eq. 79): with uniform pressure and constant load (eq. 84 holds), the stored energy
// never grows by more than the energy supplied.
TEST(PatchTransient, PassiveWithFieldsSatisfyingEq84) {
  const auto model = test::gkv_pair(test::table2_law(), 0.3);
  const auto kin = [](double t) { return rolling(16.0, 1.5 * std::sin(40.0 * t), 0.6 * std::cos(25.0 * t), 8.0); };
  PatchTransient tr(model, params(30, 12), kin, constant_load(3000.0));
  const double W0 = tr.snapshot().stored_energy_J;
  for (int k = 1; k <= 10; ++k) {
    tr.advance_to(0.004 * k);
    const PatchSnapshot s = tr.snapshot();
    ASSERT_TRUE(check_eq84(PatchGeometry(PatchParams{}), kin(s.t_s), 21).satisfied());
    EXPECT_LE(s.stored_energy_J - W0, s.supplied_energy_J + 1e-6 * std::abs(s.supplied_energy_J)) << s.t_s;
    EXPECT_GE(s.dissipated_power_W, 0.0);
  }
}

// Load step (App. A.1): F_z ramps from 3000 to 4500 N in 10 ms; the patch grows as F_z^(1/3) and
// settles on the steady state of the larger patch at the new load.
TEST(PatchTransient, LoadStepSettlesOnTheLargerPatch) {
  const auto model = test::elastic_pair(test::table2_law(), 0.4);
  const PatchKinematics kin = rolling(16.0, 0.8, 0.3, 0.0);
  const auto load = [](double t) {
    const double r = std::clamp((t - 0.02) / 0.01, 0.0, 1.0);
    return 3000.0 + 1500.0 * r * r * (3.0 - 2.0 * r);
  };
  PatchTransient tr(model, params(60, 12), [&](double) { return kin; }, load);
  tr.advance_to(0.15);
  const PatchSnapshot s = tr.snapshot();
  EXPECT_NEAR(s.Fz_N, 4500.0, 1e-9);
  const double sigma = std::cbrt(1.5);
  EXPECT_NEAR(s.scale, sigma, 1e-12);
  PatchParams big;
  big.length_m = 0.1 * sigma;
  big.width_m = 0.05 * sigma;
  big.normal_load_N = 4500.0;
  big.nx = 60;
  big.ny = 12;
  PatchSolver solver(model, big);
  const SteadyPatch st = solver.solve(kin);
  std::cout << "after the load step F = " << s.force_N.transpose() << "; steady " << st.force_N.transpose() << "\n";
  EXPECT_NEAR(s.force_N[0], st.force_N[0], 2e-3 * st.force_N.norm());
  EXPECT_NEAR(s.force_N[1], st.force_N[1], 2e-3 * st.force_N.norm());
}

// A source that is not affine in the state (Bouc-Wen) takes the lumped model's SDIRK2 step per cell
// (source_scheme automatic); with spin and the S-corrections v_r depends on the state as well. The
// transient settles on the steady solver's solution, as for the affine laws.
TEST(PatchTransient, BoucWenSettlesOnTheSteadySolution) {
  laws::LawParams bw = test::table2_law();
  bw.kind = laws::LawKind::bouc_wen;
  bw.A = 1.0;
  bw.beta1 = 2.0;
  bw.beta2 = 1.0;
  bw.gamma = 0.5;
  const auto model = test::elastic_pair(bw, 0.4);
  ASSERT_FALSE(transport::source_is_affine(model));
  const PatchKinematics kin = rolling(16.0, 0.6, 0.4, 6.0);
  PatchTransient tr(model, params(30, 12), [&](double) { return kin; }, constant_load(3000.0));
  EXPECT_FALSE(tr.exponential_source());
  tr.advance_to(0.03);
  const PatchSnapshot s = tr.snapshot();
  expect_steady(s, model, kin, 30, 12, "Bouc-Wen");
  EXPECT_GE(s.dissipated_power_W, 0.0);
  // The exponential step is refused for it, naming the key.
  PatchTransientParams exact = params(10, 4);
  exact.source_scheme = transport::SourceScheme::exponential;
  try {
    PatchTransient refused(model, exact, [&](double) { return kin; }, constant_load(3000.0));
    FAIL() << "exponential source step accepted for Bouc-Wen";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()),
              "transient.source_scheme = \"exponential\": needs a source affine in the state; law.type = "
              "\"bouc_wen\" is not (use \"sdirk2\" or \"automatic\")");
  }
}

// For an affine source both source steps solve the same split problem: SDIRK2 (second order) against
// the exact propagator differs by O(dt^2), measured by halving the step (cfl 0.4 -> 0.2 -> 0.1).
TEST(PatchTransient, Sdirk2SourceStepConvergesToTheExponentialOne) {
  const auto model = test::gkv_pair(test::table2_law(), 0.4);
  const auto kin = [](double t) { return rolling(16.0, 0.8 + 0.5 * std::sin(300.0 * t), 0.3, 5.0); };
  std::vector<double> differences;
  for (double cfl : {0.4, 0.2, 0.1}) {
    PatchTransientParams pe = params(20, 8), ps = params(20, 8);
    pe.cfl = ps.cfl = cfl;
    pe.source_scheme = transport::SourceScheme::exponential;
    ps.source_scheme = transport::SourceScheme::sdirk2;
    PatchTransient exact(model, pe, kin, constant_load(3000.0));
    PatchTransient sdirk(model, ps, kin, constant_load(3000.0));
    ASSERT_TRUE(exact.exponential_source());
    ASSERT_FALSE(sdirk.exponential_source());
    exact.advance_to(0.006);
    sdirk.advance_to(0.006);
    const PatchSnapshot a = exact.snapshot(), b = sdirk.snapshot();
    differences.push_back((a.force_N - b.force_N).norm() / a.force_N.norm());
  }
  const double order1 = std::log2(differences[0] / differences[1]);
  const double order2 = std::log2(differences[1] / differences[2]);
  std::cout << "sdirk2 vs exponential source step: relative force differences " << differences[0] << " "
            << differences[1] << " " << differences[2] << ", orders " << order1 << " " << order2 << "\n";
  EXPECT_LT(differences[0], 1e-3);
  EXPECT_GT(differences[2], 0.0);
  EXPECT_GT(order1, 1.7);
  EXPECT_GT(order2, 1.7);
}

TEST(PatchTransient, BadInput) {
  const auto model = test::elastic_pair(test::table2_law(), 0.4);
  PatchTransientParams p = params(10, 4);
  p.cfl = 0.8;
  EXPECT_THROW(PatchTransient(model, p, [](double) { return rolling(16.0, 0.0, 0.0, 0.0); }, constant_load(3000.0)),
               InvalidInput);
  PatchTransient tr(model, params(10, 4), [](double) { return rolling(16.0, 0.1, 0.0, 0.0); },
                    [](double t) { return t < 0.01 ? 3000.0 : -1.0; });
  EXPECT_THROW(tr.advance_to(0.02), InvalidInput);
}

}  // namespace
}  // namespace bristle::patch

namespace bristle::patch {
namespace {

TEST(PatchTransient, ClosedFormExpPhi1MatchesTheMatrixExponential) {
  // Reference: the augmented matrix [A v; 0 0] in long double (e^A and phi1(A) v in one exponential). The
  // scales reach the stiff sources of a very stiff bristle (k0 = 1e12: |A| ~ 1e7 per half step), where
  // a quadrature of phi1 would need |A| panels (issue 17: a patch transient that did not end).
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const Vec2 v(1.0, 0.3);
  double worst = 0.0;
  for (double scale : {1e-9, 1e-3, 0.3, 3.0, 20.0, 100.0, 1e4, 1e7})
    for (int k = 0; k < 24; ++k) {
      Mat2 A;
      A << U(rng), U(rng), U(rng), U(rng);
      if (k == 0) A = -Mat2::Identity();             // repeated eigenvalue
      if (k == 1) A << 0.0, -1.0, 1.0, 0.0;          // complex pair
      if (k == 2) A << -1.0, 0.3, 0.0, -1.0 - 1e-9;  // nearly repeated, non-normal
      if (k == 3) A << -1.0, 0.0, 0.0, -1e-9;        // one stiff and one slow eigenvalue
      if (k == 4) A << -1.0, 0.5, -0.5, -1.0;        // stiff damped oscillation
      if (k == 5) A << -1.0, 0.02, 0.0, -0.98;       // r / |m| = 0.01: the series branch
      if (k == 6) A << -1.0, 0.2, 0.0, -0.8;         // r / |m| = 0.11: the two-eigenvalue branch
      A *= scale;
      if (scale > 1e3 && k > 6) A -= 2.0 * scale * Mat2::Identity();  // stiff sources are dissipative
      using MatL = Eigen::Matrix<long double, 3, 3>;
      MatL aug = MatL::Zero();
      aug.topLeftCorner<2, 2>() = A.cast<long double>();
      aug(0, 2) = v[0];
      aug(1, 2) = v[1];
      const Eigen::Matrix3d e = MatL(aug.exp()).cast<double>();
      Mat2 E, F;
      exp_phi1_2x2(A, E, F);
      const Mat2 E_ref = e.topLeftCorner<2, 2>();
      const Vec2 Fv_ref = e.topRightCorner<2, 1>();
      const double errE = (E - E_ref).norm() / std::max(1.0, E_ref.norm());
      const double errF = (F * v - Fv_ref).norm() / std::max(1e-300, Fv_ref.norm());
      worst = std::max({worst, errE, errF});
      EXPECT_LT(errE, 1e-12) << "scale " << scale << ", case " << k;
      EXPECT_LT(errF, 1e-12) << "scale " << scale << ", case " << k;
    }
  RecordProperty("worst_relative_error", fmt::format("{:.3g}", worst));
}

// The public stepping calls check their arguments (a read-only review, 2026-12-06): step(1e300) left F = 0 at
// t = 1e300, advance_to an earlier time did nothing, silently.
TEST(PatchTransient, StepsAreWithinTheCourantLimitAndTimeGoesForward) {
  const auto model = test::elastic_pair(test::table2_law(), 0.4);
  const PatchKinematics kin = rolling(16.0, 0.6, 0.0, 0.0);
  PatchTransient tr(model, params(10, 6), [&](double) { return kin; }, constant_load(3000.0));
  tr.advance_to(0.01);
  const auto message = [](auto&& f) { return ::bristle::test::message_of<InvalidInput>(f); };
  EXPECT_EQ(message([&] { tr.step(1e300); }).substr(0, 41), "patch transient step dt = 1e+300 s is 2.2");
  EXPECT_EQ(message([&] { tr.advance_to(0.001); }),
            "patch transient advance_to: t_end = 0.001 s: must be finite and not before the current time 0.01 s");
  EXPECT_EQ(message([&] { tr.advance_to(std::nan("")); }).substr(0, 44), "patch transient advance_to: t_end = nan s: m");
  EXPECT_EQ(tr.time(), 0.01);
  EXPECT_EQ(message([&] { tr.step(tr.stable_dt(0.01)); }), "(no error)");  // the step advance_to would take
}

}  // namespace
}  // namespace bristle::patch
