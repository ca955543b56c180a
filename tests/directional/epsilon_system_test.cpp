// The eps-systems (paper 2, eq. 2.8) against the limit (eqs. 2.3, 2.17):
//  - rho_+- from simulation (spring force while sliding, averaged over whole wiggles) vs alpha mu_+-, with
//    the error shrinking like eps^beta (beta = min(1, gamma)), for every mechanism on a symmetric and an
//    asymmetric surface, and for gamma = 1/2, 1, 2;
//  - Theorem 1: sup_t |z_eps - z_bar| -> 0 and int 2 R_eps -> int R (eq. 2.12), with measured rates;
//  - the energy-dissipation balance (eq. 4.5 with equality) of the computed eps-solutions;
//  - resolution of every wiggle (the default tolerance against a much tighter one);
//  - eps <= 0 and gamma <= 0 with their exact messages.
// The tables printed here are the ones quoted in docs/directional.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/directional/drive.hpp"
#include "bristle/directional/epsilon_system.hpp"
#include "bristle/directional/limit_system.hpp"
#include "directional/directional_test_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace bristle::directional;

using bristle::test::message_of;

using test::default_mechanism;
/// omega_+ = -omega_- = 0.5.
Profile symmetric_surface() { return test::sine_surface(0.5); }
/// omega_+ = 0.625, omega_- = -0.375.
Profile asymmetric_surface() { return test::ratchet_surface(); }

