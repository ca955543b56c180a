// Steady patch solver: second-order upwind differences on the mapped square, Gauss-Seidel sweeps,
// pointwise Newton with the contact model's own source and Jacobian (paper 1, eqs. 33-39, 46-50).
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <memory>

#include "bristle/core/error.hpp"
#include "bristle/core/parallel.hpp"
#include "bristle/patch/patch.hpp"
#include "bristle/transport/line_contact.hpp"
#include "budget.hpp"
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
  load_scale_ = scale;
  energy_split_ = std::make_shared<const detail::EnergySplit>(model_, riemann_);
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
  delta_.resize(m_);
  start_.resize(m_);
  source_affine_ = transport::source_is_affine(model_);
  // A node's remaining error feeds every node downstream of it: the estimated error left at a node
  // is held to tolerance / (nx + ny), the most cells a streamline crosses in the forward sweep.
  node_budget_ = 1.0 / (nx_ + ny_);
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
  // Family velocities are rigid motions (eqs. 43, 47): c_k(x) = c_k(0) + omega_k e_z x x.
  std::array<Vec2, 4> c0;
  std::array<double, 4> omega{};
  for (int k = 0; k < 4; ++k) {
    c0[k] = family_velocity(riemann_, kin, kFamilies[k], Vec2::Zero());
    omega[k] = family_velocity(riemann_, kin, kFamilies[k], Vec2(1.0, 0.0))[1] - c0[k][1];
  }
  for (int i = 0; i < nx_; ++i) {
    const double w = geometry_.half_width(x_[idx(i, 0)][0]);
    const double ws = geometry_.half_width_slope(x_[idx(i, 0)][0]);
    for (int j = 0; j < ny_; ++j) {
      const int n = idx(i, j);
      const Vec2& x = x_[n];
      for (int k = 0; k < 4; ++k) {
        if (!present[k]) continue;  // no component of the state moves with this family
        const Vec2 c(c0[k][0] - omega[k] * x[1], c0[k][1] + omega[k] * x[0]);
        // Mapped velocity W = (V . grad) Phi with xi = x/a, eta = y/w(x) (App. A.1, eq. 63c).
        const double W_xi = c[0] / a;
        const double W_eta = (c[1] - eta_[j] * ws * c[0]) / w;
        merge(xi_sign, W_xi);
        merge(col_sign_[i], W_eta);
        Stencil s;
        int slot = 0;
        detail::add_direction(s, slot, i, nx_, W_xi, n, ny_, hx);
        detail::add_direction(s, slot, j, ny_, W_eta, n, 1, hy);
        stencils_[n][k] = s;
      }
    }
  }
  xi_sign_ = xi_sign;
  const double w1 = kin.body1.omega_radps, w2 = kin.body2.omega_radps;
  const bool vr_depends_on_u = kin.s_corrections && (w1 != 0.0 || w2 != 0.0);
  exact_step_ = source_affine_ && !vr_depends_on_u;
  // v_r of eq. 29 is affine in the state: v_r = V1(x) - V2(x) + G u~ with, from eq. 27,
  //   x1 - x = -S2 z + S0 zeta,  x2 - x = S1 z + S0 zeta,  z = K0bar^-1 (f - Cbar zeta) (eq. 15),
  //   G = (w1 E (d(x1 - x)/du) - w2 E (d(x2 - x)/du)) Q,  E = e_z x (rotation by +90 degrees)
  // (relative_velocity evaluates the same expression term by term).
  vr_rigid0_ = kin.body1.V0_mps - kin.body2.V0_mps;
  vr_spin_ = w1 - w2;
  G_.setZero(2, m_);
  if (vr_depends_on_u) {
    const auto& pair = model_.pair();
    const int nz = pair.zeta_size();
    Mat2X dz(2, m_);  // dz/du
    dz.leftCols(2) = pair.K0bar_inv();
    if (nz > 0) dz.rightCols(nz) = -pair.K0bar_inv() * pair.Cbar();
    Mat2X s0(2, m_);  // d(S0 zeta)/du
    s0.setZero();
    if (nz > 0) s0.rightCols(nz) = pair.S0();
    const Mat2X d1 = -pair.S2() * dz + s0, d2 = pair.S1() * dz + s0;
    Mat2 E;
    E << 0.0, -1.0, 1.0, 0.0;
    G_ = (w1 * E * d1 - w2 * E * d2) * Q_;
  }
  G2_ = m_ == 2 ? Mat2(G_) : Mat2::Zero();
  vr_linear_ = vr_depends_on_u;
}

