#pragma once
// Friction laws h0: the rate of the relative bristle deformation z (paper 1, eq. 1b), in 2-D.
//
//   Dahl / LuGre  h0 = -M^-2(v) ||M(v) v||_{2,eps} Sigma0 z - v                   eq. 2
//   FrBD          h0 = -M^-2(v) ||M(v) v||_{2,eps} f - v                          eq. 3
//                 h0 = -G^-1(v) f - v   (general form; steady state f = -G(v) v)
//   Bouc-Wen      h0 = -G(z, v) z - A v,  G = diag(g_x, g_y)                      eqs. 4-6
//   frictionless  h0 = -v                                                          eq. 7
//
// v = v_r is the rigid relative velocity of the upper body (m/s), z the relative deformation (m), f the
// normalised bristle force (-), positive when it pushes the upper body along +x. Note the sign
// convention: friction opposes v_r, so at steady sliding f = -mu sgn(v) (paper 1, §2.2.1).
// Dahl is eq. 2 with a constant M (mu_s = mu_d); LuGre with the Stribeck M(v) of eq. 53 and,
// optionally, the classical micro-damping sigma1 and viscous sigma2 terms of Canudas de Wit et al.
// (1995), which enter the output force  f_out = f + Sigma1 zdot - Sigma2 v  (not the state).
// Sigma0 of eq. 2 defaults to the static (fully relaxed) stiffness of the contact pair, K_static
// (K0bar for elastic bodies), so that the steady force equals -M^2 v/||M v|| for every rheology; a
// user-given Sigma0 scales it to K_static Sigma0^-1 (-M^2 v/||M v||).
//
// | symbol   | key         | meaning                                   | unit      | range      |
// |----------|-------------|-------------------------------------------|-----------|------------|
// | eps      | eps         | norm regularisation                       | m^2/s^2   | >= 0       |
// | Sigma0   | sigma0      | Dahl/LuGre micro-stiffness (optional)     | 1/m       | SPD        |
// | Sigma1   | sigma1      | LuGre micro-damping (normalised by F_z)   | s/m       | SPSD       |
// | Sigma2   | sigma2      | LuGre viscous coefficient (normalised)    | s/m       | SPSD       |
// | A        | A           | Bouc-Wen gain                             | -         | > 0        |
// | beta1,2  | beta1/beta2 | Bouc-Wen shape                            | 1/m^2     | > 0        |
// | gamma    | gamma       | Bouc-Wen shape                            | 1/m^2     | finite     |
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "bristle/core/types.hpp"
#include "bristle/laws/stribeck.hpp"

namespace bristle::laws {

enum class LawKind { dahl, lugre, frbd, bouc_wen, frictionless };

/// "dahl", "lugre", "frbd", "bouc_wen", "frictionless"
std::string_view to_string(LawKind kind);
/// Parses a law name; throws InvalidInput naming `key` and suggesting the nearest valid name.
LawKind law_kind_from_string(std::string_view key, std::string_view name);

struct LawParams {
  LawKind kind = LawKind::frbd;
  FrictionCoefficient M;           // M(v_r); Dahl requires mu_s == mu_d (a constant M)
  double eps = 0.0;                // regularisation of the norm (m^2/s^2), in [0, kMaxEps]
  static constexpr double kMaxEps = 1.0;  // m^2/s^2 (Limits in docs/scenarios.md)
  std::optional<Mat2> sigma0;      // Dahl/LuGre Sigma0 (1/m); default: the pair's static stiffness
  Mat2 sigma1 = Mat2::Zero();      // LuGre micro-damping (s/m), output term
  Mat2 sigma2 = Mat2::Zero();      // LuGre viscous term (s/m), output term
  double A = 1.0;                  // Bouc-Wen, eq. 4
  double beta1 = 1.0;              // Bouc-Wen, eq. 6
  double beta2 = 0.0;              // Bouc-Wen, eq. 6 (>= 0; the paper asks > 0 in 2-D coupling)
  double gamma = 0.0;              // Bouc-Wen, eq. 6
  /// FrBD general form: G^-1(v) (SPD); empty means G^-1 = M^-2 ||M v||_eps (eq. 3).
  std::function<Mat2(const Vec2&)> G_inverse;

