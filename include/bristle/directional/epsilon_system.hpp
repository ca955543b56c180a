#pragma once
// The eps-systems of paper 2 (§2): viscous gradient flows on a wiggly energy,
//
//   E_eps(t, z) = Phi(z) - l(t) z + V_eps(z)                                         eq. 2.4
//   R_eps(v)    = eps^gamma v^2 / 2                                                  eq. 2.7
//   0 = D R_eps(z') + D_z E_eps(t, z)   <=>   eps^gamma z' = l(t) - Phi'(z) - V_eps'(z)  eq. 2.8
//
// V_eps oscillates with period eps (in z) and V_eps'' = O(1/eps), so the equation is stiff with rates up
// to ~eps^-(1+gamma) and every wiggle has a slow stick and a fast slip. It is integrated by CVODE's BDF
// (integrate/ode.hpp) at a tight tolerance with the analytic Jacobian; the absolute tolerance on z is a
// small fraction of eps so that every wiggle is resolved (tests/directional check this against a
// tighter run). Kinks of a piecewise-linear loading are switching functions (CVODE restarts there).
//
// Three quadratures ride along with z, so that the energy balance is checked on the integrated
// solution rather than on a sampled one:
//   D(t) = int_0^t 2 R_eps(z') ds = int eps^gamma z'^2 ds       (dissipated energy, eq. 2.12)
//   P(t) = int_0^t d_t E_eps(s, z(s)) ds = -int l'(s) z(s) ds   (power of the loading)
//   I(t) = int_0^t (l - Phi'(z)) ds                              (impulse of the spring force)
// The energy-dissipation balance (eq. 4.5 with equality; R + R* = 2 R_eps along solutions, eq. 5.1):
//   E_eps(t, z(t)) + D(t) = E_eps(0, z(0)) + P(t).
//
// | key     | meaning                                         | unit | range |
// |---------|-------------------------------------------------|------|-------|
// | epsilon | period of the wiggles (and viscosity eps^gamma) | m    | > 0   |
// | gamma   | viscosity exponent                              | -    | > 0   |
#include <string_view>
#include <vector>

#include "bristle/core/progress.hpp"
#include "bristle/core/time_series.hpp"
#include "bristle/directional/energy.hpp"
#include "bristle/directional/mechanism.hpp"
#include "bristle/integrate/ode.hpp"
#include "bristle/core/schema.hpp"

namespace bristle::directional {

/// Most wiggles (of period eps) one run of the eps-systems resolves, each by the integrator (~0.6 ms here):
/// epsilon_loop, crawl_epsilon, measure_sliding_force, and the scenarios (summed over their eps values).
inline constexpr double kMaxWiggles = 1e5;
/// Throws InvalidInput ("epsilon = ...: the eps-system would resolve N wiggles (<path_text> = path_m m, over
/// epsilon): at most 1e5 ...") when path_m / epsilon > kMaxWiggles.
void require_wiggles(double path_m, double epsilon, std::string_view path_text);

struct EpsilonParams {
  double epsilon = 1e-2;  // m
  double gamma = 1.0;     // -

  /// Throws InvalidInput("<prefix>epsilon = ...: must be > 0") etc.
  void validate(std::string_view prefix = "") const;
  /// beta = min(1, gamma): the convergence rate of Theorem 1 (§5.1).
  double beta() const { return gamma < 1.0 ? gamma : 1.0; }
};

/// The schema of EpsilonParams (core/schema.hpp).
template <class Archive, schema::Of<EpsilonParams> Self>
void serialize(Archive& a, Self& p) {
  a.number(p.epsilon, {.key = "epsilon", .unit = "m", .default_value = "0.01", .range = schema::positive(),
                       .doc = "period of the wiggles (and viscosity eps^gamma)", .equation = "paper 2, eq. 2.8",
                       .log_scale = true});
  a.number(p.gamma, {.key = "gamma", .default_value = "1", .range = schema::positive(),
                     .doc = "exponent of the viscosity eps^gamma", .equation = "paper 2, eq. 2.8"});
}

/// One solution of eq. 2.8 on an output grid.
struct WigglyRun {
  /// Columns: t_s, l_N, z_m, F_N (= l - Phi'(z), the spring force), E_J (E_eps), D_J, P_J, I_Ns.
  TimeSeries series;
  integrate::Stats stats;
  double wall_seconds = 0.0;
};

class WigglySystem {
 public:
  /// Validates gamma > 0 (epsilon is in V).
  WigglySystem(WigglyPotential V, ConvexEnergy phi, Loading l, double gamma, std::string_view prefix = "");

  double energy(double t, double z) const;  // E_eps(t, z), eq. 2.4
  double velocity(double t, double z) const;  // z' from eq. 2.8
  double viscosity() const { return viscosity_; }  // eps^gamma

  /// The ODE with state [z, D, P, I] (see above), its analytic Jacobian and the loading's kinks.
  integrate::OdeSystem ode(double t0) const;
  /// Tight defaults: BDF, rtol 1e-10, atol 1e-7 eps on z (m) and 1e-10 eps on the quadratures (J, N s,
  /// with eps read in m): about 1e-10 of the energy one wiggle dissipates at unit force.
  static integrate::Options default_options(double epsilon);
  /// The step budget of an eps-system whose contacts pass over `path_m` of surface: kBaseSteps plus
  /// kStepsPerWiggle per wiggle passed over (path_m / epsilon). The examples take 145-195 steps per wiggle;
  /// a degenerate system (a viscosity eps^gamma of 1e-40, a spring stretched 1e12 times its rest length)
  /// takes millions, and ends at this budget (SolverError) instead of running for hours.
  static long step_budget(double path_m, double epsilon);
  /// options.max_steps = the smaller of itself and step_budget(path_m, epsilon); when the budget is the
  /// smaller, options.max_steps_key names it (the step-budget message then says which rule ran out).
  static void apply_step_budget(integrate::Options& options, double path_m, double epsilon);
  static constexpr long kBaseSteps = 100'000;
  static constexpr double kStepsPerWiggle = 1000.0;
  static constexpr long kMaxSteps = 200'000'000;  // default_options' budget, and step_budget's largest

  /// Integrates from z(t0) = z0 through `times`. Throws SolverError on failure. `progress`: the fraction of
  /// [t0, times.back()] done at the output times, as core/progress.hpp says.
  WigglyRun run(double z0, double t0, const std::vector<double>& times, const integrate::Options& options,
                const Progress& progress = {}) const;
  WigglyRun run(double z0, double t0, const std::vector<double>& times) const {
    return run(z0, t0, times, default_options(V_.epsilon()));
  }

  const WigglyPotential& potential() const { return V_; }
  const ConvexEnergy& phi() const { return phi_; }
  const Loading& loading() const { return l_; }
  double gamma() const { return gamma_; }

 private:
  WigglyPotential V_;
  ConvexEnergy phi_;
  Loading l_;
  double gamma_;
  double viscosity_;
};

}  // namespace bristle::directional
