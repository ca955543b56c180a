// Surface profiles w (paper 2, eqs. 3.4-3.5): evaluation, validation and the slope extrema omega_+-.
#include "bristle/directional/profile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>

#include "bristle/core/error.hpp"
#include "numerics.hpp"

namespace bristle::directional {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

constexpr std::array<std::pair<ProfileKind, std::string_view>, 4> kKindNames{{
    {ProfileKind::sine, "sine"},
    {ProfileKind::ratchet, "ratchet"},
    {ProfileKind::fourier, "fourier"},
    {ProfileKind::table, "table"},
}};

std::string join(std::string_view prefix, std::string_view key) {
  return prefix.empty() ? std::string(key) : fmt::format("{}.{}", prefix, key);
}

/// x reduced to [0, 1).
double frac(double x) {
  const double r = x - std::floor(x);
  return r >= 1.0 ? 0.0 : r;
}

/// A list as error messages quote it (at most 8 entries shown).
std::string format_list(const std::vector<double>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size() && i < 8; ++i) out += (i ? ", " : "") + format_value(values[i]);
  if (values.size() > 8) out += fmt::format(", ... ({} values)", values.size());
  return out + "]";
}

}  // namespace

// ---- Kind-specific evaluation ------------------------------------------------------------------

struct Profile::Impl {
  virtual ~Impl() = default;
  virtual double w(double x) const = 0;
  virtual double dw(double x) const = 0;
  virtual double d2w(double x) const = 0;
  /// Sample count that resolves every oscillation of w' (for the generic extremum search).
  virtual int samples() const = 0;
  /// {max w', min w'}; the default samples and refines.
  virtual std::pair<Extremum, Extremum> slope_extrema() const {
    return periodic_extrema([this](double x) { return dw(x); }, samples());
  }
};

namespace {

/// Fourier series sum_k a_k cos(2 pi k x) + b_k sin(2 pi k x), evaluated with the angle-addition
/// recurrence (one sincos per call).
struct FourierImpl final : Profile::Impl {
  std::vector<double> a, b;  // a[k-1], b[k-1], equal lengths
  FourierImpl(std::vector<double> cos_c, std::vector<double> sin_c) : a(std::move(cos_c)), b(std::move(sin_c)) {
    const std::size_t n = std::max(a.size(), b.size());
    a.resize(n, 0.0);
    b.resize(n, 0.0);
  }
  template <int Derivative>
  double eval(double x) const {
    const double theta = kTwoPi * frac(x);
    const double c1 = std::cos(theta), s1 = std::sin(theta);
    double ck = c1, sk = s1, sum = 0.0;
    for (std::size_t k = 1; k <= a.size(); ++k) {
      const double omega = kTwoPi * static_cast<double>(k);
      if constexpr (Derivative == 0) sum += a[k - 1] * ck + b[k - 1] * sk;
      if constexpr (Derivative == 1) sum += omega * (-a[k - 1] * sk + b[k - 1] * ck);
      if constexpr (Derivative == 2) sum -= omega * omega * (a[k - 1] * ck + b[k - 1] * sk);
      const double next_c = ck * c1 - sk * s1;
      sk = sk * c1 + ck * s1;
      ck = next_c;
    }
    return sum;
  }
  double w(double x) const override { return eval<0>(x); }
  double dw(double x) const override { return eval<1>(x); }
  double d2w(double x) const override { return eval<2>(x); }
  int samples() const override { return std::max(4096, 64 * static_cast<int>(a.size())); }
};

/// Periodic C^2 cubic spline through (x_i, y_i), i = 0..n, with x_0 = 0, x_n = 1 and y_n = y_0.
struct SplineImpl final : Profile::Impl {
  std::vector<double> x, y, m;  // knots, values, second derivatives (m[n] = m[0])