bool PatchSolver::newton_step(int n, double* ut, double& change, bool fresh) {
  // u = Q u~; h~ = Q^T h(Q u~); J~ = Q^T J Q (eqs. 45-46); residual G = d u~ + r - h~;
  // (diag(d) - J~) delta = -G with r the upstream part of W . grad u~ (held in rhs_).
  const bool rotate = riemann_.theta != 0.0;
  if (m_ == 2) {
    const Mat2& R = riemann_.R;
    const Vec2 uh(ut[0], ut[1]);
    const Vec2 u = rotate ? Vec2(R * uh) : uh;
    Vec2 v_r = rigid_relative_velocity(n);
    if (vr_linear_) v_r += G2_ * uh;
    Vec2 h;
    model_.source(u.data(), v_r, h.data());
    if (rotate) h = R.transpose() * h;
    if (fresh) {
      Mat2 J;
      model_.source_jacobian(u.data(), v_r, J.data());
      if (rotate) J = R.transpose() * J * R;
      Mat2 A = -J;
      A(0, 0) += d_[0];
      A(1, 1) += d_[1];
      A_inv2_ = A.inverse();
    }
    const Vec2 G(d_[0] * ut[0] + rhs_[0] - h[0], d_[1] * ut[1] + rhs_[1] - h[1]);
    const Vec2 delta = -A_inv2_ * G;
    ut[0] += delta[0];
    ut[1] += delta[1];
    change = std::max(std::abs(delta[0]), std::abs(delta[1]));
    return std::isfinite(delta[0] + delta[1]);
  }
  for (int c = 0; c < m_; ++c) u_[c] = ut[c];
  if (rotate) u_.head<2>() = riemann_.R * Vec2(ut[0], ut[1]);
  Vec2 v_r = rigid_relative_velocity(n);
  if (vr_linear_) v_r += G_ * Eigen::Map<const VecX>(ut, m_);
  model_.source(u_.data(), v_r, h_.data());
  if (rotate) {
    ht_.noalias() = Q_.transpose() * h_;
  } else {
    ht_ = h_;
  }
  if (fresh) {
    model_.source_jacobian(u_.data(), v_r, J_.data());
    if (rotate) {
      A_.noalias() = J_ * Q_;
      Jt_.noalias() = Q_.transpose() * A_;
    } else {
      Jt_ = J_;
    }
    A_ = -Jt_;
    for (int c = 0; c < m_; ++c) A_(c, c) += d_[c];
    lu_.compute(A_);
  }
  for (int c = 0; c < m_; ++c) ht_[c] = -(d_[c] * ut[c] + rhs_[c] - ht_[c]);
  delta_.noalias() = lu_.solve(ht_);
  change = 0.0;
  for (int c = 0; c < m_; ++c) {
    ut[c] += delta_[c];
    change = std::max(change, std::abs(delta_[c]));
  }
  return std::isfinite(delta_.sum());
}

