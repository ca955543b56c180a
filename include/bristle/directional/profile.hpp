#pragma once
// Surface profiles of the wiggly surface (paper 2, §3): the surface height is
//
//   w_eps(x) = eps w(x / eps)                                                       eq. 3.4
//
// with w a 1-periodic, non-constant C^2 function, and the two slopes that decide the friction
//
//   omega_+ = max w'(x) > 0,    omega_- = min w'(x) < 0                            eq. 3.5
//
// (a non-constant periodic w has zero-mean slope, so omega_+ > 0 > omega_- always holds).
//
// Profiles (x in periods, w in periods of the surface: the physical height is eps w(x/eps)):
//
// | kind     | w(x)                                                      | omega_+- (closed form)         |
// |----------|-----------------------------------------------------------|--------------------------------|
// | sine     | A sin(2 pi x)                                             | +-2 pi A                       |
// | ratchet  | A [sin(2 pi x) + (r/2) sin(4 pi x)],  |r| <= 1/4          | 2 pi A (+-1 + r)               |
// | fourier  | sum_k a_k cos(2 pi k x) + b_k sin(2 pi k x),  k = 1..n    | computed                       |
// | table    | periodic C^2 cubic spline through (x_i, w_i), x_0 = 0, x_n = 1, w_n = w_0 | computed (exact) |
// | custom   | user functions w, w', w'' (checked for periodicity on a grid) | computed                   |
//
// | key                      | meaning                                       | unit | range               |
// |--------------------------|-----------------------------------------------|------|---------------------|
// | amplitude                | A (sine, ratchet)                             | -    | > 0                 |
// | asymmetry                | r (ratchet): w' peaks at 2 pi A (1 + r)        | -    | [-1/4, 1/4]         |
// | cos / sin                | a_k, b_k for k = 1..n (fourier)               | -    | finite, not all 0   |
// | x / w                    | table abscissae (one period) and heights      | -    | 0 = x_0 < .. < x_n = 1, w_n = w_0 |
//
// omega_+- are computed robustly for every kind: for the spline exactly (w' is a quadratic on each
// interval, so its extrema sit at knots or at the zero of the linear w''); otherwise w' is sampled on a
// grid fine enough for the highest harmonic and every sampled local extremum is refined by Brent's
// parabolic/golden search to the full double precision of the value. The same is done for max/min w
// (needed to bracket the geometric inversions of the mechanisms).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/core/schema.hpp"

namespace bristle::directional {

enum class ProfileKind { sine, ratchet, fourier, table };
std::string_view to_string(ProfileKind kind);
/// Parses "sine", "ratchet", "fourier", "table"; throws InvalidInput naming `key` and suggesting the
/// nearest valid name.
ProfileKind profile_kind_from_string(std::string_view key, std::string_view name);

struct ProfileParams {
  static constexpr std::size_t kMaxHarmonics = 1000;  // fourier: entries of cos and of sin (Limits in docs/scenarios.md)
  ProfileKind kind = ProfileKind::sine;
  double amplitude = 0.1 / (2.0 * 3.14159265358979323846);  // omega_+ = -omega_- = 0.1 (paper 2, Figs. 4, 6)
  double asymmetry = 0.25;                     // ratchet r
  std::vector<double> cos_coefficients;        // fourier a_k, k = 1..n
  std::vector<double> sin_coefficients;        // fourier b_k, k = 1..n
  std::vector<double> x;                       // table abscissae, 0 = x_0 < ... < x_n = 1
  std::vector<double> w;                       // table heights, w_n = w_0