  SplineImpl(std::vector<double> xs, std::vector<double> ys) : x(std::move(xs)), y(std::move(ys)) {
    const std::size_t n = x.size() - 1;  // intervals; the periodic unknowns are m_0..m_{n-1}
    y[n] = y[0];
    std::vector<double> lower(n), diag(n), upper(n), rhs(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t prev = (i + n - 1) % n;
      const double h_prev = x[prev + 1] - x[prev];
      const double h = x[i + 1] - x[i];
      const double y_prev = i == 0 ? y[n - 1] : y[i - 1];
      lower[i] = h_prev;
      diag[i] = 2.0 * (h_prev + h);
      upper[i] = h;
      rhs[i] = 6.0 * ((y[i + 1] - y[i]) / h - (y[i] - y_prev) / h_prev);
    }
    m = detail::solve_cyclic_tridiagonal(lower, diag, upper, rhs);
    m.push_back(m.front());
  }
  std::size_t interval(double xr) const {
    const auto it = std::upper_bound(x.begin(), x.end(), xr);
    const std::size_t i = it == x.begin() ? 0 : static_cast<std::size_t>(it - x.begin()) - 1;
    return std::min(i, x.size() - 2);
  }
  double w(double xq) const override {
    const double xr = frac(xq);
    const std::size_t i = interval(xr);
    const double h = x[i + 1] - x[i], l = x[i + 1] - xr, r = xr - x[i];
    return (m[i] * l * l * l + m[i + 1] * r * r * r) / (6.0 * h) + (y[i] - m[i] * h * h / 6.0) * l / h +
           (y[i + 1] - m[i + 1] * h * h / 6.0) * r / h;
  }
  double dw(double xq) const override {
    const double xr = frac(xq);
    const std::size_t i = interval(xr);
    return slope_in(i, xr);
  }
  double slope_in(std::size_t i, double xr) const {
    const double h = x[i + 1] - x[i], l = x[i + 1] - xr, r = xr - x[i];
    return (-m[i] * l * l + m[i + 1] * r * r) / (2.0 * h) + (y[i + 1] - y[i]) / h - (m[i + 1] - m[i]) * h / 6.0;
  }
  double d2w(double xq) const override {
    const double xr = frac(xq);
    const std::size_t i = interval(xr);
    const double h = x[i + 1] - x[i];
    return (m[i] * (x[i + 1] - xr) + m[i + 1] * (xr - x[i])) / h;
  }
  int samples() const override { return std::max(4096, 16 * static_cast<int>(x.size())); }
  /// Exact: w' is quadratic on each interval with its vertex where the linear w'' vanishes.
  std::pair<Extremum, Extremum> slope_extrema() const override {
    Extremum hi{-std::numeric_limits<double>::infinity(), 0.0}, lo{std::numeric_limits<double>::infinity(), 0.0};
    auto consider = [&](std::size_t i, double xr) {
      const double v = slope_in(i, xr);
      if (v > hi.value) hi = {v, xr};
      if (v < lo.value) lo = {v, xr};
    };
    for (std::size_t i = 0; i + 1 < x.size(); ++i) {
      consider(i, x[i]);
      consider(i, x[i + 1]);
      if ((m[i] > 0.0 && m[i + 1] < 0.0) || (m[i] < 0.0 && m[i + 1] > 0.0))
        consider(i, x[i] + (x[i + 1] - x[i]) * m[i] / (m[i] - m[i + 1]));
    }
    return {hi, lo};
  }
};

/// User functions (also used for the mirrored profile).
struct FunctionImpl final : Profile::Impl {
  std::function<double(double)> f, df, d2f;
  int n_samples;
  FunctionImpl(std::function<double(double)> w_, std::function<double(double)> dw_,
               std::function<double(double)> d2w_, int samples_)
      : f(std::move(w_)), df(std::move(dw_)), d2f(std::move(d2w_)), n_samples(samples_) {}
  double w(double x) const override { return f(x); }
  double dw(double x) const override { return df(x); }
  double d2w(double x) const override { return d2f(x); }
  int samples() const override { return n_samples; }
};

}  // namespace

// ---- Names and validation ----------------------------------------------------------------------

std::string_view to_string(ProfileKind kind) {
  for (const auto& [k, name] : kKindNames)
    if (k == kind) return name;
  return "unknown";
}

ProfileKind profile_kind_from_string(std::string_view key, std::string_view name) {
  std::vector<std::string> names;
  for (const auto& [k, n] : kKindNames) {
    if (n == name) return k;
    names.emplace_back(n);
  }
  const std::string near = nearest_word(name, names);
  throw InvalidInput(fmt::format("{} = \"{}\": unknown profile kind (valid: sine, ratchet, fourier, table){}", key,
                                 name, near.empty() ? "" : fmt::format("; did you mean \"{}\"?", near)));
}

