// Bristle mechanisms (paper 2, §3.1-3.3): geometry, exact wiggly energy, limit coefficients.
#include "bristle/directional/mechanism.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>

#include "bristle/core/error.hpp"
#include "numerics.hpp"
#include "validation.hpp"

namespace bristle::directional {

namespace {

constexpr double kHalfPi = 0.5 * std::numbers::pi;
constexpr double kInf = std::numeric_limits<double>::infinity();

constexpr std::array<std::pair<MechanismKind, std::string_view>, 3> kKindNames{{
    {MechanismKind::vertical, "vertical"},
    {MechanismKind::slanted, "slanted"},
    {MechanismKind::angular, "angular"},
}};

std::string join(std::string_view prefix, std::string_view key) {
  return prefix.empty() ? std::string(key) : fmt::format("{}.{}", prefix, key);
}

/// Solves P + shift(P) = r for P in [r + lo, r + hi], where shift(P) in [-hi, -lo] for every P and
/// P + shift(P) is increasing. `f_df(P)` returns {shift(P), d shift / dP}.
double invert(double r, double lo, double hi, const std::function<std::pair<double, double>(double)>& shift) {
  if (hi - lo <= 0.0) return r + lo;
  const double margin = 1e-12 * (1.0 + std::abs(r) + std::abs(lo) + std::abs(hi));
  double P = r + 0.5 * (lo + hi);
  const bool ok = detail::newton_bracketed(
      [&](double q) {
        const auto [s, ds] = shift(q);
        return std::pair<double, double>{q + s - r, 1.0 + ds};
      },
      r + lo - margin, r + hi + margin, P);
  if (!ok)  // cannot happen for a validated geometry (the bracket is exact); keep it loud
    throw SolverError(fmt::format("directional: geometric inversion failed at Z = {} (bracket [{}, {}])",
                                  format_value(r), format_value(r + lo), format_value(r + hi)));
  return P;
}

}  // namespace

std::string_view to_string(MechanismKind kind) {
  for (const auto& [k, name] : kKindNames)
    if (k == kind) return name;
  return "unknown";
}

MechanismKind mechanism_kind_from_string(std::string_view key, std::string_view name) {
  std::vector<std::string> names;
  for (const auto& [k, n] : kKindNames) {
    if (n == name) return k;
    names.emplace_back(n);
  }
  const std::string near = nearest_word(name, names);
  throw InvalidInput(fmt::format("{} = \"{}\": unknown mechanism (valid: vertical, slanted, angular){}", key, name,
                                 near.empty() ? "" : fmt::format("; did you mean \"{}\"?", near)));
}

// ---- Validation --------------------------------------------------------------------------------

void MechanismParams::validate(std::string_view prefix) const {
  require_positive(join(prefix, "k"), k);
  require_positive(join(prefix, "height_m"), height_m);
  switch (kind) {
    case MechanismKind::vertical:
      require_positive(join(prefix, "rest_length_m"), rest_length_m);
      if (rest_length_m == height_m)
        throw InvalidInput(fmt::format("{} = {}: must differ from {} = {} (alpha = k (L_rest - h) must be non-zero; "
                                       "paper 2, eq. 2.13)",
                                       join(prefix, "rest_length_m"), format_value(rest_length_m),
                                       join(prefix, "height_m"), format_value(height_m)));
      break;
    case MechanismKind::slanted: {
      require_finite(join(prefix, "theta_rad"), theta_rad);
      if (!(theta_rad >= 0.0 && theta_rad < kHalfPi))
        throw InvalidInput(fmt::format("{} = {}: must lie in [0, {}) (the spring's fixed angle from the vertical; "
                                       "0 is the vertical spring; paper 2, §3.2)",
                                       join(prefix, "theta_rad"), format_value(theta_rad), format_value(kHalfPi)));
      require_positive(join(prefix, "rest_length_m"), rest_length_m);
      const double flat_length = height_m / std::cos(theta_rad);
      if (rest_length_m == flat_length)
        throw InvalidInput(fmt::format("{} = {}: must differ from h/cos(theta) = {} (alpha = k/cos(theta) (L_rest - "
                                       "h/cos(theta)) must be non-zero; paper 2, eqs. 3.11 and 2.13)",
                                       join(prefix, "rest_length_m"), format_value(rest_length_m),
                                       format_value(flat_length)));
      break;
    }
    case MechanismKind::angular: {
      require_finite(join(prefix, "length_m"), length_m);
      if (!(length_m > height_m))
        throw InvalidInput(fmt::format("{} = {}: must be > {} = {} (the rod must reach the surface, L > h; paper 2, "
                                       "eq. 3.15)",
                                       join(prefix, "length_m"), format_value(length_m), join(prefix, "height_m"),
                                       format_value(height_m)));
      const double theta_lim = std::acos(height_m / length_m);
      require_finite(join(prefix, "theta_rest_rad"), theta_rest_rad);
      if (!(theta_rest_rad > -kHalfPi && theta_rest_rad < theta_lim))
        throw InvalidInput(fmt::format("{} = {}: must lie in ({}, {}) (paper 2, eq. 3.16: -pi/2 < theta_rest < "
                                       "theta_lim = arccos(h/L))",
                                       join(prefix, "theta_rest_rad"), format_value(theta_rest_rad),
                                       format_value(-kHalfPi), format_value(theta_lim)));
      break;
    }
  }
}

std::pair<double, double> admissible_angles(MechanismKind kind, double omega_plus, double omega_minus) {
  if (kind == MechanismKind::slanted) return {0.0, std::atan(1.0 / omega_plus)};  // eq. 3.9
  return {std::atan(-omega_minus), std::atan(1.0 / omega_plus)};                   // eq. 3.17
}

std::pair<double, double> lemma3(double omega_plus, double omega_minus, double a, std::string_view key) {
  // Lemma 3 needs omega_-^-1 < -a < omega_+^-1, i.e. 1 + a omega_+ > 0 and 1 + a omega_- > 0.
  if (!(1.0 + a * omega_plus > 0.0) || !(1.0 + a * omega_minus > 0.0))
    throw InvalidInput(fmt::format("{} = {}: must satisfy 1/omega_- < -a < 1/omega_+ (Lemma 3, paper 2), with "
                                   "omega_+ = {}, omega_- = {}",
                                   key, format_value(a), format_value(omega_plus), format_value(omega_minus)));
  return {omega_plus / (1.0 + a * omega_plus), omega_minus / (1.0 + a * omega_minus)};  // eq. 3.12
}

std::pair<double, double> lemma2_thresholds(double alpha, double mu_plus, double mu_minus) {
  // Eq. 2.17 with W = alpha Wcal: max W' and min W' (the alpha < 0 case swaps mu_+ and mu_-; the printed
  // minus sign there is a typo, see mechanism.hpp).
  if (alpha > 0.0) return {alpha * mu_plus, alpha * mu_minus};
  return {alpha * mu_minus, alpha * mu_plus};
}

// ---- Mechanism ---------------------------------------------------------------------------------

Mechanism::Mechanism(MechanismParams params, Profile profile, std::string_view prefix)
    : params_(params), profile_(std::move(profile)) {
  params_.validate(prefix);
  const double omega_plus = profile_.omega_plus(), omega_minus = profile_.omega_minus();
  if (params_.kind == MechanismKind::slanted) {
    const double cot = 1.0 / std::tan(params_.theta_rad);
    if (!(omega_plus < cot))
      throw InvalidInput(fmt::format("{} = {}: must satisfy omega_+ < cot(theta) (paper 2, eq. 3.9), but omega_+ = "
                                     "{} >= cot(theta) = {}; the tip position would not be a one-to-one function "
                                     "of u",
                                     join(prefix, "theta_rad"), format_value(params_.theta_rad),
                                     format_value(omega_plus), format_value(cot)));
  }
  if (params_.kind == MechanismKind::angular) {
    const double theta_lim = std::acos(params_.height_m / params_.length_m);
    const double cot = 1.0 / std::tan(theta_lim);
    const std::string key = fmt::format("theta_lim = arccos({}/{})", join(prefix, "height_m"), join(prefix, "length_m"));
    if (!(omega_plus < cot))
      throw InvalidInput(fmt::format("{} = {}: must satisfy omega_+ < cot(theta_lim) (paper 2, eq. 3.17), but "
                                     "omega_+ = {} >= cot(theta_lim) = {}; the rod would touch the surface "
                                     "elsewhere than at its tip",
                                     key, format_value(theta_lim), format_value(omega_plus), format_value(cot)));
    if (!(omega_minus > -std::tan(theta_lim)))
      throw InvalidInput(fmt::format("{} = {}: must satisfy -tan(theta_lim) < omega_- (paper 2, eq. 3.17), but "
                                     "omega_- = {} <= -tan(theta_lim) = {}; the tip would jump when u moves",
                                     key, format_value(theta_lim), format_value(omega_minus),
                                     format_value(-std::tan(theta_lim))));
  }
  limit_.alpha = dF(0.0);
  limit_.a = dc(0.0);
  std::tie(limit_.mu_plus, limit_.mu_minus) = lemma3(omega_plus, omega_minus, limit_.a, join(prefix, "a"));
  std::tie(limit_.rho_plus, limit_.rho_minus) = lemma2_thresholds(limit_.alpha, limit_.mu_plus, limit_.mu_minus);

  // The largest eps for which the finite-eps geometry holds (monotone in eps): double, then bisect.
  double good = 0.0, bad = 1e-3;
  if (geometry_valid(bad)) {
    while (geometry_valid(bad) && bad < 1e12) {
      good = bad;
      bad *= 2.0;
    }
  } else {
    // Below 1e-3 by factors of 1e3 (the bisection from 0 resolves only 1e-3 2^-200 ~ 6e-64: a height of 1e-200 m
    // was reported as "must be < 0").
    double lo = 1e-6;
    while (lo > 1e-300 && !geometry_valid(lo)) lo *= 1e-3;
    if (geometry_valid(lo)) {
      good = lo;
      bad = 1e3 * lo;
    } else {
      bad = lo;
    }
  }
  if (geometry_valid(bad)) {
    epsilon_max_ = kInf;
  } else {
    for (int i = 0; i < 200 && bad - good > 1e-15 * bad; ++i) {
      const double mid = 0.5 * (good + bad);
      (geometry_valid(mid) ? good : bad) = mid;
    }
    epsilon_max_ = good;
  }
}

double Mechanism::F(double y) const {
  const auto& p = params_;
  switch (p.kind) {
    case MechanismKind::vertical: {
      const double s = p.rest_length_m - p.height_m + y;
      return 0.5 * p.k * s * s;  // §3.1
    }
    case MechanismKind::slanted: {
      const double s = p.rest_length_m - (p.height_m - y) / std::cos(p.theta_rad);
      return 0.5 * p.k * s * s;  // §3.2, after eq. 3.10
    }
    case MechanismKind::angular: {
      const double s = std::acos((p.height_m - y) / p.length_m) - p.theta_rest_rad;
      return 0.5 * p.k * s * s;  // §3.3, after eq. 3.22
    }
  }
  return 0.0;
}

double Mechanism::dF(double y) const {
  const auto& p = params_;
  switch (p.kind) {
    case MechanismKind::vertical:
      return p.k * (p.rest_length_m - p.height_m + y);
    case MechanismKind::slanted: {
      const double cos_t = std::cos(p.theta_rad);
      return p.k * (p.rest_length_m - (p.height_m - y) / cos_t) / cos_t;
    }
    case MechanismKind::angular: {
      const double d = p.height_m - y;
      const double S = (p.length_m - d) * (p.length_m + d);  // L^2 - (h - y)^2
      return p.k * (std::acos(d / p.length_m) - p.theta_rest_rad) / std::sqrt(S);
    }
  }
  return 0.0;
}

double Mechanism::d2F(double y) const {
  const auto& p = params_;
  switch (p.kind) {
    case MechanismKind::vertical:
      return p.k;
    case MechanismKind::slanted: {
      const double cos_t = std::cos(p.theta_rad);
      return p.k / (cos_t * cos_t);
    }
    case MechanismKind::angular: {
      const double d = p.height_m - y;
      const double S = (p.length_m - d) * (p.length_m + d);
      return p.k / S - p.k * (std::acos(d / p.length_m) - p.theta_rest_rad) * d / (S * std::sqrt(S));
    }
  }
  return 0.0;
}

double Mechanism::c(double y) const {
  const auto& p = params_;
  switch (p.kind) {
    case MechanismKind::vertical:
      return 0.0;
    case MechanismKind::slanted:
      return -y * std::tan(p.theta_rad);  // eq. 3.8
    case MechanismKind::angular: {
      // A(y) = sqrt(L^2 - (h-y)^2) - sqrt(L^2 - h^2) = y (2h - y) / (sqrt(S) + sqrt(S0))   eq. 3.21
      const double d = p.height_m - y;
      const double S = (p.length_m - d) * (p.length_m + d);
      const double S0 = (p.length_m - p.height_m) * (p.length_m + p.height_m);
      return y * (2.0 * p.height_m - y) / (std::sqrt(S) + std::sqrt(S0));
    }
  }
  return 0.0;
}

double Mechanism::dc(double y) const {
  const auto& p = params_;
  switch (p.kind) {
    case MechanismKind::vertical:
      return 0.0;
    case MechanismKind::slanted:
      return -std::tan(p.theta_rad);
    case MechanismKind::angular: {
      const double d = p.height_m - y;
      return d / std::sqrt((p.length_m - d) * (p.length_m + d));  // A'(y) = cot(theta(y))
    }
  }
  return 0.0;
}

double Mechanism::d2c(double y) const {
  const auto& p = params_;
  if (p.kind != MechanismKind::angular) return 0.0;
  const double d = p.height_m - y;
  const double S = (p.length_m - d) * (p.length_m + d);
  return -p.length_m * p.length_m / (S * std::sqrt(S));  // A''(y) = -L^2 / S^(3/2)
}

double Mechanism::gap() const {
  const auto& p = params_;
  switch (p.kind) {
    case MechanismKind::vertical:
      return 0.0;
    case MechanismKind::slanted:
      return -p.height_m * std::tan(p.theta_rad);  // z = u - h tan(theta), §3.2
    case MechanismKind::angular:
      return -std::sqrt((p.length_m - p.height_m) * (p.length_m + p.height_m));  // eq. 3.20
  }
  return 0.0;
}

double Mechanism::angle(double y) const {
  switch (params_.kind) {
    case MechanismKind::vertical:
      return 0.0;
    case MechanismKind::slanted:
      return params_.theta_rad;
    case MechanismKind::angular:
      return std::acos((params_.height_m - y) / params_.length_m);  // eq. 3.19
  }
  return 0.0;
}

double Mechanism::theta_lim() const { return angle(0.0); }

bool Mechanism::geometry_valid(double epsilon, std::string* why) const {
  const auto& p = params_;
  const double y_hi = epsilon * profile_.w_max(), y_lo = epsilon * profile_.w_min();
  auto fail = [&](std::string reason) {
    if (why != nullptr) *why = std::move(reason);
    return false;
  };
  if (!(p.height_m - y_hi > 0.0))
    return fail(fmt::format("the highest surface point eps max w = {} m reaches the root height h = {} m",
                            format_value(y_hi), format_value(p.height_m)));
  if (p.kind == MechanismKind::angular) {
    if (!(p.length_m > p.height_m - y_lo))
      return fail(fmt::format("the rod (L = {} m) cannot reach the lowest surface point, h - eps min w = {} m",
                              format_value(p.length_m), format_value(p.height_m - y_lo)));
    const double cot_lo = dc(y_lo), cot_hi = dc(y_hi);  // cot(theta) is largest at the lowest tip
    if (!(1.0 + cot_lo * profile_.omega_minus() > 0.0))
      return fail(fmt::format("the tip would jump: 1 + cot(theta) omega_- = {} <= 0 at the lowest tip height (eq. 3.22)",
                              format_value(1.0 + cot_lo * profile_.omega_minus())));
    if (!(profile_.omega_plus() < cot_hi))
      return fail(fmt::format("the rod would touch the surface behind its tip: omega_+ = {} >= cot(theta) = {} at "
                              "the highest tip height (eq. 3.17)",
                              format_value(profile_.omega_plus()), format_value(cot_hi)));
  }
  return true;
}

// ---- Perceived profile (Lemma 3) ---------------------------------------------------------------

PerceivedProfile::PerceivedProfile(Profile profile, double a) : profile_(std::move(profile)), a_(a) {
  lemma3(profile_.omega_plus(), profile_.omega_minus(), a_);  // throws if g is not increasing
}

double PerceivedProfile::g_inverse(double Z) const {
  // g(P) = P + a w(P) = Z; P - Z = -a w(P) lies between -a max w and -a min w.
  const double n = std::floor(Z);
  const double r = Z - n;
  const double s1 = -a_ * profile_.w_max(), s2 = -a_ * profile_.w_min();
  const double P = invert(r, std::min(s1, s2), std::max(s1, s2), [this](double q) {
    return std::pair<double, double>{a_ * profile_.w(q), a_ * profile_.dw(q)};
  });
  return n + P;
}

double PerceivedProfile::W(double Z) const { return profile_.w(g_inverse(Z)); }

double PerceivedProfile::dW(double Z) const {
  const double slope = profile_.dw(g_inverse(Z));
  return slope / (1.0 + a_ * slope);  // eq. 3.13
}

// ---- Wiggly potential (eq. 2.16) ---------------------------------------------------------------

WigglyPotential::WigglyPotential(Mechanism mechanism, double epsilon, std::string_view key)
    : mechanism_(std::move(mechanism)), epsilon_(epsilon) {
  detail::require_epsilon(key, epsilon);
  std::string why;
  if (!mechanism_.geometry_valid(epsilon, &why))
    throw InvalidInput(fmt::format("{} = {}: too large for this mechanism and surface (must be < {}): {}", key,
                                   format_value(epsilon), format_value(mechanism_.epsilon_max()), why));
  F0_ = mechanism_.F(0.0);
  const auto& profile = mechanism_.profile();
  // -c(eps w)/eps over w in [min w, max w]; c is monotone in y, so the ends bound it.
  const double s1 = -mechanism_.c(epsilon * profile.w_max()) / epsilon;
  const double s2 = -mechanism_.c(epsilon * profile.w_min()) / epsilon;
  shift_lo_ = std::min(s1, s2);
  shift_hi_ = std::max(s1, s2);
}

WigglyPotential::Point WigglyPotential::at(double z) const {
  const auto& profile = mechanism_.profile();
  const double eps = epsilon_;
  // Scaled variables Z = z/eps, P = p/eps; by periodicity P(Z + 1) = P(Z) + 1, so invert on [0, 1).
  const double Z = z / eps;
  const double n = std::floor(Z);
  const double r = Z - n;
  const double P = invert(r, shift_lo_, shift_hi_, [&](double q) {
    const double y = eps * profile.w(q);
    return std::pair<double, double>{mechanism_.c(y) / eps, mechanism_.dc(y) * profile.dw(q)};
  });
  Point out;
  const double w1 = profile.dw(P), w2 = profile.d2w(P);
  out.p = eps * (n + P);
  out.y = eps * profile.w(P);
  const double c1 = mechanism_.dc(out.y), c2 = mechanism_.d2c(out.y);
  const double D = 1.0 + c1 * w1;  // dz/dp > 0 (eqs. 3.9, 3.22)
  out.dy = w1 / D;
  out.d2y = (w2 / eps - c2 * w1 * w1 * w1) / (D * D * D);
  const double F1 = mechanism_.dF(out.y);
  out.V = mechanism_.F(out.y) - F0_;  // eq. 2.16
  out.dV = F1 * out.dy;
  out.d2V = mechanism_.d2F(out.y) * out.dy * out.dy + F1 * out.d2y;
  return out;
}

}  // namespace bristle::directional
