#include "bristle/structures/kernels.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>

#include "bristle/core/error.hpp"
#include "bristle/core/interrupt.hpp"
#include "bristle/structures/mode_response.hpp"
#include "string_kernel.hpp"

namespace bristle::structures {

namespace {

constexpr double kPi = std::numbers::pi;

/// Neumaier-compensated sum.
struct Sum {
  double s = 0.0, c = 0.0;
  void add(double x) {
    const double t = s + x;
    if (std::abs(s) >= std::abs(x))
      c += (s - t) + x;
    else
      c += (x - t) + s;
    s = t;
  }
  double value() const { return s + c; }
};

void check_pair(const Structure& s, int i, int j) {
  if (i < 0 || i >= s.contact_count())
    throw InvalidInput(fmt::format("contact index i = {}: must lie in [0, {}]", i, s.contact_count() - 1));
  if (j < 0 || j >= s.contact_count())
    throw InvalidInput(fmt::format("contact index j = {}: must lie in [0, {}]", j, s.contact_count() - 1));
}

void check_taus(const std::vector<double>& tau, bool allow_zero) {
  for (std::size_t k = 0; k < tau.size(); ++k) {
    const std::string key = fmt::format("tau_s[{}]", k);
    if (allow_zero)
      require_non_negative(key, tau[k]);
    else
      require_positive(key, tau[k]);
  }
}

/// Which per-mode function a mode sum adds up.
enum class Term { h, h_dot, S0 };

double term_value(const ModeResponse& m, Term t, double tau) {
  switch (t) {
    case Term::h: return m.h(tau);
    case Term::h_dot: return m.h_dot(tau);
    case Term::S0: return m.S0(tau);
  }
  return 0.0;
}

/// Mode sums for the continua without closed forms (beams): chooses the number of modes per tau from
/// a rigorous tail bound and sums them.
class ModeSum {
 public:
  ModeSum(const Structure& s, int i, int j, Term term, const KernelOptions& options)
      : s_(s), i_(i), j_(j), term_(term), options_(options) {
    bound_ = s.mode_product_bound();
    damping_ = s.min_damping_ratio();
    sq_ = std::sqrt((1.0 - damping_) * (1.0 + damping_));
    const double w1 = s.frequency_lower_bound(1);
    switch (term) {
      case Term::h: scale_ = bound_ / w1; break;
      case Term::h_dot: scale_ = bound_; break;
      case Term::S0: scale_ = std::max(std::abs(s.static_compliance()(i, j)), bound_ / (w1 * w1)); break;
    }
  }

  /// Rigorous bound on sum_{k > K} |term_k(tau)|.
  double tail_bound(long K, double tau) const {
    if (s_.finite()) return 0.0;
    const double B = bound_;
    auto majorant = [&](double k) {
      const double w = s_.frequency_lower_bound(static_cast<long>(k));
      const double decay = std::exp(-damping_ * w * tau);
      switch (term_) {
        case Term::h: return B * decay / (w * sq_);
        case Term::h_dot: return B * decay / sq_;
        case Term::S0: return B * decay / (w * w * sq_);
      }
      return 0.0;
    };
    double geometric = std::numeric_limits<double>::infinity();
    if (damping_ > 0.0) {
      const double m1 = majorant(static_cast<double>(K + 1)), m2 = majorant(static_cast<double>(K + 2));
      const double r = m1 > 0.0 ? m2 / m1 : 0.0;  // successive ratios decrease (gaps of omega_low grow)
      geometric = r < 1.0 ? m1 / (1.0 - r) : std::numeric_limits<double>::infinity();
    }
    // Integral bound valid without damping: omega_low(x) = a (pi (x - 1/2) - 0.02)^2 / l^2 for beams.
    double algebraic = std::numeric_limits<double>::infinity();
    if (term_ != Term::h_dot && s_.kind() != StructureKind::taut_string) {
      const BeamParams& b = s_.beam_params();
      const double c = b.flexural_constant() / (b.length_m * b.length_m);
      const double d = (s_.kind() == StructureKind::cantilever) ? 0.5 * kPi + 0.02 : 0.0;
      const double x = kPi * static_cast<double>(K) - d;
      if (x > 0.0) {
        if (term_ == Term::h) algebraic = B / (sq_ * c * kPi * x);
        if (term_ == Term::S0) algebraic = B / (sq_ * 3.0 * c * c * kPi * x * x * x);
      }
    }
    return std::min(geometric, algebraic);
  }

