#pragma once
// The contact model = friction law h0 x viscoelastic contact pair (paper 1, §§2-4).
//
// State at a point: u = [f; zeta1; zeta2] in R^{2(n+1)}, n = n1 + n2 (eq. 33). Its pointwise source
// (eq. 35) is
//   z      = K0bar^-1 (f - Cbar zeta)                                           eq. 15
//   zdot   = h0(z, f, v_r)                                                      eqs. 2-7
//   h1     = A1 zeta1 + B1 f,     h2 = A2 zeta2 - B2 f                          eqs. 17b-c (errata)
//   h~0    = K0bar h0 + S1 C1 h1 - S2 C2 h2                                     eq. 31
// The transport solvers add advection (eqs. 33-34) to exactly this source; the lumped model is the
// case V1 = V2 = 0, where u' = h(u, v_r). Nothing here knows whether the dynamics are lumped or
// distributed.
#include "bristle/core/types.hpp"
#include "bristle/laws/friction_law.hpp"
#include "bristle/rheology/contact_pair.hpp"

namespace bristle::contact {

class ContactModel {
 public:
  ContactModel(const laws::LawParams& law, const rheology::RheologyParams& body1,
               const rheology::RheologyParams& body2);

  int state_size() const { return 2 + pair_.zeta_size(); }
  int n1() const { return pair_.n1(); }
  int n2() const { return pair_.n2(); }

  /// h(u, v_r) of eq. 35. `u` and `h` have state_size() entries. Returns zdot = h0 (m/s).
  Vec2 source(const double* u, const Vec2& v_r, double* h) const;
  /// Jacobian dh/du of the source (column-major, state_size() x state_size()):
  ///   d(f')/du = K0bar (D_z h0 K0bar^-1 [I, -Cbar] + D_f h0 [I, 0]) + S1 C1 dh1/du - S2 C2 dh2/du
  void source_jacobian(const double* u, const Vec2& v_r, double* jacobian) const;
  /// For the laws affine in the state at fixed v_r (Dahl, LuGre, FrBD, frictionless: eqs. 2, 3, 7 and the
  /// linear rheology, eq. 11; not Bouc-Wen, eq. 4) the source is exactly h(u, v_r) = J(v_r) u + c(v_r):
  /// J = source_jacobian (it does not depend on u), c = h(0, v_r) = [-K0bar v_r; 0] (h0(0, 0, v_r) = -v_r).
  /// One evaluation of the law (one Stribeck exponential) gives both; source() and source_jacobian() would
  /// take two. `jacobian` as in source_jacobian, `c` state_size() entries. Throws std::logic_error for
  /// Bouc-Wen.
  void affine_source(const Vec2& v_r, double* jacobian, double* c) const;
  /// Normalised friction force on the upper body: f plus the LuGre output terms (if any).
  Vec2 friction(const double* u, const Vec2& v_r) const;
  /// Stored energy at a point, eq. 85 without the pressure factor (normalised, m).
  double stored_energy(const double* u) const { return pair_.stored_energy(Vec2(u[0], u[1]), u + 2); }
  /// Power dissipated in the dampers of both bodies at a point (normalised, m/s), given the source h.
  double damper_power(const double* h) const;
  /// Dissipated power at a point (normalised, m/s) given the source h and zdot it returned:
  ///   D = -f . (zdot + v_r) - (f_out - f) . v_r + sum_i zeta_i'^T C_i zeta_i'
  /// so that dW/dt = -f_out . v_r - D exactly (the rheology stores f . zdot minus its damper power).
  /// For FrBD, D = f^T G^-1 f + damper power >= 0: the passivity of Lemma B.1 at a point.
  double dissipation_rate(const double* u, const Vec2& v_r, const double* h, const Vec2& zdot) const;
  /// True if the x and y axes do not interact: every matrix of the law and the pair couples x only to x and
  /// y only to y (u is interleaved: f_x, f_y, then x, y of each branch state), the friction coefficient is
  /// isotropic and given by the Stribeck law (not a user G^-1). Then a state whose y components are zero,
  /// driven along x only, has a source whose y components are exactly zero (h0_y = 0 for every law), so
  /// the y components stay zero: the 1-D subsystem of the x components is exact (Bench::x_system).
  bool axes_decoupled() const;
  /// Analytic steady normalised friction force at constant v_r (law.steady_force; its limits at v_r = 0:
  /// 0 for every law, never NaN; the frictionless law throws at v_r != 0, where no steady state exists).
  Vec2 steady_force(const Vec2& v_r) const { return law_.steady_force(v_r); }
  /// The steady state u at constant v_r: f from steady_force, zeta from A zeta + B f = 0 (at v_r = 0 with
  /// eps = 0: u = 0, the limit of steady_force there).
  VecX steady_state(const Vec2& v_r) const;

  const laws::FrictionLaw& law() const { return law_; }
  const rheology::ContactPair& pair() const { return pair_; }

 private:
  rheology::ContactPair pair_;
  laws::FrictionLaw law_;
  Mat2X S1C1_, S2C2_;  // 2 x 2n1, 2 x 2n2
  Mat2X dz_du_;        // dz/du = K0bar^-1 [I, -Cbar], 2 x m
  MatX linear_rows_;  // constant part of dh/du: rows of f (S1 C1 dh1/du - S2 C2 dh2/du) and of zeta, m x m
};

}  // namespace bristle::contact
