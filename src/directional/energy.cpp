// Phi (uniformly convex, paper 2 eq. 2.1) and the loadings l(t).
#include "bristle/directional/energy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>

#include "bristle/core/error.hpp"
#include "bristle/core/interrupt.hpp"

namespace bristle::directional {

// ---- Phi ---------------------------------------------------------------------------------------

void ConvexParams::validate(std::string_view prefix) const {
  const std::string pk = prefix.empty() ? "k" : fmt::format("{}.k", prefix);
  const std::string pc = prefix.empty() ? "c4" : fmt::format("{}.c4", prefix);
  require_finite(pk, k);
  if (!(k > 0.0))
    throw InvalidInput(fmt::format("{} = {}: must be > 0 (Phi must be uniformly convex, Phi'' = k + 3 c4 z^2 >= k "
                                   "> 0; paper 2, eq. 2.1)",
                                   pk, format_value(k)));
  require_finite(pc, c4);
  if (!(c4 >= 0.0))
    throw InvalidInput(fmt::format("{} = {}: must be >= 0 (with c4 < 0, Phi'' = k + 3 c4 z^2 < 0 for z^2 > "
                                   "k/(3|c4|): Phi is not convex; paper 2, eq. 2.1)",
                                   pc, format_value(c4)));
}

ConvexEnergy::ConvexEnergy(ConvexParams params, std::string_view prefix) : params_(params) {
  params_.validate(prefix);
}

double ConvexEnergy::value(double z) const {
  const double z2 = z * z;
  return 0.5 * params_.k * z2 + 0.25 * params_.c4 * z2 * z2;
}
double ConvexEnergy::d1(double z) const { return params_.k * z + params_.c4 * z * z * z; }
double ConvexEnergy::d2(double z) const { return params_.k + 3.0 * params_.c4 * z * z; }

double ConvexEnergy::d1_inverse(double y) const {
  if (params_.c4 == 0.0) return y / params_.k;
  // k z + c4 z^3 = y: odd, increasing, convex for z > 0. Each term alone reaches |y| at or beyond the root,
  // so the residual is >= 0 at z0 = min(|y|/k, cbrt(|y|/c4)), and Newton from there decreases |z|
  // monotonically to the root; z0^3 stays finite (from |y|/k alone, z^3 overflowed for |y| ~ 1e150 and
  // took hundreds of steps down to cbrt(|y|/c4) for |y| ~ 1e100).
  const double s = y < 0.0 ? -1.0 : 1.0;
  const double target = std::abs(y);
  double z = std::min(target / params_.k, std::cbrt(target / params_.c4));
  for (int i = 0; i < 200; ++i) {
    const double f = params_.k * z + params_.c4 * z * z * z - target;
    const double next = z - f / (params_.k + 3.0 * params_.c4 * z * z);
    if (!(next < z) || next < 0.0) break;  // no more decrease: converged to round-off
    z = next;
  }
  return s * z;
}

double ConvexEnergy::conjugate(double y) const {
  const double z = d1_inverse(y);
  return y * z - value(z);
}

// ---- Loadings ----------------------------------------------------------------------------------

struct Loading::Impl {
  virtual ~Impl() = default;
  virtual double value(double t) const = 0;
  virtual double rate(double t) const = 0;
  virtual std::vector<double> turning_points(double t0, double t1) const = 0;
  virtual std::vector<double> kinks() const { return {}; }
};

namespace {

constexpr double kMaxTurningPoints = 1e7;  // a sine's extrema in one call (1e12 s of a 1 ms sine filled 6 GB)
constexpr double kMaxRateSamples = 1e8;    // a custom loading's rate samples in one call

struct PiecewiseLinear final : Loading::Impl {
  std::vector<double> t, v;
  bool extend_linear = true;  // else held constant beyond the ends
  std::size_t segment(double s) const {
    const auto it = std::upper_bound(t.begin(), t.end(), s);
    const std::size_t i = it == t.begin() ? 0 : static_cast<std::size_t>(it - t.begin()) - 1;
    return std::min(i, t.size() - 2);
  }
  double slope(std::size_t i) const { return (v[i + 1] - v[i]) / (t[i + 1] - t[i]); }
  double value(double s) const override {
    if (!extend_linear) {
      if (s <= t.front()) return v.front();
      if (s >= t.back()) return v.back();
    }
    const std::size_t i = segment(s);
    // Interpolate from the nearer end of the segment (exact at both vertices).
    const double to_end = t[i + 1] - s;
    return to_end < s - t[i] ? v[i + 1] - slope(i) * to_end : v[i] + slope(i) * (s - t[i]);
  }
  double rate(double s) const override {
    if (!extend_linear && (s < t.front() || s >= t.back())) return 0.0;
    return slope(segment(s));
  }
  std::vector<double> turning_points(double t0, double t1) const override {
    std::vector<double> out;
    for (const double s : t)
      if (s > t0 && s < t1) out.push_back(s);
    return out;
  }
  std::vector<double> kinks() const override {
    if (extend_linear) return {t.begin() + 1, t.end() - 1};
    return t;
  }
};

struct Sine final : Loading::Impl {
  double mean = 0.0, amplitude = 1.0, period = 1.0, phase = 0.0;
  double value(double s) const override {
    return mean + amplitude * std::sin(2.0 * std::numbers::pi * s / period + phase);
  }
  double rate(double s) const override {
    const double omega = 2.0 * std::numbers::pi / period;
    return amplitude * omega * std::cos(omega * s + phase);
  }
  std::vector<double> turning_points(double t0, double t1) const override {
    // Extrema where omega t + phase = pi/2 + j pi.
    std::vector<double> out;
    if (const double count = (t1 - t0) / (0.5 * period); count > kMaxTurningPoints)
      throw InvalidInput(fmt::format("turning_points: ({}, {}) s holds {} extrema of the sine (period {} s); at most {}",
                                     format_value(t0), format_value(t1), format_value(std::ceil(count)),
                                     format_value(period), format_value(kMaxTurningPoints)));
    const double omega = 2.0 * std::numbers::pi / period;
    const double j0 = std::ceil((omega * t0 + phase - 0.5 * std::numbers::pi) / std::numbers::pi);
    for (double j = j0;; j += 1.0) {
      const double s = (0.5 * std::numbers::pi + j * std::numbers::pi - phase) / omega;
      if (s >= t1) break;
      if (s > t0) out.push_back(s);
    }
    return out;
  }
};

struct Custom final : Loading::Impl {
  std::function<double(double)> f, df;
  double resolution = 1e-3;
  double value(double s) const override { return f(s); }
  double rate(double s) const override { return df(s); }
  std::vector<double> turning_points(double t0, double t1) const override {
    std::vector<double> out;
    const double samples = std::ceil((t1 - t0) / resolution);
    if (samples > kMaxRateSamples)  // 1e12 calls of a Python rate took days
      throw InvalidInput(fmt::format("turning_points: ({}, {}) s at the resolution {} s takes {} samples of the rate; "
                                     "at most {} (a coarser resolution or a shorter span)",
                                     format_value(t0), format_value(t1), format_value(resolution),
                                     format_value(samples), format_value(kMaxRateSamples)));
    const auto n = static_cast<long>(samples);
    double a = t0, ra = df(t0);
    for (long i = 1; i <= n; ++i) {
      poll_interrupt();
      const double b = i == n ? t1 : t0 + (t1 - t0) * static_cast<double>(i) / static_cast<double>(n);
      const double rb = df(b);
      if ((ra > 0.0 && rb <= 0.0) || (ra < 0.0 && rb >= 0.0)) {
        double lo = a, hi = b;  // bisection to the last representable bracket
        const bool rising = ra > 0.0;
        while (true) {
          const double mid = 0.5 * (lo + hi);
          if (!(mid > lo && mid < hi)) break;
          if ((df(mid) > 0.0) == rising) lo = mid; else hi = mid;
        }
        if (hi > t0 && hi < t1) out.push_back(hi);
      }
      a = b;
      ra = rb;
    }
    return out;
  }
};

struct Affine final : Loading::Impl {
  std::shared_ptr<const Loading::Impl> base;
  double scale = 1.0, offset = 0.0;
  double value(double s) const override { return scale * base->value(s) + offset; }
  double rate(double s) const override { return scale * base->rate(s); }
  std::vector<double> turning_points(double t0, double t1) const override { return base->turning_points(t0, t1); }
  std::vector<double> kinks() const override { return base->kinks(); }
};

void check_table(std::string_view key, const std::vector<double>& t, const std::vector<double>& v) {
  if (t.size() != v.size())
    throw InvalidInput(fmt::format("{}.values: {} values for {} times in {}.times; the lengths must be equal", key,
                                   v.size(), t.size(), key));
  if (t.size() < 2)
    throw InvalidInput(fmt::format("{}.times: {} point(s); a piecewise-linear loading needs at least 2", key, t.size()));
  for (std::size_t i = 0; i < t.size(); ++i) {
    require_finite(fmt::format("{}.times[{}]", key, i), t[i]);
    require_finite(fmt::format("{}.values[{}]", key, i), v[i]);
    if (i > 0 && !(t[i] > t[i - 1]))
      throw InvalidInput(fmt::format("{}.times[{}] = {}: must be > {}.times[{}] = {} (strictly increasing)", key, i,
                                     format_value(t[i]), key, i - 1, format_value(t[i - 1])));
  }
}

}  // namespace

Loading Loading::piecewise_linear(std::vector<double> t, std::vector<double> value, std::string_view key) {
  check_table(key, t, value);
  auto impl = std::make_shared<PiecewiseLinear>();
  impl->t = t;
  impl->v = value;
  return Loading(std::move(impl), Recipe{.kind = "piecewise_linear", .t = std::move(t), .value = std::move(value)});
}

Loading Loading::ramp(double l0, double rate) {
  require_finite("loading.l0", l0);
  require_finite("loading.rate", rate);
  Loading l = piecewise_linear({0.0, 1.0}, {l0, l0 + rate});  // checks l0 + rate too
  l.recipe_ = std::make_shared<const Recipe>(Recipe{.kind = "ramp", .numbers = {l0, rate}});
  return l;
}

Loading Loading::sine(double mean, double amplitude, double period, double phase, std::string_view key) {
  require_finite(fmt::format("{}.mean", key), mean);
  require_finite(fmt::format("{}.amplitude", key), amplitude);
  require_positive(fmt::format("{}.period", key), period);
  require_finite(fmt::format("{}.phase", key), phase);
  auto impl = std::make_shared<Sine>();
  impl->mean = mean;
  impl->amplitude = amplitude;
  impl->period = period;
  impl->phase = phase;
  return Loading(std::move(impl), Recipe{.kind = "sine", .numbers = {mean, amplitude, period, phase}});
}

Loading Loading::triangle(double start, double amplitude, double period, double cycles, std::string_view key) {
  require_finite(fmt::format("{}.start", key), start);
  require_positive(fmt::format("{}.amplitude", key), amplitude);
  require_positive(fmt::format("{}.period", key), period);
  require_positive(fmt::format("{}.cycles", key), cycles);
  constexpr double kMaxCycles = 1e6;  // two vertices each: cycles = 1e300 looped until memory ran out
  if (cycles > kMaxCycles)
    throw InvalidInput(fmt::format("{}.cycles = {}: at most {}", key, format_value(cycles), format_value(kMaxCycles)));
  // Vertices at t = T/4 + j T/2 alternate between start + A and start - A.
  std::vector<double> t{0.0}, v{start};
  const double t_end = cycles * period;
  for (int j = 0;; ++j) {
    const double s = period * (0.25 + 0.5 * j);
    if (s >= t_end) break;
    t.push_back(s);
    v.push_back(start + (j % 2 == 0 ? amplitude : -amplitude));
  }
  const double last_slope = (t.size() % 2 == 0 ? -1.0 : 1.0) * 4.0 * amplitude / period;
  v.push_back(v.back() + last_slope * (t_end - t.back()));
  t.push_back(t_end);
  auto impl = std::make_shared<PiecewiseLinear>();
  impl->t = std::move(t);
  impl->v = std::move(v);
  impl->extend_linear = false;
  return Loading(std::move(impl), Recipe{.kind = "triangle", .numbers = {start, amplitude, period, cycles}});
}

Loading Loading::custom(std::function<double(double)> value, std::function<double(double)> rate, double resolution,
                        std::string_view key) {
  if (!value || !rate) throw InvalidInput(fmt::format("{}: value and rate functions must both be given", key));
  require_positive(fmt::format("{}.resolution", key), resolution);
  auto impl = std::make_shared<Custom>();
  impl->f = value;
  impl->df = rate;
  impl->resolution = resolution;
  return Loading(std::move(impl),
                 Recipe{.kind = "custom", .numbers = {resolution}, .value_fn = std::move(value), .rate_fn = std::move(rate)});
}

double Loading::value(double t) const { return impl_->value(t); }
double Loading::rate(double t) const { return impl_->rate(t); }
std::vector<double> Loading::turning_points(double t0, double t1) const {
  require_finite("turning_points.t0", t0);  // a NaN end looped for ever, an infinite one until memory ran out
  require_finite("turning_points.t1", t1);
  return impl_->turning_points(t0, t1);
}
std::vector<double> Loading::kinks() const { return impl_->kinks(); }

Loading Loading::affine(double scale, double offset) const {
  require_finite("loading.scale", scale);
  require_finite("loading.offset", offset);
  auto impl = std::make_shared<Affine>();
  impl->base = impl_;
  impl->scale = scale;
  impl->offset = offset;
  return Loading(std::move(impl), Recipe{.kind = "affine", .numbers = {scale, offset},
                                         .base = std::make_shared<const Loading>(*this)});
}

}  // namespace bristle::directional
