// Transient line-contact solver: Strang splitting of the pointwise source (implicit SDIRK2, the
// same stepper as the lumped fixed-step integration) and the transport of each component (explicit
// second-order upwind finite volumes with a slope limiter, Lax-Wendroff-type face values).
//
//   u^{n+1} = S(dt/2) A(dt) S(dt/2) u^n
//
// A(dt), for a component with speed c > 0 (mirrored for c < 0; nothing for c = 0):
//   face value  u_{i+1/2} = u_i + (1 - nu)/2 sigma_i,   nu = c dt/dx,   sigma_i = limiter(u_i - u_{i-1}, u_{i+1} - u_i)
//   update      u_i <- u_i - nu (u_{i+1/2} - u_{i-1/2}),  u_{-1/2} = 0 (inflow boundary, eqs. 50, 54d-e)
// with the ghost value u_{-1} = -u_0 (so the reconstruction meets the boundary value) and linear
// extrapolation at the outflow end. Stable for nu <= 1; second order where the limiter is inactive.
#include <fmt/format.h>

#include <unsupported/Eigen/MatrixFunctions>

#include <algorithm>
#include <cmath>
#include <limits>

#include "bristle/core/error.hpp"
#include "bristle/integrate/stepper.hpp"
#include "bristle/transport/line_contact.hpp"