void ProfileParams::validate(std::string_view prefix) const {
  switch (kind) {
    case ProfileKind::sine:
      require_positive(join(prefix, "amplitude"), amplitude);
      break;
    case ProfileKind::ratchet:
      require_positive(join(prefix, "amplitude"), amplitude);
      require_closed_interval(join(prefix, "asymmetry"), asymmetry, -0.25, 0.25);
      break;
    case ProfileKind::fourier: {
      // The extrema are sampled at 64 points per harmonic, each an O(n) sum: 10^4 harmonics took 34 s (helper-43),
      // the list limit of 10^5 about an hour.
      for (const auto& [key, list] : {std::pair{"cos", &cos_coefficients}, std::pair{"sin", &sin_coefficients}})
        if (list->size() > kMaxHarmonics)
          throw InvalidInput(fmt::format("{} has {} coefficients; at most {} harmonics (Limits in docs/scenarios.md)",
                                         join(prefix, key), list->size(), kMaxHarmonics));
      for (std::size_t i = 0; i < cos_coefficients.size(); ++i)
        require_finite(fmt::format("{}[{}]", join(prefix, "cos"), i), cos_coefficients[i]);
      for (std::size_t i = 0; i < sin_coefficients.size(); ++i)
        require_finite(fmt::format("{}[{}]", join(prefix, "sin"), i), sin_coefficients[i]);
      const auto nonzero = [](double v) { return v != 0.0; };
      if (std::none_of(cos_coefficients.begin(), cos_coefficients.end(), nonzero) &&
          std::none_of(sin_coefficients.begin(), sin_coefficients.end(), nonzero))
        throw InvalidInput(fmt::format(
            "{} = {}, {} = {}: every coefficient is zero, so the profile is constant; the surface must be a "
            "non-constant 1-periodic profile (eq. 3.5: omega_+ = max w' > 0 > omega_- = min w')",
            join(prefix, "cos"), format_list(cos_coefficients), join(prefix, "sin"), format_list(sin_coefficients)));
      break;
    }
    case ProfileKind::table: {
      const std::string kx = join(prefix, "x"), kw = join(prefix, "w");
      if (x.size() != w.size())
        throw InvalidInput(fmt::format("{} = {}: {} values for {} abscissae in {}; the lengths must be equal", kw,
                                       format_list(w), w.size(), x.size(), kx));
      if (x.size() < 4)
        throw InvalidInput(fmt::format("{} = {}: {} points; a periodic spline needs at least 4 (x_0 = 0 < ... < "
                                       "x_n = 1)",
                                       kx, format_list(x), x.size()));
      for (std::size_t i = 0; i < x.size(); ++i) {
        require_finite(fmt::format("{}[{}]", kx, i), x[i]);
        require_finite(fmt::format("{}[{}]", kw, i), w[i]);
      }
      if (x.front() != 0.0)
        throw InvalidInput(fmt::format("{}[0] = {}: must be 0 (the table spans one period, 0 <= x <= 1)", kx,
                                       format_value(x.front())));
      if (x.back() != 1.0)
        throw InvalidInput(fmt::format("{}[{}] = {}: must be 1 (the table spans one period, 0 <= x <= 1)", kx,
                                       x.size() - 1, format_value(x.back())));
      for (std::size_t i = 1; i < x.size(); ++i)
        if (!(x[i] > x[i - 1]))
          throw InvalidInput(fmt::format("{}[{}] = {}: must be > {}[{}] = {} (strictly increasing)", kx, i,
                                         format_value(x[i]), kx, i - 1, format_value(x[i - 1])));
      double scale = 0.0;
      for (const double v : w) scale = std::max(scale, std::abs(v));
      if (std::abs(w.back() - w.front()) > 1e-12 * scale)
        throw InvalidInput(fmt::format(
            "{}[{}] = {}: must equal {}[0] = {} (the profile is not periodic; it must be 1-periodic: w(1) = w(0))",
            kw, w.size() - 1, format_value(w.back()), kw, format_value(w.front())));
      if (std::all_of(w.begin(), w.end(), [&](double v) { return v == w.front(); }))
        throw InvalidInput(fmt::format("{} = {}: constant; the surface must be a non-constant 1-periodic profile "
                                       "(eq. 3.5: omega_+ = max w' > 0 > omega_- = min w')",
                                       kw, format_list(w)));
      break;
    }
  }
}

// ---- Extrema -----------------------------------------------------------------------------------