  void validate(std::string_view prefix) const;
};

/// The schema of LawParams, the [law] table (core/schema.hpp). The isotropic Stribeck keys sit in [law]
/// itself; anisotropic friction has them in [law.axis1] and [law.axis2].
template <class Archive, schema::Of<LawParams> Self>
void serialize(Archive& a, Self& p) {
  using schema::Type;
  const LawKind kind = p.kind;
  const bool stribeck = kind == LawKind::dahl || kind == LawKind::lugre || kind == LawKind::frbd;
  const bool dahl = kind == LawKind::dahl, lugre = kind == LawKind::lugre;
  const bool bouc_wen = kind == LawKind::bouc_wen;
  const bool iso = !p.M.anisotropic;
  a.choice(p.kind, {.key = "type", .type = Type::choice, .default_value = "required",
                    .doc = "the friction law", .equation = "paper 1, eqs. 2-7 (h0)",
                    .choices = "dahl, lugre, frbd, bouc_wen, frictionless"});
  a.number(p.eps, {.key = "eps", .unit = "m^2/s^2", .default_value = "0", .range = schema::non_negative(),
                   .doc = "regularisation of the norm ||y||_{2,eps} = sqrt(||y||^2 + eps), at most 1",
                   .equation = "paper 1, eqs. 2-6", .used_by = "all but frictionless"},
           kind != LawKind::frictionless);
  serialize(a, p.M.axis1, dahl, stribeck && iso);
  for (auto* axis : {&p.M.axis1, &p.M.axis2}) {
    const bool first = axis == &p.M.axis1;
    a.table({.key = first ? "axis1" : "axis2", .type = Type::table,
             .doc = first ? "anisotropic friction: the Stribeck law along the first principal axis"
                          : "anisotropic friction: the Stribeck law along the second principal axis",
             .equation = "paper 1, eq. 53", .used_by = "dahl, lugre, frbd"},
            [&](auto& b) { serialize(b, *axis, dahl); }, stribeck && !iso);
  }
  a.number(p.M.angle_rad, {.key = "angle_rad", .unit = "rad", .default_value = "0", .range = schema::finite(),
                           .doc = "direction phi of the first principal axis (anisotropic only)",
                           .equation = "M = R(phi) diag(mu_1, mu_2) R(phi)^T", .used_by = "dahl, lugre, frbd"},
           stribeck && !iso);
  a.declared({.key = "sigma0", .type = Type::matrix, .unit = "1/m",
              .default_value = "the pair's static stiffness K_static", .range = schema::spd(),
              .doc = "micro-stiffness Sigma0", .equation = "paper 1, eq. 2", .used_by = "dahl, lugre",
              .log_scale = true},
             dahl || lugre);
  a.matrix(p.sigma1, {.key = "sigma1", .type = Type::matrix, .unit = "s/m", .default_value = "0",
                      .range = schema::spsd(), .doc = "LuGre micro-damping Sigma1 (output term f + Sigma1 z')",
                      .equation = "Canudas de Wit et al. 1995", .used_by = "lugre"},
           lugre);
  a.matrix(p.sigma2, {.key = "sigma2", .type = Type::matrix, .unit = "s/m", .default_value = "0",
                      .range = schema::spsd(), .doc = "LuGre viscous coefficient Sigma2 (output term -Sigma2 v)",
                      .equation = "Canudas de Wit et al. 1995", .used_by = "lugre"},
           lugre);
  a.number(p.A, {.key = "A", .default_value = "1", .range = schema::positive(), .doc = "Bouc-Wen gain",
                 .equation = "paper 1, eq. 4", .used_by = "bouc_wen"},
           bouc_wen);
  a.number(p.beta1, {.key = "beta1", .unit = "1/m^2", .default_value = "1", .range = schema::positive(),
                     .doc = "Bouc-Wen shape coefficient", .equation = "paper 1, eq. 6", .used_by = "bouc_wen",
                     .log_scale = true},
           bouc_wen);
  a.number(p.beta2, {.key = "beta2", .unit = "1/m^2", .default_value = "0", .range = schema::non_negative(),
                     .doc = "Bouc-Wen shape coefficient", .equation = "paper 1, eq. 6", .used_by = "bouc_wen"},
           bouc_wen);
  a.number(p.gamma, {.key = "gamma", .unit = "1/m^2", .default_value = "0", .range = schema::finite(),
                     .doc = "Bouc-Wen shape coefficient, with beta1 + gamma > 0", .equation = "paper 1, eq. 6",
                     .used_by = "bouc_wen"},
           bouc_wen);
}

/// The law h0 bound to its contact pair through the pair's static stiffness K_static (the force per
/// relative deformation once every dissipative branch has relaxed).
class FrictionLaw {
 public:
  FrictionLaw(LawParams params, const Mat2& k_static);

