#pragma once
// Stribeck friction coefficient and the friction-coefficient matrix M(v_r).
//
//   mu(v) = mu_d + (mu_s - mu_d) exp(-(||v||/v_S)^delta_S) + mu_v ||v||          paper 1, eq. 53
//   M(v)  = R(phi) diag(mu_1(v), mu_2(v)) R(phi)^T                                 (anisotropic)
//
// | symbol  | key       | meaning                                  | unit | range  |
// |---------|-----------|------------------------------------------|------|--------|
// | mu_s    | mu_s      | static friction coefficient              | -    | > 0    |
// | mu_d    | mu_d      | dynamic (Coulomb) friction coefficient   | -    | > 0    |
// | v_S     | v_s       | Stribeck velocity                        | m/s  | > 0    |
// | delta_S | delta_s   | Stribeck exponent                        | -    | >= 0   |
// | mu_v    | mu_v      | viscous coefficient, mu_v(v)=mu_v ||v||  | s/m  | >= 0   |
// | phi     | angle_rad | direction of the first principal axis    | rad  | finite |
//
// The paper leaves the viscous function mu_v(v) open (its tables set it to 0); we take it linear in
// the speed, so that the steady LuGre/FrBD force is the Stribeck curve plus a viscous term.
#include <string>
#include <string_view>

#include "bristle/core/schema.hpp"
#include "bristle/core/types.hpp"

namespace bristle::laws {

struct StribeckParams {
  double mu_s = 1.0;     // static friction coefficient (-), eq. 53
  double mu_d = 1.0;     // dynamic friction coefficient (-), eq. 53
  double v_s = 1.0;      // Stribeck velocity (m/s), eq. 53
  double delta_s = 2.0;  // Stribeck exponent (-), eq. 53
  double mu_v = 0.0;     // viscous coefficient (s/m): mu_v(v) = mu_v ||v||

  /// Throws InvalidInput naming `prefix`.key, the value and the rule.
  void validate(std::string_view prefix) const;
};

/// The schema of StribeckParams (core/schema.hpp). `constant`: the Dahl law's constant coefficient (a key
/// mu sets mu_s = mu_d; v_s, delta_s, mu_v do not apply). `applies`: whether the law uses it at all.
template <class Archive, schema::Of<StribeckParams> Self>
void serialize(Archive& a, Self& p, bool constant, bool applies = true) {
  using schema::Type;
  a.declared({.key = "mu", .type = Type::number, .default_value = "-", .range = schema::positive(),
              .doc = "sets mu_s = mu_d = mu (not together with mu_s or mu_d)", .equation = "paper 1, eq. 2",
              .used_by = "dahl"},
             applies && constant);
  a.number(p.mu_s, {.key = "mu_s", .default_value = "1", .range = schema::positive(),
                    .doc = "static friction coefficient", .equation = "paper 1, eq. 53",
                    .used_by = "dahl, lugre, frbd"},
           applies);
  a.number(p.mu_d, {.key = "mu_d", .default_value = "1", .range = schema::positive(),
                    .doc = "dynamic (Coulomb) friction coefficient", .equation = "paper 1, eq. 53",
                    .used_by = "dahl, lugre, frbd"},
           applies);
  a.number(p.v_s, {.key = "v_s", .unit = "m/s", .default_value = "1", .range = schema::positive(),
                   .doc = "Stribeck velocity", .equation = "paper 1, eq. 53", .used_by = "lugre, frbd",
                   .log_scale = true},
           applies && !constant);
  a.number(p.delta_s, {.key = "delta_s", .default_value = "2", .range = schema::non_negative(),
                       .doc = "Stribeck exponent", .equation = "paper 1, eq. 53", .used_by = "lugre, frbd"},
           applies && !constant);
  a.number(p.mu_v, {.key = "mu_v", .unit = "s/m", .default_value = "0", .range = schema::non_negative(),
                    .doc = "viscous coefficient, mu_v(v) = mu_v ||v||", .equation = "paper 1, eq. 53",
                    .used_by = "lugre, frbd"},
           applies && !constant);
}

/// mu(speed) of eq. 53 for a speed ||v|| >= 0; with `slope`, also d mu / d speed there (the right
/// derivative at 0, infinite there for 0 < delta_S < 1).
double stribeck_mu(const StribeckParams& p, double speed, double* slope = nullptr);

/// The friction-coefficient matrix M(v_r): isotropic (one Stribeck law) or anisotropic (one law per
/// principal axis, axes rotated by angle_rad). Always symmetric positive definite.
struct FrictionCoefficient {
  StribeckParams axis1;            // law along the first principal axis (the only one if isotropic)
  StribeckParams axis2;            // law along the second principal axis (anisotropic only)
  bool anisotropic = false;
  double angle_rad = 0.0;          // rotation of the principal axes from x

  void validate(std::string_view prefix) const;
  Mat2 M(const Vec2& v_r) const;   // paper 1, eqs. 2-3
};

}  // namespace bristle::laws