std::pair<Extremum, Extremum> periodic_extrema(const std::function<double(double)>& f, int samples) {
  const int n = std::max(samples, 8);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = f(static_cast<double>(i) / n);
  Extremum hi{-std::numeric_limits<double>::infinity(), 0.0}, lo{std::numeric_limits<double>::infinity(), 0.0};
  for (int i = 0; i < n; ++i) {
    const double prev = v[static_cast<std::size_t>((i + n - 1) % n)];
    const double here = v[static_cast<std::size_t>(i)];
    const double next = v[static_cast<std::size_t>((i + 1) % n)];
    const double a = static_cast<double>(i - 1) / n, b = static_cast<double>(i + 1) / n;
    if (here > prev && here >= next) {  // a sampled local maximum: refine in [x_{i-1}, x_{i+1}]
      const auto [x, value] = detail::brent_minimize([&](double s) { return -f(s); }, a, b);
      const Extremum e = -value >= here ? Extremum{-value, frac(x)} : Extremum{here, frac(static_cast<double>(i) / n)};
      if (e.value > hi.value) hi = e;
    }
    if (here < prev && here <= next) {
      const auto [x, value] = detail::brent_minimize(f, a, b);
      const Extremum e = value <= here ? Extremum{value, frac(x)} : Extremum{here, frac(static_cast<double>(i) / n)};
      if (e.value < lo.value) lo = e;
    }
  }
  if (!std::isfinite(hi.value)) {  // no strict local maximum sampled: a constant (or plateau) function
    hi = {*std::max_element(v.begin(), v.end()), 0.0};
    lo = {*std::min_element(v.begin(), v.end()), 0.0};
  }
  if (!std::isfinite(lo.value)) lo = {*std::min_element(v.begin(), v.end()), 0.0};
  return {hi, lo};
}

// ---- Profile -----------------------------------------------------------------------------------

namespace {

std::shared_ptr<const Profile::Impl> make_impl(const ProfileParams& p) {
  switch (p.kind) {
    case ProfileKind::sine:
      return std::make_shared<FourierImpl>(std::vector<double>{}, std::vector<double>{p.amplitude});
    case ProfileKind::ratchet:
      return std::make_shared<FourierImpl>(std::vector<double>{},
                                           std::vector<double>{p.amplitude, 0.5 * p.asymmetry * p.amplitude});
    case ProfileKind::fourier:
      return std::make_shared<FourierImpl>(p.cos_coefficients, p.sin_coefficients);
    case ProfileKind::table:
      return std::make_shared<SplineImpl>(p.x, p.w);
  }
  return nullptr;
}

std::string describe(const ProfileParams& p) {
  switch (p.kind) {
    case ProfileKind::sine:
      return fmt::format("sine, A = {}", format_value(p.amplitude));
    case ProfileKind::ratchet:
      return fmt::format("ratchet, A = {}, r = {}", format_value(p.amplitude), format_value(p.asymmetry));
    case ProfileKind::fourier:
      return fmt::format("fourier, {} harmonics", std::max(p.cos_coefficients.size(), p.sin_coefficients.size()));
    case ProfileKind::table:
      return fmt::format("table, periodic cubic spline through {} points", p.x.size());
  }
  return "";
}

const ProfileParams& validated(const ProfileParams& p, std::string_view prefix) {
  p.validate(prefix);
  return p;
}

}  // namespace

Profile::Profile(const ProfileParams& params, std::string_view prefix)
    : Profile(make_impl(validated(params, prefix)), describe(params), prefix) {
  recipe_ = std::make_shared<const Recipe>(Recipe{.params = params});
}

