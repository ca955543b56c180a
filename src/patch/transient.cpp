// Transient patch: Strang splitting of the exact per-cell source step and second-order upwind
// transport on the mapped square (paper 1, eqs. 33-39, 85; App. A.1). See patch/transient.hpp.
#include "bristle/patch/transient.hpp"

#include <fmt/format.h>

#include <unsupported/Eigen/MatrixFunctions>
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <stdexcept>
#include <string>

#include "bristle/core/error.hpp"
#include "bristle/core/interrupt.hpp"
#include "bristle/integrate/stepper.hpp"
#include "bristle/transport/line_contact.hpp"
#include "budget.hpp"
#include "stencil.hpp"

namespace bristle::patch {

namespace {
// Gauss-Legendre, 8 points on [0, 1].
constexpr double kGx[8] = {0.0198550717512319, 0.1016667612931866, 0.2372337950418355, 0.4082826787521751,
                           0.5917173212478249, 0.7627662049581645, 0.8983332387068134, 0.9801449282487681};
constexpr double kGw[8] = {0.0506142681451881, 0.1111905172266872, 0.1568533229389436, 0.1813418916891810,
                           0.1813418916891810, 0.1568533229389436, 0.1111905172266872, 0.0506142681451881};
}  // namespace

void exp_phi1_2x2(const Mat2& A, Mat2& E, Mat2& F) {
  // Cayley-Hamilton: with m = tr A / 2 and B = A - m I, B^2 = d I (d = m^2 - det A), so every analytic
  // f(A) = a I + b B. The eigenvalues are m +- r (r = sqrt|d|; m +- i r for d < 0), and
  //   e^A = e^m (C I + S B),  C = cosh r, S = sinh r / r   (cos and sin for d < 0),
  //   phi1(A) = int_0^1 e^{A tau} dtau = alpha I + beta B,
  // with alpha, beta from phi(lambda) = (e^lambda - 1) / lambda at the eigenvalues. Every branch costs O(1),
  // whatever the stiffness |A| (a stiff bristle, k0 = 1e12, gives |A| ~ 1e7 per step).
  const double m = 0.5 * A.trace();
  const double half_gap = 0.5 * (A(0, 0) - A(1, 1));
  const double d = half_gap * half_gap + A(0, 1) * A(1, 0);  // m^2 - det A without the cancellation
  const Mat2 B = A - m * Mat2::Identity();
  const double r = std::sqrt(std::abs(d));
  // Real eigenvalues lp >= ln (d > 0): the larger in magnitude from m +- r, the other from the determinant
  // (m +- r would lose it when r ~ |m|, e.g. -1e7 and -1e-2).
  double lp = m + r, ln = m - r;
  if (d > 0.0) {
    const double big = m >= 0.0 ? lp : ln;
    const double small = big != 0.0 ? A.determinant() / big : 0.0;
    (m >= 0.0 ? ln : lp) = small;
  }
  // C(tau) = cosh(r tau) and S(tau) = sinh(r tau) / r (cos and sin for d < 0; a series for small r tau).
  const auto CS = [&](double tau, double& ct, double& st) {
    const double x = r * tau;
    if (x < 1e-4) {  // C = 1 + d tau^2/2, S = tau (1 + d tau^2 / 6)
      ct = 1.0 + 0.5 * d * tau * tau;
      st = tau * (1.0 + d * tau * tau / 6.0);
    } else if (d > 0.0) {
      ct = std::cosh(x);
      st = std::sinh(x) / r;
    } else {
      ct = std::cos(x);
      st = std::sin(x) / r;
    }
  };
  double c = 0.0, s = 0.0;  // E = c I + s B
  if (d > 0.0 && r >= 1.0) {  // e^{m+r} and e^{m-r} separately: e^m cosh r would be 0 * inf for m << -700 < -r
    const double ep = std::exp(lp), en = std::exp(ln);
    c = 0.5 * (ep + en);
    s = 0.5 * (ep - en) / r;
  } else {
    const double em = std::exp(m);
    CS(1.0, c, s);
    c *= em;
    s *= em;
  }
  E = c * Mat2::Identity() + s * B;

  double alpha = 0.0, beta = 0.0;
  if (std::abs(m) + r <= 16.0) {
    // Moderate |A|: composite 8-point Gauss-Legendre on at most 9 panels (1e-12 against the matrix
    // exponential, test ClosedFormExpPhi1MatchesTheMatrixExponential).
    const int panels = 1 + static_cast<int>((std::abs(m) + r) / 2.0);
    for (int p = 0; p < panels; ++p)
      for (int k = 0; k < 8; ++k) {
        const double tau = (p + kGx[k]) / panels;
        double ct, st;
        CS(tau, ct, st);
        const double w = kGw[k] / panels * std::exp(m * tau);
        alpha += w * ct;
        beta += w * st;
      }
  } else if (r <= 0.05 * std::abs(m)) {
    // Nearly repeated eigenvalues of a stiff A (|m| > 15): Taylor series in d around m,
    //   alpha = sum_k d^k phi_2k(m) / (2k)!,  beta = sum_k d^k phi_2k+1(m) / (2k+1)!,
    // phi_k(m) = int_0^1 tau^k e^{m tau} dtau by the recursion phi_k = (e^m - k phi_k-1) / m (stable for
    // k <= 15 < |m|). |d| / m^2 <= 0.0025, so eight terms leave a relative error under 1e-19.
    const double em = std::exp(m);
    double phi = std::expm1(m) / m;  // phi_0
    double dk = 1.0, fact = 1.0;     // d^k and (2k)! or (2k+1)!
    for (int k = 0; k < 8; ++k) {
      alpha += dk * phi / fact;
      phi = (em - (2 * k + 1) * phi) / m;  // phi_2k+1
      fact *= 2 * k + 1;
      beta += dk * phi / fact;
      phi = (em - (2 * k + 2) * phi) / m;  // phi_2k+2
      fact *= 2 * k + 2;
      dk *= d;
    }
  } else if (d > 0.0) {
    // Distinct real eigenvalues m +- r: alpha = (phi(m+r) + phi(m-r)) / 2, beta = (phi(m+r) - phi(m-r)) / (2r)
    // (r > 0.05 |m| and r > 0.76: the difference loses at most a factor |m| / (2r) <= 10).
    const auto phi = [](double lambda) { return lambda == 0.0 ? 1.0 : std::expm1(lambda) / lambda; };
    const double pp = phi(lp), pn = phi(ln);
    alpha = 0.5 * (pp + pn);
    beta = 0.5 * (pp - pn) / r;
  } else {
    // Complex pair m +- i r (|m + i r| > 11): alpha = Re phi(m + i r), beta = Im phi(m + i r) / r.
    const std::complex<double> lambda(m, r);
    const std::complex<double> p = (std::exp(lambda) - 1.0) / lambda;
    alpha = p.real();
    beta = p.imag() / r;
  }
  F = alpha * Mat2::Identity() + beta * B;
}

void PatchTransientParams::validate(std::string_view prefix) const {
  patch.validate(fmt::format("{}.patch", prefix));
  require_closed_interval(fmt::format("{}.size_exponent", prefix), size_exponent, 0.0, 1.0);
  if (width_exponent) require_closed_interval(fmt::format("{}.width_exponent", prefix), *width_exponent, 0.0, 1.0);
  require_finite(fmt::format("{}.cfl", prefix), cfl);
  if (!(cfl > 0.0 && cfl <= 0.5))
    throw InvalidInput(fmt::format("{}.cfl = {}: must be in (0, 0.5]", prefix, format_value(cfl)));
  require_non_negative(fmt::format("{}.max_dt_s", prefix), max_dt_s);
}

PatchTransient::PatchTransient(const contact::ContactModel& model, PatchTransientParams params,
                               KinematicsHistory kinematics, LoadHistory load)
    : model_(model),
      params_(std::move(params)),
      kinematics_(std::move(kinematics)),
      load_(std::move(load)),
      geometry_(params_.patch),
      riemann_(riemann(model.pair())) {
  params_.validate("transient");
  switch (params_.source_scheme) {
    case transport::SourceScheme::automatic:
      exponential_ = transport::source_is_affine(model_);
      break;
    case transport::SourceScheme::sdirk2:
      exponential_ = false;
      break;
    case transport::SourceScheme::exponential:
      if (!transport::source_is_affine(model_))
        throw InvalidInput(fmt::format("transient.source_scheme = \"exponential\": needs a source affine in the state; "
                                       "law.type = \"{}\"{} is not (use \"sdirk2\" or \"automatic\")",
                                       laws::to_string(model_.law().params().kind),
                                       model_.law().params().G_inverse ? " with a user G^-1" : ""));
      exponential_ = true;
      break;
  }
  nx_ = params_.patch.nx;
  ny_ = params_.patch.ny;
  m_ = model_.state_size();
  family_of_.resize(m_);
  for (int k = 0; k < m_; ++k) family_of_[k] = k < 2 ? k : (k < 2 + 2 * model_.n1() ? 2 : 3);
  const int N = nx_ * ny_;
  X_.resize(N);
  weight_.resize(N);
  eta_.resize(ny_);
  const double hx = 2.0 / nx_, hy = 2.0 / ny_;
  for (int j = 0; j < ny_; ++j) eta_[j] = -1.0 + (j + 0.5) * hy;
  double sum = 0.0;
  for (int i = 0; i < nx_; ++i) {
    const double x = geometry_.a() * (-1.0 + (i + 0.5) * hx);
    const double w = geometry_.half_width(x);
    for (int j = 0; j < ny_; ++j) {
      const int n = i * ny_ + j;
      X_[n] = Vec2(x, w * eta_[j]);
      weight_[n] = geometry_.pressure(X_[n]) * geometry_.a() * w * hx * hy;
      sum += weight_[n];
    }
  }
  for (double& w : weight_) w /= sum;  // self-similar: each cell carries a fixed fraction of F_z
  ref_load_sum_ = sum;
  energy_split_ = std::make_shared<const detail::EnergySplit>(model_, riemann_);
  Q_ = MatX::Identity(m_, m_);
  Q_.topLeftCorner(2, 2) = riemann_.R;
  stencils_.resize(N);
  reset(0.0);
}

Vec2 PatchTransient::scales(double t) const {
  const double Fz = load_(t);
  if (!(std::isfinite(Fz) && Fz > 0.0))
    throw InvalidInput(fmt::format("load history: F_z({}) = {}: must be finite and > 0", format_value(t),
                                   format_value(Fz)));
  const double ratio = Fz / params_.patch.normal_load_N;
  // A reference load far below the load (patch.normal_load_N = 1e-170 scaled the patch by 5.5e101 and wrote
  // Mz ~ -5.6e103 N m with exit 0, helper-39): the scaling law is not meant over twelve decades.
  if (ratio > kMaxLoadRatio)
    throw InvalidInput(fmt::format("patch.normal_load_N = {}: the reference load F_z0 of the scaling (F_z/F_z0)^gamma is "
                                   "{} times below the load F_z({}) = {} N; at most {:g} (a reference load meant for "
                                   "another contact?)",
                                   format_value(params_.patch.normal_load_N), format_value(ratio), format_value(t),
                                   format_value(Fz), kMaxLoadRatio));
  return Vec2(std::pow(ratio, params_.size_exponent), std::pow(ratio, params_.width_gamma()));
}

double PatchTransient::sigma(double t, int direction) const { return scales(t)[direction]; }

double PatchTransient::load_rate(double t) const {
  const double h = 1e-7 * std::max(1.0, std::abs(t));
  return (std::log(load_(t + h)) - std::log(load_(t - h))) / (2.0 * h);  // F_z'/F_z
}

double PatchTransient::sigma_rate(double t, int direction) const {
  if ((direction == 0 ? params_.size_exponent : params_.width_gamma()) == 0.0) return 0.0;
  const double h = rate_step(t);
  return (std::log(sigma(t + h, direction)) - std::log(sigma(t - h, direction))) / (2.0 * h);  // sigma'/sigma
}

void PatchTransient::reset(double t0) {
  t_ = t0;
  steps_ = 0;
  for (std::vector<double>& S : tangents_) std::fill(S.begin(), S.end(), 0.0);
  energy_.fill(0.0);
  ut_.assign(static_cast<std::size_t>(nx_) * ny_ * m_, 0.0);
  k1_ = ut_;
  k2_ = ut_;
  const PatchSnapshot s = snapshot();
  initial_energy_ = s.stored_energy_J;
  power_ = powers(s);
}

std::array<double, 5> PatchTransient::powers(const PatchSnapshot& s) const {
  return {s.supplied_power_W, s.dissipated_power_W, s.outflow_power_W, s.compression_power_W, s.load_power_W};
}

VecX PatchTransient::state(int i, int j) const {
  return Q_ * Eigen::Map<const VecX>(ut_.data() + static_cast<std::size_t>(i * ny_ + j) * m_, m_);
}

void PatchTransient::build_stencils(double t) {
  const Vec2 s = scales(t), rate(sigma_rate(t, 0), sigma_rate(t, 1));
  const PatchKinematics kin = kinematics_(t);
  kin.validate("kinematics");
  const double hx = 2.0 / nx_, hy = 2.0 / ny_;
  const double a = s[0] * geometry_.a();
  const double slope_factor = s[1] / s[0];  // dw_phys/dx = (sigma_y / sigma_x) w'(X)
  for (int i = 0; i < nx_; ++i)
    for (int j = 0; j < ny_; ++j) {
      const int n = i * ny_ + j;
      const Vec2 x = position(n, s);
      const double w = s[1] * geometry_.half_width(X_[n][0]);
      const double ws = slope_factor * geometry_.half_width_slope(X_[n][0]);
      for (int k = 0; k < 4; ++k) {
        // V - V_dC with the boundary (and grid) velocity V_dC = (sigma_x'/sigma_x x, sigma_y'/sigma_y y)
        // (eq. 63c).
        const Vec2 c = family_velocity(riemann_, kin, kFamilies[k], x) - rate.cwiseProduct(x);
        PatchSolver::Stencil st;
        int slot = 0;
        detail::add_direction(st, slot, i, nx_, c[0] / a, n, ny_, hx);
        detail::add_direction(st, slot, j, ny_, (c[1] - eta_[j] * ws * c[0]) / w, n, 1, hy);
        stencils_[n][k] = st;
      }
    }
}

double PatchTransient::max_rate(double t) const {
  const_cast<PatchTransient*>(this)->build_stencils(t);
  double rate = 0.0;  // the largest diagonal bounds the Courant sum of both directions
  for (const auto& s : stencils_)
    for (int k = 0; k < 4; ++k) rate = std::max(rate, s[k].diag);
  return rate;
}

double PatchTransient::stable_dt(double t) const {
  const double rate = max_rate(t);
  double dt = rate > 0.0 ? params_.cfl * 1.5 / rate : std::numeric_limits<double>::infinity();
  // diag = 3|W|/(2h) per direction for interior cells: cfl * 1.5 / diag = cfl * h / |W|.
  if (params_.max_dt_s > 0.0) dt = std::min(dt, params_.max_dt_s);
  return dt;
}

void PatchTransient::transport_rk3(std::vector<double>& u, double dt) {
  const int N = nx_ * ny_;
  // L(u)_c = -(diag u_c + sum wt u_nb,c)
  auto apply = [&](const std::vector<double>& w, std::vector<double>& out) {
    for (int n = 0; n < N; ++n)
      for (int c = 0; c < m_; ++c) {
        const PatchSolver::Stencil& s = stencils_[n][family_of_[c]];
        double r = s.diag * w[static_cast<std::size_t>(n) * m_ + c];
        for (int k = 0; k < 4; ++k)
          if (s.nb[k] >= 0) r += s.wt[k] * w[static_cast<std::size_t>(s.nb[k]) * m_ + c];
        out[static_cast<std::size_t>(n) * m_ + c] = -r;
      }
  };
  // SSP-RK3 (Shu-Osher).
  std::vector<double> u1(u.size()), u2(u.size());
  apply(u, k1_);
  for (std::size_t q = 0; q < u.size(); ++q) u1[q] = u[q] + dt * k1_[q];
  apply(u1, k1_);
  for (std::size_t q = 0; q < u.size(); ++q) u2[q] = 0.75 * u[q] + 0.25 * (u1[q] + dt * k1_[q]);
  apply(u2, k1_);
  for (std::size_t q = 0; q < u.size(); ++q) u[q] = u[q] / 3.0 + 2.0 / 3.0 * (u2[q] + dt * k1_[q]);
}

void PatchTransient::transport_step(double t, double dt) {
  build_stencils(t + 0.5 * dt);
  transport_rk3(ut_, dt);
  // The tangent: the scheme is linear in u~ with stencils that do not depend on the parameters.
  for (std::vector<double>& S : tangents_) transport_rk3(S, dt);
}

void PatchTransient::source_step_sdirk2(double t, double dt) {
  const double tm = t + 0.5 * dt;
  const Vec2 s = scales(tm);
  const PatchKinematics kin = kinematics_(tm);
  Vec2 x = Vec2::Zero();  // the cell's position, set before its step
  Vec2 v = Vec2::Zero();
  integrate::OdeSystem cell;
  cell.size = m_;
  cell.rhs = [&](double, const double* u, double* dudt) {
    v = relative_velocity(model_, kin, x, u);
    model_.source(u, v, dudt);
  };
  // d h / d u at fixed v_r: the S-corrections' dependence of v_r on u (with spin) is left to the Newton
  // iteration, which converges on the full residual.
  cell.jacobian = [&](double, const double* u, double* jacobian) {
    model_.source_jacobian(u, relative_velocity(model_, kin, x, u), jacobian);
  };
  integrate::Options options;
  options.method = integrate::Method::sdirk2;
  options.rtol = 1e-10;
  options.atol = 1e-14;
  options.dt_s = 1.0;  // unused by the stepper; each step gets its own h
  integrate::Stats stats;
  integrate::FixedStepper stepper(cell, options, stats);
  VecX u(m_);
  for (int n = 0; n < nx_ * ny_; ++n) {
    Eigen::Map<VecX> ut(ut_.data() + static_cast<std::size_t>(n) * m_, m_);
    x = position(n, s);
    u = Q_ * ut;
    stepper.step(t, dt, u);
    ut = Q_.transpose() * u;  // Q is orthogonal (a rotation of the first two components)
  }
}

void PatchTransient::propagator(const contact::ContactModel& M, const Vec2& v, double dt, Propagator& c) const {
  if (v == c.v) return;
  const int m = m_;
  if (c.zero.size() != m) {
    c.aug = MatX::Zero(m + 1, m + 1);
    c.P.resize(m, m);
    c.J.resize(m, m);
    c.q.resize(m);
    c.b.resize(m);
    c.zero = VecX::Zero(m);
  }
  M.source(c.zero.data(), v, c.b.data());  // h(u) = J u + b at fixed v_r (affine)
  M.source_jacobian(c.zero.data(), v, c.J.data());
  if (m == 2) {  // closed form: P = e^{J dt}, q = phi1(J dt) dt b (Riemann variables)
    const Mat2 Jt = riemann_.R.transpose() * Mat2(c.J) * riemann_.R;
    const Vec2 bt = riemann_.R.transpose() * Vec2(c.b[0], c.b[1]);
    Mat2 E, F;
    exp_phi1_2x2(Jt * dt, E, F);
    c.P = E;
    c.q = F * bt * dt;
  } else {
    c.aug.setZero();
    c.aug.topLeftCorner(m, m) = Q_.transpose() * c.J * Q_ * dt;
    c.aug.topRightCorner(m, 1) = Q_.transpose() * c.b * dt;
    const MatX e = c.aug.exp();
    c.P = e.topLeftCorner(m, m);
    c.q = e.topRightCorner(m, 1);
  }
  c.v = v;
}

VecX PatchTransient::cell_step(const contact::ContactModel& M, const PatchKinematics& kin, bool vr_depends_on_u,
                               const Vec2& x, const VecX& ut, double dt, Propagator& c) const {
  VecX u = Q_ * ut;
  Vec2 v = relative_velocity(M, kin, x, u.data());
  if (vr_depends_on_u) {  // v_r at the predicted midpoint state (second order)
    propagator(M, v, dt, c);
    const VecX u_pred = Q_ * (c.P * ut + c.q);
    u = 0.5 * (u + u_pred);
    v = relative_velocity(M, kin, x, u.data());
  }
  propagator(M, v, dt, c);
  return c.P * ut + c.q;
}

void PatchTransient::source_step(double t, double dt) {
  if (!exponential_) {
    source_step_sdirk2(t, dt);
    return;
  }
  const double tm = t + 0.5 * dt;
  const Vec2 s = scales(tm);
  const PatchKinematics kin = kinematics_(tm);
  const bool vr_depends_on_u = kin.s_corrections && (kin.body1.omega_radps != 0.0 || kin.body2.omega_radps != 0.0);
  const int m = m_;
  VecX u(m), u_pred(m);
  Propagator c;
  const MatX& P = c.P;
  const VecX& q = c.q;
  // The tangent (track_sensitivities): per parameter the propagators of the models at p_j -/+ step.
  const std::size_t np = sensitivities_.size();
  std::vector<Propagator> cm(np), cp(np), cs(np > 0 && vr_depends_on_u ? 2 : 0);
  VecX ut0(m), dphi(m), sj(m), probe(m);
  MatX A(m, m);
  double scale = 0.0;  // of the state, for the differences in u~ when v_r depends on it
  if (np > 0 && vr_depends_on_u)
    for (double w : ut_) scale = std::max(scale, std::abs(w));
  const double du = 1e-6 * std::max(scale, 1e-8);
  for (int n = 0; n < nx_ * ny_; ++n) {
    Eigen::Map<VecX> ut(ut_.data() + static_cast<std::size_t>(n) * m, m);
    const Vec2 x = position(n, s);
    u = Q_ * ut;
    Vec2 v = relative_velocity(model_, kin, x, u.data());
    if (vr_depends_on_u) {  // v_r at the predicted midpoint state (second order)
      propagator(model_, v, dt, c);
      u_pred = Q_ * (P * ut + q);
      u = 0.5 * (u + u_pred);
      v = relative_velocity(model_, kin, x, u.data());
    }
    propagator(model_, v, dt, c);
    if (np > 0) {
      // S_j <- dPhi/du~ S_j + dPhi/dp_j at the cell's state before its step.
      ut0 = ut;
      if (vr_depends_on_u) {
        for (int k = 0; k < m; ++k) {
          probe = ut0;
          probe[k] += du;
          A.col(k) = cell_step(model_, kin, true, x, probe, dt, cs[0]);
          probe[k] = ut0[k] - du;
          A.col(k) -= cell_step(model_, kin, true, x, probe, dt, cs[1]);
          A.col(k) /= 2.0 * du;
        }
      }
      for (std::size_t j = 0; j < np; ++j) {
        const PatchTransientSensitivity& sens = sensitivities_[j];
        if (vr_depends_on_u) {
          dphi = (cell_step(*sens.plus, kin, true, x, ut0, dt, cp[j]) -
                  cell_step(*sens.minus, kin, true, x, ut0, dt, cm[j])) /
                 (2.0 * sens.step);
        } else {  // Phi = P u~ + q at the same v_r for every model: dPhi/dp = (dP/dp) u~ + dq/dp
          propagator(*sens.plus, v, dt, cp[j]);
          propagator(*sens.minus, v, dt, cm[j]);
          dphi.noalias() = (cp[j].P - cm[j].P) * ut0;
          dphi += cp[j].q - cm[j].q;
          dphi /= 2.0 * sens.step;
        }
        Eigen::Map<VecX> S(tangents_[j].data() + static_cast<std::size_t>(n) * m, m);
        sj = S;
        if (vr_depends_on_u)
          S.noalias() = A * sj;
        else
          S.noalias() = P * sj;
        S += dphi;
      }
    }
    ut = P * ut + q;
  }
}

void PatchTransient::step(double dt) {
  if (!(dt > 0.0) || !std::isfinite(dt))
    throw InvalidInput(fmt::format("patch transient step dt = {}: must be finite and > 0", format_value(dt)));
  const double limit = courant_dt(t_);
  if (dt > 1.01 * limit)
    throw InvalidInput(fmt::format("patch transient step dt = {} s is {} times the Courant limit {} s at t = {} s "
                                   "(cell size / the largest transport speed); a step beyond it is unstable "
                                   "(advance_to chooses stable steps)",
                                   format_value(dt), format_value(dt / limit), format_value(limit), format_value(t_)));
  step_unchecked(dt);
}

double PatchTransient::courant_dt(double t) const {
  const double rate = max_rate(t);
  return rate > 0.0 ? 1.5 / rate : std::numeric_limits<double>::infinity();  // diag = 3|W|/(2h): h / |W|
}

void PatchTransient::step_unchecked(double dt) {
  source_step(t_, 0.5 * dt);
  transport_step(t_, dt);
  source_step(t_ + 0.5 * dt, 0.5 * dt);
  t_ += dt;
  ++steps_;
  for (double v : ut_)
    if (!std::isfinite(v)) throw SolverError(fmt::format("patch transient: non-finite state at t = {} s", t_));
  // The budget's terms integrated by the trapezoidal rule over the step (second order, as the scheme).
  const std::array<double, 5> p1 = powers(snapshot());
  for (std::size_t q = 0; q < p1.size(); ++q) energy_[q] += 0.5 * dt * (power_[q] + p1[q]);
  power_ = p1;
}

void PatchTransient::advance_to(double t_end, const std::function<void(double)>& on_step) {
  if (!std::isfinite(t_end) || t_end < t_ - 1e-12 * std::max(1.0, std::abs(t_)))  // an earlier time did nothing
    throw InvalidInput(fmt::format("patch transient advance_to: t_end = {} s: must be finite and not before the "
                                   "current time {} s",
                                   format_value(t_end), format_value(t_)));
  const double cells = static_cast<double>(nx_) * ny_;
  if (const double step = params_.max_dt_s > 0.0 ? std::min(stable_dt(t_), params_.max_dt_s) : stable_dt(t_);
      t_end > t_ && std::abs(t_end) > 1.0 && step < 2e-12 * std::abs(t_end))
    // As LineContact::check_work: the slack of 1e-12 of the time swallowed whole steps at t = 1e11 .. 1e12 s.
    throw InvalidInput(fmt::format("patch transient: advance to t = {} s from t = {} s: the step of {} s is below "
                                   "2e-12 of the time: at times this large a step loses its digits; start the time "
                                   "nearer 0",
                                   format_value(t_end), format_value(t_), format_value(step)));
  if (const double remaining = t_end - t_; remaining > 1e-12 * std::max(1.0, std::abs(t_end))) {
    const double dt = std::min(stable_dt(t_), remaining);
    const double steps = std::ceil(remaining / dt), updates = steps * cells;
    if (std::isfinite(dt) && updates > kMaxCellUpdates)
      throw InvalidInput(fmt::format(
          "patch transient: advance to t = {} s from t = {} s: {} steps of {} s ({}) over {} x {} cells, {} cell "
          "updates; at most {:g} per call",
          format_value(t_end), format_value(t_), format_value(steps), format_value(dt),
          params_.max_dt_s > 0.0 && dt == params_.max_dt_s
              ? fmt::format("transient.max_dt_s = {}", format_value(params_.max_dt_s))
              : fmt::format("the CFL step transient.cfl h / max|W| with transient.cfl = {}", format_value(params_.cfl)),
          nx_, ny_, format_value(updates), kMaxCellUpdates));
  }
  while (t_ < t_end) {
    const double remaining = t_end - t_;
    if (remaining <= 1e-12 * std::max(1.0, std::abs(t_end))) {
      t_ = t_end;
      break;
    }
    const double dt = std::min(stable_dt(t_), remaining);
    if (!std::isfinite(dt))
      throw InvalidInput("patch transient: nothing is advected and transient.max_dt_s = 0; set a step cap");
    if (!(t_ + dt > t_))
      throw SolverError(fmt::format("patch transient at t = {} s: the step {} s no longer moves the time (below its "
                                    "resolution); the CFL step has collapsed",
                                    format_value(t_), format_value(dt)));
    poll_interrupt(static_cast<unsigned long>(nx_) * static_cast<unsigned long>(ny_));  // core/interrupt.hpp
    step_unchecked(dt);
    if (on_step) on_step(t_);
  }
}

std::string transport_change(const contact::ContactModel& model, const contact::ContactModel& perturbed) {
  const auto& a = model.pair();
  const auto& b = perturbed.pair();
  if (perturbed.state_size() != model.state_size() || b.n1() != a.n1() || b.n2() != a.n2())
    return fmt::format("it changes the state's size ({} against {})", perturbed.state_size(), model.state_size());
  // Equal to rounding: a rigid body is a stiff spring, so S1 and S2 move in the 16th digit with k0.
  const auto same = [](const Mat2& x, const Mat2& y) {
    return (x - y).norm() <= 1e-11 * (x.norm() + y.norm() + 1e-300);
  };
  if (!same(a.S1(), b.S1()) || !same(a.S2(), b.S2()))
    return fmt::format("it changes the pair's S1 = {} (to {}), hence the transport velocities of the Riemann families "
                       "(eqs. 41-44), the stencils and the stable step",
                       format_matrix(a.S1()), format_matrix(b.S1()));
  return {};
}

void PatchTransient::track_sensitivities(std::vector<PatchTransientSensitivity> sensitivities) {
  if (!exponential_)
    throw InvalidInput(fmt::format("the tangent-linear run differentiates the exponential source step; this run takes "
                                   "sdirk2 (law.type = \"{}\"{}, transient.source_scheme = \"{}\")",
                                   laws::to_string(model_.law().params().kind),
                                   model_.law().params().G_inverse ? " with a user G^-1" : "",
                                   transport::to_string(params_.source_scheme)));
  for (std::size_t j = 0; j < sensitivities.size(); ++j) {
    const PatchTransientSensitivity& sj = sensitivities[j];
    if (!sj.minus || !sj.plus || !(sj.step > 0.0) || !std::isfinite(sj.step))
      throw InvalidInput(fmt::format("sensitivity {}: needs both perturbed models and a step > 0", j));
    for (const contact::ContactModel* M : {sj.minus, sj.plus})
      if (std::string why = transport_change(model_, *M); !why.empty())
        throw InvalidInput(fmt::format("sensitivity {}: {}", j, why));
  }
  sensitivities_ = std::move(sensitivities);
  tangents_.assign(sensitivities_.size(), std::vector<double>(ut_.size(), 0.0));
}

const std::vector<std::string>& PatchTransient::sensitivity_outputs() {
  static const std::vector<std::string> names{"Fx_N", "Fy_N", "Mz_Nm", "Mz_no_phi_Nm", "W_J", "P_supplied_W",
                                              "P_dissipated_W"};
  return names;
}

Eigen::Matrix<double, 7, 1> PatchTransient::cell_outputs(const contact::ContactModel& M, const PatchKinematics& kin,
                                                         int n, const Vec2& s, const VecX& ut) const {
  const VecX u = Q_ * ut;
  const Vec2 x = position(n, s);
  const Vec2 v_r = relative_velocity(M, kin, x, u.data());
  const Vec2 f = M.friction(u.data(), v_r);
  const auto& pair = M.pair();
  const int nz = pair.zeta_size();
  Vec2 phi = (pair.S1() - pair.S2()) * pair.relative_deformation(Vec2(u[0], u[1]), u.data() + 2);
  if (nz > 0) phi += 2.0 * pair.S0() * u.segment(2, nz);
  VecX h(m_);
  const Vec2 zdot = M.source(u.data(), v_r, h.data());
  Eigen::Matrix<double, 7, 1> o;
  o << f[0], f[1], (x[0] + phi[0]) * f[1] - (x[1] + phi[1]) * f[0], x[0] * f[1] - x[1] * f[0],
      M.stored_energy(u.data()), -f.dot(v_r), M.dissipation_rate(u.data(), v_r, h.data(), zdot);
  return o;
}

MatX PatchTransient::output_derivatives() const {
  if (tangents_.size() != sensitivities_.size() || sensitivities_.empty())
    throw std::logic_error("PatchTransient::output_derivatives: no sensitivities tracked");
  const int np = static_cast<int>(sensitivities_.size());
  const double Fz = load_(t_);
  const Vec2 s = scales(t_);
  const PatchKinematics kin = kinematics_(t_);
  double scale = 0.0;
  for (double w : ut_) scale = std::max(scale, std::abs(w));
  const double du = 1e-6 * std::max(scale, 1e-8);
  MatX D = MatX::Zero(7, np);
  Eigen::Matrix<double, 7, Eigen::Dynamic> B(7, m_);
  VecX ut(m_), probe(m_);
  for (int n = 0; n < nx_ * ny_; ++n) {
    ut = Eigen::Map<const VecX>(ut_.data() + static_cast<std::size_t>(n) * m_, m_);
    for (int k = 0; k < m_; ++k) {
      probe = ut;
      probe[k] += du;
      B.col(k) = cell_outputs(model_, kin, n, s, probe);
      probe[k] = ut[k] - du;
      B.col(k) -= cell_outputs(model_, kin, n, s, probe);
      B.col(k) /= 2.0 * du;
    }
    const double load = Fz * weight_[static_cast<std::size_t>(n)];
    for (int j = 0; j < np; ++j) {
      const PatchTransientSensitivity& sj = sensitivities_[static_cast<std::size_t>(j)];
      const Eigen::Map<const VecX> S(tangents_[static_cast<std::size_t>(j)].data() + static_cast<std::size_t>(n) * m_,
                                     m_);
      D.col(j) += load * (B * S + (cell_outputs(*sj.plus, kin, n, s, ut) - cell_outputs(*sj.minus, kin, n, s, ut)) /
                                      (2.0 * sj.step));
    }
  }
  return D;
}

PatchSnapshot PatchTransient::snapshot() const {
  PatchSnapshot out;
  out.t_s = t_;
  out.Fz_N = load_(t_);
  const Vec2 s = scales(t_);
  out.scale = s[0];
  out.scale_y = s[1];
  const PatchKinematics kin = kinematics_(t_);
  const auto& pair = model_.pair();
  const Mat2 dS = pair.S1() - pair.S2();
  const int nz = pair.zeta_size();
  VecX u(m_), h(m_);
  for (int n = 0; n < nx_ * ny_; ++n) {
    u = Q_ * Eigen::Map<const VecX>(ut_.data() + static_cast<std::size_t>(n) * m_, m_);
    const Vec2 x = position(n, s);
    const Vec2 v_r = relative_velocity(model_, kin, x, u.data());
    const Vec2 f = model_.friction(u.data(), v_r);
    const double p = out.Fz_N * weight_[static_cast<std::size_t>(n)];
    out.force_N += p * f;
    Vec2 phi = dS * pair.relative_deformation(Vec2(u[0], u[1]), u.data() + 2);
    if (nz > 0) phi += 2.0 * pair.S0() * u.segment(2, nz);
    out.Mz_Nm += p * ((x[0] + phi[0]) * f[1] - (x[1] + phi[1]) * f[0]);
    out.Mz_no_phi_Nm += p * (x[0] * f[1] - x[1] * f[0]);
    out.stored_energy_J += p * model_.stored_energy(u.data());
    out.supplied_power_W -= p * f.dot(v_r);
    const Vec2 zdot = model_.source(u.data(), v_r, h.data());
    out.dissipated_power_W += p * model_.dissipation_rate(u.data(), v_r, h.data(), zdot);
  }
  detail::BudgetFrame frame;
  frame.geometry = &geometry_;
  frame.nx = nx_;
  frame.ny = ny_;
  frame.m = m_;
  frame.sigma = s;
  frame.rate = Vec2(sigma_rate(t_, 0), sigma_rate(t_, 1));
  frame.pressure_factor = out.Fz_N / (s[0] * s[1] * ref_load_sum_);  // int p dA = F_z, area ~ sigma_x sigma_y
  frame.present = {true, true, model_.n1() > 0, model_.n2() > 0};
  frame.velocity = [&](int k, const Vec2& x) { return family_velocity(riemann_, kin, kFamilies[k], x); };
  const detail::BudgetTerms b = detail::energy_flux_terms(frame, *energy_split_, ut_);
  out.outflow_power_W = b.outflow_W;
  out.compression_power_W = b.compression_W;
  out.load_power_W = load_rate(t_) * out.stored_energy_J;
  out.supplied_energy_J = energy_[0];
  out.dissipated_energy_J = energy_[1];
  out.outflow_energy_J = energy_[2];
  out.compression_energy_J = energy_[3];
  out.load_energy_J = energy_[4];
  out.energy_residual_J = out.stored_energy_J - initial_energy_ -
                          (energy_[0] - energy_[1] - energy_[2] + energy_[3] + energy_[4]);
  return out;
}

}  // namespace bristle::patch