namespace bristle::transport {

namespace {

double limited_slope(Limiter limiter, double left, double right) {
  switch (limiter) {
    case Limiter::none:
      return 0.0;
    case Limiter::minmod:
      if (left * right <= 0.0) return 0.0;
      return std::abs(left) < std::abs(right) ? left : right;
    case Limiter::van_leer:
      return left * right > 0.0 ? 2.0 * left * right / (left + right) : 0.0;
    case Limiter::mc: {
      if (left * right <= 0.0) return 0.0;
      const double m = std::min({2.0 * std::abs(left), 2.0 * std::abs(right), 0.5 * std::abs(left + right)});
      return left > 0.0 ? m : -m;
    }
  }
  return 0.0;
}

}  // namespace

void LineContactParams::validate(std::string_view prefix) const {
  const std::string p(prefix);
  require_positive(p + ".L_m", L_m);
  if (cells < 2) throw InvalidInput(fmt::format("{}.cells = {}: must be >= 2", p, cells));
  require_positive(p + ".normal_load_N", normal_load_N);
  pressure.validate(p + ".pressure");
  V1.validate(p + ".V1");
  V2.validate(p + ".V2");
  v_y.validate(p + ".v_y");
  require_finite(p + ".cfl", cfl);
  if (!(cfl > 0.0 && cfl <= 1.0))
    throw InvalidInput(fmt::format("{}.cfl = {}: must lie in (0, 1] (the scheme is stable for Courant numbers <= 1)", p,
                                   format_value(cfl)));
  require_non_negative(p + ".dt_s", dt_s);
  require_non_negative(p + ".max_dt_s", max_dt_s);
}

VecX characteristic_speeds(const contact::ContactModel& model, double V1, double V2) {
  const Mat2& s1 = model.pair().S1();
  const Mat2& s2 = model.pair().S2();
  if (std::abs(s1(0, 1)) > 1e-12 || std::abs(s1(1, 0)) > 1e-12)
    throw InvalidInput(fmt::format("body1.k0: the line contact needs diagonal stiffness matrices (decoupled x and y); "
                                   "S1 = {}",
                                   format_matrix(s1)));
  VecX c(model.state_size());
  c[0] = s1(0, 0) * V1 + s2(0, 0) * V2;  // eq. 34a: S1 V1 + S2 V2
  c[1] = s1(1, 1) * V1 + s2(1, 1) * V2;
  const int n1 = model.n1(), n2 = model.n2();
  c.segment(2, 2 * n1).setConstant(V1);
  c.segment(2 + 2 * n1, 2 * n2).setConstant(V2);
  return c;
}

LineContact::LineContact(const contact::ContactModel& model, LineContactParams params)
    : model_(model),
      params_(std::move(params)),
      pressure_((params_.validate("line"), params_.pressure), params_.L_m, params_.normal_load_N) {
  dx_ = params_.L_m / params_.cells;
  characteristic_speeds(model_, 0.0, 0.0);  // checks the diagonal structure once
  p_cell_.resize(params_.cells);
  for (int i = 0; i < params_.cells; ++i) p_cell_[i] = pressure_.mean(i * dx_, (i + 1) * dx_);
  cell_system_.size = model_.state_size();
  cell_system_.rhs = [this](double t, const double* x, double* dxdt) {
    model_.source(x, relative_velocity(t), dxdt);
  };
  cell_system_.jacobian = [this](double t, const double* x, double* jacobian) {
    model_.source_jacobian(x, relative_velocity(t), jacobian);
  };
  integrate::Options options;
  options.method = integrate::Method::sdirk2;
  options.rtol = 1e-10;
  options.atol = 1e-14;
  options.dt = 1.0;  // unused by the stepper; each step gets its own h
  stepper_ = std::make_unique<integrate::FixedStepper>(cell_system_, options, stepper_stats_);
  switch (params_.source_scheme) {
    case SourceScheme::automatic:
      exponential_ = source_is_affine(model_);
      break;
    case SourceScheme::sdirk2:
      exponential_ = false;
      break;
    case SourceScheme::exponential:
      if (!source_is_affine(model_))
        throw InvalidInput(fmt::format("line.source_scheme = \"exponential\": needs a source affine in the state; "
                                       "law.type = \"{}\"{} is not (use \"sdirk2\" or \"automatic\")",
                                       laws::to_string(model_.law().params().kind),
                                       model_.law().params().G_inverse ? " with a user G^-1" : ""));
      exponential_ = true;
      break;
  }
  reset(0.0);
}

LineContact::~LineContact() = default;

void LineContact::reset(double t0, const VecX& initial) {
  const int m = components();
  u_ = VecX::Zero(static_cast<Eigen::Index>(params_.cells) * m);
  if (initial.size() == m) {
    for (int i = 0; i < params_.cells; ++i) u_.segment(i * m, m) = initial;
  } else if (initial.size() == u_.size()) {
    u_ = initial;
  } else if (initial.size() != 0) {
    throw InvalidInput(fmt::format("initial state: {} values; expected {} (one point) or {} (every cell)",
                                   initial.size(), m, u_.size()));
  }
  if (!u_.allFinite()) throw InvalidInput("initial state: must be finite");
  t_ = t0;
  steps_ = 0;
  supplied_energy_ = 0.0;
  supplied_power_ = supplied_power();
}

Vec2 LineContact::relative_velocity(double t) const {
  return Vec2(params_.V2(t) - params_.V1(t), params_.v_y(t));  // v_r = V2 - V1 along xi (errata §5.2)
}

double LineContact::stable_dt(double t) const {
  const double c = characteristic_speeds(model_, params_.V1(t), params_.V2(t)).cwiseAbs().maxCoeff();
  return c > 0.0 ? params_.cfl * dx_ / c : std::numeric_limits<double>::infinity();
}

void LineContact::source_step(double t, double dt) {
  const int m = components();
  if (exponential_) {
    // Frozen at the midpoint: u' = J u + b with J, b at v_r(t + dt/2); exact propagator from the
    // exponential of the augmented matrix [[J, b], [0, 0]] dt = [[P, q], [0, 1]].
    const Vec2 v_mid = relative_velocity(t + 0.5 * dt);
    if (!(v_mid == propagator_v_) || dt != propagator_h_) {
      MatX aug = MatX::Zero(m + 1, m + 1);
      const VecX zero = VecX::Zero(m);
      VecX b(m);
      model_.source(zero.data(), v_mid, b.data());
      MatX jac(m, m);
      model_.source_jacobian(zero.data(), v_mid, jac.data());
      aug.topLeftCorner(m, m) = jac;
      aug.topRightCorner(m, 1) = b;
      const MatX e = (aug * dt).exp();
      propagator_ = e.topLeftCorner(m, m);
      propagator_shift_ = e.topRightCorner(m, 1);
      propagator_v_ = v_mid;
      propagator_h_ = dt;
    }
    Eigen::Map<MatX> cells(u_.data(), m, params_.cells);  // one column per cell
    MatX next = propagator_ * cells;
    next.colwise() += propagator_shift_;
    cells = next;
    return;
  }
  VecX cell(m);
  for (int i = 0; i < params_.cells; ++i) {
    cell = u_.segment(i * m, m);
    stepper_->step(t, dt, cell);
    u_.segment(i * m, m) = cell;
  }
}

void LineContact::transport_step(double t, double dt) {
  const int m = components(), n = params_.cells;
  const VecX speed = characteristic_speeds(model_, params_.V1(t), params_.V2(t));
  std::vector<double> column(n + 4), face(n + 1);
  for (int k = 0; k < m; ++k) {
    const double c = speed[k];
    if (c == 0.0) continue;
    const double nu = std::abs(c) * dt / dx_;
    // Gather the component in upwind order: index 0 is the inflow cell.
    for (int j = 0; j < n; ++j) column[j + 1] = u_[(c > 0 ? j : n - 1 - j) * m + k];
    column[0] = -column[1];                          // ghost: reconstruction is 0 at the inflow face
    column[n + 1] = 2.0 * column[n] - column[n - 1];  // outflow: linear extrapolation
    face[0] = 0.0;                                   // boundary value at the inflow face
    for (int j = 0; j < n; ++j) {
      const double sigma = limited_slope(params_.limiter, column[j + 1] - column[j], column[j + 2] - column[j + 1]);
      face[j + 1] = column[j + 1] + 0.5 * (1.0 - nu) * sigma;
    }
    for (int j = 0; j < n; ++j) {
      const int cell = c > 0 ? j : n - 1 - j;
      u_[cell * m + k] = column[j + 1] - nu * (face[j + 1] - face[j]);
    }
  }
}

void LineContact::step(double dt) {
  source_step(t_, 0.5 * dt);
  transport_step(t_ + 0.5 * dt, dt);
  source_step(t_ + 0.5 * dt, 0.5 * dt);
  t_ += dt;
  ++steps_;
  if (!u_.allFinite()) throw SolverError(fmt::format("line contact: non-finite state at t = {} s", format_value(t_)));
  const double p_new = supplied_power();
  supplied_energy_ += 0.5 * dt * (supplied_power_ + p_new);  // trapezoidal rule, second order
  supplied_power_ = p_new;
}

void LineContact::advance_to(double t_end) {
  constexpr double kSlack = 1e-12;
  while (t_ < t_end - kSlack * std::max(1.0, std::abs(t_end))) {
    const double remaining = t_end - t_;
    // The Courant limit over the step: speeds at its start and its end.
    const double limit = std::min(stable_dt(t_), stable_dt(std::min(t_end, t_ + remaining)));
    double dt = remaining;
    if (params_.dt_s > 0.0) {
      dt = std::min(params_.dt_s, remaining);
      const double courant_limit = limit / params_.cfl;  // nu = 1
      if (dt > courant_limit * (1.0 + 1e-12))
        throw SolverError(fmt::format("line.dt_s = {}: breaks the CFL condition at t = {} s (largest stable step "
                                      "dx / max|c| = {} s); use a smaller dt_s or the automatic step",
                                      format_value(params_.dt_s), format_value(t_), format_value(courant_limit)));
    } else {
      dt = std::min(dt, limit);
      if (params_.max_dt_s > 0.0) dt = std::min(dt, params_.max_dt_s);
    }
    // Avoid a sliver of a last step.
    if (t_end - (t_ + dt) < 1e-3 * dt) dt = t_end - t_;
    step(dt);
  }
  t_ = t_end;
}

Vec2 LineContact::total_force() const {
  const int m = components();
  const Vec2 v_r = relative_velocity(t_);
  Vec2 f = Vec2::Zero();
  for (int i = 0; i < params_.cells; ++i) f += p_cell_[i] * model_.friction(u_.data() + i * m, v_r);
  return f * dx_;  // eq. 36 (midpoint rule with exact cell means of p); f includes LuGre's output terms
}

double LineContact::stored_energy() const {
  const int m = components();
  double w = 0.0;
  for (int i = 0; i < params_.cells; ++i) w += p_cell_[i] * model_.stored_energy(u_.data() + i * m);
  return w * dx_;  // eq. 85
}

double LineContact::supplied_power() const {
  const int m = components();
  const Vec2 v_r = relative_velocity(t_);
  double p = 0.0;
  for (int i = 0; i < params_.cells; ++i) p -= p_cell_[i] * model_.friction(u_.data() + i * m, v_r).dot(v_r);
  return p * dx_;  // eq. 79
}

double LineContact::dissipated_power() const {
  const int m = components();
  const Vec2 v_r = relative_velocity(t_);
  VecX h(m);
  double d = 0.0;
  for (int i = 0; i < params_.cells; ++i) {
    const Vec2 zdot = model_.source(u_.data() + i * m, v_r, h.data());
    d += p_cell_[i] * model_.dissipation_rate(u_.data() + i * m, v_r, h.data(), zdot);
  }
  return d * dx_;
}

TimeSeries LineContact::field() const {
  const int m = components();
  std::vector<std::string> names{"xi_m", "p_N_per_m", "f_x", "f_y"};
  for (int i = 0; i < model_.n1(); ++i)
    for (const char* a : {"x", "y"}) names.push_back(fmt::format("z1_{}_{}_m", i + 1, a));
  for (int i = 0; i < model_.n2(); ++i)
    for (const char* a : {"x", "y"}) names.push_back(fmt::format("z2_{}_{}_m", i + 1, a));
  TimeSeries out(names);
  std::vector<double> row(names.size());
  for (int i = 0; i < params_.cells; ++i) {
    row[0] = cell_centre(i);
    row[1] = p_cell_[i];
    for (int k = 0; k < m; ++k) row[2 + k] = u_[i * m + k];
    out.add_row(row);
  }
  return out;
}

LineRun run(LineContact& contact, const std::vector<double>& output_times, const std::vector<double>& field_times,
            const std::function<void(double)>& progress) {
  if (output_times.empty()) throw InvalidInput("output times: empty; at least one output time is needed");
  LineRun result{TimeSeries({"t_s", "V1_mps", "V2_mps", "vr_mps", "vr_y_mps", "Fx_N", "Fy_N", "W_J",
                             "P_supplied_W", "E_supplied_J", "P_dissipated_W"}),
                 {}, {}, 0};
  result.series.reserve(output_times.size());
  std::size_t next_field = 0;
  const double t0 = output_times.front(), t1 = output_times.back();
  for (const double t : output_times) {
    contact.advance_to(t);
    const Vec2 v_r = contact.relative_velocity(t);
    const Vec2 force = contact.total_force();
    const auto& p = contact.params();
    result.series.add_row({t, p.V1(t), p.V2(t), v_r[0], v_r[1], force[0], force[1], contact.stored_energy(),
                           contact.supplied_power(), contact.supplied_energy(), contact.dissipated_power()});
    while (next_field < field_times.size() && field_times[next_field] <= t + 1e-12 * std::max(1.0, std::abs(t))) {
      result.field_times.push_back(t);
      result.fields.push_back(contact.field());
      ++next_field;
    }
    if (progress && t1 > t0) progress((t - t0) / (t1 - t0));
  }
  result.steps = contact.steps_taken();
  return result;
}

}  // namespace bristle::transport