double PatchSolver::sweep(int direction, int node_steps, double& scale, bool& nodes_converged) {
  const bool i_up = xi_sign_ == 1 || (xi_sign_ != -1 && (direction & 1) == 0);
  double max_change = 0.0;
  nodes_converged = true;
  for (int ii = 0; ii < nx_; ++ii) {
    const int i = i_up ? ii : nx_ - 1 - ii;
    const bool j_up = col_sign_[i] == 1 || (col_sign_[i] != -1 && (direction & 2) == 0);
    for (int jj = 0; jj < ny_; ++jj) {
      const int j = j_up ? jj : ny_ - 1 - jj;
      const int n = idx(i, j);
      double* ut = ut_.data() + static_cast<std::size_t>(n) * m_;
      // Upstream part of W . grad u~ per component (fixed while the node is solved).
      for (int c = 0; c < m_; ++c) {
        const Stencil& s = stencils_[n][family_of_[c]];
        double r = 0.0;
        for (int k = 0; k < 4; ++k)
          if (s.nb[k] >= 0) r += s.wt[k] * ut_[static_cast<std::size_t>(s.nb[k]) * m_ + c];
        rhs_[c] = r;
        d_[c] = s.diag;
        start_[c] = ut[c];
      }
      // The node's own equation solved to the tolerance: Newton with the source Jacobian at fixed
      // v_r. One step is exact when the source is affine at fixed v_r and v_r does not depend on the
      // state (no S-corrections with spin); otherwise (v_r of eq. 29 through x1, x2 of eq. 27, or a
      // nonlinear source) the step is repeated until its update is below tolerance * scale.
      // The iteration in v_r converges linearly with a small ratio rho = |delta_k| / |delta_k-1|; the
      // remaining error after step k is then about rho / (1 - rho) |delta_k|, which is compared with
      // the tolerance as soon as rho can be measured (step 2 on), so that no step is spent on
      // confirming convergence alone.
      double previous = 0.0;
      for (int it = 1;; ++it) {
        double change = 0.0;
        // Sources affine at fixed v_r: the Jacobian depends on v_r alone, which moves by a fraction of
        // the tolerance between the node's steps; it is formed once per node (a chord iteration).
        if (!newton_step(n, ut, change, it == 1 || !source_affine_)) throw_non_finite(x_[n]);
        ++newton_steps_;
        for (int c = 0; c < m_; ++c) scale = std::max(scale, std::abs(ut[c]));
        const double tol = params_.tolerance * std::max(scale, 1e-8);
        if (exact_step_ || change <= tol) break;
        if (it >= 2 && change < 0.5 * previous && change * change / (previous - change) <= node_budget_ * tol) break;
        previous = change;
        if (it >= node_steps) {
          nodes_converged = false;
          break;
        }
      }
      for (int c = 0; c < m_; ++c) max_change = std::max(max_change, std::abs(ut[c] - start_[c]));
    }
  }
  return max_change;
}

SteadyPatch PatchSolver::solve(const PatchKinematics& kin, bool warm) {
  kin.validate("kinematics");
  require_leading_edges(classify_edges(geometry_, riemann_, kin), model_, "kinematics");
  prepare(kin);
  if (!warm) std::fill(ut_.begin(), ut_.end(), 0.0);
  // With the sweep order along the flow of every family (xi over the patch, eta in every column) the
  // upwind stencil only reaches nodes already visited in the sweep: Gauss-Seidel is then forward
  // substitution, and one sweep whose nodes are each solved to the tolerance is the discrete steady
  // state (a further sweep would change no node by more than the tolerance). Otherwise sweeps in
  // alternating directions, one Newton step per node and sweep (the neighbours are not final either),
  // until a sweep changes no node by more than tolerance * scale.
  bool triangular = xi_sign_ != 2;
  for (int s : col_sign_) triangular = triangular && s != 2;
  double scale = 0.0;  // max |u~|, tracked over the sweeps (a state below 1e-8 counts as zero)
  if (warm)
    for (double v : ut_) scale = std::max(scale, std::abs(v));
  int sweeps = 0;
  newton_steps_ = 0;
  for (;;) {
    bool nodes_converged = true;
    double running_scale = scale;  // the nodes' criterion: the scale so far (previous state and this sweep)
    const double change = sweep(sweeps % 4, triangular ? kNodeIterations : 1, running_scale, nodes_converged);
    ++sweeps;
    scale = 0.0;  // the state after the sweep
    for (double v : ut_) scale = std::max(scale, std::abs(v));
    if (triangular && nodes_converged) break;
    if (change <= params_.tolerance * std::max(scale, 1e-8)) break;
    if (sweeps >= params_.max_sweeps) {
      // A change at the state's round-off: the tolerance asks for what double precision cannot give (1e-200 was
      // blamed on closed streamlines, helper-39).
      const double roundoff = 64.0 * std::numeric_limits<double>::epsilon() * std::max(scale, 1e-8);
      if (change <= roundoff)
        throw SolverError(fmt::format("patch.tolerance = {}: below the round-off of a sweep (the last change {} of "
                                      "scale {} is at the precision of the state after patch.max_sweeps = {} "
                                      "sweeps); give at least 1e-13",
                                      format_value(params_.tolerance), format_value(change), format_value(scale),
                                      params_.max_sweeps));
      throw SolverError(fmt::format("patch steady solve: not converged after patch.max_sweeps = {} sweeps (last "
                                    "change {} of scale {}); the fields may have closed streamlines without "
                                    "damping",
                                    params_.max_sweeps, format_value(change), format_value(scale)));
    }
  }
  SteadyPatch out = integrate(kin);
  out.sweeps = sweeps;
  out.newton_steps = newton_steps_;
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
    u = ut;
    u.head<2>() = riemann_.R * Vec2(ut[0], ut[1]);  // u = Q u~
    const Vec2& x = x_[n];
    Vec2 v_r = rigid_relative_velocity(n);  // eq. 29 (affine in the state, see prepare)
    if (vr_linear_) v_r += G_ * ut;
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
  detail::BudgetFrame frame;
  frame.geometry = &geometry_;
  frame.nx = nx_;
  frame.ny = ny_;
  frame.m = m_;
  frame.pressure_factor = load_scale_;
  frame.present = {true, true, model_.n1() > 0, model_.n2() > 0};
  frame.velocity = [&](int k, const Vec2& x) { return family_velocity(riemann_, kin, kFamilies[k], x); };
  const detail::BudgetTerms b = detail::energy_flux_terms(frame, *energy_split_, ut_);
  out.outflow_power_W = b.outflow_W;
  out.compression_power_W = b.compression_W;
  out.budget_residual_W = out.supplied_power_W - out.dissipated_power_W - out.outflow_power_W + out.compression_power_W;
  return out;
}

