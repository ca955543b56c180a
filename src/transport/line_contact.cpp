// Transient line-contact solver: Strang splitting of the pointwise source and the transport of each
// component (explicit second-order upwind finite volumes with a slope limiter, Lax-Wendroff-type face
// values).
//
//   u^{n+1} = S(dt/2) A(dt) S(dt/2) u^n
//
// S: for a source affine in u at fixed v_r (every law but Bouc-Wen and a user G^-1) the exact propagator
// u <- P u + q of the source frozen at the half step's midpoint, the same for every cell; otherwise the
// lumped model's SDIRK2 step in each cell.
// A(dt), for a component with speed c > 0 (mirrored for c < 0; nothing for c = 0):
//   face value  u_{i+1/2} = u_i + (1 - nu)/2 sigma_i,   nu = c dt/dx,   sigma_i = limiter(u_i - u_{i-1}, u_{i+1} - u_i)
//   update      u_i <- u_i - nu (u_{i+1/2} - u_{i-1/2}),  u_{-1/2} = 0 (inflow boundary, eqs. 50, 54d-e)
// with the ghost value u_{-1} = -u_0 (so the reconstruction meets the boundary value) and linear
// extrapolation at the outflow end. Stable for nu <= 1; second order where the limiter is inactive.
//
// The affine path runs on component-major work arrays (one contiguous column per component), skips the
// components that are zero and unforced, and gets eq. 36 and the supplied power from the p-weighted
// sums of the components (friction is affine in u there); the public cell-major state is refreshed
// from the work arrays when it is read (sync).
#include <fmt/format.h>

#include <unsupported/Eigen/MatrixFunctions>

#include <algorithm>
#include <cmath>
#include <limits>

#include "bristle/contact/bench.hpp"
#include "bristle/core/error.hpp"
#include "bristle/core/interrupt.hpp"
#include "bristle/core/progress.hpp"
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

// The tangent of track(): per parameter the ring of du (cells x components, the slots of ring_), the weighted sums
// of du and the supplied energy's derivative per slot, the running derivatives of the supplied power and energy,
// and the derivatives dP, dq of the propagators (propagator_derivative), cached like the propagators by (v, h).
struct LineContact::Tangent {
  struct Derivative {
    Vec2 v = Vec2::Constant(std::numeric_limits<double>::quiet_NaN());
    double h = -1.0;
    MatX dP;
    VecX dq;
  };
  struct Param {
    const contact::ContactModel* minus = nullptr;
    const contact::ContactModel* plus = nullptr;
    double step = 0.0;
    MatX ring[kDenseNodes];
    MatX scratch;
    VecX sum[kDenseNodes];
    double e[kDenseNodes] = {};
    double power = 0.0, energy = 0.0;
    Derivative cache[2];
    int cache_next = 0;
  };
  std::vector<Param> params;
  std::vector<double> column, dcolumn, dface;  // transport scratch
  std::vector<char> active;                    // per component: updated this step
  mutable MatX visible;                        // du interpolated in a sample visit
  mutable VecX up, um, du, h;                  // scratch of the outputs' derivatives
};