  /// Throws InvalidInput("<prefix>.<key> = <value>: <rule>") for every broken rule, including a
  /// constant profile and a table that is not periodic.
  void validate(std::string_view prefix = "profile") const;
};

/// The schema of ProfileParams (core/schema.hpp): the [profile] table. The rules are validate()'s (its
/// messages name the equation), so the ranges here are only "finite". A table profile is given inline (x, w)
/// or as a CSV file (file, x_column, w_column: declared, read by the scenario reader).
template <class Archive, schema::Of<ProfileParams> Self>
void serialize(Archive& a, Self& p) {
  using schema::Type;
  const bool table = p.kind == ProfileKind::table;
  a.choice(p.kind, {.key = "kind", .type = Type::choice, .default_value = "required", .doc = "the profile kind",
                    .equation = "paper 2, eqs. 3.4-3.5", .choices = "sine, ratchet, fourier, table"});
  a.number(p.amplitude, {.key = "amplitude", .default_value = "0.1/(2 pi)", .range = schema::finite(),
                         .doc = "A: w = A sin(2 pi x) (sine), A [sin 2 pi x + (r/2) sin 4 pi x] (ratchet)",
                         .used_by = "sine, ratchet"},
           p.kind == ProfileKind::sine || p.kind == ProfileKind::ratchet);
  a.number(p.asymmetry, {.key = "asymmetry", .default_value = "0.25", .range = schema::finite(),
                         .doc = "r in [-1/4, 1/4]", .used_by = "ratchet"},
           p.kind == ProfileKind::ratchet);
  a.declared({.key = "cos", .type = Type::number_list, .default_value = "[]", .doc = "a_k, k = 1..n",
              .used_by = "fourier"},
             p.kind == ProfileKind::fourier);
  a.declared({.key = "sin", .type = Type::number_list, .default_value = "[]", .doc = "b_k, k = 1..n",
              .used_by = "fourier"},
             p.kind == ProfileKind::fourier);
  a.declared({.key = "file", .type = Type::text, .default_value = "-",
              .doc = "a CSV file of x and w (instead of x and w)", .used_by = "table"},
             table);
  a.declared({.key = "x_column", .type = Type::text, .default_value = "the first column", .doc = "with file",
              .used_by = "table"},
             table);
  a.declared({.key = "w_column", .type = Type::text, .default_value = "the second column", .doc = "with file",
              .used_by = "table"},
             table);
  a.declared({.key = "x", .type = Type::number_list, .default_value = "required",
              .doc = "the abscissae of one period, 0 = x_0 < ... < x_n = 1", .used_by = "table"},
             table);
  a.declared({.key = "w", .type = Type::number_list, .default_value = "required",
              .doc = "the heights w(x_i), w_n = w_0", .used_by = "table"},
             table);
}

/// Extrema of a 1-periodic function on one period: value and location.
struct Extremum {
  double value = 0.0;
  double x = 0.0;
};

/// An immutable 1-periodic C^2 surface profile w with its slope extrema (cheap to copy).
class Profile {
 public:
  /// Builds and validates (errors name `prefix`).
  explicit Profile(const ProfileParams& params = {}, std::string_view prefix = "profile");
  /// A user profile. w, dw, d2w must be 1-periodic and consistent; periodicity is checked on a grid
  /// (w, w' and w'' at x and x + 1), and a profile that is constant or not periodic is rejected with
  /// InvalidInput naming `key`. `harmonics` bounds the number of oscillations per period (for the grid).
  static Profile custom(std::function<double(double)> w, std::function<double(double)> dw,
                        std::function<double(double)> d2w, std::string_view key = "profile",
                        int harmonics = 16);

  double w(double x) const;    // w(x)
  double dw(double x) const;   // w'(x)
  double d2w(double x) const;  // w''(x)

  double omega_plus() const { return omega_plus_.value; }   // max w'   eq. 3.5
  double omega_minus() const { return omega_minus_.value; } // min w'   eq. 3.5
  const Extremum& slope_max() const { return omega_plus_; }
  const Extremum& slope_min() const { return omega_minus_; }
  double w_max() const { return w_max_.value; }
  double w_min() const { return w_min_.value; }
  /// sup |w| (the paper's ||W||_inf of the profile).
  double sup_norm() const;
  /// A one-line description ("sine A = 0.0159", "table (64 points)", ...).
  const std::string& description() const { return description_; }

  /// The profile mirrored, x -> -x: w~(x) = w(-x), so omega~_+ = -omega_- (against the nap, §3.4).
  Profile mirrored() const;

  /// How the profile was made, enough to make it again (pickling): from `params`; from the user functions
  /// `w`, `dw`, `d2w` with `harmonics` (custom); or as the mirror of `mirror_of` (mirrored()).
  struct Recipe {
    std::optional<ProfileParams> params{};
    std::function<double(double)> w{}, dw{}, d2w{};
    int harmonics = 16;
    std::shared_ptr<const Profile> mirror_of{};
  };
  const Recipe& recipe() const { return *recipe_; }

  struct Impl;  // the kind-specific evaluation (public only for the implementation file)

 private:
  Profile(std::shared_ptr<const Impl> impl, std::string description, std::string_view key);
  std::shared_ptr<const Impl> impl_;
  std::shared_ptr<const Recipe> recipe_;
  std::string description_;
  Extremum omega_plus_, omega_minus_, w_max_, w_min_;
};

/// max and min over one period of a smooth 1-periodic function f, by sampling `samples` points and
/// refining every sampled local extremum by Brent's method (value accurate to round-off).
/// Returned as {max, min}.
std::pair<Extremum, Extremum> periodic_extrema(const std::function<double(double)>& f, int samples);

}  // namespace bristle::directional