std::optional<MatX> PatchSolver::output_derivatives(
    const std::vector<std::array<const contact::ContactModel*, 2>>& perturbed, const std::vector<double>& dp) const {
  bool triangular = xi_sign_ != 2;
  for (int s : col_sign_) triangular = triangular && s != 2;
  if (!triangular) return std::nullopt;
  const auto& pair = model_.pair();
  // The transport is the same when the perturbed pair's matrices agree to rounding (a rigid body is a stiff
  // spring: S1, S2 then move in the 16th digit with k0); a change of the perturbation's order (1e-6) is refused.
  const auto same = [](const auto& a, const auto& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() && (a - b).norm() <= 1e-11 * (a.norm() + b.norm() + 1e-300);
  };
  for (const auto& pm : perturbed)
    for (const contact::ContactModel* m : pm) {
      const auto& q = m->pair();
      if (m->state_size() != m_ || q.zeta_size() != pair.zeta_size() || !same(q.S1(), pair.S1()) ||
          !same(q.S2(), pair.S2()) || (pair.zeta_size() > 0 && !same(q.S0(), pair.S0())))
        return std::nullopt;
      if (vr_linear_ && (!same(q.K0bar_inv(), pair.K0bar_inv()) ||
                         (pair.zeta_size() > 0 && !same(q.Cbar(), pair.Cbar()))))
        return std::nullopt;
    }
  const int np = static_cast<int>(perturbed.size());
  const int N = nx_ * ny_;
  // The pointwise functions of the discrete equations at node n: h~(u~) = Q^T h(Q u~, v_r(u~)) and the outputs
  // per unit load o(u~) = (f_x, f_y, (x + phi) x f, x x f) (eqs. 36-39), for a model M.
  VecX u(m_), h(m_);
  const auto v_r_at = [&](int n, const VecX& ut) {
    Vec2 v = rigid_relative_velocity(n);
    if (vr_linear_) v += G_ * ut;
    return v;
  };
  const auto htilde = [&](const contact::ContactModel& M, int n, const VecX& ut) -> VecX {
    u = Q_ * ut;
    M.source(u.data(), v_r_at(n, ut), h.data());
    return Q_.transpose() * h;
  };
  const auto outputs = [&](const contact::ContactModel& M, int n, const VecX& ut) -> Eigen::Vector4d {
    u = Q_ * ut;
    const Vec2 f = M.friction(u.data(), v_r_at(n, ut));
    const auto& P = M.pair();
    const int nz = P.zeta_size();
    Vec2 phi = (P.S1() - P.S2()) * P.relative_deformation(Vec2(u[0], u[1]), u.data() + 2);
    if (nz > 0) phi += 2.0 * P.S0() * u.segment(2, nz);
    const Vec2& x = x_[n];
    return {f[0], f[1], (x[0] + phi[0]) * f[1] - (x[1] + phi[1]) * f[0], x[0] * f[1] - x[1] * f[0]};
  };
  double scale = 0.0;
  for (double v : ut_) scale = std::max(scale, std::abs(v));
  const double du = 1e-6 * std::max(scale, 1e-8);
  MatX S = MatX::Zero(static_cast<Eigen::Index>(N) * m_, np);  // du~/dp, node-major
  MatX D = MatX::Zero(4, np);
  MatX A(m_, m_), B(4, m_), rhs(m_, np), O(4, np);
  const bool i_up = xi_sign_ != -1;
  for (int ii = 0; ii < nx_; ++ii) {
    const int i = i_up ? ii : nx_ - 1 - ii;
    const bool j_up = col_sign_[i] != -1;
    for (int jj = 0; jj < ny_; ++jj) {
      const int j = j_up ? jj : ny_ - 1 - jj;
      const int n = idx(i, j);
      const VecX ut = Eigen::Map<const VecX>(ut_.data() + static_cast<std::size_t>(n) * m_, m_);
      for (int c = 0; c < m_; ++c) {
        VecX up = ut, um = ut;
        up[c] += du;
        um[c] -= du;
        A.col(c) = -(htilde(model_, n, up) - htilde(model_, n, um)) / (2.0 * du);
        B.col(c) = (outputs(model_, n, up) - outputs(model_, n, um)) / (2.0 * du);
      }
      for (int c = 0; c < m_; ++c) A(c, c) += stencils_[n][family_of_[c]].diag;
      for (int k = 0; k < np; ++k) {
        const std::size_t kk = static_cast<std::size_t>(k);
        rhs.col(k) = (htilde(*perturbed[kk][0], n, ut) - htilde(*perturbed[kk][1], n, ut)) / (2.0 * dp[kk]);
        O.col(k) = (outputs(*perturbed[kk][0], n, ut) - outputs(*perturbed[kk][1], n, ut)) / (2.0 * dp[kk]);
      }
      // Upstream part of the stencil: already visited nodes (forward substitution).
      for (int c = 0; c < m_; ++c) {
        const Stencil& st = stencils_[n][family_of_[c]];
        for (int k = 0; k < 4; ++k)
          if (st.nb[k] >= 0) rhs.row(c) -= st.wt[k] * S.row(static_cast<Eigen::Index>(st.nb[k]) * m_ + c);
      }
      const MatX Sn = A.partialPivLu().solve(rhs);
      if (!Sn.allFinite()) return std::nullopt;
      S.middleRows(static_cast<Eigen::Index>(n) * m_, m_) = Sn;
      D += load_[n] * (B * Sn + O);
    }
  }
  return D;
}