Profile::Profile(std::shared_ptr<const Impl> impl, std::string description, std::string_view key)
    : impl_(std::move(impl)), description_(std::move(description)) {
  std::tie(omega_plus_, omega_minus_) = impl_->slope_extrema();
  std::tie(w_max_, w_min_) = periodic_extrema([this](double x) { return impl_->w(x); }, impl_->samples());
  const double scale = std::max({1.0, std::abs(w_max_.value), std::abs(w_min_.value)});
  if (!std::isfinite(omega_plus_.value) || !std::isfinite(omega_minus_.value) || !std::isfinite(w_max_.value) ||
      !std::isfinite(w_min_.value))
    throw InvalidInput(fmt::format("{}: the profile or its slope is not finite on [0, 1]", key));
  if (!(omega_plus_.value - omega_minus_.value > 1e-12 * scale) || !(w_max_.value - w_min_.value > 1e-14 * scale))
    throw InvalidInput(fmt::format(
        "{} = {}: constant (max w' = {}, min w' = {}); the surface must be a non-constant 1-periodic profile "
        "(eq. 3.5: omega_+ = max w' > 0 > omega_- = min w')",
        key, description_, format_value(omega_plus_.value), format_value(omega_minus_.value)));
  // A non-constant periodic C^1 function has zero-mean slope, so these hold up to round-off.
  if (!(omega_plus_.value > 0.0) || !(omega_minus_.value < 0.0))
    throw InvalidInput(fmt::format(
        "{} = {}: omega_+ = {}, omega_- = {}: a 1-periodic profile has omega_+ > 0 > omega_- (eq. 3.5); w' "
        "is inconsistent with w",
        key, description_, format_value(omega_plus_.value), format_value(omega_minus_.value)));
}

Profile Profile::custom(std::function<double(double)> w, std::function<double(double)> dw,
                        std::function<double(double)> d2w, std::string_view key, int harmonics) {
  if (!w || !dw || !d2w) throw InvalidInput(fmt::format("{}: w, w' and w'' must all be given", key));
  if (harmonics < 1) throw InvalidInput(fmt::format("{}.harmonics = {}: must be >= 1", key, harmonics));
  const int samples = std::max(4096, 64 * harmonics);
  // Periodicity of w, w' and w'' (the profile must be 1-periodic and C^2 across x = 1).
  double scale = 0.0, scale1 = 0.0, scale2 = 0.0;
  for (int i = 0; i < samples; ++i) {
    const double x = static_cast<double>(i) / samples;
    scale = std::max(scale, std::abs(w(x)));
    scale1 = std::max(scale1, std::abs(dw(x)));
    scale2 = std::max(scale2, std::abs(d2w(x)));
  }
  for (int i = 0; i < samples; ++i) {
    const double x = static_cast<double>(i) / samples;
    const std::array<std::pair<double, double>, 3> pairs{
        {{w(x), w(x + 1.0)}, {dw(x), dw(x + 1.0)}, {d2w(x), d2w(x + 1.0)}}};
    const std::array<double, 3> scales{scale, scale1, scale2};
    const std::array<std::string_view, 3> names{"w", "w'", "w''"};
    for (std::size_t j = 0; j < 3; ++j) {
      const auto [a, b] = pairs[j];
      if (!std::isfinite(a) || !std::isfinite(b))
        throw InvalidInput(fmt::format("{}: {}({}) = {}: must be finite", key, names[j], format_value(x),
                                       format_value(std::isfinite(a) ? b : a)));
      if (std::abs(a - b) > 1e-9 * std::max(scales[j], 1e-300))
        throw InvalidInput(fmt::format(
            "{}: {}({}) = {} but {}({}) = {}: the profile is not periodic; it must be 1-periodic and C^2 "
            "(w(x + 1) = w(x))",
            key, names[j], format_value(x), format_value(a), names[j], format_value(x + 1.0), format_value(b)));
    }
  }
  auto impl = std::make_shared<FunctionImpl>(w, dw, d2w, samples);
  Profile out(std::move(impl), "custom", key);
  out.recipe_ = std::make_shared<const Recipe>(
      Recipe{.w = std::move(w), .dw = std::move(dw), .d2w = std::move(d2w), .harmonics = harmonics});
  return out;
}

double Profile::w(double x) const { return impl_->w(x); }
double Profile::dw(double x) const { return impl_->dw(x); }
double Profile::d2w(double x) const { return impl_->d2w(x); }
double Profile::sup_norm() const { return std::max(std::abs(w_max_.value), std::abs(w_min_.value)); }

Profile Profile::mirrored() const {
  auto base = impl_;
  auto impl = std::make_shared<FunctionImpl>([base](double x) { return base->w(-x); },
                                             [base](double x) { return -base->dw(-x); },
                                             [base](double x) { return base->d2w(-x); }, impl_->samples());
  Profile out(std::move(impl), fmt::format("mirrored ({})", description_), "profile");
  out.recipe_ = std::make_shared<const Recipe>(Recipe{.mirror_of = std::make_shared<const Profile>(*this)});
  return out;
}

}  // namespace bristle::directional
