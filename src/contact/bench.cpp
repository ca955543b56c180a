#include "bristle/contact/bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <limits>
#include <string>

#include "bristle/core/enum_names.hpp"
#include "bristle/core/error.hpp"
#include "bristle/core/progress.hpp"
#include "bench_kernel.hpp"

namespace bristle::contact {

namespace {
constexpr NameTable<DriveKind, 3> kNames{{
    {DriveKind::velocity, "velocity"},
    {DriveKind::force, "force"},
    {DriveKind::spring, "spring"},
}};
constexpr std::size_t kMaxTimeSwitches = 64;  // beyond this, table knots are left to error control
/// Floors of the difference-quotient increments (times sqrt(eps)): velocity (m/s) and contact state
/// (normalised force, and the rheology states, in which the source is linear).
constexpr double kVelocityScale = 1e-6;
constexpr double kContactStateScale = 1.0;

/// Scratch vector on the stack for the usual sizes (no allocation per right-hand side or output).
class Scratch {
 public:
  explicit Scratch(int n) : n_(n) {
    if (n > kSmall) heap_.resize(static_cast<std::size_t>(n));
  }
  double* data() { return n_ > kSmall ? heap_.data() : small_.data(); }
  double& operator[](int i) { return data()[i]; }

 private:
  static constexpr int kSmall = 32;
  int n_;
  std::array<double, kSmall> small_{};
  std::vector<double> heap_;
};
}  // namespace

std::string_view to_string(DriveKind kind) { return name_of(kNames, kind); }

DriveKind drive_kind_from_string(std::string_view key, std::string_view name) {
  return parse_name(kNames, key, name, "drive");
}

void BenchParams::validate(std::string_view prefix) const {
  const std::string p(prefix);
  if (drive != DriveKind::velocity) require_positive(p + ".mass_kg", mass_kg);
  if (drive == DriveKind::spring) require_positive(p + ".spring_N_per_m", spring_N_per_m);
  input_x.validate(p + ".input");
  input_y.validate(p + ".input_y");
  belt_x.validate(p + ".belt");
  belt_y.validate(p + ".belt_y");
  normal_load.validate(p + ".normal_load");
  require_finite(p + ".x0", x0);
  require_finite(p + ".v0", v0);
  require_finite(p + ".spring_end0", spring_end0);
  // The load must stay positive: check the signal's extremes (knots, ends) and a sample grid.
  std::size_t hint = 0;  // the knots in order: a forward walk instead of a binary search per knot
  auto check_load = [&](double t) {
    const double fz = normal_load.at(t, hint);
    if (!(fz > 0.0))
      throw InvalidInput(fmt::format("{}.normal_load = {} at t = {} s: must be > 0", p, format_value(fz),
                                     format_value(t)));
  };
  check_load(0.0);
  for (double t : normal_load.breakpoints()) check_load(t);
  if (normal_load.kind == SignalKind::sine && std::abs(normal_load.amplitude) >= normal_load.offset)
    throw InvalidInput(fmt::format("{}.normal_load.amplitude = {}: must be smaller than offset = {} so that the "
                                   "load stays > 0",
                                   p, format_value(normal_load.amplitude), format_value(normal_load.offset)));
}

Bench::Bench(const ContactModel& model, BenchParams params) : model_(model), params_(std::move(params)) {
  params_.validate("bench");
  switch (params_.drive) {
    case DriveKind::velocity: offset_u_ = 2; break;
    case DriveKind::force: offset_u_ = 4; break;
    case DriveKind::spring: offset_u_ = 6; break;
  }
}

VecX Bench::initial_state(const VecX& u0) const {
  VecX s = VecX::Zero(state_size());
  s.segment<2>(0) = params_.x0;
  if (params_.drive != DriveKind::velocity) s.segment<2>(2) = params_.v0;
  if (params_.drive == DriveKind::spring) s.segment<2>(4) = params_.spring_end0;
  if (u0.size() > 0) {
    if (u0.size() != model_.state_size())
      throw InvalidInput(fmt::format("initial contact state: {} values, the model has {} (f, zeta1, zeta2)",
                                     u0.size(), model_.state_size()));
    for (Eigen::Index i = 0; i < u0.size(); ++i) require_finite(fmt::format("initial contact state[{}]", i), u0[i]);
    s.segment(offset_u_, model_.state_size()) = u0;
  }
  return s;
}

Vec2 Bench::relative_velocity(double t, const double* s) const {
  if (params_.drive == DriveKind::velocity) return Vec2(params_.input_x(t), params_.input_y(t));
  return Vec2(s[2] - params_.belt_x(t), s[3] - params_.belt_y(t));
}

void Bench::rhs(double t, const double* s, double* ds) const {
  const Vec2 v_r = relative_velocity(t, s);
  const double* u = s + offset_u_;
  double* du = ds + offset_u_;
  const Vec2 zdot = model_.source(u, v_r, du);
  const Vec2 friction = model_.law().output(Vec2(u[0], u[1]), zdot, v_r);
  const double fz = params_.normal_load(t);
  const Vec2 force = fz * friction;  // N, on the mass
  switch (params_.drive) {
    case DriveKind::velocity:
      ds[0] = v_r[0];
      ds[1] = v_r[1];
      break;
    case DriveKind::force:
      ds[0] = s[2];
      ds[1] = s[3];
      ds[2] = (params_.input_x(t) + force[0]) / params_.mass_kg;
      ds[3] = (params_.input_y(t) + force[1]) / params_.mass_kg;
      break;
    case DriveKind::spring: {
      const double k = params_.spring_N_per_m;
      ds[0] = s[2];
      ds[1] = s[3];
      ds[2] = (k * (s[4] - s[0]) + force[0]) / params_.mass_kg;
      ds[3] = (k * (s[5] - s[1]) + force[1]) / params_.mass_kg;
      ds[4] = params_.input_x(t);
      ds[5] = params_.input_y(t);
      break;
    }
  }
  ds[state_size() - 2] = -force.dot(v_r);                                         // supplied power (W), eq. 79
  ds[state_size() - 1] = fz * model_.dissipation_rate(u, v_r, du, zdot);          // dissipated power (W)
}

std::vector<double> Bench::input_corners() const {
  const auto signals = {&params_.input_x, &params_.input_y, &params_.belt_x, &params_.belt_y, &params_.normal_load};
  // A table's knots are strictly increasing (Signal::validate): one longer than the limit already gives more
  // distinct corners than it (the tribometer: 42,066 knots per table, whose copy and sort cost ~5 % of its fit).
  for (const Signal* sig : signals)
    if (sig->kind == SignalKind::table && sig->times.size() > kMaxTimeSwitches) return {};
  std::vector<double> corners;
  for (const Signal* sig : signals)
    for (double tb : sig->breakpoints()) corners.push_back(tb);
  std::sort(corners.begin(), corners.end());
  corners.erase(std::unique(corners.begin(), corners.end()), corners.end());
  if (corners.size() > kMaxTimeSwitches) corners.clear();
  return corners;
}

bool Bench::autonomous() const {
  bool constant = true;
  for (const Signal* sig : {&params_.input_x, &params_.input_y, &params_.belt_x, &params_.belt_y,
                            &params_.normal_load})
    constant = constant && sig->kind == SignalKind::constant;
  return constant;
}

integrate::OdeSystem Bench::system() const {
  integrate::OdeSystem sys;
  sys.size = state_size();
  sys.rhs = [this](double t, const double* x, double* dxdt) { rhs(t, x, dxdt); };
  // Kinks: |v_r| at v_r = 0 (each component) and the corners of the input signals.
  const std::vector<double> corners = input_corners();
  sys.autonomous = autonomous();
  sys.jacobian = [this](double t, const double* x, double* jac) { jacobian(t, x, jac); };
  sys.switch_count = 2 + static_cast<int>(corners.size());
  sys.switches = [this, corners](double t, const double* x, double* g) {
    const Vec2 v_r = relative_velocity(t, x);
    g[0] = v_r[0];
    g[1] = v_r[1];
    for (std::size_t i = 0; i < corners.size(); ++i) g[2 + i] = t - corners[i];
  };
  return sys;
}

bool Bench::x_only(const VecX& state) const {
  if (state.size() != state_size() || !model_.axes_decoupled()) return false;
  for (const Signal* sig : {&params_.input_y, &params_.belt_y})
    if (!(sig->kind == SignalKind::constant && sig->value == 0.0)) return false;
  for (int i = 1; i < offset_u_ + model_.state_size(); i += 2)  // y entries: odd indices before the energies
    if (state[i] != 0.0) return false;
  return true;
}

std::vector<int> Bench::x_components() const {
  std::vector<int> keep;
  for (int i = 0; i < offset_u_ + model_.state_size(); i += 2) keep.push_back(i);
  keep.push_back(state_size() - 2);
  keep.push_back(state_size() - 1);
  return keep;
}

integrate::OdeSystem Bench::x_system() const {
  const integrate::OdeSystem full = system();
  const std::vector<int> keep = x_components();
  const int n = state_size(), r = static_cast<int>(keep.size());
  integrate::OdeSystem sys;
  sys.size = r;
  sys.error_norm_count = n;
  sys.autonomous = full.autonomous;
  // Each function keeps its own full-size state (zero y components, never written) and scatters into it.
  sys.rhs = [this, keep, r, x = std::vector<double>(static_cast<std::size_t>(n), 0.0),
             dx = std::vector<double>(static_cast<std::size_t>(n))](double t, const double* xr, double* dxr) mutable {
    for (int i = 0; i < r; ++i) x[keep[i]] = xr[i];
    rhs(t, x.data(), dx.data());
    for (int i = 0; i < r; ++i) dxr[i] = dx[keep[i]];
  };
  sys.jacobian = [this, keep, n, r, x = std::vector<double>(static_cast<std::size_t>(n), 0.0),
                  jac = std::vector<double>(static_cast<std::size_t>(n) * n)](double t, const double* xr,
                                                                             double* jr) mutable {
    for (int i = 0; i < r; ++i) x[keep[i]] = xr[i];
    jacobian_columns(t, x.data(), jac.data(), true);
    for (int j = 0; j < r; ++j)
      for (int i = 0; i < r; ++i)
        jr[static_cast<std::ptrdiff_t>(j) * r + i] = jac[static_cast<std::ptrdiff_t>(keep[j]) * n + keep[i]];
  };
  // The full switches without g[1] = v_r,y (identically zero: it never changes sign).
  sys.switch_count = full.switch_count - 1;
  sys.switches = [keep, r, count = full.switch_count, all = full.switches,
                  x = std::vector<double>(static_cast<std::size_t>(n), 0.0),
                  g = std::vector<double>(static_cast<std::size_t>(full.switch_count))](
                     double t, const double* xr, double* gr) mutable {
    for (int i = 0; i < r; ++i) x[keep[i]] = xr[i];
    all(t, x.data(), g.data());
    gr[0] = g[0];
    for (int k = 2; k < count; ++k) gr[k - 1] = g[k];
  };
  return sys;
}

void Bench::jacobian(double t, const double* s, double* jac) const { jacobian_columns(t, s, jac, false); }

void Bench::jacobian_columns(double t, const double* s, double* jac, bool x_columns_only) const {
  const int n = state_size(), m = model_.state_size();
  std::fill(jac, jac + static_cast<std::ptrdiff_t>(n) * n, 0.0);
  auto at = [&](int row, int col) -> double& { return jac[static_cast<std::ptrdiff_t>(col) * n + row]; };
  Scratch state(n), base(n), shifted(n);
  std::copy(s, s + n, state.data());
  rhs(t, s, base.data());
  // Difference quotients in the columns that the right-hand side depends on nonlinearly: the contact
  // state u and (force and spring drives) the velocity.
  const double root_eps = std::sqrt(std::numeric_limits<double>::epsilon());
  auto difference_column = [&](int j, double increment) {
    const double sj = state[j];
    state[j] = sj + increment;
    const double step = state[j] - sj;  // the increment actually represented
    rhs(t, state.data(), shifted.data());
    state[j] = sj;
    for (int i = 0; i < n; ++i) at(i, j) = (shifted[i] - base[i]) / step;
  };
  if (params_.drive != DriveKind::velocity)
    for (int j = 2; j < (x_columns_only ? 3 : 4); ++j) {
      // Away from zero, so that the quotient never straddles the kink of |v_r| (belt at rest: v_r = v).
      const double vr = s[j] - (j == 2 ? params_.belt_x(t) : params_.belt_y(t));
      difference_column(j, (vr < 0.0 ? -1.0 : 1.0) * root_eps * std::max(std::abs(s[j]), kVelocityScale));
    }
  for (int j = offset_u_; j < offset_u_ + m; j += x_columns_only ? 2 : 1)
    difference_column(j, root_eps * std::max(std::abs(s[j]), kContactStateScale));
  // Exactly linear parts: x' = v (in the velocity columns above); the spring force k (x_p - x) / m.
  if (params_.drive == DriveKind::spring) {
    const double km = params_.spring_N_per_m / params_.mass_kg;
    for (int i = 0; i < 2; ++i) {
      at(2 + i, i) = -km;
      at(2 + i, 4 + i) = km;
    }
  }
  // Positions (velocity and force drives) and the two energy integrals enter no right-hand side.
}

std::vector<std::string> Bench::column_names() const {
  return {"t_s",  "x_m",  "y_m",   "v_mps", "vy_mps", "vr_mps", "vr_y_mps", "F_N",          "Fy_N",
          "F_applied_N", "F_applied_y_N", "f_x", "f_y", "z_m", "z_y_m", "Fz_N", "W_J", "E_supplied_J",
          "P_supplied_W", "E_dissipated_J", "P_dissipated_W"};
}

std::vector<double> Bench::outputs(double t, const double* s) const {
  std::vector<double> row(kOutputColumns);
  outputs(t, s, row.data());
  return row;
}

void Bench::outputs(double t, const double* s, double* row) const {
  const Vec2 v_r = relative_velocity(t, s);
  const double* u = s + offset_u_;
  Scratch du_buffer(model_.state_size());
  double* du = du_buffer.data();
  const Vec2 zdot = model_.source(u, v_r, du);
  const Vec2 friction = model_.law().output(Vec2(u[0], u[1]), zdot, v_r);
  const double fz = params_.normal_load(t);
  const Vec2 force = fz * friction;
  const Vec2 z = model_.pair().relative_deformation(Vec2(u[0], u[1]), u + 2);
  Vec2 v = v_r, applied = -force;
  if (params_.drive != DriveKind::velocity) v = Vec2(s[2], s[3]);
  if (params_.drive == DriveKind::force) applied = Vec2(params_.input_x(t), params_.input_y(t));
  if (params_.drive == DriveKind::spring)
    applied = params_.spring_N_per_m * Vec2(s[4] - s[0], s[5] - s[1]);
  const double w = fz * model_.stored_energy(u);
  const double values[kOutputColumns] = {t,           s[0],        s[1],        v[0],
                                         v[1],        v_r[0],      v_r[1],      force[0],
                                         force[1],    applied[0],  applied[1],  friction[0],
                                         friction[1], z[0],        z[1],        fz,
                                         w,           s[state_size() - 2],      -force.dot(v_r),
                                         s[state_size() - 1],      fz * model_.dissipation_rate(u, v_r, du, zdot)};
  std::copy(values, values + kOutputColumns, row);
}

std::array<std::pair<const Signal*, std::string_view>, 5> named_signals(const BenchParams& p) {
  std::array<std::pair<const Signal*, std::string_view>, 5> out;
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = {&(p.*kBenchSignals[i].second), kBenchSignals[i].first};
  return out;
}

void require_sine_periods(const BenchParams& p, double span_s, std::string_view span_text, std::string_view note) {
  if (!std::isfinite(span_s)) return;
  for (const auto& [signal, key] : named_signals(p)) {
    if (signal->kind != SignalKind::sine) continue;
    const double periods = std::abs(signal->omega) * span_s / (2.0 * std::numbers::pi);
    if (!(periods <= kMaxSinePeriods))
      throw InvalidInput(fmt::format("{}.omega = {}: the run ({}) spans {} of its periods; at most {}{}", key,
                                     format_value(signal->omega), span_text, format_value(periods),
                                     format_value(kMaxSinePeriods), note));
  }
}

BenchRun run(const Bench& bench, const std::vector<double>& output_times, const integrate::Options& requested,
             const VecX& u0, const std::function<void(double)>& progress, bool allow_x_only, bool allow_kernel) {
  if (output_times.empty()) throw InvalidInput("output times: empty; at least one output time is needed");
  // The rows are held in memory (~20 columns of 8 bytes each): 1e8 output times took 11 s to fail with a bare
  // std::bad_alloc (helper-43). The scenarios' limit (time.outputs, the fit's samples).
  if (output_times.size() > kMaxRunOutputs)
    throw InvalidInput(fmt::format("output times: {}; at most {} in one run (its rows are held in memory)",
                                   output_times.size(), kMaxRunOutputs));
  require_sine_periods(bench.params(), output_times.back() - output_times.front(),
                       fmt::format("{} s", format_value(output_times.back() - output_times.front())));
  // method = auto is decided on the full system's size, whichever path then integrates it.
  integrate::Options options = requested;
  options.method = integrate::resolve_method(requested, bench.state_size());
  VecX state = bench.initial_state(u0);
  // The caller's callback may read a clock or format text: it is called every 0.5 % of the run, not per row.
  ProgressThrottle throttle(progress);
  std::function<void(double)> report;
  if (progress) report = [&throttle](double fraction) { throttle(fraction); };
  if (allow_x_only && allow_kernel && detail::kernel_applies(bench, state, options))
    return detail::run_kernel(bench, state, output_times, options, report);
  BenchRun result{TimeSeries(bench.column_names()), {}};
  result.series.reserve(output_times.size());
  const double t0 = output_times.front(), t1 = output_times.back();
  std::vector<double> row(Bench::kOutputColumns);  // one buffer for every row: no allocation per output
  result.x_only = allow_x_only && integrate::is_rosenbrock(options.method) && options.atol_per_component.empty() &&
                  bench.x_only(state);
  if (!result.x_only) {
    result.stats = integrate::integrate(bench.system(), state, t0, output_times, options,
                                        [&](double t, const double* x) {
                                          bench.outputs(t, x, row.data());
                                          result.series.add_row(row);
                                          if (report && t1 > t0) report((t - t0) / (t1 - t0));
                                        });
    return result;
  }
  const std::vector<int> keep = bench.x_components();
  VecX reduced(static_cast<Eigen::Index>(keep.size()));
  for (std::size_t i = 0; i < keep.size(); ++i) reduced[static_cast<Eigen::Index>(i)] = state[keep[i]];
  std::vector<double> full(static_cast<std::size_t>(bench.state_size()), 0.0);  // y components stay 0
  result.stats = integrate::integrate(bench.x_system(), reduced, t0, output_times, options,
                                      [&](double t, const double* x) {
                                        for (std::size_t i = 0; i < keep.size(); ++i) full[keep[i]] = x[i];
                                        bench.outputs(t, full.data(), row.data());
                                        result.series.add_row(row);
                                        if (report && t1 > t0) report((t - t0) / (t1 - t0));
                                      });
  return result;
}

}  // namespace bristle::contact