std::vector<SteadyPatch> solve_steady_map(const contact::ContactModel& model, const PatchParams& params,
                                          const std::vector<PatchKinematics>& points, std::size_t chain_length,
                                          int threads, const std::function<void(std::size_t points_done)>& progress) {
  params.validate("patch");
  std::vector<SteadyPatch> out(points.size());
  if (points.empty()) return out;
  const std::size_t L = chain_length == 0 ? points.size() : chain_length;
  const std::size_t chains = (points.size() + L - 1) / L;
  const std::size_t wanted = static_cast<std::size_t>(resolve_threads(threads));
  const int workers = static_cast<int>(std::min(wanted, chains));
  // One solver per worker (its workspace); a chain always starts cold, so which worker runs it does
  // not matter.
  std::vector<std::unique_ptr<PatchSolver>> solvers(static_cast<std::size_t>(workers));
  std::vector<std::size_t> failed_at(chains, 0);  // per chain: the point that failed (written by its worker)
  ParallelOptions options;
  options.threads = workers;
  options.describe = [&](std::size_t c) { return fmt::format("operating point {}", failed_at[c]); };
  std::atomic<std::size_t> done{0};
  std::atomic<bool> cancelled{false};  // the progress callback threw: the chains stop at their next point
  if (progress)
    options.poll = [&](std::size_t) {
      try {
        progress(done.load(std::memory_order_relaxed));
      } catch (...) {
        cancelled.store(true);
        throw;
      }
    };
  parallel_for(
      chains,
      [&](std::size_t c, std::size_t worker) {
        failed_at[c] = c * L;
        auto& solver = solvers[worker];
        if (!solver) solver = std::make_unique<PatchSolver>(model, params);
        const std::size_t end = std::min(points.size(), (c + 1) * L);
        for (std::size_t k = c * L; k < end && !cancelled.load(std::memory_order_relaxed); ++k) {
          failed_at[c] = k;
          out[k] = solver->solve(points[k], k > c * L);
          done.fetch_add(1, std::memory_order_relaxed);
        }
      },
      options);
  return out;
}

}  // namespace bristle::patch
