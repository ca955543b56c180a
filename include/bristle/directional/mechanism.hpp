#pragma once
// Bristle-like mediating elements on a wiggly surface (paper 2, §3) and their exact wiggly energies.
//
// A bristle is attached at horizontal position u, at height h above the flat limit surface; its tip p
// rests on the surface w_eps(x) = eps w(x/eps) (eq. 3.4). In each model the state is z = u + gap and the
// tip height y = w_eps(p) fixes both the tip position and the elastic energy:
//
//   z = p + c(y),   V_eps(z) = F(y) - F(0),  y = w_eps(p(z))                     eqs. 2.16, 3.8, 3.21
//
// | model     | gap            | c(y)                                   | F(y)                                     |
// |-----------|----------------|----------------------------------------|------------------------------------------|
// | vertical  | 0              | 0                                      | k/2 (L_rest - h + y)^2            §3.1   |
// | slanted   | -h tan(theta)  | -y tan(theta)               eq. 3.8    | k/2 (L_rest - (h - y)/cos(theta))^2 §3.2 |
// | angular   | -sqrt(L^2-h^2) | sqrt(L^2-(h-y)^2) - sqrt(L^2-h^2) = A(y) eq. 3.21 | k/2 (arccos((h-y)/L) - theta_rest)^2 §3.3 |
//
// As eps -> 0 (Lemma 2, eq. 2.17; Lemma 3, eq. 3.12) the wiggly energy yields directional dry friction
//
//   alpha = F'(0)                      (eq. 2.13; eqs. 3.11, 3.23; vertical: k (L_rest - h))
//   a     = c'(0)                      (0; -tan(theta); cot(theta_lim) = h / sqrt(L^2 - h^2))
//   mu_+- = omega_+- / (1 + a omega_+-)                                            eqs. 3.12, 3.14, 3.24
//   rho_+ = alpha mu_+,  rho_- = alpha mu_-          if alpha > 0                   eq. 2.17
//   rho_+ = alpha mu_-,  rho_- = alpha mu_+          if alpha < 0
//
// NOTE (alpha < 0): eq. 2.17 prints rho_+ = -alpha mu_-, rho_- = -alpha mu_+, which would make rho_+
// negative. From W = alpha Wcal (Lemma 2), max W' = alpha min Wcal' = alpha mu_- > 0 when alpha < 0;
// we follow that derivation (the sign in the printed display is a typo).
//
// Validity (checked at construction, with the equation named in the message):
//   vertical   k > 0, h > 0, L_rest > 0, L_rest != h (alpha != 0, eq. 2.13)
//   slanted    0 <= theta < pi/2 (theta = 0 is the vertical spring), omega_+ < cot(theta) (eq. 3.9),
//              L_rest != h / cos(theta) (alpha != 0)
//   angular    L > h (eq. 3.15), -pi/2 < theta_rest < theta_lim = arccos(h/L) (eq. 3.16),
//              -tan(theta_lim) < omega_- and omega_+ < cot(theta_lim) (eq. 3.17)
// and, for a finite eps (WigglyPotential), the same conditions on the whole range of tip heights
// y in eps [min w, max w]: the tip stays below the root (h - y > 0), the rod reaches the surface
// (L > h - y), z(p) is increasing (1 + c'(y) w' > 0, eqs. 3.9, 3.22) and only the tip touches
// (w' < cot(theta(y)), eq. 3.17 right). epsilon_max() is the largest eps for which they hold.
//
// | key            | meaning                                   | unit               | range                 |
// |----------------|-------------------------------------------|--------------------|-----------------------|
// | kind           | vertical, slanted, angular                | -                  |                       |
// | k              | spring constant                           | N/m; angular N m/rad | > 0                 |
// | height_m       | h, root height above the flat surface     | m                  | > 0                   |
// | rest_length_m  | L_rest (vertical, slanted)                | m                  | > 0, alpha != 0       |
// | theta_rad      | theta, fixed slant from vertical (slanted)| rad                | [0, pi/2), eq. 3.9    |
// | length_m       | L, rod length (angular)                   | m                  | > h (eq. 3.15)        |
// | theta_rest_rad | rest angle of the angular spring          | rad                | (-pi/2, theta_lim)    |
#include <string>
#include <string_view>