  /// h0(z, f, v): rate of the relative deformation (m/s). Eqs. 2-7.
  Vec2 h0(const Vec2& z, const Vec2& f, const Vec2& v) const;
  /// Partial derivatives of h0 with respect to z (dz) and f (df); eqs. 2-7 differentiated (the
  /// regularised absolute values of Bouc-Wen differentiated as written; at 0 with eps = 0, 0).
  void h0_jacobian(const Vec2& z, const Vec2& f, const Vec2& v, Mat2& dz, Mat2& df) const;
  /// Friction force on the upper body, normalised: f + Sigma1 zdot - Sigma2 v (LuGre), else f.
  Vec2 output(const Vec2& f, const Vec2& zdot, const Vec2& v) const;
  /// Analytic steady normalised force at constant v (sigma2 included); for Bouc-Wen K_static times
  /// the steady deformation. Never NaN:
  /// - Dahl/LuGre/FrBD: f = -M^2 v / ||M v||_{2,eps} (-G(v) v for a user G^-1). At v = 0, f = 0: with
  ///   eps > 0 it is the unique steady state; with eps = 0, G^-1(0) = 0 and every f is at rest, and f = 0
  ///   is the limit eps -> 0+ and the odd-symmetric mean of the one-sided limits -+M(0)^2 d/||M(0) d||.
  ///   For a user G^-1, f = 0 at v = 0 (h0(f = 0, v = 0) = 0 for every G^-1); a singular or non-finite
  ///   G^-1(v) at v != 0 throws SolverError (no steady state f = -G v).
  ///   With eps = 0, f depends on the direction of v only, so a denormal v gives |f| = mu(0), not NaN.
  /// - Bouc-Wen: at v = 0, h0 = -G(z, 0) z, G(z, 0) = 0 (eps = 0, every z at rest) or sqrt(eps)-scaled
  ///   (z = 0 unique); z = 0 is taken, the limit eps -> 0+ again. With eps = 0 the deformation depends on
  ///   the direction of v only (h0 is homogeneous in v).
  /// - frictionless: 0 at v = 0; at v != 0 no steady state exists (z' = -v): throws InvalidInput.
  /// A non-finite v throws InvalidInput.
  Vec2 steady_force(const Vec2& v) const;
  /// G^-1(v) of the FrBD family: M^-2(v) ||M(v) v||_eps (or the user's G_inverse).
  Mat2 G_inverse(const Vec2& v) const;

  /// For an isotropic M (and no user G_inverse): G^-1 = g I with g = sqrt(mu^2 |v|^2 + eps) / mu^2, mu = mu(|v|)
  /// of eq. 53, given |v| and |v|^2 (for eps = 0 evaluated as |v| / mu, no square root). With `slope`, also
  /// dg/d|v| (the right derivative at |v| = 0).
  double isotropic_g(double speed, double speed_squared, double* slope = nullptr) const;

  const LawParams& params() const { return params_; }
  const Mat2& sigma0() const { return sigma0_; }
  const Mat2& k_static() const { return k_static_; }
  bool has_output_terms() const { return has_output_terms_; }

 private:
  /// f = -G(v) v of the FrBD family (Dahl and LuGre scale it to their state), as steady_force says.
  Vec2 frbd_steady_force(const Vec2& v) const;

  LawParams params_;
  Mat2 sigma0_;
  Mat2 k_static_;
  bool has_output_terms_ = false;
};

}  // namespace bristle::laws
