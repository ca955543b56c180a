#pragma once
// The limit rate-independent system of paper 2 (§2): directional dry friction on a flat surface,
//
//   E(t, z) = Phi(z) - l(t) z                                                        eq. 2.1
//   R(v)    = rho_+ v  (v >= 0),   rho_- v  (v <= 0),   rho_- < 0 < rho_+           eq. 2.2
//   0 in dR(z') + D_z E(t, z)                                                        eq. 2.3
//
// i.e. F = l - Phi'(z) in [rho_-, rho_+], z' >= 0 only where F = rho_+ and z' <= 0 only where F = rho_-.
// Its solution is a play operator: z stays in the strip [z~_-(t), z~_+(t)] (eq. 5.6),
//   z~_-(t) = (Phi')^-1(l(t) - rho_+),   z~_+(t) = (Phi')^-1(l(t) - rho_-),
// and moves only when pushed by an edge. Since Phi' is increasing, the edges move with l, so on every
// interval where l is monotone the exact update is the projection onto the strip at the interval's end:
//
//   z(t1) = clamp(z(t0), z~_-(t1), z~_+(t1))       (l monotone on [t0, t1]).
//
// advance() splits [t0, t1] at the loading's turning points (Loading::turning_points) and applies it, so
// the update is exact for any loading whose turning points are known (piecewise linear, sine; a custom
// loading to the resolution of its grid). The energy terms are exact too:
//   dissipation  int R(z') dt  = rho_+ (increase of z) + rho_- (decrease of z)   (z monotone per interval)
//   loading power  P = int d_t E dt = -int l' z dt : while stuck -z dl, while sliding on the edge
//                  z = (Phi')^-1(l - rho) it is -[Phi*(l - rho)] (Phi* the convex conjugate, (Phi*)' = (Phi')^-1)
// so that E(t, z(t)) + D(t) = E(t0, z0) + P(t) (eq. 4.5 with equality, R* = 0 on the strip) to round-off.
//
// The initial state must satisfy eq. 2.10: Phi'(z0) in [l(t0) - rho_+, l(t0) - rho_-].
//
// | key       | meaning                                   | unit | range |
// |-----------|-------------------------------------------|------|-------|
// | rho_plus  | threshold for z' > 0 (eq. 2.2)            | N    | > 0   |
// | rho_minus | threshold for z' < 0 (eq. 2.2)            | N    | < 0   |
// | z0        | initial state (eq. 2.10)                  | m    | in the strip at t0 |
#include <utility>
#include <vector>

#include "bristle/core/time_series.hpp"
#include "bristle/directional/energy.hpp"

namespace bristle::directional {

class LimitSystem {
 public:
  /// Throws InvalidInput unless rho_plus > 0 > rho_minus (eq. 2.2).
  LimitSystem(ConvexEnergy phi, Loading l, double rho_plus, double rho_minus, std::string_view prefix = "");

  struct State {
    double t = 0.0;
    double z = 0.0;
    double l = 0.0;            // l(t)
    double dissipation = 0.0;  // int_t0^t R(z') ds (J)
    double power = 0.0;        // int_t0^t d_t E ds = -int l' z ds (J)
  };

  double energy(double t, double z) const;  // eq. 2.1
  /// The strip [z~_-(t), z~_+(t)] of eq. 5.6.
  std::pair<double, double> strip(double t) const;
  /// The state at t0; throws InvalidInput naming `key` if z0 violates eq. 2.10.
  State start(double t0, double z0, std::string_view key = "z0") const;
  /// Exact update to t1 >= state.t.
  void advance(State& state, double t1) const;
  /// Columns: t_s, l_N, z_m, F_N (= l - Phi'(z)), E_J, D_J, P_J.
  TimeSeries run(double z0, double t0, const std::vector<double>& times) const;

  double rho_plus() const { return rho_plus_; }
  double rho_minus() const { return rho_minus_; }
  const ConvexEnergy& phi() const { return phi_; }
  const Loading& loading() const { return l_; }

 private:
  void monotone_step(State& state, double t1, double l1) const;
  ConvexEnergy phi_;
  Loading l_;
  double rho_plus_, rho_minus_;
};

}  // namespace bristle::directional