#include "bristle/core/schema.hpp"
#include "bristle/directional/profile.hpp"

namespace bristle::directional {

enum class MechanismKind { vertical, slanted, angular };
std::string_view to_string(MechanismKind kind);
MechanismKind mechanism_kind_from_string(std::string_view key, std::string_view name);

struct MechanismParams {
  MechanismKind kind = MechanismKind::slanted;
  double k = 1.0;               // N/m (vertical, slanted) or N m/rad (angular)
  double height_m = 1.0;        // h
  double rest_length_m = 1.5;   // L_rest (vertical, slanted)
  double theta_rad = 0.5;       // theta (slanted)
  double length_m = 1.25;       // L (angular): theta_lim = arccos(0.8) = 0.6435
  double theta_rest_rad = 0.0;  // theta_rest (angular)

  /// The profile-independent rules (eqs. 2.13, 3.15, 3.16 and ranges).
  void validate(std::string_view prefix = "mechanism") const;
};

/// The schema of MechanismParams (core/schema.hpp): the [mechanism] table. The rules are validate()'s and
/// Mechanism's (eqs. 2.13, 3.9, 3.15-3.17, with the profile), so the ranges here are only "finite".
template <class Archive, schema::Of<MechanismParams> Self>
void serialize(Archive& a, Self& p) {
  using schema::Type;
  const bool angular = p.kind == MechanismKind::angular;
  a.choice(p.kind, {.key = "kind", .type = Type::choice, .default_value = "required", .doc = "the mechanism",
                    .equation = "paper 2, §3", .choices = "vertical, slanted, angular"});
  a.number(p.k, {.key = "k", .unit = "N/m or N m/rad", .default_value = "1", .range = schema::finite(),
                 .doc = "spring stiffness (N m/rad for the angular spring)", .log_scale = true});
  a.number(p.height_m, {.key = "height_m", .unit = "m", .default_value = "1", .range = schema::finite(),
                        .doc = "height h of the root above the surface"});
  a.number(p.rest_length_m, {.key = "rest_length_m", .unit = "m", .default_value = "1.5", .range = schema::finite(),
                             .doc = "rest length L_rest of the spring", .used_by = "vertical, slanted"},
           !angular);
  a.number(p.theta_rad, {.key = "theta_rad", .unit = "rad", .default_value = "0.5", .range = schema::finite(),
                         .doc = "slant theta, omega_+ < cot(theta)", .equation = "paper 2, eq. 3.9",
                         .used_by = "slanted"},
           p.kind == MechanismKind::slanted);
  a.number(p.length_m, {.key = "length_m", .unit = "m", .default_value = "1.25", .range = schema::finite(),
                        .doc = "rod length L > h", .equation = "paper 2, eq. 3.15", .used_by = "angular"},
           angular);
  a.number(p.theta_rest_rad, {.key = "theta_rest_rad", .unit = "rad", .default_value = "0", .range = schema::finite(),
                              .doc = "rest angle, -pi/2 < theta_rest < theta_lim", .equation = "paper 2, eq. 3.16",
                              .used_by = "angular"},
           angular);
}

/// The coefficients of the limit (eps -> 0) dry friction (Lemmas 2 and 3).
struct LimitCoefficients {
  double alpha = 0.0;      // F'(0) (N): the energetic factor (eq. 2.13)
  double a = 0.0;          // c'(0): the geometric slant of Lemma 3
  double mu_plus = 0.0;    // max of the perceived slope Wcal' (eq. 3.12)
  double mu_minus = 0.0;   // min of Wcal' (eq. 3.12)
  double rho_plus = 0.0;   // threshold for rightward sliding (N), eq. 2.17
  double rho_minus = 0.0;  // threshold for leftward sliding (N, < 0), eq. 2.17
};

/// Lemma 3 (eq. 3.12): mu_+- = omega_+- / (1 + a omega_+-), requiring 1 + a omega_+- > 0.
/// Throws InvalidInput naming `key` if a is out of range.
std::pair<double, double> lemma3(double omega_plus, double omega_minus, double a, std::string_view key = "a");

/// The admissible open range of the mechanism's angle on a profile of slopes omega_+ > 0 > omega_-: theta in
/// (0, arccot(omega_+)) for the slanted bristle (eq. 3.9), theta_lim in (arctan(-omega_-), arccot(omega_+)) for the
/// angular one (eq. 3.17); empty (first >= second) where no angle qualifies.
std::pair<double, double> admissible_angles(MechanismKind kind, double omega_plus, double omega_minus);

/// Eq. 2.17, with the alpha < 0 case derived from W = alpha Wcal (see the note above).
std::pair<double, double> lemma2_thresholds(double alpha, double mu_plus, double mu_minus);

/// A mechanism bound to its surface profile: validated geometry, energy pieces and limit coefficients.
class Mechanism {
 public:
  Mechanism(MechanismParams params, Profile profile, std::string_view prefix = "mechanism");