void LineContactParams::validate(std::string_view prefix) const {
  const std::string p(prefix);
  require_positive(p + ".L_m", L_m);
  if (cells < 2) throw InvalidInput(fmt::format("{}.cells = {}: must be >= 2", p, cells));
  if (cells > kMaxCells) throw InvalidInput(fmt::format("{}.cells = {}: at most {} cells", p, cells, kMaxCells));
  require_positive(p + ".normal_load_N", normal_load_N);
  pressure.validate(key_of(p, message_keys.pressure, "pressure"));
  V1.validate(key_of(p, message_keys.V1, "V1"));
  V2.validate(key_of(p, message_keys.V2, "V2"));
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

std::pair<double, double> fastest_characteristic_speed(const contact::ContactModel& model, const contact::Signal& V1,
                                                       const contact::Signal& V2, double a, double b, int samples) {
  std::vector<double> times = contact::extreme_candidates(V1, a, b);
  const std::vector<double> more = contact::extreme_candidates(V2, a, b);
  times.insert(times.end(), more.begin(), more.end());
  if (V1.kind == contact::SignalKind::sine || V2.kind == contact::SignalKind::sine)
    for (int i = 0; i <= samples && samples > 0; ++i) times.push_back(a + (b - a) * i / samples);
  double fastest = 0.0, at = a;
  for (const double t : times) {
    if (t < a || t > b) continue;
    const double c = characteristic_speeds(model, V1(t), V2(t)).cwiseAbs().maxCoeff();
    if (c > fastest) {
      fastest = c;
      at = t;
    }
  }
  return {fastest, at};
}

LineContact::LineContact(const contact::ContactModel& model, LineContactParams params)
    : model_(model),
      params_(std::move(params)),
      pressure_((params_.validate("line"), params_.pressure), params_.L_m, params_.normal_load_N,
                params_.pressure_key()) {
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
  options.dt_s = 1.0;  // unused by the stepper; each step gets its own h
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
  if (exponential_) {
    const int m = model_.state_size(), n = params_.cells;
    ring_.assign(kDenseNodes, MatX::Zero(n, m));
    scratch_ = MatX::Zero(n, m);
    column_.assign(static_cast<std::size_t>(n) + 2, 0.0);
    face_.assign(static_cast<std::size_t>(n) + 1, 0.0);
    weights_.resize(n);
    for (int i = 0; i < n; ++i) weights_[i] = p_cell_[i] * dx_;
    weight_sum_ = weights_.sum();
    nonzero_.assign(m, 0);
    active_.reserve(m);
    speed_ = VecX::Zero(m);
    mean_ = VecX::Zero(m);
    for (VecX& s : slot_sum_) s = VecX::Zero(m);
  }
  reset(0.0);
}

LineContact::~LineContact() = default;

void LineContact::reset(double t0, const VecX& initial) {
  if (!std::isfinite(t0)) throw InvalidInput(fmt::format("reset: t0 = {} s: must be finite", format_value(t0)));
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
  work_live_ = false;
  u_fresh_ = true;
  interp_count_ = 0;
  tangent_.reset();
  t_ = t0;
  steps_ = 0;
  supplied_energy_ = 0.0;
  supplied_power_ = supplied_power();
}

VecX& LineContact::state() {
  if (tangent_)
    throw std::logic_error("LineContact::state(): the state may not be changed while sensitivities are tracked");
  sync();
  work_live_ = false;  // the caller may change u_: the affine path reloads it before its next step
  return u_;
}

void LineContact::sync() const {
  if (u_fresh_) return;
  const int m = components(), n = params_.cells;
  Eigen::Map<MatX> cells(u_.data(), m, n);
  if (interp_count_ > 0) {
    interp_buf_ = interp_w_[0] * ring_[interp_slot_[0]];
    for (int i = 1; i < interp_count_; ++i) interp_buf_ += interp_w_[i] * ring_[interp_slot_[i]];
    cells = interp_buf_.transpose();
  } else {
    cells = ring_[head_].transpose();
  }
  u_fresh_ = true;
}

Vec2 LineContact::relative_velocity(double t) const {
  return Vec2(params_.V2(t) - params_.V1(t), params_.v_y(t));  // v_r = V2 - V1 along xi (errata §5.2)
}

double LineContact::max_speed(double t) const {
  const double V1 = params_.V1(t), V2 = params_.V2(t);
  const Mat2& s1 = model_.pair().S1();
  const Mat2& s2 = model_.pair().S2();
  double c = std::max(std::abs(s1(0, 0) * V1 + s2(0, 0) * V2), std::abs(s1(1, 1) * V1 + s2(1, 1) * V2));  // eq. 34a
  if (model_.n1() > 0) c = std::max(c, std::abs(V1));
  if (model_.n2() > 0) c = std::max(c, std::abs(V2));
  return c;
}

double LineContact::stable_dt(double t) const {
  const double c = max_speed(t);
  return c > 0.0 ? params_.cfl * dx_ / c : std::numeric_limits<double>::infinity();
}

// ---- SDIRK2 path (any source): on the cell-major u_ ----------------------------------------------------
void LineContact::source_step(double t, double dt) {
  const int m = components();
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

void LineContact::legacy_step(double dt) {
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

// ---- Affine-source path ---------------------------------------------------------------------------------
// The same splitting, on component-major work arrays (cells x components, one contiguous column per
// component) so that the source step is a few vectorised column operations with the propagator that
// every cell shares, and the transport a contiguous loop per component. Components that are zero in
// every cell and not forced (b_k = 0 and not coupled through J to a non-zero component; e.g. the
// lateral states under a longitudinal drive) are skipped: the exact propagator keeps them zero, and
// transport with a zero inflow value keeps zero zero, so skipping them changes nothing.
namespace {

// Frozen at the half step's midpoint: u' = J u + b with J, b at v; exact propagator from the exponential of the
// augmented matrix [[J, b], [0, 0]] h = [[P, q], [0, 1]]. J and b are returned too.
void affine_propagator(const contact::ContactModel& model, const Vec2& v, double h, MatX& P, VecX& q, MatX& jac,
                       VecX& b) {
  const int m = model.state_size();
  MatX aug = MatX::Zero(m + 1, m + 1);
  const VecX zero = VecX::Zero(m);
  b.resize(m);
  model.source(zero.data(), v, b.data());
  jac.resize(m, m);
  model.source_jacobian(zero.data(), v, jac.data());
  aug.topLeftCorner(m, m) = jac;
  aug.topRightCorner(m, 1) = b;
  const MatX ex = (aug * h).exp();
  P = ex.topLeftCorner(m, m);
  q = ex.topRightCorner(m, 1);
}

}  // namespace

const LineContact::Propagator& LineContact::propagator(const Vec2& v, double h, const Propagator* keep) {
  for (const Propagator& e : cache_)
    if (e.h == h && e.v == v) return e;
  int slot = cache_next_;
  if (&cache_[slot] == keep) slot = 1 - slot;
  cache_next_ = 1 - slot;
  Propagator& e = cache_[slot];
  const int m = components();
  VecX b;
  MatX jac;
  affine_propagator(model_, v, h, e.P, e.q, jac, b);
  e.coupled = (jac.array() != 0.0).cast<double>().matrix();
  e.forced.assign(m, 0);
  for (int k = 0; k < m; ++k) e.forced[k] = b[k] != 0.0;
  e.v = v;
  e.h = h;
  return e;
}

void LineContact::load_work() {
  const int m = components(), n = params_.cells;
  MatX& x = ring_[head_];
  x = Eigen::Map<const MatX>(u_.data(), m, n).transpose();
  for (int k = 0; k < m; ++k)
    if (!nonzero_[k]) nonzero_[k] = (x.col(k).array() != 0.0).any();
  for (int k = 0; k < m; ++k) slot_sum_[head_][k] = nonzero_[k] ? weights_.dot(x.col(k)) : 0.0;
  slot_t_[head_] = t_;
  slot_e_[head_] = supplied_energy_;
  work_live_ = true;
  u_fresh_ = true;
}

namespace {

// Limited face values u_{j+1/2} = u_j + half sigma_j for j = 0 .. n-1 of column[1 .. n] (column[0] and
// column[n + 1] are the ghosts); face[0] is the inflow value.
template <Limiter kLimiter>
void limited_faces(const double* column, double* face, int n, double half) {
  // face and column are distinct buffers.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
  for (int j = 0; j < n; ++j) {
    const double left = column[j + 1] - column[j], right = column[j + 2] - column[j + 1];
    double sigma;
    if constexpr (kLimiter == Limiter::van_leer) {
      // Branch-free form of limited_slope (vectorises): the same value bit for bit.
      const double prod = left * right;
      const bool same_sign = prod > 0.0;
      const double den = same_sign ? left + right : 1.0;
      const double value = 2.0 * left * right / den;
      sigma = same_sign ? value : 0.0;
    } else {
      sigma = limited_slope(kLimiter, left, right);
    }
    face[j + 1] = column[j + 1] + half * sigma;
  }
}

}  // namespace

namespace {

// out(:, r) = q_r + sum_c P(r, c) in(:, c) over the active components, cell by cell with the M inputs
// in registers (the loop over cells vectorises).
template <int M>
void apply_fixed(const MatX& P, const VecX& q, const std::vector<int>& active, const MatX& in, MatX& out) {
  double p[M][M], b[M];
  const double* x[M];
  double* y[M];
  for (int r = 0; r < M; ++r) {
    b[r] = q[active[r]];
    x[r] = in.col(active[r]).data();
    y[r] = out.col(active[r]).data();
    for (int c = 0; c < M; ++c) p[r][c] = P(active[r], active[c]);
  }
  const Eigen::Index n = in.rows();
  // in and out are distinct matrices: no dependence between cells.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
  for (Eigen::Index i = 0; i < n; ++i) {
    double v[M];
    for (int c = 0; c < M; ++c) v[c] = x[c][i];
    for (int r = 0; r < M; ++r) {
      double acc = b[r];
      for (int c = 0; c < M; ++c) acc += p[r][c] * v[c];
      y[r][i] = acc;
    }
  }
}

// The two kernels below are also compiled for x86-64-v3 (AVX2, FMA) and chosen at run time on CPUs that
// have it (GCC function multi-versioning); elsewhere the baseline build runs.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define BRISTLE_KERNEL __attribute__((target_clones("arch=x86-64-v3", "default"), flatten))
#else
#define BRISTLE_KERNEL
#endif

BRISTLE_KERNEL
void apply_affine(const MatX& P, const VecX& q, const std::vector<int>& active, const MatX& in, MatX& out) {
  switch (active.size()) {
    case 0: return;
    case 1: return apply_fixed<1>(P, q, active, in, out);
    case 2: return apply_fixed<2>(P, q, active, in, out);
    case 3: return apply_fixed<3>(P, q, active, in, out);
    case 4: return apply_fixed<4>(P, q, active, in, out);
    case 5: return apply_fixed<5>(P, q, active, in, out);
    case 6: return apply_fixed<6>(P, q, active, in, out);
    case 7: return apply_fixed<7>(P, q, active, in, out);
    case 8: return apply_fixed<8>(P, q, active, in, out);
    case 9: return apply_fixed<9>(P, q, active, in, out);
    case 10: return apply_fixed<10>(P, q, active, in, out);
    default:
      for (const int r : active) {
        auto o = out.col(r);
        o.setConstant(q[r]);
        for (const int c : active) o += P(r, c) * in.col(c);
      }
  }
}

}  // namespace

namespace {

// One component's limited upwind update in place (values in cell order; reversed: the inflow is at the
// last cell). column (n + 2) and face (n + 1) are scratch.
BRISTLE_KERNEL
void transport_kernel(Limiter limiter, double* values, double* column, double* face, int n, double nu, bool reversed) {
  // In upwind order: index 1 is the inflow cell.
  if (!reversed)
    std::copy(values, values + n, column + 1);
  else
    std::reverse_copy(values, values + n, column + 1);
  column[0] = -column[1];                          // ghost: reconstruction is 0 at the inflow face
  column[n + 1] = 2.0 * column[n] - column[n - 1];  // outflow: linear extrapolation
  face[0] = 0.0;                                   // boundary value at the inflow face
  const double half = 0.5 * (1.0 - nu);
  switch (limiter) {
    case Limiter::none:
      limited_faces<Limiter::none>(column, face, n, half);
      break;
    case Limiter::minmod:
      limited_faces<Limiter::minmod>(column, face, n, half);
      break;
    case Limiter::van_leer:
      limited_faces<Limiter::van_leer>(column, face, n, half);
      break;
    case Limiter::mc:
      limited_faces<Limiter::mc>(column, face, n, half);
      break;
  }
  // values, column and face are distinct buffers.
  if (!reversed) {
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
    for (int j = 0; j < n; ++j) values[j] = column[j + 1] - nu * (face[j + 1] - face[j]);
  } else {
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
    for (int j = 0; j < n; ++j) values[n - 1 - j] = column[j + 1] - nu * (face[j + 1] - face[j]);
  }
}

}  // namespace

void LineContact::transport_column(double* values, double c, double dt) {
  transport_kernel(params_.limiter, values, column_.data(), face_.data(), params_.cells, std::abs(c) * dt / dx_, c < 0);
}

void LineContact::fast_step(double dt) {
  const int m = components();
  const double t = t_, t_half = t + 0.5 * dt;
  const Propagator& first = propagator(relative_velocity(t + 0.5 * (0.5 * dt)), 0.5 * dt, nullptr);
  const Propagator& second = propagator(relative_velocity(t_half + 0.5 * (0.5 * dt)), 0.5 * dt, &first);
  // Components to update: non-zero somewhere, forced, or coupled to one of those (closure under J).
  for (int k = 0; k < m; ++k)
    if (first.forced[k] || second.forced[k]) nonzero_[k] = 1;
  for (bool grew = true; grew;) {
    grew = false;
    for (int k = 0; k < m; ++k) {
      if (nonzero_[k]) continue;
      for (int j = 0; j < m; ++j)
        if (nonzero_[j] && (first.coupled(k, j) != 0.0 || second.coupled(k, j) != 0.0)) {
          nonzero_[k] = 1;
          grew = true;
          break;
        }
    }
  }
  active_.clear();
  for (int k = 0; k < m; ++k)
    if (nonzero_[k]) active_.push_back(k);
  auto apply = [this](const Propagator& pr, const MatX& in, MatX& out) {
    apply_affine(pr.P, pr.q, active_, in, out);
  };
  const int next = (head_ + 1) % kDenseNodes;
  apply(first, ring_[head_], ring_[next]);
  if (tangent_) tangent_source(first, head_, next, false);
  // Transport at the midpoint (eq. 34a speeds).
  const double V1 = params_.V1(t_half), V2 = params_.V2(t_half);
  const Mat2& s1 = model_.pair().S1();
  const Mat2& s2 = model_.pair().S2();
  speed_[0] = s1(0, 0) * V1 + s2(0, 0) * V2;
  speed_[1] = s1(1, 1) * V1 + s2(1, 1) * V2;
  speed_.segment(2, 2 * model_.n1()).setConstant(V1);
  speed_.segment(2 + 2 * model_.n1(), 2 * model_.n2()).setConstant(V2);
  if (tangent_) tangent_transport(next, dt);  // linearised at the state before the transport
  for (const int k : active_)
    if (speed_[k] != 0.0) transport_column(ring_[next].col(k).data(), speed_[k], dt);
  if (tangent_) tangent_source(second, next, next, true);
  apply(second, ring_[next], scratch_);
  std::swap(ring_[next], scratch_);
  head_ = next;
  t_ += dt;
  ++steps_;
  u_fresh_ = false;
  VecX& sum = slot_sum_[head_];
  for (int k = 0; k < m; ++k) sum[k] = nonzero_[k] ? weights_.dot(ring_[head_].col(k)) : 0.0;
  // A non-finite value anywhere makes its weighted sum non-finite (the weights are finite).
  if (!sum.allFinite()) throw SolverError(fmt::format("line contact: non-finite state at t = {} s", format_value(t_)));
  const Vec2 v_r = relative_velocity(t_);
  const double p_new = -affine_force(sum, v_r).dot(v_r);  // eq. 79
  supplied_energy_ += 0.5 * dt * (supplied_power_ + p_new);  // trapezoidal rule, second order
  supplied_power_ = p_new;
  slot_t_[head_] = t_;
  slot_e_[head_] = supplied_energy_;
  if (tangent_) tangent_outputs(dt);
}

Vec2 LineContact::affine_force(const VecX& weighted_sum, const Vec2& v_r) const {
  // friction(u, v_r) is affine in u for an affine source (f plus LuGre's sigma1 zdot, zdot affine), so
  // sum_i w_i friction(u_i) = W friction(sum_i w_i u_i / W) with W = sum_i w_i: eq. 36 in O(m).
  mean_ = weighted_sum / weight_sum_;
  return weight_sum_ * model_.friction(mean_.data(), v_r);
}

VecX LineContact::visible_weighted_sum() const {
  if (interp_count_ == 0) return slot_sum_[head_];
  VecX sum = interp_w_[0] * slot_sum_[interp_slot_[0]];
  for (int i = 1; i < interp_count_; ++i) sum += interp_w_[i] * slot_sum_[interp_slot_[i]];
  return sum;
}

// ---- Tangent (track) ------------------------------------------------------------------------------------
namespace {

// d sigma of limited_slope along (d_left, d_right), on the branch limited_slope takes at (left, right).
double slope_derivative(Limiter limiter, double left, double right, double d_left, double d_right) {
  switch (limiter) {
    case Limiter::none:
      return 0.0;
    case Limiter::minmod:
      if (left * right <= 0.0) return 0.0;
      return std::abs(left) < std::abs(right) ? d_left : d_right;
    case Limiter::van_leer: {
      if (!(left * right > 0.0)) return 0.0;
      const double s = left + right;  // sigma = 2 l r / (l + r)
      return 2.0 * (right * right * d_left + left * left * d_right) / (s * s);
    }
    case Limiter::mc: {
      if (left * right <= 0.0) return 0.0;
      // sigma = sign(l) min(2|l|, 2|r|, |l + r| / 2) (the leftmost of equal values, as std::min), sign(r) = sign(l)
      const double a = 2.0 * std::abs(left), b = 2.0 * std::abs(right), c = 0.5 * std::abs(left + right);
      if (a <= b && a <= c) return 2.0 * d_left;
      if (b <= c) return 2.0 * d_right;
      return 0.5 * (d_left + d_right);
    }
  }
  return 0.0;
}

// The tangent of transport_kernel at `values` (the component before the transport) along `d_values` (in place);
// column, d_column (n + 2) and d_face (n + 1) are scratch.
void transport_tangent(Limiter limiter, const double* values, double* d_values, double* column, double* d_column,
                       double* d_face, int n, double nu, bool reversed) {
  if (!reversed) {
    std::copy(values, values + n, column + 1);
    std::copy(d_values, d_values + n, d_column + 1);
  } else {
    std::reverse_copy(values, values + n, column + 1);
    std::reverse_copy(d_values, d_values + n, d_column + 1);
  }
  column[0] = -column[1];
  column[n + 1] = 2.0 * column[n] - column[n - 1];
  d_column[0] = -d_column[1];
  d_column[n + 1] = 2.0 * d_column[n] - d_column[n - 1];
  d_face[0] = 0.0;  // the inflow value does not depend on p
  const double half = 0.5 * (1.0 - nu);
  for (int j = 0; j < n; ++j) {
    const double left = column[j + 1] - column[j], right = column[j + 2] - column[j + 1];
    const double d_sigma = slope_derivative(limiter, left, right, d_column[j + 1] - d_column[j],
                                            d_column[j + 2] - d_column[j + 1]);
    d_face[j + 1] = d_column[j + 1] + half * d_sigma;
  }
  for (int j = 0; j < n; ++j) d_values[reversed ? n - 1 - j : j] = d_column[j + 1] - nu * (d_face[j + 1] - d_face[j]);
}

// g . du for a function f of the state that is affine or quadratic in it (the friction force, the stored energy,
// the dissipation rate on the affine path): the central difference along du, exact for such f; the step is scaled
// to |u| so that rounding stays at the level of f's values.
// up and um (m entries) are scratch.
template <class F>
auto along(const F& f, const double* u, const double* du, int m, double* up, double* um) {
  double nu = 0.0, ndu = 0.0;
  for (int k = 0; k < m; ++k) nu = std::max(nu, std::abs(u[k])), ndu = std::max(ndu, std::abs(du[k]));
  using R = decltype(f(u));
  if (ndu == 0.0) return R(0.0 * f(u));
  const double s = (nu > 0.0 ? nu : 1.0) / ndu;
  for (int k = 0; k < m; ++k) up[k] = u[k] + s * du[k], um[k] = u[k] - s * du[k];
  return R((f(up) - f(um)) / (2.0 * s));
}

// The Frechet derivative L(A, E) of the matrix exponential at A in the direction E: scaling and squaring of the
// Taylor series (exp(A) = exp(A / 2^s)^(2^s), d(X^2) = X dX + dX X; the series of exp(B) = sum T_k,
// T_k = T_{k-1} B / k, and of its derivative D_k = (D_{k-1} B + T_{k-1} F) / k, summed to rounding with
// ||B|| <= 1/2).
template <class M>
MatX exp_derivative_of(const MatX& A_in, const MatX& E_in) {
  const Eigen::Index a = A_in.rows();
  const M A = A_in, E = E_in;
  const double norm = A.cwiseAbs().rowwise().sum().maxCoeff();
  const int s = norm > 0.5 ? static_cast<int>(std::ceil(std::log2(norm / 0.5))) : 0;
  const double scale = std::ldexp(1.0, -s);
  const M B = scale * A, F = scale * E;
  M T = M::Identity(a, a), D = M::Zero(a, a), X = T, L = D, T_next(a, a), D_next(a, a);
  for (int k = 1; k <= 40; ++k) {
    D_next.noalias() = D * B;
    D_next.noalias() += T * F;
    D_next /= k;
    T_next.noalias() = T * B;
    T_next /= k;
    T.swap(T_next);
    D.swap(D_next);
    X += T;
    L += D;
    if (T.cwiseAbs().maxCoeff() <= 1e-17 * X.cwiseAbs().maxCoeff() &&
        D.cwiseAbs().maxCoeff() <= 1e-17 * L.cwiseAbs().maxCoeff())
      break;
  }
  for (int i = 0; i < s; ++i) {
    T_next.noalias() = X * L;
    T_next.noalias() += L * X;
    L.swap(T_next);
    D_next.noalias() = X * X;
    X.swap(D_next);
  }
  return L;
}

// Fixed sizes for the usual state sizes (2 + 2 n, n <= 4 branches: the augmented matrix 3 x 3 .. 11 x 11).
MatX exp_derivative(const MatX& A, const MatX& E) {
  switch (A.rows()) {
    case 3: return exp_derivative_of<Eigen::Matrix<double, 3, 3>>(A, E);
    case 5: return exp_derivative_of<Eigen::Matrix<double, 5, 5>>(A, E);
    case 7: return exp_derivative_of<Eigen::Matrix<double, 7, 7>>(A, E);
    case 9: return exp_derivative_of<Eigen::Matrix<double, 9, 9>>(A, E);
    case 11: return exp_derivative_of<Eigen::Matrix<double, 11, 11>>(A, E);
    default: return exp_derivative_of<MatX>(A, E);
  }
}

// d[P, q]/dp of affine_propagator: the Frechet derivative of the exponential of the augmented matrix
// A = [[J, b], [0, 0]] h in the direction dA = [[dJ, db], [0, 0]] h, with dJ, db the central differences of J and b
// between the models at p -/+ step. (Differencing P itself would lose digits: P is close to the identity for short
// steps, so that (P+ - P-) / 2 step keeps ~1e-7 relative of dP; this keeps ~1e-10.)
void propagator_derivative(const contact::ContactModel& model, const contact::ContactModel& minus,
                           const contact::ContactModel& plus, double step, const Vec2& v, double h, MatX& dP,
                           VecX& dq) {
  const int m = model.state_size(), a = m + 1;
  const VecX zero = VecX::Zero(m);
  const auto augmented = [&](const contact::ContactModel& c) {
    MatX aug = MatX::Zero(a, a);
    VecX b(m);
    c.source(zero.data(), v, b.data());
    MatX jac(m, m);
    c.source_jacobian(zero.data(), v, jac.data());
    aug.topLeftCorner(m, m) = jac;
    aug.topRightCorner(m, 1) = b;
    return MatX(aug * h);
  };
  const MatX dA = (augmented(plus) - augmented(minus)) / (2.0 * step);
  const MatX L = exp_derivative(augmented(model), dA);
  dP = L.topLeftCorner(m, m);
  dq = L.topRightCorner(m, 1);
}

double dissipation_at(const contact::ContactModel& model, const double* u, const Vec2& v_r, VecX& h) {
  const Vec2 zdot = model.source(u, v_r, h.data());
  return model.dissipation_rate(u, v_r, h.data(), zdot);
}

}  // namespace

void LineContact::track(const std::vector<LineSensitivity>& sensitivities) {
  if (!exponential_)
    throw InvalidInput(fmt::format("line contact sensitivities: the affine-source (exponential) path only; this run "
                                   "takes the SDIRK2 source step (law.type = \"{}\", line.source_scheme = \"{}\")",
                                   laws::to_string(model_.law().params().kind), to_string(params_.source_scheme)));
  const int m = components(), n = params_.cells;
  const auto same = [](const Mat2& a, const Mat2& b) { return (a - b).norm() <= 1e-12 * std::max(1.0, b.norm()); };
  auto tangent = std::make_unique<Tangent>();
  for (std::size_t j = 0; j < sensitivities.size(); ++j) {
    const LineSensitivity& s = sensitivities[j];
    if (!s.minus || !s.plus || !(s.step > 0.0))
      throw InvalidInput(fmt::format("line contact sensitivity {}: needs the models at p -/+ h and h > 0", j));
    for (const contact::ContactModel* other : {s.minus, s.plus}) {
      if (other->state_size() != m || other->n1() != model_.n1())
        throw InvalidInput(fmt::format("line contact sensitivity {}: a perturbed model has {} state components, the "
                                       "run {}",
                                       j, other->state_size(), m));
      if (!same(other->pair().S1(), model_.pair().S1()) || !same(other->pair().S2(), model_.pair().S2()))
        throw InvalidInput(fmt::format("line contact sensitivity {}: the parameter changes the transport speeds "
                                       "(S1 = {} against {}, eq. 34a) and so the steps",
                                       j, format_matrix(other->pair().S1()), format_matrix(model_.pair().S1())));
    }
    Tangent::Param p;
    p.minus = s.minus;
    p.plus = s.plus;
    p.step = s.step;
    for (int k = 0; k < kDenseNodes; ++k) p.ring[k] = MatX::Zero(n, m), p.sum[k] = VecX::Zero(m);
    p.scratch = MatX::Zero(n, m);
    tangent->params.push_back(std::move(p));
  }
  tangent->column.assign(static_cast<std::size_t>(n) + 2, 0.0);
  tangent->dcolumn.assign(static_cast<std::size_t>(n) + 2, 0.0);
  tangent->dface.assign(static_cast<std::size_t>(n) + 1, 0.0);
  tangent->active.assign(m, 0);
  tangent->up.resize(m), tangent->um.resize(m), tangent->du.resize(m), tangent->h.resize(m);
  tangent_ = std::move(tangent);
  for (std::size_t j = 0; j < tangent_->params.size(); ++j)
    tangent_->params[j].power = supplied_power_derivative(j);  // du = 0: the partial in p only
}

std::size_t LineContact::tracked() const { return tangent_ ? tangent_->params.size() : 0; }

void LineContact::tangent_source(const Propagator& pr, int in, int out, bool to_scratch) {
  const int m = components();
  std::vector<char>& active = tangent_->active;
  std::fill(active.begin(), active.end(), 0);
  for (const int k : active_) active[k] = 1;
  const MatX& U = ring_[in];
  for (Tangent::Param& p : tangent_->params) {
    // dP, dq at the step's own (v, h): central differences of the exact propagators of the models at p -/+ h.
    Tangent::Derivative* d = nullptr;
    for (Tangent::Derivative& c : p.cache)
      if (c.h == pr.h && c.v == pr.v) d = &c;
    if (!d) {
      d = &p.cache[p.cache_next];
      p.cache_next = 1 - p.cache_next;
      propagator_derivative(model_, *p.minus, *p.plus, p.step, pr.v, pr.h, d->dP, d->dq);
      d->v = pr.v;
      d->h = pr.h;
    }
    // The run keeps the inactive components at zero; so does the tangent, unless the parameter moves them.
    for (int k = 0; k < m; ++k) {
      if (active[k]) continue;
      bool moves = d->dq[k] != 0.0;
      for (const int c : active_) moves = moves || d->dP(k, c) != 0.0;
      if (moves)
        throw InvalidInput(fmt::format("line contact sensitivity: the parameter forces state component {}, which "
                                       "the run keeps at zero (the source's structure changes with it)",
                                       k));
    }
    const MatX& dU = p.ring[in];
    MatX& dOut = to_scratch ? p.scratch : p.ring[out];
    for (const int r : active_) {
      auto o = dOut.col(r);
      o.setConstant(d->dq[r]);
      for (const int c : active_) o += pr.P(r, c) * dU.col(c) + d->dP(r, c) * U.col(c);
    }
    if (to_scratch) std::swap(p.ring[out], p.scratch);
  }
}

void LineContact::tangent_transport(int slot, double dt) {
  for (const int k : active_) {
    const double c = speed_[k];
    if (c == 0.0) continue;
    const double nu = std::abs(c) * dt / dx_;
    for (Tangent::Param& p : tangent_->params)
      transport_tangent(params_.limiter, ring_[slot].col(k).data(), p.ring[slot].col(k).data(),
                        tangent_->column.data(), tangent_->dcolumn.data(), tangent_->dface.data(), params_.cells, nu,
                        c < 0.0);
  }
}

void LineContact::tangent_outputs(double dt) {
  const int m = components();
  for (std::size_t j = 0; j < tangent_->params.size(); ++j) {
    Tangent::Param& p = tangent_->params[j];
    VecX& sum = p.sum[head_];
    for (int k = 0; k < m; ++k) sum[k] = nonzero_[k] ? weights_.dot(p.ring[head_].col(k)) : 0.0;
    const double dp = supplied_power_derivative(j);  // of the state just reached (work arrays live)
    p.energy += 0.5 * dt * (p.power + dp);           // the trapezoidal rule of fast_step
    p.power = dp;
    p.e[head_] = p.energy;
  }
}

const MatX& LineContact::visible_tangent(std::size_t j) const {
  const Tangent::Param& p = tangent_->params.at(j);
  if (interp_count_ == 0) return p.ring[head_];
  tangent_->visible = interp_w_[0] * p.ring[interp_slot_[0]];
  for (int i = 1; i < interp_count_; ++i) tangent_->visible += interp_w_[i] * p.ring[interp_slot_[i]];
  return tangent_->visible;
}

VecX LineContact::visible_tangent_sum(std::size_t j) const {
  const Tangent::Param& p = tangent_->params.at(j);
  if (interp_count_ == 0) return p.sum[head_];
  VecX sum = interp_w_[0] * p.sum[interp_slot_[0]];
  for (int i = 1; i < interp_count_; ++i) sum += interp_w_[i] * p.sum[interp_slot_[i]];
  return sum;
}

VecX LineContact::visible_sum() const {
  if (work_live_ || interp_count_ > 0) return visible_weighted_sum();
  sync();
  const int m = components();
  return weights_.transpose() * Eigen::Map<const MatX>(u_.data(), m, params_.cells).transpose();
}

Vec2 LineContact::total_force_derivative(std::size_t j) const {
  // F = W friction(mean) (affine_force), mean = sum / W: dF = W (friction along d mean + the partial in p).
  const Tangent::Param& p = tangent_->params.at(j);
  const int m = components();
  const Vec2 v_r = relative_velocity(t_);
  const VecX mean = visible_sum() / weight_sum_;
  const VecX dmean = visible_tangent_sum(j) / weight_sum_;
  const Vec2 along_state = along([&](const double* u) { return model_.friction(u, v_r); }, mean.data(), dmean.data(),
                                  m, tangent_->up.data(), tangent_->um.data());
  const Vec2 partial = (p.plus->friction(mean.data(), v_r) - p.minus->friction(mean.data(), v_r)) / (2.0 * p.step);
  return weight_sum_ * (along_state + partial);
}

double LineContact::supplied_power_derivative(std::size_t j) const {
  return -total_force_derivative(j).dot(relative_velocity(t_));  // eq. 79
}

double LineContact::supplied_energy_derivative(std::size_t j) const {
  const Tangent::Param& p = tangent_->params.at(j);
  if (interp_count_ == 0) return p.energy;
  double e = 0.0;
  for (int i = 0; i < interp_count_; ++i) e += interp_w_[i] * p.e[interp_slot_[i]];
  return e;
}

double LineContact::stored_energy_derivative(std::size_t j) const {
  const Tangent::Param& p = tangent_->params.at(j);
  sync();
  const MatX& dU = visible_tangent(j);
  const int m = components();
  VecX& du = tangent_->du;
  double w = 0.0;
  for (int i = 0; i < params_.cells; ++i) {
    const double* u = u_.data() + i * m;
    du = dU.row(i).transpose();
    const double partial = (p.plus->stored_energy(u) - p.minus->stored_energy(u)) / (2.0 * p.step);
    w += p_cell_[i] * (along([&](const double* x) { return model_.stored_energy(x); }, u, du.data(), m,
                             tangent_->up.data(), tangent_->um.data()) +
                       partial);
  }
  return w * dx_;  // eq. 85
}

double LineContact::dissipated_power_derivative(std::size_t j) const {
  const Tangent::Param& p = tangent_->params.at(j);
  sync();
  const MatX& dU = visible_tangent(j);
  const int m = components();
  const Vec2 v_r = relative_velocity(t_);
  VecX& du = tangent_->du;
  VecX& h = tangent_->h;
  double d = 0.0;
  for (int i = 0; i < params_.cells; ++i) {
    const double* u = u_.data() + i * m;
    du = dU.row(i).transpose();
    const double partial =
        (dissipation_at(*p.plus, u, v_r, h) - dissipation_at(*p.minus, u, v_r, h)) / (2.0 * p.step);
    d += p_cell_[i] * (along([&](const double* x) { return dissipation_at(model_, x, v_r, h); }, u, du.data(), m,
                             tangent_->up.data(), tangent_->um.data()) +
                       partial);
  }
  return d * dx_;
}

// ---- Stepping -------------------------------------------------------------------------------------------
/// A fixed step dt_s beyond the largest stable one at time t.
static SolverError cfl_error(double dt_s, double t, double largest_step) {
  return SolverError(fmt::format("line.dt_s = {}: breaks the CFL condition at t = {} s (largest stable step dx / "
                                 "max|c| = {} s); use a smaller dt_s or the automatic step",
                                 format_value(dt_s), format_value(t), format_value(largest_step)));
}

double LineContact::next_dt(double t_end) const {
  const double remaining = t_end - t_;
  // The Courant limit over the step: speeds at its start and its end.
  const double limit = std::min(stable_dt(t_), stable_dt(t_end));
  double dt = remaining;
  if (params_.dt_s > 0.0) {
    dt = std::min(params_.dt_s, remaining);
    const double courant_limit = limit / params_.cfl;  // nu = 1
    if (dt > courant_limit * (1.0 + 1e-12))
      throw cfl_error(params_.dt_s, t_, courant_limit);
  } else {
    dt = std::min(dt, limit);
    if (params_.max_dt_s > 0.0) dt = std::min(dt, params_.max_dt_s);
  }
  // Avoid a sliver of a last step.
  if (t_end - (t_ + dt) < 1e-3 * dt) dt = t_end - t_;
  return dt;
}

double LineContact::cell_centre(int i) const {
  if (i < 0 || i >= params_.cells)
    throw InvalidInput(fmt::format("cell_centre: i = {}: must lie in [0, {}] (cells = {})", i, params_.cells - 1,
                                   params_.cells));
  return (i + 0.5) * dx_;
}

void LineContact::step(double dt) {
  // step(-0.4) ran the time backwards (F = +1.5e8 N), step(1e300) left F = 0 (the field advected out).
  if (!(std::isfinite(dt) && dt > 0.0))
    throw InvalidInput(fmt::format("step: dt = {} s: must be finite and > 0", format_value(dt)));
  const double courant = dt / (stable_dt(t_) / params_.cfl);  // advance_to's steps: <= 1 + 1e-3 (a last sliver)
  if (courant > 1.01)
    throw InvalidInput(fmt::format("step: dt = {} s is {} times the Courant limit dx / max |speed| = {} s at t = {} s; "
                                   "a step beyond it is unstable (advance_to chooses stable steps)",
                                   format_value(dt), format_value(courant), format_value(stable_dt(t_) / params_.cfl),
                                   format_value(t_)));
  step_unchecked(dt);
}

void LineContact::step_unchecked(double dt) {
  if (!exponential_) {
    legacy_step(dt);
    return;
  }
  if (!work_live_) load_work();
  fast_step(dt);
}

namespace {
constexpr double kSlack = 1e-12;
/// The smallest step per second of the time's magnitude: twice the slack, so that the slack is at most half a step.
constexpr double kMinStepPerTime = 2.0 * kSlack;
bool before(double t, double t_end) { return t < t_end - kSlack * std::max(1.0, std::abs(t_end)); }

/// Output times from `t`: at least one, finite, non-decreasing and not before t (InvalidInput naming the first that
/// is not).
void require_output_times(const std::vector<double>& times, double t) {
  if (times.empty()) throw InvalidInput("output times: empty; at least one output time is needed");
  for (std::size_t j = 0; j < times.size(); ++j) {
    const double previous = j == 0 ? t : times[j - 1];
    if (!std::isfinite(times[j]) || before(times[j], previous))
      throw InvalidInput(fmt::format("output times: times[{}] = {} s {}; they must be finite, non-decreasing and not "
                                     "before the current time {} s",
                                     j, format_value(times[j]),
                                     !std::isfinite(times[j]) ? "is not finite"
                                     : j == 0                 ? "is before the current time"
                                                              : "goes back",
                                     format_value(t)));
  }
}
/// Each field time is one of the output times (to the slack `record` matches with), in order: a field is taken
/// where a row is, so a time between rows, past the last or out of order would be moved or dropped.
void require_field_times(const std::vector<double>& field_times, const std::vector<double>& output_times) {
  auto out = output_times.begin();
  for (std::size_t i = 0; i < field_times.size(); ++i) {
    const double t = field_times[i];
    const auto close = [t](double o) { return std::abs(o - t) <= 1e-12 * std::max(1.0, std::abs(o)); };
    while (out != output_times.end() && *out < t && !close(*out)) ++out;
    if (std::isfinite(t) && out != output_times.end() && close(*out)) continue;
    throw InvalidInput(fmt::format(
        "field_times[{}] = {} s: {}; each field time must be one of the output times, in increasing order (a field "
        "is taken at an output time: add it to them)",
        i, format_value(t),
        !std::isfinite(t)                                   ? "is not finite"
        : i > 0 && t < field_times[i - 1]                   ? "goes back"
        : t > output_times.back()                           ? "is after the last output time"
                                                            : "is not an output time"));
  }
}
}  // namespace

void LineContact::check_work(double t_end) const {
  // helper-43: at t = 1e12 s the slack that absorbs round-off (1e-12 of the time: 1 s there) swallowed whole steps:
  // advance_to(1e12 + 1) moved the time without a step (force 0 N, steps_taken 0). The slack must stay below half
  // the step the scheme would take (not the span asked for, which may be short).
  if (t_end > t_) {
    double step = std::min(stable_dt(t_), stable_dt(t_end));
    if (params_.dt_s > 0.0) step = params_.dt_s;
    else if (params_.max_dt_s > 0.0) step = std::min(step, params_.max_dt_s);
    const double magnitude = std::abs(t_end);  // above 1 s the slack grows with the time (a tiny step: the work limit)
    if (magnitude > 1.0 && step < kMinStepPerTime * magnitude)
      throw InvalidInput(fmt::format("advance to t = {} s from t = {} s: the step of {} s is below {:g} of the time: "
                                     "at times this large a step loses its digits; start the time nearer 0 (reset)",
                                     format_value(t_end), format_value(t_), format_value(step), kMinStepPerTime));
  }
  if (!before(t_, t_end)) return;
  // A fixed step breaking the CFL condition anywhere in the span, found before the first step (the step itself checks
  // the speeds at its two ends only; a late refusal lost the work before it, helper-46). The candidates are the
  // velocities' extremes and breakpoints: cheap for short spans, as a controller's calls are.
  if (params_.dt_s > 0.0) {
    const auto [fastest, at] = fastest_characteristic_speed(model_, params_.V1, params_.V2, t_, t_end);
    if (params_.dt_s * fastest > dx_ * (1.0 + 1e-12)) throw cfl_error(params_.dt_s, at, dx_ / fastest);
  }
  const double dt = next_dt(t_end);
  const double steps = std::ceil((t_end - t_) / dt), updates = steps * params_.cells;
  if (!(updates > kMaxCellUpdates)) return;
  const std::string step = params_.dt_s > 0.0 ? fmt::format("line.dt_s = {}", format_value(params_.dt_s))
                           : params_.max_dt_s > 0.0 && dt == params_.max_dt_s
                               ? fmt::format("line.max_dt_s = {}", format_value(params_.max_dt_s))
                               : fmt::format("the CFL step line.cfl dx / max|c| with line.cfl = {}, dx = line.L_m / "
                                             "line.cells = {} m",
                                             format_value(params_.cfl), format_value(dx_));
  throw InvalidInput(fmt::format("advance to t = {} s from t = {} s: {} steps of {} s ({}) over {} cells, {} cell "
                                 "updates; at most {:g} per call",
                                 format_value(t_end), format_value(t_), format_value(steps), format_value(dt), step,
                                 params_.cells, format_value(updates), kMaxCellUpdates));
}

void LineContact::check_progress(double dt) const {
  if (!(t_ + dt > t_))
    throw SolverError(fmt::format("line contact at t = {} s: the step {} s no longer moves the time (below its "
                                  "resolution); the CFL step has collapsed (speeds of {} m/s?)",
                                  format_value(t_), format_value(dt), format_value(params_.cfl * dx_ / dt)));
}

void LineContact::advance_to(double t_end) {
  if (!std::isfinite(t_end) || before(t_end, t_))  // advance_to(0.1) at t = 0.5 set the time back without a step
    throw InvalidInput(fmt::format("advance_to: t_end = {} s: must be finite and not before the current time {} s",
                                   format_value(t_end), format_value(t_)));
  check_work(t_end);
  if (exponential_ && !work_live_ && before(t_, t_end)) load_work();
  while (before(t_, t_end)) {
    poll_interrupt(static_cast<unsigned long>(params_.cells));  // core/interrupt.hpp: at the step reached
    const double dt = next_dt(t_end);
    check_progress(dt);
    step_unchecked(dt);
  }
  t_ = t_end;
  if (exponential_ && work_live_) slot_t_[head_] = t_end;
}

void LineContact::sample(const std::vector<double>& times,
                         const std::function<void(std::size_t, const LineContact&)>& visit) {
  require_output_times(times, t_);
  const double t_end = times.back();
  check_work(t_end);
  // Step points, newest first: the affine path keeps them in its ring; the SDIRK2 path copies u_.
  std::vector<VecX> copies;
  double copy_t[kDenseNodes] = {t_}, copy_e[kDenseNodes] = {supplied_energy_};
  int copy_head = 0;
  if (exponential_) {
    if (!work_live_) load_work();
  } else {
    copies.assign(kDenseNodes, VecX());
    copies[0] = u_;
  }
  int count = 1;
  std::size_t next = 0;
  auto node_time = [&](int back) {  // back = 0: the newest step point
    return exponential_ ? slot_t_[(head_ - back + kDenseNodes) % kDenseNodes]
                        : copy_t[(copy_head - back + kDenseNodes) % kDenseNodes];
  };
  auto emit = [&](std::size_t j) {
    const double tj = times[j];
    const int k = std::min(count, kDenseNodes);
    double w[kDenseNodes], e = 0.0;
    for (int i = 0; i < k; ++i) {  // Lagrange weights through the k newest step points
      w[i] = 1.0;
      for (int l = 0; l < k; ++l)
        if (l != i) w[i] *= (tj - node_time(l)) / (node_time(i) - node_time(l));
    }
    const double t_save = t_, e_save = supplied_energy_;
    VecX live;  // SDIRK2 path: the live state, set aside while u_ shows the interpolation
    if (exponential_) {
      interp_count_ = k;
      for (int i = 0; i < k; ++i) {
        interp_slot_[i] = (head_ - i + kDenseNodes) % kDenseNodes;
        interp_w_[i] = w[i];
        e += w[i] * slot_e_[interp_slot_[i]];
      }
      u_fresh_ = false;
    } else {
      live = w[0] * copies[copy_head];
      e = w[0] * copy_e[copy_head];
      for (int i = 1; i < k; ++i) {
        const int s = (copy_head - i + kDenseNodes) % kDenseNodes;
        live += w[i] * copies[s];
        e += w[i] * copy_e[s];
      }
      u_.swap(live);
    }
    auto restore = [&] {
      t_ = t_save;
      supplied_energy_ = e_save;
      if (exponential_) {
        interp_count_ = 0;
        u_fresh_ = false;
      } else {
        u_.swap(live);
      }
    };
    t_ = tj;
    supplied_energy_ = e;
    try {
      visit(j, *this);
    } catch (...) {
      restore();
      throw;
    }
    restore();
  };
  auto flush = [&](bool final) {
    while (next < times.size()) {
      // A time is interpolated once kDenseNodes / 2 - 1 step points follow its interval (centred stencil).
      if (!final && (count < kDenseNodes || times[next] > node_time(kDenseNodes / 2 - 1))) break;
      emit(next++);
    }
  };
  while (before(t_, t_end)) {
    poll_interrupt(static_cast<unsigned long>(params_.cells));
    const double dt = next_dt(t_end);
    check_progress(dt);
    if (exponential_) {
      fast_step(dt);
    } else {
      legacy_step(dt);
      copy_head = (copy_head + 1) % kDenseNodes;
      copies[copy_head] = u_;
      copy_t[copy_head] = t_;
      copy_e[copy_head] = supplied_energy_;
    }
    count = std::min(count + 1, kDenseNodes);
    flush(false);
  }
  if (exponential_)
    slot_t_[head_] = t_end;
  else
    copy_t[copy_head] = t_end;
  t_ = t_end;
  flush(true);
}

// ---- Outputs (of the visible state) -----------------------------------------------------------------------
Vec2 LineContact::total_force() const {
  if (exponential_ && (work_live_ || interp_count_ > 0))
    return affine_force(visible_weighted_sum(), relative_velocity(t_));  // eq. 36
  sync();
  const int m = components();
  const Vec2 v_r = relative_velocity(t_);
  Vec2 f = Vec2::Zero();
  for (int i = 0; i < params_.cells; ++i) f += p_cell_[i] * model_.friction(u_.data() + i * m, v_r);
  return f * dx_;  // eq. 36 (midpoint rule with exact cell means of p); f includes LuGre's output terms
}

double LineContact::stored_energy() const {
  sync();
  const int m = components();
  double w = 0.0;
  for (int i = 0; i < params_.cells; ++i) w += p_cell_[i] * model_.stored_energy(u_.data() + i * m);
  return w * dx_;  // eq. 85
}

double LineContact::supplied_power() const {
  const Vec2 v_r = relative_velocity(t_);
  if (exponential_ && (work_live_ || interp_count_ > 0)) return -affine_force(visible_weighted_sum(), v_r).dot(v_r);
  sync();
  const int m = components();
  double p = 0.0;
  for (int i = 0; i < params_.cells; ++i) p -= p_cell_[i] * model_.friction(u_.data() + i * m, v_r).dot(v_r);
  return p * dx_;  // eq. 79
}

double LineContact::dissipated_power() const {
  sync();
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
  sync();
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
            const std::function<void(double)>& progress, std::vector<LineSensitivity>* sensitivities) {
  require_output_times(output_times, contact.time());
  require_field_times(field_times, output_times);
  // Rows and fields are held in memory: 1e6 cells x 100 field times would be ~12 GB (helper-46).
  if (output_times.size() > contact::kMaxRunOutputs)
    throw InvalidInput(fmt::format("output times: {}; at most {} in one run (its rows are held in memory)",
                                   output_times.size(), contact::kMaxRunOutputs));
  const double field_rows = static_cast<double>(field_times.size()) * contact.params().cells;
  if (field_rows > kMaxFieldRows)
    throw InvalidInput(fmt::format("field_times: {} field times x {} cells = {} rows of fields; at most {} in one "
                                   "run (they are held in memory)",
                                   field_times.size(), contact.params().cells, format_value(field_rows),
                                   format_value(kMaxFieldRows)));
  LineRun result{TimeSeries({"t_s", "V1_mps", "V2_mps", "vr_mps", "vr_y_mps", "Fx_N", "Fy_N", "W_J",
                             "P_supplied_W", "E_supplied_J", "P_dissipated_W"}),
                 {}, {}, 0};
  result.series.reserve(output_times.size());
  if (sensitivities) {
    contact.track(*sensitivities);
    for (LineSensitivity& s : *sensitivities) {
      s.derivative = TimeSeries(result.series.names);
      s.derivative.reserve(output_times.size());
    }
  }
  std::size_t next_field = 0;
  const double t0 = output_times.front(), t1 = output_times.back();
  ProgressThrottle report(progress);  // every 0.5 % of the run, not per row
  auto record = [&](const LineContact& c, double t) {
    const Vec2 v_r = c.relative_velocity(t);
    const Vec2 force = c.total_force();
    const auto& p = c.params();
    result.series.add_row({t, p.V1(t), p.V2(t), v_r[0], v_r[1], force[0], force[1], c.stored_energy(),
                           c.supplied_power(), c.supplied_energy(), c.dissipated_power()});
    if (sensitivities)
      for (std::size_t j = 0; j < sensitivities->size(); ++j) {
        const Vec2 dF = c.total_force_derivative(j);
        const bool energies = (*sensitivities)[j].energies;
        const double nan = std::numeric_limits<double>::quiet_NaN();
        (*sensitivities)[j].derivative.add_row({t, 0.0, 0.0, 0.0, 0.0, dF[0], dF[1],
                                                energies ? c.stored_energy_derivative(j) : nan, -dF.dot(v_r),
                                                c.supplied_energy_derivative(j),
                                                energies ? c.dissipated_power_derivative(j) : nan});
      }
    while (next_field < field_times.size() && field_times[next_field] <= t + 1e-12 * std::max(1.0, std::abs(t))) {
      result.field_times.push_back(t);
      result.fields.push_back(c.field());
      ++next_field;
    }
    if (report && t1 > t0) report((t - t0) / (t1 - t0));
  };
  if (contact.params().interpolate_outputs) {
    contact.sample(output_times, [&](std::size_t j, const LineContact& c) { record(c, output_times[j]); });
  } else {
    for (const double t : output_times) {
      contact.advance_to(t);
      record(contact, t);
    }
  }
  result.steps = contact.steps_taken();
  return result;
}

}  // namespace bristle::transport
