#include "bristle/structures/modal_model.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "bristle/core/error.hpp"
#include "bristle/structures/mode_response.hpp"
#include "quadrature.hpp"

namespace bristle::structures {

ModalModel::ModalModel(const Structure& structure, long modes, double dt, const ModalModelOptions& options)
    : ContactStepper(structure.contact_count(), dt),
      track_energy_(options.track_energy),
      structure_(structure),
      options_(options) {
  if (modes < 1) throw InvalidInput(fmt::format("{} = {}: must be >= 1", options.modes_key, modes));
  if (structure.finite() && modes > structure.mode_count())
    throw InvalidInput(fmt::format("{} = {}: the structure has only {} modes", options.modes_key, modes,
                                   structure.mode_count()));
  mode_count_ = modes;
  const ModeTable t = structure.modes(modes);
  n_ = t.values;
  const auto N = static_cast<std::size_t>(modes);
  omega_.resize(N);
  q_.assign(N, 0.0);
  p_.assign(N, 0.0);
  for (auto* v : {&a11_, &a12_, &a21_, &a22_, &g0q_, &g0p_, &g1q_, &g1p_, &damping_rate_}) v->resize(N);
  double omega_max = 0.0;
  for (std::size_t k = 0; k < N; ++k) {
    const ModeResponse m(t.omega[static_cast<long>(k)], t.damping[static_cast<long>(k)]);
    omega_[k] = m.omega;
    omega_max = std::max(omega_max, m.omega);
    const double h = m.h(dt), hd = m.h_dot(dt), S = m.S(dt), Q = m.Q(dt);
    a11_[k] = hd + 2.0 * m.damping * m.omega * h;
    a12_[k] = h;
    a21_[k] = -m.omega * m.omega * h;
    a22_[k] = hd;
    g0q_[k] = S;
    g0p_[k] = h;
    g1q_[k] = Q / dt;
    g1p_[k] = S / dt;
    damping_rate_[k] = 2.0 * m.damping * m.omega;
  }
  const int M = contact_count_;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < M; ++j) {
      double a = 0.0;
      for (std::size_t k = 0; k < N; ++k) a += n_(static_cast<long>(k), i) * n_(static_cast<long>(k), j) * g1p_[k];
      admittance_(i, j) = a;
    }
  if (track_energy_) {
    if (omega_max * dt > 100.0)
      throw InvalidInput(fmt::format("{} = {}: energy tracking needs omega_N dt <= 100 (omega_N = {} rad/s)",
                                     options_.dt_key, format_value(dt), format_value(omega_max)));
    const int G = std::min(64, static_cast<int>(std::ceil(0.5 * omega_max * dt)) + 12);
    detail::gauss_legendre(G, quadrature_.fraction, quadrature_.weight);
    const auto Gs = static_cast<std::size_t>(G);
    c21_.resize(N * Gs);
    c22_.resize(N * Gs);
    ch_.resize(N * Gs);
    cs_.resize(N * Gs);
    for (std::size_t k = 0; k < N; ++k) {
      const ModeResponse m(t.omega[static_cast<long>(k)], t.damping[static_cast<long>(k)]);
      for (std::size_t g = 0; g < Gs; ++g) {
        const double tau = quadrature_.fraction[g] * dt;
        const double h = m.h(tau);
        c21_[k * Gs + g] = -m.omega * m.omega * h;
        c22_[k * Gs + g] = m.h_dot(tau);
        ch_[k * Gs + g] = h;
        cs_[k * Gs + g] = m.S(tau) / dt;
      }
    }
    quadrature_.velocity = MatX::Zero(M, G);
  }
  predict();
}

std::string ModalModel::description() const {
  return fmt::format("truncated modal model, {} modes, exact per-mode propagation (first-order hold)", mode_count_);
}

double ModalModel::stored_energy() const {
  double e = 0.0;
  for (std::size_t k = 0; k < q_.size(); ++k) e += 0.5 * (p_[k] * p_[k] + omega_[k] * omega_[k] * q_[k] * q_[k]);
  return e;
}

void ModalModel::predict() {
  const int M = contact_count_;
  const std::size_t N = q_.size();
  if (M == 1) {
    const double f = f_[0];
    const double* n = n_.data();
    double v = 0.0;
    for (std::size_t k = 0; k < N; ++k) v += n[k] * (a21_[k] * q_[k] + a22_[k] * p_[k] + g0p_[k] * n[k] * f);
    v_pred_[0] = v;
    return;
  }
  v_pred_.setZero();
  for (std::size_t k = 0; k < N; ++k) {
    const auto kk = static_cast<long>(k);
    double u = 0.0;
    for (int j = 0; j < M; ++j) u += n_(kk, j) * f_[j];
    const double p = a21_[k] * q_[k] + a22_[k] * p_[k] + g0p_[k] * u;
    for (int i = 0; i < M; ++i) v_pred_[i] += n_(kk, i) * p;
  }
}