  long modes_needed(double tau) const {
    if (s_.finite()) return s_.mode_count();
    const double tol = options_.relative_tolerance * scale_;
    long K = 64;
    while (K < options_.max_modes && tail_bound(K, tau) > tol) K *= 2;
    if (K >= options_.max_modes) return options_.max_modes;
    long lo = K / 2, hi = K;  // tail_bound(lo) > tol >= tail_bound(hi)
    if (lo < 1 || tail_bound(lo, tau) <= tol) return K;
    while (hi - lo > 1) {
      const long mid = lo + (hi - lo) / 2;
      if (tail_bound(mid, tau) > tol)
        lo = mid;
      else
        hi = mid;
    }
    return hi;
  }

  KernelSamples evaluate(const std::vector<double>& tau, const std::string& what) {
    KernelSamples out;
    out.tau_s = tau;
    std::vector<long> need(tau.size());
    long most = 0;
    for (std::size_t p = 0; p < tau.size(); ++p) {
      need[p] = modes_needed(tau[p]);
      most = std::max(most, need[p]);
    }
    if (most > Structure::kMaxModes)  // the table of modes below would take ~(16 + 8 M) bytes a mode
      throw InvalidInput(fmt::format("max_modes = {}: the tail bound asks for {} modes; at most {} at once",
                                     options_.max_modes, most, Structure::kMaxModes));
    const ModeTable table = s_.modes(most);
    std::vector<ModeResponse> modes;
    modes.reserve(static_cast<std::size_t>(most));
    for (long k = 0; k < most; ++k) modes.emplace_back(table.omega[k], table.damping[k]);
    for (std::size_t p = 0; p < tau.size(); ++p) {
      Sum sum;
      for (long k = 0; k < need[p]; ++k) {
        poll_interrupt();
        sum.add(table.values(k, i_) * table.values(k, j_) * term_value(modes[static_cast<std::size_t>(k)], term_, tau[p]));
      }
      out.value.push_back(sum.value());
      out.error_bound.push_back(tail_bound(need[p], tau[p]));
      out.modes.push_back(need[p]);
    }
    out.method = s_.finite() ? fmt::format("finite sum over the structure's {} modes ({})", s_.mode_count(), what)
                             : fmt::format("mode sum with rigorous tail bound ({}), at most {} modes", what,
                                           options_.max_modes);
    return out;
  }

