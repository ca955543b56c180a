// Steady patch solver: second-order upwind differences on the mapped square, Gauss-Seidel sweeps,
// pointwise Newton with the contact model's own source and Jacobian (paper 1, eqs. 33-39, 46-50).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "bristle/core/error.hpp"
#include "bristle/patch/patch.hpp"
#include "stencil.hpp"

namespace bristle::patch {

namespace {
[[noreturn]] void throw_non_finite(const Vec2& x) {
  throw SolverError(fmt::format("patch steady solve: non-finite state at x = ({}, {}) m", format_value(x[0]),
                                format_value(x[1])));
}
}  // namespace

PatchSolver::PatchSolver(const contact::ContactModel& model, const PatchParams& params)
    : model_(model), params_(params), geometry_(params), riemann_(riemann(model.pair())) {
  nx_ = params.nx;
  ny_ = params.ny;
  m_ = model.state_size();
  family_of_.resize(m_);
  family_of_[0] = 0;
  family_of_[1] = 1;
  for (int k = 2; k < m_; ++k) family_of_[k] = k < 2 + 2 * model.n1() ? 2 : 3;
  const int N = nx_ * ny_;
  x_.resize(N);
  area_.resize(N);
  load_.resize(N);
  xi_.resize(nx_);
  eta_.resize(ny_);
  const double hx = 2.0 / nx_, hy = 2.0 / ny_;
  for (int i = 0; i < nx_; ++i) xi_[i] = -1.0 + (i + 0.5) * hx;
  for (int j = 0; j < ny_; ++j) eta_[j] = -1.0 + (j + 0.5) * hy;
  double load_sum = 0.0;
  for (int i = 0; i < nx_; ++i) {
    const double x = geometry_.a() * xi_[i];
    const double w = geometry_.half_width(x);
    for (int j = 0; j < ny_; ++j) {
      const int n = idx(i, j);
      x_[n] = Vec2(x, w * eta_[j]);
      area_[n] = geometry_.a() * w * hx * hy;  // |d(x, y)/d(xi, eta)| = a w(x)
      load_[n] = geometry_.pressure(x_[n]) * area_[n];
      load_sum += load_[n];
    }
  }
  if (!(load_sum > 0.0))
    throw InvalidInput(fmt::format("patch.nx = {}, patch.ny = {}: the grid carries no pressure", nx_, ny_));
  load_quadrature_error_ = load_sum / geometry_.normal_load() - 1.0;
  const double scale = geometry_.normal_load() / load_sum;  // the cell loads sum to F_z exactly
  for (double& l : load_) l *= scale;
  Q_ = MatX::Identity(m_, m_);
  Q_.topLeftCorner(2, 2) = riemann_.R;
  J_.resize(m_, m_);
  Jt_.resize(m_, m_);
  A_.resize(m_, m_);
  u_.resize(m_);
  h_.resize(m_);
  ht_.resize(m_);
  rhs_.resize(m_);
  d_.resize(m_);
  ut_.assign(static_cast<std::size_t>(N) * m_, 0.0);
  stencils_.resize(N);
}

VecX PatchSolver::state(int i, int j) const {
  const Eigen::Map<const VecX> ut(ut_.data() + static_cast<std::size_t>(idx(i, j)) * m_, m_);
  return Q_ * ut;
}

void PatchSolver::prepare(const PatchKinematics& kin) {
  const double hx = 2.0 / nx_, hy = 2.0 / ny_;
  const double a = geometry_.a();
  // Sweep orders: along the flow where every moving family agrees on the sign of its mapped speed
  // (over the patch for xi, per column for eta), alternating otherwise.
  auto merge = [](int& sign, double W) {
    const int s = W > 0.0 ? 1 : (W < 0.0 ? -1 : 0);
    if (s == 0 || sign == 2) return;
    sign = sign == 3 ? s : (sign == s ? s : 2);
  };  // 3: none seen yet, 2: mixed
  const bool present[4] = {true, true, model_.n1() > 0, model_.n2() > 0};
  int xi_sign = 3;
  col_sign_.assign(nx_, 3);
  for (int i = 0; i < nx_; ++i) {
    for (int j = 0; j < ny_; ++j) {
      const int n = idx(i, j);
      const Vec2& x = x_[n];
      const double w = geometry_.half_width(x[0]);
      const double ws = geometry_.half_width_slope(x[0]);
      for (int k = 0; k < 4; ++k) {
        const Vec2 c = family_velocity(riemann_, kin, kFamilies[k], x);
        // Mapped velocity W = (V . grad) Phi with xi = x/a, eta = y/w(x) (App. A.1, eq. 63c).
        const double W_xi = c[0] / a;
        const double W_eta = (c[1] - eta_[j] * ws * c[0]) / w;
        if (present[k]) {
          merge(xi_sign, W_xi);
          merge(col_sign_[i], W_eta);
        }
        Stencil s;
        int slot = 0;
        detail::add_direction(s, slot, i, nx_, W_xi, n, ny_, hx);
        detail::add_direction(s, slot, j, ny_, W_eta, n, 1, hy);
        stencils_[n][k] = s;
      }
    }
  }
  xi_sign_ = xi_sign;
}

double PatchSolver::sweep(const PatchKinematics& kin, int direction) {
  const bool i_up = xi_sign_ == 1 || (xi_sign_ != -1 && (direction & 1) == 0);
  const bool rotate = riemann_.theta != 0.0;
  double max_change = 0.0;
  const Mat2& R = riemann_.R;
  for (int ii = 0; ii < nx_; ++ii) {
    const int i = i_up ? ii : nx_ - 1 - ii;
    const bool j_up = col_sign_[i] == 1 || (col_sign_[i] != -1 && (direction & 2) == 0);
    for (int jj = 0; jj < ny_; ++jj) {
      const int j = j_up ? jj : ny_ - 1 - jj;
      const int n = idx(i, j);
      double* ut = ut_.data() + static_cast<std::size_t>(n) * m_;
      // Upstream part of W . grad u~ per component.
      for (int c = 0; c < m_; ++c) {
        const Stencil& s = stencils_[n][family_of_[c]];
        double r = 0.0;
        for (int k = 0; k < 4; ++k)
          if (s.nb[k] >= 0) r += s.wt[k] * ut_[static_cast<std::size_t>(s.nb[k]) * m_ + c];
        rhs_[c] = r;
        d_[c] = s.diag;
      }
      // One Newton step per node and sweep (exact for sources affine at fixed v_r; otherwise the
      // sweeps iterate the nonlinearity together with the transport coupling).
      // u = Q u~; h~ = Q^T h(Q u~); J~ = Q^T J Q (eqs. 45-46); residual G = d u~ + r - h~;
      // (diag(d) - J~) delta = -G.
      if (m_ == 2) {
        Vec2 u(ut[0], ut[1]);
        if (rotate) u = R * u;
        const Vec2 v_r = relative_velocity(model_, kin, x_[n], u.data());
        Vec2 h;
        Mat2 J;
        model_.source(u.data(), v_r, h.data());
        model_.source_jacobian(u.data(), v_r, J.data());
        if (rotate) {
          h = R.transpose() * h;
          J = R.transpose() * J * R;
        }
        Mat2 A = -J;
        A(0, 0) += d_[0];
        A(1, 1) += d_[1];
        const Vec2 G(d_[0] * ut[0] + rhs_[0] - h[0], d_[1] * ut[1] + rhs_[1] - h[1]);
        const Vec2 delta = -A.inverse() * G;
        ut[0] += delta[0];
        ut[1] += delta[1];
        max_change = std::max({max_change, std::abs(delta[0]), std::abs(delta[1])});
        if (!std::isfinite(delta[0] + delta[1])) throw_non_finite(x_[n]);
        continue;
      }
      for (int c = 0; c < m_; ++c) u_[c] = ut[c];
      if (rotate) u_.head<2>() = R * Vec2(ut[0], ut[1]);
      const Vec2 v_r = relative_velocity(model_, kin, x_[n], u_.data());
      model_.source(u_.data(), v_r, h_.data());
      model_.source_jacobian(u_.data(), v_r, J_.data());
      if (rotate) {
        ht_.noalias() = Q_.transpose() * h_;
        A_.noalias() = J_ * Q_;
        Jt_.noalias() = Q_.transpose() * A_;
      } else {
        ht_ = h_;
        Jt_ = J_;
      }
      A_ = -Jt_;
      for (int c = 0; c < m_; ++c) {
        A_(c, c) += d_[c];
        ht_[c] = -(d_[c] * ut[c] + rhs_[c] - ht_[c]);
      }
      lu_.compute(A_);
      rhs_ = lu_.solve(ht_);
      for (int c = 0; c < m_; ++c) {
        ut[c] += rhs_[c];
        max_change = std::max(max_change, std::abs(rhs_[c]));
      }
      if (!std::isfinite(rhs_.sum())) throw_non_finite(x_[n]);
    }
  }
  return max_change;
}

SteadyPatch PatchSolver::solve(const PatchKinematics& kin, bool warm) {
  kin.validate("kinematics");
  require_leading_edges(classify_edges(geometry_, riemann_, kin), model_, "kinematics");
  prepare(kin);
  if (!warm) std::fill(ut_.begin(), ut_.end(), 0.0);
  int sweeps = 0;
  // The change of a sweep is measured against the state's scale, tracked across sweeps.
  for (;;) {
    double change = 0.0;
    // A sweep is counted as converged when its largest update is below tolerance * scale.
    change = sweep(kin, sweeps % 4);
    ++sweeps;
    double scale = 0.0;
    for (double v : ut_) scale = std::max(scale, std::abs(v));
    // A state below 1e-8 (normalised force) counts as zero: its changes are measured against 1e-8.
    if (change <= params_.tolerance * std::max(scale, 1e-8)) break;
    if (sweeps >= params_.max_sweeps)
      throw SolverError(fmt::format("patch steady solve: not converged after patch.max_sweeps = {} sweeps (last "
                                    "change {} of scale {}); the fields may have closed streamlines without "
                                    "damping",
                                    params_.max_sweeps, format_value(change), format_value(scale)));
  }
  SteadyPatch out = integrate(kin);
  out.sweeps = sweeps;
  return out;
}

SteadyPatch PatchSolver::integrate(const PatchKinematics& kin) const {
  SteadyPatch out;
  const auto& pair = model_.pair();
  const Mat2 dS = pair.S1() - pair.S2();
  const int nz = pair.zeta_size();
  VecX u(m_), h(m_);
  for (int n = 0; n < nx_ * ny_; ++n) {
    const Eigen::Map<const VecX> ut(ut_.data() + static_cast<std::size_t>(n) * m_, m_);
    u = Q_ * ut;
    const Vec2& x = x_[n];
    const Vec2 v_r = relative_velocity(model_, kin, x, u.data());
    const Vec2 f = model_.friction(u.data(), v_r);
    const double p = load_[n];
    out.force_N += p * f;  // eq. 36
    // phi = (S1 - S2) z + 2 S0 zeta (eq. 37)
    Vec2 phi = dS * pair.relative_deformation(Vec2(u[0], u[1]), u.data() + 2);
    if (nz > 0) phi += 2.0 * pair.S0() * u.segment(2, nz);
    out.Mz_Nm += p * ((x[0] + phi[0]) * f[1] - (x[1] + phi[1]) * f[0]);  // eq. 38
    out.Mz_no_phi_Nm += p * (x[0] * f[1] - x[1] * f[0]);                 // eq. 39
    out.stored_energy_J += p * model_.stored_energy(u.data());            // eq. 85
    out.supplied_power_W -= p * f.dot(v_r);
    const Vec2 zdot = model_.source(u.data(), v_r, h.data());
    out.dissipated_power_W += p * model_.dissipation_rate(u.data(), v_r, h.data(), zdot);
  }
  return out;
}

}  // namespace bristle::patch