void ModalModel::sample_step(const VecX& f_old, const VecX& df, const std::vector<double>& q0,
                             const std::vector<double>& p0) {
  const int M = contact_count_;
  const std::size_t N = q_.size(), G = quadrature_.fraction.size();
  quadrature_.velocity.setZero();
  double damping_work = 0.0;
  std::vector<double> pg(G);
  for (std::size_t k = 0; k < N; ++k) {
    const auto kk = static_cast<long>(k);
    double u = 0.0, du = 0.0;
    for (int j = 0; j < M; ++j) {
      u += n_(kk, j) * f_old[j];
      du += n_(kk, j) * df[j];
    }
    double dw = 0.0;
    for (std::size_t g = 0; g < G; ++g) {
      const std::size_t idx = k * G + g;
      pg[g] = c21_[idx] * q0[k] + c22_[idx] * p0[k] + ch_[idx] * u + cs_[idx] * du;
      dw += quadrature_.weight[g] * pg[g] * pg[g];
    }
    damping_work += damping_rate_[k] * dw * dt_;
    for (int i = 0; i < M; ++i)
      for (std::size_t g = 0; g < G; ++g) quadrature_.velocity(i, static_cast<long>(g)) += n_(kk, i) * pg[g];
  }
  quadrature_.damping_work_J = damping_work;
}

void ModalModel::advance(const VecX& f_next, bool compute_displacement) {
  const int M = contact_count_;
  if (f_next.size() != M) throw InvalidInput(fmt::format("forces: {} given, {} contact points", f_next.size(), M));
  df_ = f_next - f_;
  const VecX& df = df_;
  const std::size_t N = q_.size();
  if (track_energy_) {
    scratch_q_ = q_;
    scratch_p_ = p_;
  }
  if (M == 1) {
    const double f = f_[0], d = df[0], fn = f_next[0];
    const double* n = n_.data();
    // Four independent accumulators (the reductions are latency-bound otherwise).
    double v[4] = {0.0, 0.0, 0.0, 0.0}, vp[4] = {0.0, 0.0, 0.0, 0.0};
    auto update = [&](std::size_t k, int r) {
      const double u = n[k] * f, du = n[k] * d;
      const double q = a11_[k] * q_[k] + a12_[k] * p_[k] + g0q_[k] * u + g1q_[k] * du;
      const double p = a21_[k] * q_[k] + a22_[k] * p_[k] + g0p_[k] * u + g1p_[k] * du;
      q_[k] = q;
      p_[k] = p;
      v[r] += n[k] * p;
      vp[r] += n[k] * (a21_[k] * q + a22_[k] * p + g0p_[k] * n[k] * fn);  // next prediction, fused
    };
    const std::size_t N4 = N - N % 4;
    for (std::size_t k = 0; k < N4; k += 4)
      for (int r = 0; r < 4; ++r) update(k + static_cast<std::size_t>(r), r);
    for (std::size_t k = N4; k < N; ++k) update(k, 0);
    v_[0] = (v[0] + v[1]) + (v[2] + v[3]);
    v_pred_[0] = (vp[0] + vp[1]) + (vp[2] + vp[3]);
  } else {
    v_.setZero();
    for (std::size_t k = 0; k < N; ++k) {
      const auto kk = static_cast<long>(k);
      double u = 0.0, du = 0.0;
      for (int j = 0; j < M; ++j) {
        u += n_(kk, j) * f_[j];
        du += n_(kk, j) * df[j];
      }
      const double q = a11_[k] * q_[k] + a12_[k] * p_[k] + g0q_[k] * u + g1q_[k] * du;
      const double p = a21_[k] * q_[k] + a22_[k] * p_[k] + g0p_[k] * u + g1p_[k] * du;
      q_[k] = q;
      p_[k] = p;
      for (int i = 0; i < M; ++i) v_[i] += n_(kk, i) * p;
    }
  }
  if (track_energy_) {
    sample_step(f_, df, scratch_q_, scratch_p_);
  }
  f_ = f_next;
  ++steps_;
  if (M != 1) predict();
  if (compute_displacement) {
    w_.setZero();
    for (std::size_t k = 0; k < N; ++k)
      for (int i = 0; i < M; ++i) w_[i] += n_(static_cast<long>(k), i) * q_[k];
  } else {
    w_.setConstant(std::numeric_limits<double>::quiet_NaN());
  }
  if (track_energy_) quadrature_.stored_energy_J = stored_energy();
}

}  // namespace bristle::structures