 private:
  const Structure& s_;
  int i_, j_;
  Term term_;
  KernelOptions options_;
  double bound_ = 0.0, damping_ = 0.0, sq_ = 1.0, scale_ = 1.0;
};

KernelSamples string_samples(const Structure& s, int i, int j, const std::vector<double>& tau, Term term) {
  const auto& chi = s.contact_positions_m();
  const detail::StringKernel k(s.string_params(), chi[static_cast<std::size_t>(i)], chi[static_cast<std::size_t>(j)]);
  KernelSamples out;
  out.tau_s = tau;
  for (const double t : tau) {
    double v = 0.0, err = 0.0;
    switch (term) {
      case Term::h: v = k.L1(t); break;
      case Term::h_dot: v = k.K(t); break;
      case Term::S0: v = k.S(t, &err) - k.static_compliance(); break;
    }
    out.value.push_back(v);
    out.error_bound.push_back(err);
    out.modes.push_back(0);
  }
  out.method = k.damped() ? "closed form (taut string, damped: complex logarithms of the geometric mode series)"
                          : "closed form (taut string, undamped: sawtooth sum)";
  if (term == Term::S0 && k.damped()) out.method += "; S by adaptive Gauss-Kronrod quadrature of L1";
  return out;
}

}  // namespace

void KernelOptions::validate(std::string_view prefix) const {
  if (max_modes < 1)
    throw InvalidInput(fmt::format("{}.max_modes = {}: must be >= 1", prefix, max_modes));
  require_positive(fmt::format("{}.relative_tolerance", prefix), relative_tolerance);
}

void JumpDetectionOptions::validate(std::string_view prefix) const {
  if (modes < 16) throw InvalidInput(fmt::format("{}.modes = {}: must be >= 16", prefix, modes));
  require_open_interval(fmt::format("{}.relative_threshold", prefix), relative_threshold, 0.0, 1.0);
  require_open_interval(fmt::format("{}.consistency", prefix), consistency, 0.0, 1.0);
}

double KernelSamples::max_error_bound() const {
  double m = 0.0;
  for (const double e : error_bound) m = std::max(m, e);
  return m;
}

KernelSamples displacement_kernel(const Structure& s, int i, int j, const std::vector<double>& tau,
                                  const KernelOptions& options) {
  options.validate("kernel");
  check_pair(s, i, j);
  check_taus(tau, true);
  if (s.kind() == StructureKind::taut_string) return string_samples(s, i, j, tau, Term::h);
  KernelSamples out = ModeSum(s, i, j, Term::h, options).evaluate(tau, "L1");
  return out;
}

KernelSamples velocity_kernel(const Structure& s, int i, int j, const std::vector<double>& tau,
                              const KernelOptions& options) {
  options.validate("kernel");
  check_pair(s, i, j);
  check_taus(tau, false);
  if (s.kind() == StructureKind::taut_string) return string_samples(s, i, j, tau, Term::h_dot);
  if (!s.finite() && !(s.min_damping_ratio() > 0.0))
    throw InvalidInput(fmt::format(
        "structure.damping_ratio = 0: the velocity kernel of an undamped {} is not a function (its mode series "
        "diverges); give damping_ratio > 0",
        to_string(s.kind())));
  return ModeSum(s, i, j, Term::h_dot, options).evaluate(tau, "K");
}

KernelSamples step_response_oscillating(const Structure& s, int i, int j, const std::vector<double>& tau,
                                        const KernelOptions& options) {
  options.validate("kernel");
  check_pair(s, i, j);
  check_taus(tau, true);
  if (s.kind() == StructureKind::taut_string) return string_samples(s, i, j, tau, Term::S0);
  return ModeSum(s, i, j, Term::S0, options).evaluate(tau, "S0");
}

KernelSamples step_response(const Structure& s, int i, int j, const std::vector<double>& tau,
                            const KernelOptions& options) {
  KernelSamples out = step_response_oscillating(s, i, j, tau, options);
  const double g = s.static_compliance()(i, j);
  for (std::size_t p = 0; p < out.value.size(); ++p) {
    // S(0) = 0 exactly: G + S0(0) cancels to roundoff only.
    out.value[p] = tau[p] == 0.0 ? 0.0 : out.value[p] + g;
  }
  return out;
}

double right_limit(const Structure& s, int i, int j) {
  check_pair(s, i, j);
  if (s.kind() != StructureKind::taut_string) return 0.0;
  const auto& chi = s.contact_positions_m();
  return detail::StringKernel(s.string_params(), chi[static_cast<std::size_t>(i)], chi[static_cast<std::size_t>(j)])
      .right_limit();
}

double sqrt_law_coefficient(const Structure& s, int i) {
  check_pair(s, i, i);
  if (s.kind() != StructureKind::cantilever && s.kind() != StructureKind::simply_supported_beam)
    throw InvalidInput(fmt::format("structure.type = \"{}\": the sqrt(tau) law holds for beams only", to_string(s.kind())));
  const BeamParams& b = s.beam_params();
  const double chi = s.contact_positions_m()[static_cast<std::size_t>(i)];
  const double g = (s.kind() == StructureKind::cantilever && chi == b.length_m) ? 4.0 : 1.0;
  return g / (b.mass_per_length_kg_per_m * std::sqrt(2.0 * kPi * b.flexural_constant() * (1.0 + b.damping_ratio)));
}

std::vector<double> truncated_kernel(const Structure& s, int i, int j, long n_modes, KernelQuantity quantity,
                                     const std::vector<double>& tau) {
  check_pair(s, i, j);
  const ModeTable t = s.modes(n_modes);
  std::vector<ModeResponse> modes;
  modes.reserve(static_cast<std::size_t>(t.size()));
  for (long k = 0; k < t.size(); ++k) modes.emplace_back(t.omega[k], t.damping[k]);
  std::vector<double> out(tau.size(), 0.0);
  for (std::size_t p = 0; p < tau.size(); ++p) {
    Sum sum;
    for (long k = 0; k < t.size(); ++k) {
      poll_interrupt();
      const ModeResponse& m = modes[static_cast<std::size_t>(k)];
      const double w = t.values(k, i) * t.values(k, j);
      switch (quantity) {
        case KernelQuantity::displacement: sum.add(w * m.h(tau[p])); break;
        case KernelQuantity::velocity: sum.add(w * m.h_dot(tau[p])); break;
        case KernelQuantity::step: sum.add(w * m.S(tau[p])); break;
      }
    }
    out[p] = sum.value();
  }
  return out;
}

double kernel_jump_candidates(const Structure& s, double tau_max) {
  if (s.kind() != StructureKind::taut_string || s.string_params().damping_ratio > 0.0) return 0.0;
  const TautStringParams& p = s.string_params();
  return 4.0 * (std::floor(tau_max * p.wave_speed_m_per_s / (2.0 * p.length_m)) + 1.0);
}

std::vector<KernelJump> kernel_jumps(const Structure& s, int i, int j, double tau_max) {
  check_pair(s, i, j);
  require_positive("tau_max_s", tau_max);
  std::vector<KernelJump> out;
  if (s.kind() != StructureKind::taut_string || s.string_params().damping_ratio > 0.0) return out;
  if (const double n = kernel_jump_candidates(s, tau_max); !(n <= kMaxKernelJumps))
    throw InvalidInput(fmt::format("tau_max_s = {}: the undamped string's kernel has {} candidate jumps up to it (4 "
                                   "per round trip 2 l / c = {} s); at most {}",
                                   format_value(tau_max), format_value(n),
                                   format_value(2.0 * s.string_params().length_m / s.string_params().wave_speed_m_per_s),
                                   format_value(kMaxKernelJumps)));
  const TautStringParams& p = s.string_params();
  const double l = p.length_m, c = p.wave_speed_m_per_s;
  const double xi = s.contact_positions_m()[static_cast<std::size_t>(i)];
  const double xj = s.contact_positions_m()[static_cast<std::size_t>(j)];
  const double gain = 1.0 / (2.0 * p.density_kg_per_m * c);
  const double d = std::abs(xi - xj), e = xi + xj;
  std::vector<KernelJump> raw;
  for (long n = 0;; ++n) {
    const double base = 2.0 * static_cast<double>(n) * l;
    if (base / c > tau_max) break;
    raw.push_back({(base + d) / c, gain});
    raw.push_back({(base + 2.0 * l - d) / c, gain});
    raw.push_back({(base + e) / c, -gain});
    raw.push_back({(base + 2.0 * l - e) / c, -gain});
  }
  std::sort(raw.begin(), raw.end(), [](const KernelJump& a, const KernelJump& b) { return a.tau_s < b.tau_s; });
  const double merge = 1e-12 * std::max(1.0, tau_max);
  for (const KernelJump& k : raw) {
    if (!(k.tau_s > 0.0) || k.tau_s > tau_max) continue;
    if (!out.empty() && std::abs(out.back().tau_s - k.tau_s) <= merge)
      out.back().jump += k.jump;
    else
      out.push_back(k);
  }
  out.erase(std::remove_if(out.begin(), out.end(), [&](const KernelJump& k) { return std::abs(k.jump) < 1e-9 * gain; }),
            out.end());
  return out;
}

std::vector<KernelJump> detect_kernel_jumps(const Structure& s, int i, int j, double tau_max,
                                            const JumpDetectionOptions& options) {
  check_pair(s, i, j);
  require_positive("tau_max_s", tau_max);
  options.validate("jump_detection");
  long n = s.finite() ? std::min(options.modes, s.mode_count()) : options.modes;
  ModeTable t = s.modes(n);
  // The scan samples tau at 1/Omega: keep at most kMaxSamples samples by lowering the cut-off (the
  // highest modes of a dispersive spectrum, omega ~ k^2, would otherwise ask for billions).
  constexpr double kMaxSamples = 65536.0;
  if (t.omega.maxCoeff() * tau_max > kMaxSamples) {
    long keep = 0;
    for (long k = 0; k < n; ++k)
      if (t.omega[k] * tau_max <= kMaxSamples) ++keep;
    if (keep < 16)
      throw InvalidInput(fmt::format("tau_max_s = {}: too long to resolve jumps with these modes (fewer than 16 modes "
                                     "below {} rad/s)",
                                     format_value(tau_max), format_value(kMaxSamples / tau_max)));
    ModeTable low;
    low.omega.resize(keep);
    low.damping.resize(keep);
    low.values.resize(keep, t.values.cols());
    long r = 0;
    for (long k = 0; k < n; ++k)
      if (t.omega[k] * tau_max <= kMaxSamples) {
        low.omega[r] = t.omega[k];
        low.damping[r] = t.damping[k];
        low.values.row(r) = t.values.row(k);
        ++r;
      }
    t = low;
    n = keep;
  }
  // Sort by frequency; local spacing dw_k by central differences.
  std::vector<long> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0L);
  std::sort(order.begin(), order.end(), [&](long a, long b) { return t.omega[a] < t.omega[b]; });
  std::vector<double> w(static_cast<std::size_t>(n)), coef(static_cast<std::size_t>(n)), dw(static_cast<std::size_t>(n));
  std::vector<ModeResponse> modes;
  for (long k = 0; k < n; ++k) {
    const long o = order[static_cast<std::size_t>(k)];
    w[static_cast<std::size_t>(k)] = t.omega[o];
    coef[static_cast<std::size_t>(k)] = t.values(o, i) * t.values(o, j);
    modes.emplace_back(t.omega[o], t.damping[o]);
  }
  for (long k = 0; k < n; ++k) {
    const double lo = k > 0 ? w[static_cast<std::size_t>(k - 1)] : 0.0;
    const double hi = k + 1 < n ? w[static_cast<std::size_t>(k + 1)] : 2.0 * w[static_cast<std::size_t>(k)] - lo;
    dw[static_cast<std::size_t>(k)] = 0.5 * (hi - lo);
  }
  const double omega_cut = w.back();
  auto estimate = [&](double tau, double cut) {
    Sum num, den;
    for (long k = 0; k < n; ++k) {
      const double x = w[static_cast<std::size_t>(k)] / cut;
      const double sigma = std::exp(-16.0 * x * x);
      if (sigma < 1e-18) break;
      num.add(sigma * coef[static_cast<std::size_t>(k)] * modes[static_cast<std::size_t>(k)].h_dot(tau));
      den.add(sigma * dw[static_cast<std::size_t>(k)]);
    }
    return kPi * num.value() / den.value();
  };
  // Peaks have width ~ 8/Omega (the filter keeps frequencies below ~Omega/4): sample at 1/Omega.
  const double dt = 1.0 / omega_cut;
  const double t0 = 12.0 / omega_cut;  // skip the tau = 0 peak (the right limit, not a delay)
  std::vector<double> taus, e;
  for (double tau = t0; tau <= tau_max; tau += dt) {
    taus.push_back(tau);
    e.push_back(estimate(tau, omega_cut));
  }
  std::vector<KernelJump> out;
  if (e.size() < 3) return out;
  // Threshold: a fraction of the largest peak and of the kernel scale sup|n n| / omega_1 (the jumps of
  // the string are 0.785 of it; the chirp interference peaks of beams stay below 1 %).
  double product = 0.0;
  for (long k = 0; k < n; ++k) product = std::max(product, std::abs(coef[static_cast<std::size_t>(k)]));
  const double scale = product / w.front();
  double largest = 0.0;
  for (const double v : e) largest = std::max(largest, std::abs(v));
  for (std::size_t p = 1; p + 1 < e.size(); ++p) {
    const double a = std::abs(e[p - 1]), b = std::abs(e[p]), c = std::abs(e[p + 1]);
    if (!(b >= a && b > c) || b < options.relative_threshold * largest || b < options.relative_threshold * scale)
      continue;
    // Parabola through the three samples for the location, then the estimate there at Omega and Omega/2.
    const double denom = a - 2.0 * b + c;
    const double shift = denom != 0.0 ? 0.5 * (a - c) / denom : 0.0;
    const double tau_star = taus[p] + std::clamp(shift, -0.5, 0.5) * dt;
    const double j_full = estimate(tau_star, omega_cut);
    // At half the cut-off the peak is twice as wide: search the half-width window for its extremum.
    double j_half = 0.0;
    for (int q = -8; q <= 8; ++q) {
      const double v = estimate(tau_star + 0.25 * q * dt, 0.5 * omega_cut);
      if (std::abs(v) > std::abs(j_half)) j_half = v;
    }
    if (std::abs(j_full - j_half) <= options.consistency * std::abs(j_full)) out.push_back({tau_star, j_full});
  }
  return out;
}

}  // namespace bristle::structures