/// Least-squares slope of log(err) against log(eps).
double fitted_rate(const std::vector<double>& eps, const std::vector<double>& err) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const auto n = static_cast<double>(eps.size());
  for (std::size_t i = 0; i < eps.size(); ++i) {
    const double x = std::log(eps[i]), y = std::log(err[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

const std::vector<MechanismKind> kKinds{MechanismKind::vertical, MechanismKind::slanted, MechanismKind::angular};

// ---- rho_+- from simulation --------------------------------------------------------------------

void sliding_table(double gamma, const std::vector<MechanismKind>& kinds, bool asymmetric_too, double eps_min) {
  std::vector<double> eps_list;
  for (const double eps : {1e-2, 3.16e-3, 1e-3, 3.16e-4, 1e-4, 3.16e-5, 1e-5, 3.16e-6, 1e-6})
    if (eps >= eps_min) eps_list.push_back(eps);
  const EpsilonParams probe{1.0, gamma};
  const double beta = probe.beta();
  std::printf("rho_+- from simulation vs alpha mu_+- (gamma = %g, beta = %g): k_h = 1 N/m, speed 1 m/s, mean spring "
              "force over 16 wiggles after 8\n",
              gamma, beta);
  for (const bool asymmetric : {false, true}) {
    if (asymmetric && !asymmetric_too) continue;
    const Profile w = asymmetric ? asymmetric_surface() : symmetric_surface();
    for (const auto kind : kinds) {
      const Mechanism m = default_mechanism(kind, w);
      std::printf("  %s spring, %s surface (omega_+ = %.4g, omega_- = %.4g): alpha = %.6f N, rho_+ = %.6f N, rho_- = "
                  "%.6f N\n",
                  std::string(to_string(kind)).c_str(), asymmetric ? "asymmetric" : "symmetric", w.omega_plus(),
                  w.omega_minus(), m.limit().alpha, m.limit().rho_plus, m.limit().rho_minus);
      std::printf("      eps        rho_+ (sim)    |error|     rho_- (sim)    |error|   steps/wiggle\n");
      std::vector<double> err_plus, err_minus;
      for (const double eps : eps_list) {
        const auto right = measure_sliding_force(m, {eps, gamma}, +1);
        const auto left = measure_sliding_force(m, {eps, gamma}, -1);
        err_plus.push_back(std::abs(right.mean_N - right.limit_N));
        err_minus.push_back(std::abs(left.mean_N - left.limit_N));
        std::printf("    %8.2e  %13.9f  %9.3e  %13.9f  %9.3e  %8.0f\n", eps, right.mean_N, err_plus.back(), left.mean_N,
                    err_minus.back(), 0.5 * static_cast<double>(right.stats.steps + left.stats.steps) / 24.0);
        // Bounded by C eps^beta with C = 1 N/m (k_h = 1 N/m, speed 1 m/s): the constant of Lemmas 7-9.
        EXPECT_LT(err_plus.back(), std::pow(eps, beta)) << to_string(kind) << ", eps = " << eps;
        EXPECT_LT(err_minus.back(), std::pow(eps, beta)) << to_string(kind) << ", eps = " << eps;
      }
      // The asymptotic rate, over the three smallest eps (at larger eps several O(eps) terms of opposite
      // signs can cancel, which makes local rates erratic there).
      const std::vector<double> tail(eps_list.end() - 3, eps_list.end());
      const double rate_plus = fitted_rate(tail, {err_plus.end() - 3, err_plus.end()});
      const double rate_minus = fitted_rate(tail, {err_minus.end() - 3, err_minus.end()});
      std::printf("    fitted rate over the three smallest eps: rho_+ %.2f, rho_- %.2f\n", rate_plus, rate_minus);
      EXPECT_GT(rate_plus, 0.8 * beta) << to_string(kind);
      EXPECT_GT(rate_minus, 0.8 * beta) << to_string(kind);
    }
  }
}

TEST(RhoFromSimulation, EveryMechanismBothSurfacesGammaOne) { sliding_table(1.0, kKinds, true, 1e-6); }

TEST(RhoFromSimulation, GammaOneHalfAndTwo) {
  sliding_table(0.5, kKinds, false, 1e-6);
  // gamma = 2 stops at eps = 1e-4: below it the slips last ~eps^3 < 1e-13 s and CVODE's error test can
  // fail seven times in a row (its default limit), ending the run with a SolverError.
  sliding_table(2.0, kKinds, false, 1e-4);
}

// ---- Theorem 1 ---------------------------------------------------------------------------------

struct Convergence {
  double sup_z = 0.0;      // sup over the output grid of |z_eps - z_bar|
  double sup_D = 0.0;      // sup over t of |D_eps(t) - D(t)| (bounds every interval of eq. 2.12 by twice it)
  double balance = 0.0;    // sup over t of |E_eps(t) + D_eps(t) - E_eps(0) - P_eps(t)|
  long steps = 0;
  double wall = 0.0;
};

Convergence compare(const Mechanism& m, double eps, double gamma, const Loading& l, const std::vector<double>& times,
                    const bristle::TimeSeries& limit) {
  const WigglySystem system(WigglyPotential(m, eps), ConvexEnergy({1.0, 0.0}), l, gamma);
  const auto run = system.run(0.0, 0.0, times);
  Convergence c;
  const auto& z = run.series.column("z_m");
  const auto& D = run.series.column("D_J");
  const auto& E = run.series.column("E_J");
  const auto& P = run.series.column("P_J");
  for (std::size_t i = 0; i < times.size(); ++i) {
    c.sup_z = std::max(c.sup_z, std::abs(z[i] - limit.column("z_m")[i]));
    c.sup_D = std::max(c.sup_D, std::abs(D[i] - limit.column("D_J")[i]));
    c.balance = std::max(c.balance, std::abs(E[i] + D[i] - E[0] - P[i]));
  }
  c.steps = run.stats.steps;
  c.wall = run.wall_seconds;
  return c;
}

void theorem1_table(double gamma, const std::vector<MechanismKind>& kinds, const Profile& w, const char* surface) {
  // Phi = z^2/2, l(t) = 0.75 sin(2 pi t) on [0, 1], z(0) = 0 (inside the strip: eq. 2.10), 4001 outputs.
  const Loading l = Loading::sine(0.0, 0.75, 1.0);
  std::vector<double> times;
  for (int i = 0; i <= 4000; ++i) times.push_back(i / 4000.0);
  const std::vector<double> eps_list{1e-1, 3.16e-2, 1e-2, 3.16e-3, 1e-3};
  const double beta = EpsilonParams{1.0, gamma}.beta();
  std::printf("Theorem 1 (gamma = %g, beta = %g, %s surface): Phi = z^2/2, l = 0.75 sin(2 pi t), t in [0, 1]\n", gamma,
              beta, surface);
  for (const auto kind : kinds) {
    const Mechanism m = default_mechanism(kind, w);
    const LimitSystem limit_system(ConvexEnergy({1.0, 0.0}), l, m.limit().rho_plus, m.limit().rho_minus);
    const auto limit = limit_system.run(0.0, 0.0, times);
    std::printf("  %s spring: int R(z_bar') = %.9f J\n", std::string(to_string(kind)).c_str(),
                limit.column("D_J").back());
    std::printf("      eps     sup|z_eps - z_bar|  sup|D_eps - D|   balance residual    steps    wall (s)\n");
    std::vector<double> sup_z, sup_D;
    for (const double eps : eps_list) {
      const auto c = compare(m, eps, gamma, l, times, limit);
      sup_z.push_back(c.sup_z);
      sup_D.push_back(c.sup_D);
      std::printf("    %8.2e   %12.4e    %12.4e    %12.3e   %9ld   %7.3f\n", eps, c.sup_z, c.sup_D, c.balance, c.steps,
                  c.wall);
      // Eq. 4.5 with equality, to the integration tolerance: the residual is at most the sum of the
      // local errors CVODE allows (rtol = 1e-10 per step, relative to the dissipated energy).
      EXPECT_LT(c.balance, 1e-10 * static_cast<double>(c.steps) * std::max(1.0, limit.column("D_J").back()));
    }
    const std::vector<double> tail_eps(eps_list.end() - 3, eps_list.end());
    const double rate_z = fitted_rate(tail_eps, {sup_z.end() - 3, sup_z.end()});
    const double rate_D = fitted_rate(tail_eps, {sup_D.end() - 3, sup_D.end()});
    std::printf("    fitted rates over the last three eps: sup|z_eps - z_bar| %.2f, sup|D_eps - D| %.2f\n", rate_z,
                rate_D);
    for (std::size_t i = 1; i < sup_z.size(); ++i) EXPECT_LT(sup_z[i], sup_z[i - 1]) << to_string(kind);
    EXPECT_LT(sup_z.back(), 2.0 * std::pow(eps_list.back(), beta)) << to_string(kind);
    EXPECT_LT(sup_D.back(), 2.0 * std::pow(eps_list.back(), beta)) << to_string(kind);
    EXPECT_GT(rate_z, 0.8 * beta) << to_string(kind);
    EXPECT_GT(rate_D, 0.8 * beta) << to_string(kind);
  }
}

TEST(Theorem1, EveryMechanismSymmetricSurface) { theorem1_table(1.0, kKinds, symmetric_surface(), "symmetric"); }

TEST(Theorem1, AsymmetricSurface) {
  theorem1_table(1.0, {MechanismKind::slanted, MechanismKind::angular}, asymmetric_surface(), "asymmetric");
}

TEST(Theorem1, GammaOneHalfAndTwo) {
  theorem1_table(0.5, {MechanismKind::vertical}, symmetric_surface(), "symmetric");
  theorem1_table(2.0, {MechanismKind::vertical}, symmetric_surface(), "symmetric");
}

// ---- Energy balance and resolution ---------------------------------------------------------------

TEST(EpsilonSystem, EnergyBalanceTightensWithTheTolerance) {
  // The residual of eq. 4.5 is integration error only: it falls with rtol.
  const Mechanism m = default_mechanism(MechanismKind::angular, asymmetric_surface());
  const WigglySystem system(WigglyPotential(m, 1e-2), ConvexEnergy({1.0, 0.5}), Loading::sine(0.1, 0.9, 1.0), 1.0);
  std::vector<double> times;
  for (int i = 0; i <= 200; ++i) times.push_back(i / 200.0);
  std::printf("Energy balance of eq. 4.5 (angular, asymmetric surface, eps = 1e-2, Phi = z^2/2 + z^4/8):\n");
  std::printf("     rtol    max |E(t) + D(t) - E(0) - P(t)|    D(1) (J)       steps\n");
  double previous = 1.0;
  for (const double rtol : {1e-8, 1e-10, 1e-12}) {
    auto options = WigglySystem::default_options(1e-2);
    options.rtol = rtol;
    options.atol_per_component = {1e3 * rtol * 1e-2, rtol * 1e-2, rtol * 1e-2, rtol * 1e-2};  // eps = 1e-2
    const auto run = system.run(0.0, 0.0, times, options);
    const auto& E = run.series.column("E_J");
    const auto& D = run.series.column("D_J");
    const auto& P = run.series.column("P_J");
    double worst = 0.0;
    for (std::size_t i = 0; i < E.size(); ++i) worst = std::max(worst, std::abs(E[i] + D[i] - E[0] - P[i]));
    std::printf("    %7.0e   %14.3e                  %.10f   %8ld\n", rtol, worst, D.back(), run.stats.steps);
    EXPECT_LT(worst, 0.5 * previous);
    EXPECT_LT(worst, rtol * static_cast<double>(run.stats.steps) * std::max(1.0, D.back()));
    previous = worst;
  }
}

TEST(EpsilonSystem, EveryWiggleIsResolved) {
  // The default tolerances against rtol = 1e-13 over ~400 wiggles. A skipped or spurious slip would show as
  // a difference of a whole wiggle (eps) in z; the trajectories agree to a small fraction of one (the
  // residual difference is the timing of the fast slips, sampled mid-slip).
  std::printf("Resolution (eps = 1e-3, asymmetric surface, t in [0, 0.25]): default tolerances vs rtol = 1e-13\n");
  for (const auto kind : kKinds) {
    const Mechanism m = default_mechanism(kind, asymmetric_surface());
    const double eps = 1e-3;
    const WigglySystem system(WigglyPotential(m, eps), ConvexEnergy({1.0, 0.0}), Loading::sine(0.0, 0.75, 1.0), 1.0);
    std::vector<double> times;
    for (int i = 0; i <= 2000; ++i) times.push_back(0.25 * i / 2000.0);
    const auto standard = system.run(0.0, 0.0, times);
    auto tight = WigglySystem::default_options(eps);
    tight.rtol = 1e-13;
    tight.atol_per_component = {1e-10 * eps, 1e-13 * eps, 1e-13 * eps, 1e-13 * eps};
    const auto reference = system.run(0.0, 0.0, times, tight);
    double worst = 0.0;
    for (std::size_t i = 0; i < times.size(); ++i)
      worst = std::max(worst, std::abs(standard.series.column("z_m")[i] - reference.series.column("z_m")[i]));
    std::printf("  %-8s max |z_default - z_tight| = %.2e eps   (steps %ld vs %ld)\n", std::string(to_string(kind)).c_str(),
                worst / eps, standard.stats.steps, reference.stats.steps);
    EXPECT_LT(worst, 0.05 * eps) << to_string(kind);
  }
}

TEST(EpsilonSystemErrors, EpsilonAndGamma) {
  EXPECT_EQ(message_of([] { EpsilonParams{0.0, 1.0}.validate(); }),
            "epsilon = 0: must be > 0 (the period of the surface wiggles, w_eps(x) = eps w(x/eps); paper 2, eq. 3.4)");
  EXPECT_EQ(message_of([] { EpsilonParams{-0.01, 1.0}.validate("run"); }),
            "run.epsilon = -0.01: must be > 0 (the period of the surface wiggles, w_eps(x) = eps w(x/eps); paper 2, "
            "eq. 3.4)");
  EXPECT_EQ(message_of([] { EpsilonParams{0.01, 0.0}.validate(); }),
            "gamma = 0: must be > 0 (the viscosity eps^gamma must vanish as eps -> 0; paper 2, eq. 2.7)");
  EXPECT_EQ(message_of([] { EpsilonParams{0.01, -2.0}.validate(); }),
            "gamma = -2: must be > 0 (the viscosity eps^gamma must vanish as eps -> 0; paper 2, eq. 2.7)");
  const Mechanism m = default_mechanism(MechanismKind::vertical, symmetric_surface());
  EXPECT_EQ(message_of([&] {
              WigglySystem s(WigglyPotential(m, 0.01), ConvexEnergy({1.0, 0.0}), Loading::ramp(0.0, 1.0), 0.0);
            }),
            "gamma = 0: must be > 0 (the viscosity eps^gamma must vanish as eps -> 0; paper 2, eq. 2.7)");
  EXPECT_EQ(message_of([&] { measure_sliding_force(m, {0.0, 1.0}, 1); }),
            "epsilon = 0: must be > 0 (the period of the surface wiggles, w_eps(x) = eps w(x/eps); paper 2, eq. 3.4)");
  EXPECT_EQ(message_of([&] { EpsilonParams{std::nan(""), 1.0}.validate(); }), "epsilon = nan: must be finite");
}

}  // namespace
