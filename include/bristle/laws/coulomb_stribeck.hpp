#pragma once
// Set-valued Coulomb-Stribeck friction at a point contact (paper 3, §III; the structures' stick-slip).
//
//   mu(v) = mu_d + (mu_s - mu_d) exp(-(v/v_S)^delta_S) + mu_v v          (paper 1, eq. 53; v >= 0)
//   F in -mu(|v_r|) N sgn(v_r),  |F| <= mu_s N at v_r = 0                (set-valued Coulomb: exact stick)
//
// One implicit step of a contact whose relative velocity is affine in the force over the step,
// v_r = c + a F with a > 0 (the structure's one-step admittance):
//   stick  v_r = 0, F = -c/a, accepted while |F| <= mu_s N;
//   slip   F = -mu(|v_r|) N sgn(c), |v_r| the smallest root of x = |c| - a N mu(x) in (0, |c|).
// The step problem has a unique solution when a N max(-mu') < 1 (well_posed(); otherwise the solution
// continuous with the stick branch, the smallest root, is taken).
//
// | symbol  | key     | meaning                                  | unit | range | default |
// |---------|---------|------------------------------------------|------|-------|---------|
// | mu_s    | mu_s    | static friction coefficient              | -    | > 0   | 0.5     |
// | mu_d    | mu_d    | dynamic (Coulomb) friction coefficient   | -    | > 0   | 0.3     |
// | v_S     | v_s     | Stribeck velocity                        | m/s  | > 0   | 0.1     |
// | delta_S | delta_s | Stribeck exponent                        | -    | >= 0  | 2       |
// | mu_v    | mu_v    | viscous coefficient                      | s/m  | >= 0  | 0       |
// In a scenario: the [friction] table of kind = "structure_stick_slip" (type = "coulomb_stribeck").
#include <string_view>

#include "bristle/core/schema.hpp"
#include "bristle/laws/stribeck.hpp"

namespace bristle::laws {

/// The parameters of the set-valued Coulomb-Stribeck law: its friction coefficient mu(v) (eq. 53).
struct CoulombStribeckParams {
  StribeckParams mu{0.5, 0.3, 0.1, 2.0, 0.0};  // mu(v), paper 1, eq. 53

  /// Throws InvalidInput("<prefix>.<key> = <value>: <rule>").
  void validate(std::string_view prefix) const { mu.validate(prefix); }
};

/// The schema of CoulombStribeckParams (core/schema.hpp): the keys of a [friction] table.
template <class Archive, schema::Of<CoulombStribeckParams> Self>
void serialize(Archive& a, Self& p) {
  using schema::Type;
  a.declared({.key = "type", .type = Type::choice, .default_value = "coulomb_stribeck",
              .doc = "the friction law (dynamic laws go in [law])", .equation = "paper 3, §III",
              .choices = "coulomb_stribeck"});
  a.number(p.mu.mu_s, {.key = "mu_s", .default_value = "0.5", .range = schema::positive(),
                       .doc = "static friction coefficient (stick while |F| <= mu_s N)", .equation = "paper 1, eq. 53"});
  a.number(p.mu.mu_d, {.key = "mu_d", .default_value = "0.3", .range = schema::positive(),
                       .doc = "dynamic (Coulomb) friction coefficient", .equation = "paper 1, eq. 53"});
  a.number(p.mu.v_s, {.key = "v_s", .unit = "m/s", .default_value = "0.1", .range = schema::positive(),
                      .doc = "Stribeck velocity", .equation = "paper 1, eq. 53", .log_scale = true});
  a.number(p.mu.delta_s, {.key = "delta_s", .default_value = "2", .range = schema::non_negative(),
                          .doc = "Stribeck exponent", .equation = "paper 1, eq. 53"});
  a.number(p.mu.mu_v, {.key = "mu_v", .unit = "s/m", .default_value = "0", .range = schema::non_negative(),
                       .doc = "viscous coefficient, mu_v(v) = mu_v v", .equation = "paper 1, eq. 53"});
}

/// sup over v > 0 of -mu'(v) (<= 0 if mu never decreases; +inf for 0 < delta_S < 1 with mu_s > mu_d).
double steepest_descent(const StribeckParams& p);

/// The solution of one implicit step.
struct CoulombStribeckStep {
  double force = 0.0;       // F (N), on the body
  bool stick = false;       // v_r = 0 at the end of the step
  double slip_speed = 0.0;  // |v_r| at the end of the step (0 in stick)
};

/// The set-valued law for one contact with one-step admittance a > 0 and normal load N > 0.
class CoulombStribeck {
 public:
  /// Validates `params` under `prefix` ("friction").
  CoulombStribeck(const CoulombStribeckParams& params, double admittance, double normal_load_N,
                  std::string_view prefix = "friction");

  const CoulombStribeckParams& params() const { return p_; }
  /// The one-step admittance a (m/(N s)) and the normal load N (N) it was built with.
  double admittance() const { return a_; }
  double normal_load_N() const { return N_; }
  /// a N max(-mu') < 1: the slip root is unique.
  bool well_posed() const { return well_posed_; }
  /// mu(0) (= mu_s): the static coefficient as the law evaluates it.
  double mu_static() const { return mu_static_; }

  /// The step v_r = c + a F. `guess`: a start for the slip speed in (0, |c|) (the last slip speed,
  /// extrapolated), or < 0 for none. No allocation when well posed.
  CoulombStribeckStep step(double c, double guess = -1.0) const;

 private:
  CoulombStribeckParams p_;
  double a_ = 0.0, N_ = 0.0, mu_static_ = 0.0;
  bool well_posed_ = true;
};

}  // namespace bristle::laws