  // Eq. 2.16 pieces as functions of the tip height y = w_eps(p) (m).
  double F(double y) const;
  double dF(double y) const;
  double d2F(double y) const;
  double c(double y) const;
  double dc(double y) const;
  double d2c(double y) const;
  /// z = u + gap (m).
  double gap() const;
  /// The bristle's angle from the vertical at tip height y (rad): 0, theta, or arccos((h - y)/L).
  double angle(double y) const;
  /// theta_lim = arccos(h/L) of the angular spring (eq. 3.15); theta for the slanted; 0 vertical.
  double theta_lim() const;

  const LimitCoefficients& limit() const { return limit_; }
  /// The largest eps (m) for which the geometry is valid at every tip height (see above); +inf if none.
  double epsilon_max() const { return epsilon_max_; }
  /// Whether the finite-eps geometry holds; if not, `why` says which condition fails.
  bool geometry_valid(double epsilon, std::string* why = nullptr) const;

  const MechanismParams& params() const { return params_; }
  const Profile& profile() const { return profile_; }

 private:
  MechanismParams params_;
  Profile profile_;
  LimitCoefficients limit_;
  double epsilon_max_ = 0.0;
};

/// The geometric profile perceived by the bristle in the limit (Lemma 3): Wcal(Z) = w(g^-1(Z)) with
/// g(P) = P + a w(P), the inversion done numerically (safeguarded Newton on the exact bracket
/// P - Z in [-a max w, -a min w]).
class PerceivedProfile {
 public:
  PerceivedProfile(Profile profile, double a);
  double g_inverse(double Z) const;
  double W(double Z) const;   // Wcal(Z)
  double dW(double Z) const;  // Wcal'(Z) = w'(P) / (1 + a w'(P))   eq. 3.13
  const Profile& profile() const { return profile_; }
  double a() const { return a_; }

 private:
  Profile profile_;
  double a_;
};

/// V_eps(z) = F(w_eps(p(z))) - F(0) (eq. 2.16) for one eps, with its first two derivatives, the tip
/// position p(z) found by a safeguarded Newton iteration on z = p + c(w_eps(p)) inside the exact
/// bracket given by the range of c over the tip heights.
class WigglyPotential {
 public:
  /// Throws InvalidInput("epsilon = ...") if eps <= 0 or the geometry is invalid at this eps.
  WigglyPotential(Mechanism mechanism, double epsilon, std::string_view key = "epsilon");

  struct Point {
    double p = 0.0;    // tip position (m)
    double y = 0.0;    // tip height w_eps(p) (m)
    double dy = 0.0;   // dy/dz
    double d2y = 0.0;  // d2y/dz2 (1/m)
    double V = 0.0;    // V_eps(z) (J)
    double dV = 0.0;   // V_eps'(z) (N)
    double d2V = 0.0;  // V_eps''(z) (N/m)
  };
  Point at(double z) const;
  double value(double z) const { return at(z).V; }
  double d1(double z) const { return at(z).dV; }

  double epsilon() const { return epsilon_; }
  const Mechanism& mechanism() const { return mechanism_; }

 private:
  Mechanism mechanism_;
  double epsilon_;
  double F0_;
  double shift_lo_ = 0.0, shift_hi_ = 0.0;  // range of -c(eps w)/eps: P - Z lies in [lo, hi]
};

}  // namespace bristle::directional
