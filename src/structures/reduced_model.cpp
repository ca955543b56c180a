#include "bristle/structures/reduced_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/structures/mode_response.hpp"
#include "quadrature.hpp"
#include "string_kernel.hpp"

namespace bristle::structures {

namespace {

constexpr double kPi = std::numbers::pi;

/// Bound on one mode's far-field velocity contribution per unit sup|f| beyond tau_w (see header).
double far_mode_bound(double product, double omega, double damping, double tau_w) {
  if (!(damping > 0.0)) return std::numeric_limits<double>::infinity();
  const double sq = std::sqrt((1.0 - damping) * (1.0 + damping));
  return std::abs(product) * std::exp(-damping * omega * tau_w) * (1.0 / (omega * sq) + 1.0 / (damping * omega * sq));
}

/// Number of leading modes of a continuum to keep in the far field for window tau_w, and the bound of
/// the rest (geometric majorant with the frequency lower bounds).
long continuum_far_modes(const Structure& s, double tau_w, double tol, double& dropped_bound) {
  const double B = s.mode_product_bound(), D = s.min_damping_ratio();
  auto majorant = [&](long k) { return far_mode_bound(B, s.frequency_lower_bound(k), D, tau_w); };
  auto tail = [&](long K) {
    const double m1 = majorant(K + 1), m2 = majorant(K + 2);
    const double r = m1 > 0.0 ? m2 / m1 : 0.0;
    return r < 1.0 ? m1 / (1.0 - r) : std::numeric_limits<double>::infinity();
  };
  long K = 0;
  if (tail(0) > tol) {
    K = 1;
    while (tail(K) > tol) {
      if (K > (1L << 40)) break;
      K *= 2;
    }
    long lo = K / 2, hi = K;
    while (hi - lo > 1) {
      const long mid = lo + (hi - lo) / 2;
      if (tail(mid) > tol)
        lo = mid;
      else
        hi = mid;
    }
    K = (tail(lo) <= tol) ? lo : hi;
  }
  dropped_bound = tail(K);
  return K;
}

/// For a finite structure: the modes kept in the far field (indices) and the bound of the dropped ones.
std::vector<long> finite_far_modes(const ModeTable& t, double tau_w, double tol, double& dropped_bound) {
  std::vector<std::pair<double, long>> b;
  for (long k = 0; k < t.size(); ++k) {
    const double r = t.values.row(k).cwiseAbs().maxCoeff();
    b.emplace_back(far_mode_bound(r * r, t.omega[k], t.damping[k], tau_w), k);
  }
  std::sort(b.begin(), b.end());
  double sum = 0.0;
  std::vector<long> keep;
  std::size_t p = 0;
  for (; p < b.size(); ++p) {
    if (sum + b[p].first > tol) break;
    sum += b[p].first;
  }
  for (; p < b.size(); ++p) keep.push_back(b[p].second);
  std::sort(keep.begin(), keep.end());
  dropped_bound = sum;
  return keep;
}

/// sum_{j < len} a[j] b[j] with eight independent accumulators (four SSE2 vectors): the near-window sums
/// of the one-contact model, which one accumulator would make latency-bound.
double window_dot(const double* a, const double* b, long len) {
  double acc[8] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  long j = 0;
  for (; j + 8 <= len; j += 8)
    for (int r = 0; r < 8; ++r) acc[r] += a[j + r] * b[j + r];
  for (; j < len; ++j) acc[0] += a[j] * b[j];
  return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

}  // namespace

void ReducedModelOptions::validate(std::string_view prefix) const {
  if (window_steps < 0)
    throw InvalidInput(fmt::format("{}.window_steps = {}: must be >= 0 (0 = automatic)", prefix, window_steps));
  constexpr long kMaxWindowSteps = 10'000'000;  // weights and histories of M^2 and M doubles per step
  if (window_steps > kMaxWindowSteps)
    throw InvalidInput(fmt::format("{}.window_steps = {}: at most {}", prefix, window_steps, kMaxWindowSteps));
  require_positive(fmt::format("{}.far_tolerance", prefix), far_tolerance);
  kernel.validate(fmt::format("{}.kernel", prefix));
}

ReducedModel::ReducedModel(const Structure& structure, double dt, const ReducedModelOptions& options)
    : ContactStepper(structure.contact_count(), dt), structure_(structure), options_(options) {
  options.validate("model");
  const Structure& s = structure;
  if (!s.finite() && !(s.min_damping_ratio() > 0.0)) {
    if (s.kind() == StructureKind::taut_string)
      throw InvalidInput(
          "structure.damping_ratio = 0: the undamped taut string has no fading memory; its reduced model is the "
          "neutral delay form (StringDelayModel, chosen by make_reduced_model)");
    throw InvalidInput(fmt::format(
        "structure.damping_ratio = 0: the kernel of an undamped {} never decays, so its memory cannot be "
        "truncated; give damping_ratio > 0",
        to_string(s.kind())));
  }
  // A continuum's kernels decay over 1/(D omega), the window kept; a finite structure's window does not grow so.
  if (const double d = s.min_damping_ratio(); !s.finite() && d > 0.0 && d < kMinDampingRatio)
    throw InvalidInput(fmt::format("structure.damping_ratio = {}: must be 0 or >= {} for the reduced model (its "
                                   "memory window grows as 1 / (D omega))",
                                   format_value(d), format_value(kMinDampingRatio)));
  ModeTable finite_table;
  if (s.finite()) finite_table = s.modes(s.mode_count());
  {  // the slowest mode: the smallest listed frequency of a generic structure, mode 1 of a continuum
    double omega_1 = 0.0, damping_1 = 0.0;
    std::vector<double> values(static_cast<std::size_t>(s.contact_count()));
    if (s.finite()) omega_1 = finite_table.omega.minCoeff();
    else s.mode(1, omega_1, damping_1, values.data());
    if (!(omega_1 * dt <= kMaxOmegaDt))
      throw InvalidInput(fmt::format("{} = {}: the structure's slowest mode (omega_1 = {} rad/s) turns omega_1 x {} "
                                     "= {} rad per step; at most {}: a smaller step or a softer structure",
                                     options.dt_key, format_value(dt), format_value(omega_1), options.dt_key,
                                     format_value(omega_1 * dt), format_value(kMaxOmegaDt)));
  }
  const int M = contact_count_;
  G_ = s.static_compliance();
  const double omega1 = s.finite() ? finite_table.omega.minCoeff() : s.frequency_lower_bound(1);
  const double tol = options.far_tolerance * s.mode_product_bound() / omega1;

  // Window: the given one, or the cheapest of a geometric set of candidates.
  auto far_count = [&](long nw, double& bound) -> long {
    const double tau_w = static_cast<double>(nw) * dt;
    if (s.finite()) return static_cast<long>(finite_far_modes(finite_table, tau_w, tol, bound).size());
    return continuum_far_modes(s, tau_w, tol, bound);
  };
  auto cost = [&](long nw, long kf) {
    return 2.0 * static_cast<double>(nw) * M * M + (8.0 + 4.0 * M) * static_cast<double>(kf);
  };
  if (options.window_steps > 0) {
    window_ = options.window_steps;
  } else {
    double best = std::numeric_limits<double>::infinity();
    for (double x = 2.0; x <= 65536.0; x *= std::sqrt(2.0)) {
      const long nw = static_cast<long>(std::lround(x));
      double bound = 0.0;
      const long kf = far_count(nw, bound);
      const double c = cost(nw, kf);
      if (c < best) {
        best = c;
        window_ = nw;
      }
    }
  }
  const long nw = window_;
  const double tau_w = static_cast<double>(nw) * dt;

  // Near-field weights.
  const auto MM = static_cast<std::size_t>(M * M);
  e_.assign(static_cast<std::size_t>(nw) * MM, 0.0);
  d_.assign(static_cast<std::size_t>(nw) * MM, 0.0);
  auto at = [&](std::vector<double>& w, long j, int a, int b) -> double& {
    return w[static_cast<std::size_t>(j) * MM + static_cast<std::size_t>(a * M + b)];
  };
  if (s.kind() == StructureKind::taut_string) {
    const auto& chi = s.contact_positions_m();
    for (int a = 0; a < M; ++a)
      for (int b = 0; b < M; ++b) {
        const detail::StringKernel k(s.string_params(), chi[static_cast<std::size_t>(a)], chi[static_cast<std::size_t>(b)]);
        const double scale = std::max(k.right_limit(), 1.0 / (2.0 * s.string_params().density_kg_per_m *
                                                               s.string_params().wave_speed_m_per_s));
        double S = 0.0;
        for (long j = 0; j < nw; ++j) {
          const double t0 = static_cast<double>(j) * dt, t1 = t0 + dt;
          // Panels are accepted once |K15 - G7| <= 1e-9 (relative): for these analytic integrands the
          // 15-point Kronrod value is then accurate to roundoff (its error ~ (G7 error)^(23/14)).
          const detail::QuadraturePair q =
              detail::integrate_gk15_pair([&](double t) { return k.L1(t); }, t0, t1, t1, 1e-10 * scale * dt, 1e-9);
          const double integral = q.value, moment = q.moment;
          at(e_, j, a, b) = integral / dt;
          at(d_, j, a, b) = S + moment / dt;
          S += integral;
        }
      }
  } else {
    // e_j = (S0((j+1) dt) - S0(j dt))/dt with S0(0) = -G;  d_j = G + sum_k n n Im(z^j phi1(lambda dt)/lambda)/w_d
    std::vector<double> taus(static_cast<std::size_t>(nw));
    for (long j = 0; j < nw; ++j) taus[static_cast<std::size_t>(j)] = static_cast<double>(j + 1) * dt;
    for (int a = 0; a < M; ++a)
      for (int b = 0; b < M; ++b) {
        const KernelSamples s0 = step_response_oscillating(s, a, b, taus, options.kernel);
        double prev = -G_(a, b);
        for (long j = 0; j < nw; ++j) {
          const double cur = s0.value[static_cast<std::size_t>(j)];
          at(e_, j, a, b) = (cur - prev) / dt;
          prev = cur;
        }
      }
    // Modes for d_j: all (finite) or until the bound of the rest is negligible (continua; |dQ0_k|/dt <=
    // 2 B/(dt w_k^2 w_dk) for the first lag, smaller later).
    long kq = 0;
    if (s.finite()) {
      kq = s.mode_count();
    } else {
      const double B = s.mode_product_bound(), D = s.min_damping_ratio();
      const double sq = std::sqrt((1.0 - D) * (1.0 + D));
      const double target = 1e-14 * std::max(G_.cwiseAbs().maxCoeff(), B / (omega1 * omega1));
      kq = 256;
      auto tail = [&](long K) {
        double sum = 0.0;
        // explicit sum over a block, then an integral bound (terms decrease like k^-6 for beams, k^-3 strings)
        for (long k = K + 1; k <= 2 * K; ++k) {
          const double w = s.frequency_lower_bound(k);
          sum += 2.0 * B / (dt * w * w * w * sq);
        }
        return 2.0 * sum;
      };
      while (kq < options.kernel.max_modes && tail(kq) > target) kq *= 2;
      kq = std::min(kq, options.kernel.max_modes);
    }
    const ModeTable t = s.finite() ? finite_table : s.modes(kq);
    for (long k = 0; k < t.size(); ++k) {
      const ModeResponse m(t.omega[k], t.damping[k]);
      const Complex zdt = std::exp(m.lambda * dt);
      const Complex psi = phi1(m.lambda * dt) / m.lambda / m.omega_d;
      const double decay = std::exp(m.lambda.real() * dt);  // |z|, tracked without hypot
      Complex zj = 1.0;
      double magnitude = 1.0;
      for (long j = 0; j < nw; ++j) {
        const double val = (zj * psi).imag();
        for (int a = 0; a < M; ++a)
          for (int b = 0; b < M; ++b) at(d_, j, a, b) += t.values(k, a) * t.values(k, b) * val;
        zj *= zdt;
        magnitude *= decay;
        if (magnitude < 1e-300) break;
      }
    }
    for (long j = 0; j < nw; ++j)
      for (int a = 0; a < M; ++a)
        for (int b = 0; b < M; ++b) at(d_, j, a, b) += G_(a, b);
  }
  for (int a = 0; a < M; ++a)
    for (int b = 0; b < M; ++b) admittance_(a, b) = at(e_, 0, a, b);

  // Far field.
  ModeTable far;
  if (s.finite()) {
    const std::vector<long> keep = finite_far_modes(finite_table, tau_w, tol, far_bound_);
    far.omega.resize(static_cast<long>(keep.size()));
    far.damping.resize(static_cast<long>(keep.size()));
    far.values.resize(static_cast<long>(keep.size()), M);
    for (std::size_t p = 0; p < keep.size(); ++p) {
      far.omega[static_cast<long>(p)] = finite_table.omega[keep[p]];
      far.damping[static_cast<long>(p)] = finite_table.damping[keep[p]];
      far.values.row(static_cast<long>(p)) = finite_table.values.row(keep[p]);
    }
  } else {
    const long kf = continuum_far_modes(s, tau_w, tol, far_bound_);
    if (kf > Structure::kMaxModes)  // named by what sets it (a string of wave speed 1e-200 m/s said only "modes = ...")
      throw InvalidInput(fmt::format(
          "reduced model: the far field keeps every mode not yet decayed after the window tau_w = {} s ({} steps of "
          "dt = {} s), {} modes of a structure whose slowest mode is omega_1 = {} rad/s; at most {} at once: a "
          "stiffer, lighter or more damped structure (its omega_1 and damping ratio), or a longer window "
          "(window_steps)",
          format_value(tau_w), nw, format_value(dt), kf, format_value(omega1), Structure::kMaxModes));
    far = s.modes(kf);
  }
  far_n_ = far.values;
  const long K = far.size();
  for (auto* v : {&z_re_, &z_im_, &b_re_, &b_im_, &r_re_, &r_im_, &y_tmp_}) v->resize(K);
  y_re_ = Eigen::ArrayXd::Zero(K);
  y_im_ = Eigen::ArrayXd::Zero(K);
  for (long k = 0; k < K; ++k) {
    const ModeResponse m(far.omega[k], far.damping[k]);
    const Complex z = std::exp(m.lambda * dt), c = std::exp(m.lambda * tau_w);
    const Complex ov = phi1(m.lambda * dt) / m.omega_d;
    const double scale = (M == 1) ? far_n_(k, 0) * far_n_(k, 0) : 1.0;
    const Complex b = ov * c * scale, r = 1.0 / m.lambda;
    z_re_[k] = z.real();
    z_im_[k] = z.imag();
    b_re_[k] = b.real();
    b_im_[k] = b.imag();
    r_re_[k] = r.real();
    r_im_[k] = r.imag();
  }
  far_u_ = VecX::Zero(K);
  far_v_ = VecX::Zero(M);
  history_.assign(static_cast<std::size_t>(2 * nw * M), 0.0);
  head_ = 0;
  far_force_ = VecX::Zero(M);
  df_ = VecX::Zero(M);
  predict();
}

long ReducedModel::history_terms() const {
  return window_ * contact_count_ * contact_count_ + far_modes() * contact_count_;
}

std::string ReducedModel::description() const {
  return fmt::format("reduced model: near-field window {} steps ({} s) + {} far-field exponentials (dropped "
                     "bound {} m/(N s))",
                     window_, format_value(static_cast<double>(window_) * dt_), far_modes(), format_value(far_bound_));
}

double ReducedModel::velocity_weight(long lag, int i, int j) const {
  const int M = contact_count_;
  return e_[static_cast<std::size_t>(lag * M * M + i * M + j)];
}
double ReducedModel::displacement_weight(long lag, int i, int j) const {
  const int M = contact_count_;
  return d_[static_cast<std::size_t>(lag * M * M + i * M + j)];
}

void ReducedModel::predict() {
  // The far field's share (far_v_) was accumulated while its states were advanced (zero before the
  // first step: all states zero).
  const int M = contact_count_;
  const long nw = window_;
  const double* h = history_.data() + head_ * M;  // newest first: Delta f_{n-1}, Delta f_{n-2}, ...
  if (M == 1) {
    v_pred_[0] = window_dot(e_.data() + 1, h, nw - 1) + far_v_[0];
    return;
  }
  v_pred_ = far_v_;
  for (long j = 1; j < nw; ++j)
    for (int a = 0; a < M; ++a)
      for (int b = 0; b < M; ++b)
        v_pred_[a] += e_[static_cast<std::size_t>(j * M * M + a * M + b)] * h[(j - 1) * M + b];
}

void ReducedModel::push_increment(const VecX& df) {
  const int M = contact_count_;
  const long nw = window_;
  head_ = (head_ == 0) ? nw - 1 : head_ - 1;
  for (int a = 0; a < M; ++a) {
    history_[static_cast<std::size_t>(head_ * M + a)] = df[a];
    history_[static_cast<std::size_t>((head_ + nw) * M + a)] = df[a];
  }
}

void ReducedModel::advance(const VecX& f_next, bool compute_displacement) {
  const int M = contact_count_;
  if (f_next.size() != M) throw InvalidInput(fmt::format("forces: {} given, {} contact points", f_next.size(), M));
  const long nw = window_;
  VecX& df = df_;
  df = f_next - f_;
  if (M == 1) {
    v_[0] = v_pred_[0] + admittance_(0, 0) * df[0];
  } else {
    v_ = v_pred_;
    v_.noalias() += admittance_ * df;
  }
  if (compute_displacement && M == 1) {
    // As below, with the near-window sum and the far field's Im(r Ytilde) each in one pass.
    const double* h = history_.data() + head_;
    double far = 0.0;
    const long K = y_re_.size();
    for (long k = 0; k < K; ++k) far += r_re_[k] * y_im_[k] + r_im_[k] * y_re_[k];
    w_[0] = G_(0, 0) * far_force_[0] + d_[0] * df[0] + window_dot(d_.data() + 1, h, nw - 1) + far;
  } else if (compute_displacement) {
    const double* h = history_.data() + head_ * M;
    w_.noalias() = G_ * far_force_;
    for (int a = 0; a < M; ++a)
      for (int b = 0; b < M; ++b) w_[a] += d_[static_cast<std::size_t>(a * M + b)] * df[b];
    for (long j = 1; j < nw; ++j)
      for (int a = 0; a < M; ++a)
        for (int b = 0; b < M; ++b) w_[a] += d_[static_cast<std::size_t>(j * M * M + a * M + b)] * h[(j - 1) * M + b];
    y_tmp_ = r_re_ * y_im_ + r_im_ * y_re_;  // Im(r Ytilde)
    if (M == 1)
      w_[0] += y_tmp_.sum();
    else
      w_.noalias() += far_n_.transpose() * y_tmp_.matrix();
  } else {
    w_.setConstant(std::numeric_limits<double>::quiet_NaN());
  }
  push_increment(df);
  // The oldest increment in the window, Delta f_{n+1-n_w}, moves into the far field: advance the
  // far-field states and accumulate their share of the next prediction.
  const double* oldest = history_.data() + (head_ + nw - 1) * M;
  if (M == 1) {
    const double u = oldest[0];
    const long K = y_re_.size();
    const double* __restrict zr = z_re_.data();
    const double* __restrict zi = z_im_.data();
    const double* __restrict br = b_re_.data();
    const double* __restrict bi = b_im_.data();
    double* __restrict yr = y_re_.data();
    double* __restrict yi = y_im_.data();
    for (long k = 0; k < K; ++k) {  // one pass, vectorised
      const double a = yr[k], b = yi[k];
      yr[k] = zr[k] * a - zi[k] * b + br[k] * u;
      yi[k] = zr[k] * b + zi[k] * a + bi[k] * u;
    }
    far_v_[0] = y_im_.sum();
  } else {
    y_tmp_ = y_re_;
    far_u_.noalias() = far_n_ * Eigen::Map<const VecX>(oldest, M);
    y_re_ = z_re_ * y_re_ - z_im_ * y_im_ + b_re_ * far_u_.array();
    y_im_ = z_re_ * y_im_ + z_im_ * y_tmp_ + b_im_ * far_u_.array();
    far_v_.noalias() = far_n_.transpose() * y_im_.matrix();
  }
  for (int b = 0; b < M; ++b) far_force_[b] += oldest[b];
  f_ = f_next;
  ++steps_;
  predict();
}

// ---------------------------------------------------------------------------------------------

double string_delay_step(const TautStringParams& params, double dt) {
  require_positive("dt_s", dt);
  const double period = 2.0 * params.length_m / params.wave_speed_m_per_s;
  const double n = std::ceil(period / dt - 1e-9);
  return period / std::max(1.0, n);
}

StringDelayModel::StringDelayModel(const Structure& structure, double dt, std::string_view dt_key)
    : ContactStepper(structure.contact_count(), dt), structure_(structure) {
  if (structure.kind() != StructureKind::taut_string || structure.string_params().damping_ratio != 0.0)
    throw InvalidInput(fmt::format("structure.type = \"{}\": the neutral delay form is the undamped taut string's "
                                   "(damping_ratio = 0)",
                                   to_string(structure.kind())));
  const TautStringParams& p = structure.string_params();
  const double l = p.length_m, c = p.wave_speed_m_per_s;
  const double period = 2.0 * l / c;
  const double ratio = period / dt;
  period_steps_ = std::lround(ratio);
  if (period_steps_ < 1 || std::abs(ratio - static_cast<double>(period_steps_)) > 1e-9 * ratio)
    throw InvalidInput(fmt::format("{} = {}: must divide 2 l / c = {} s for the neutral delay form (e.g. {} = {})",
                                   dt_key, format_value(dt), format_value(period), dt_key,
                                   format_value(string_delay_step(p, dt))));
  gain_ = 1.0 / (2.0 * p.density_kg_per_m * c);
  const int M = contact_count_;
  const auto& chi = structure.contact_positions_m();
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < M; ++j) {
      const double xi = chi[static_cast<std::size_t>(i)], xj = chi[static_cast<std::size_t>(j)];
      const double d = std::abs(xi - xj), e = xi + xj;
      const double delays[4] = {d / c, (2.0 * l - d) / c, e / c, (2.0 * l - e) / c};
      const double signs[4] = {1.0, 1.0, -1.0, -1.0};
      for (int q = 0; q < 4; ++q) {
        double x = delays[q] / dt;
        const double r = std::round(x);
        if (std::abs(x - r) <= 1e-9 * std::max(1.0, x)) x = r;
        const double lag = std::ceil(x);
        delays_.push_back({i, j, signs[q], static_cast<long>(lag), lag - x});
      }
    }
  for (const Delay& dl : delays_) {
    if (dl.lag == 0) admittance_(dl.i, dl.j) += gain_ * dl.sign;
    if (dl.lag == 1) admittance_(dl.i, dl.j) += gain_ * dl.sign * dl.theta;
  }
  ring_ = period_steps_ + 3;
  const auto size = static_cast<std::size_t>(ring_ * M);
  f_hist_.assign(size, 0.0);
  fi_hist_.assign(size, 0.0);
  v_hist_.assign(size, 0.0);
  w_hist_.assign(size, 0.0);
  predict();
}

std::string StringDelayModel::description() const {
  return fmt::format("neutral delay form of the undamped string (exact), period {} steps", period_steps_);
}

namespace {
long slot(long m, long ring) { return ((m % ring) + ring) % ring; }
}  // namespace

double StringDelayModel::f_at(int j, long m) const {
  if (m <= 0) return 0.0;
  return f_hist_[static_cast<std::size_t>(slot(m, ring_) * contact_count_ + j)];
}
double StringDelayModel::fi_at(int j, long m) const {
  if (m <= 0) return 0.0;
  return fi_hist_[static_cast<std::size_t>(slot(m, ring_) * contact_count_ + j)];
}
double StringDelayModel::v_at(int i, long m) const {
  if (m <= 0) return 0.0;
  return v_hist_[static_cast<std::size_t>(slot(m, ring_) * contact_count_ + i)];
}
double StringDelayModel::w_at(int i, long m) const {
  if (m <= 0) return 0.0;
  return w_hist_[static_cast<std::size_t>(slot(m, ring_) * contact_count_ + i)];
}

void StringDelayModel::predict() {
  // v_{n+1} with f_{n+1} := f_n.
  const long n = steps_;
  for (int i = 0; i < contact_count_; ++i) v_pred_[i] = v_at(i, n + 1 - period_steps_);
  for (const Delay& d : delays_) {
    const long m0 = n + 1 - d.lag;  // t_{n+1} - delay = t_{m0} + theta dt
    const double fa = (m0 == n + 1) ? f_[d.j] : f_at(d.j, m0);
    const double fb = (m0 + 1 >= n + 1) ? f_[d.j] : f_at(d.j, m0 + 1);
    v_pred_[d.i] += gain_ * d.sign * ((1.0 - d.theta) * fa + d.theta * fb);
  }
}

void StringDelayModel::advance(const VecX& f_next, bool compute_displacement) {
  const int M = contact_count_;
  if (f_next.size() != M) throw InvalidInput(fmt::format("forces: {} given, {} contact points", f_next.size(), M));
  const long n = steps_;
  v_ = v_pred_ + admittance_ * (f_next - f_);
  // Store f_{n+1} and its integral first: the displacement relation reads them.
  for (int j = 0; j < M; ++j) {
    const std::size_t s1 = static_cast<std::size_t>(slot(n + 1, ring_) * M + j);
    fi_hist_[s1] = fi_at(j, n) + 0.5 * dt_ * (f_[j] + f_next[j]);
    f_hist_[s1] = f_next[j];
  }
  // w_{n+1} = w_{n+1-N} + g sum +- If(t_{n+1} - d), If piecewise quadratic (f piecewise linear).
  VecX w = VecX::Zero(M);
  for (int i = 0; i < M; ++i) w[i] = w_at(i, n + 1 - period_steps_);
  for (const Delay& d : delays_) {
    const long m0 = n + 1 - d.lag;
    const double fa = f_at(d.j, m0), fb = f_at(d.j, m0 + 1), ia = fi_at(d.j, m0);
    const double th = d.theta;
    const double integral = (m0 >= 0) ? ia + dt_ * (th * fa + 0.5 * th * th * (fb - fa)) : 0.0;
    w[d.i] += gain_ * d.sign * integral;
  }
  for (int i = 0; i < M; ++i) {
    const std::size_t s1 = static_cast<std::size_t>(slot(n + 1, ring_) * M + i);
    v_hist_[s1] = v_[i];
    w_hist_[s1] = w[i];
  }
  w_ = compute_displacement ? w : VecX::Constant(M, std::numeric_limits<double>::quiet_NaN());
  f_ = f_next;
  ++steps_;
  predict();
}

std::unique_ptr<ContactStepper> make_reduced_model(const Structure& structure, double dt,
                                                   const ReducedModelOptions& options) {
  if (structure.kind() == StructureKind::taut_string && structure.string_params().damping_ratio == 0.0)
    return std::make_unique<StringDelayModel>(structure, dt, options.dt_key);
  return std::make_unique<ReducedModel>(structure, dt, options);
}

}  // namespace bristle::structures
