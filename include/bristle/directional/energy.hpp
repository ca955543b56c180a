#pragma once
// The smooth part of the energy and the loading of paper 2's abstract setting (§2):
//
//   E(t, z) = Phi(z) - l(t) z                                                        eq. 2.1
//
// with Phi in C^2 uniformly convex (Phi'' >= phi > 0) and l(t) the loading. Here
//
//   Phi(z) = k/2 z^2 + c4/4 z^4,      Phi'' = k + 3 c4 z^2 >= k                     (k > 0, c4 >= 0)
//
// which contains the paper's horizontal spring Phi = k_h/2 z^2 (eq. 3.3). Phi' is then a bijection of
// R onto R (the paper's remark after Theorem 1) and its inverse is computed by a safeguarded Newton
// iteration that converges monotonically from z = y/k. The convex conjugate
//   Phi*(y) = y z - Phi(z),  z = (Phi')^-1(y),     (Phi*)' = (Phi')^-1
// gives the exact work of the loading along the sliding branches of the play operator.
//
// Loadings l(t) (units: N, the force conjugate to z):
//   piecewise_linear  through (t_i, l_i), extended with the end slopes (a 2-point table is a ramp)
//   sine              mean + amplitude sin(2 pi t / period + phase)
//   custom            user value and rate functions; turning points found on a grid of `resolution`
// Each reports its turning points (local extrema, kinks) inside an interval: between two of them
// l is monotone, which makes the play operator of the limit system exact (limit_system.hpp).
//
// | key      | meaning                               | unit  | range  |
// |----------|---------------------------------------|-------|--------|
// | k        | quadratic coefficient of Phi          | N/m   | > 0    |
// | c4       | quartic coefficient of Phi            | N/m^3 | >= 0   |
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/core/schema.hpp"

namespace bristle::directional {

struct ConvexParams {
  double k = 1.0;   // N/m
  double c4 = 0.0;  // N/m^3

  /// Throws InvalidInput naming `prefix`.k / `prefix`.c4 when Phi would not be uniformly convex.
  void validate(std::string_view prefix = "phi") const;
};

/// The schema of ConvexParams (core/schema.hpp): the coefficients of Phi (paper 2, eq. 2.1).
template <class Archive, schema::Of<ConvexParams> Self>
void serialize(Archive& a, Self& p) {
  a.number(p.k, {.key = "k", .unit = "N/m", .default_value = "1", .range = schema::positive(),
                 .doc = "quadratic coefficient of Phi = k/2 z^2 + c4/4 z^4", .equation = "paper 2, eq. 2.1",
                 .log_scale = true});
  a.number(p.c4, {.key = "c4", .unit = "N/m^3", .default_value = "0", .range = schema::non_negative(),
                  .doc = "quartic coefficient of Phi", .equation = "paper 2, eq. 2.1"});
}

/// Phi(z) = k/2 z^2 + c4/4 z^4, uniformly convex (eq. 2.1; eq. 3.3 with c4 = 0).
class ConvexEnergy {
 public:
  explicit ConvexEnergy(ConvexParams params = {}, std::string_view prefix = "phi");
  double value(double z) const;       // Phi(z)
  double d1(double z) const;          // Phi'(z)
  double d2(double z) const;          // Phi''(z)
  double d1_inverse(double y) const;  // (Phi')^-1(y)
  double conjugate(double y) const;   // Phi*(y) = sup_z (y z - Phi(z))
  double convexity() const { return params_.k; }  // phi: Phi'' >= phi
  const ConvexParams& params() const { return params_; }

 private:
  ConvexParams params_;
};

/// The loading l(t) (eq. 2.1), immutable and cheap to copy.
class Loading {
 public:
  /// l(t) through the points (t_i, l_i), t strictly increasing, linearly extended beyond the ends.
  static Loading piecewise_linear(std::vector<double> t, std::vector<double> value, std::string_view key = "loading");
  /// l(t) = l0 + rate t.
  static Loading ramp(double l0, double rate);
  /// l(t) = mean + amplitude sin(2 pi t / period + phase).
  static Loading sine(double mean, double amplitude, double period, double phase = 0.0,
                      std::string_view key = "loading");
  /// A triangle wave: start at `start`, go to start + amplitude, then back and forth between
  /// start +- amplitude at constant speed, `cycles` full cycles of `period`, then hold (extended flat).
  static Loading triangle(double start, double amplitude, double period, double cycles,
                          std::string_view key = "loading");
  /// User functions; monotonicity changes are located as sign changes of `rate` on a grid of step
  /// `resolution` (refined by bisection), so extrema closer together than `resolution` may be missed.
  static Loading custom(std::function<double(double)> value, std::function<double(double)> rate,
                        double resolution, std::string_view key = "loading");

  double value(double t) const;
  /// dl/dt (the right derivative at kinks).
  double rate(double t) const;
  /// The times in the open interval (t0, t1) at which l may change monotonicity (extrema and kinks),
  /// increasing. Between consecutive ones (and t0, t1) l is monotone.
  std::vector<double> turning_points(double t0, double t1) const;
  /// The times where dl/dt jumps (vertices of a piecewise-linear loading); empty for smooth ones.
  std::vector<double> kinks() const;
  /// scale * l(t) + offset.
  Loading affine(double scale, double offset) const;

  /// How the loading was made, enough to make it again (pickling): `kind` names the factory
  /// ("piecewise_linear", "ramp", "sine", "triangle", "custom" or "affine"), `numbers` are its numeric
  /// arguments in order (ramp: l0, rate; sine: mean, amplitude, period, phase; triangle: start, amplitude,
  /// period, cycles; custom: resolution; affine: scale, offset), `t` and `value` the table (piecewise_linear),
  /// `value_fn` and `rate_fn` the functions (custom), `base` the loading affine() was called on.
  struct Recipe {
    std::string kind{};
    std::vector<double> numbers{}, t{}, value{};
    std::function<double(double)> value_fn{}, rate_fn{};
    std::shared_ptr<const Loading> base{};
  };
  const Recipe& recipe() const { return *recipe_; }

  struct Impl;

 private:
  Loading(std::shared_ptr<const Impl> impl, Recipe recipe)
      : impl_(std::move(impl)), recipe_(std::make_shared<const Recipe>(std::move(recipe))) {}
  std::shared_ptr<const Impl> impl_;
  std::shared_ptr<const Recipe> recipe_;
};

}  // namespace bristle::directional
