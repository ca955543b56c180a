#include "bench_kernel.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <memory>

#include "bristle/core/error.hpp"

#include "bristle/integrate/rosenbrock.hpp"

namespace bristle::contact::detail {

namespace {

/// A signal read at t; its value cached when it is constant (no call per evaluation).
class Input {
 public:
  explicit Input(const Signal& signal)
      : signal_(&signal), constant_(signal.kind == SignalKind::constant), value_(constant_ ? signal(0.0) : 0.0) {}
  double operator()(double t) const { return constant_ ? value_ : (*signal_)(t); }

 private:
  const Signal* signal_;
  bool constant_;
  double value_;
};

/// The scalar bench for drive D: state (x[, v][, x_p], f, E_supplied, E_dissipated), i.e. the x components
/// of Bench's state in Bench::x_components order. See bench_kernel.hpp.
template <DriveKind D>
class ScalarBench {
 public:
  static constexpr int kMech = D == DriveKind::velocity ? 1 : D == DriveKind::force ? 2 : 3;  // x[, v][, x_p]
  static constexpr int kF = kMech;                // f_x
  static constexpr int kSupplied = kMech + 1;     // E_supplied (J), quadrature
  static constexpr int kDissipated = kMech + 2;   // E_dissipated (J), quadrature
  static constexpr int kSize = kMech + 3;
  static constexpr int kQuadratures = 2;

  explicit ScalarBench(const Bench& bench)
      : law_(bench.model().law()),
        input_(bench.params().input_x),
        belt_(bench.params().belt_x),
        load_(bench.params().normal_load),
        corners_(bench.input_corners()),
        norm_count_(bench.state_size()),
        autonomous_(bench.autonomous()) {
    const laws::LawParams& p = law_.params();
    const rheology::ContactPair& pair = bench.model().pair();
    frbd_ = p.kind == laws::LawKind::frbd;
    sigma0_ = law_.sigma0()(0, 0);
    k0_ = pair.K0bar()(0, 0);
    k0_inv_ = pair.K0bar_inv()(0, 0);
    output_terms_ = law_.has_output_terms();
    sigma1_ = p.sigma1(0, 0);
    sigma2_ = p.sigma2(0, 0);
    // Elastic bodies: z = K1^-1 f + K2^-1 f and W = f^T (K1^-1 + K2^-1) f / 2, linear and quadratic in f.
    const double no_branches = 0.0;
    deformation_per_force_ = pair.relative_deformation(Vec2(1.0, 0.0), &no_branches)[0];
    energy_per_force2_ = pair.stored_energy(Vec2(1.0, 0.0), &no_branches);
    mass_ = bench.params().mass_kg;
    inv_mass_ = 1.0 / mass_;
    spring_ = bench.params().spring_N_per_m;
  }

  int size() const { return kSize; }
  int error_norm_count() const { return norm_count_; }
  bool autonomous() const { return autonomous_; }
  bool has_jacobian() const { return true; }
  int switch_count() const { return 1 + static_cast<int>(corners_.size()); }

  void rhs(double t, const double* s, double* ds) const {
    const double v_r = relative_velocity(t, s);
    const double f = s[kF];
    const double g = law_.isotropic_g(std::abs(v_r), v_r * v_r);
    const double zdot = -g * bristle(f) - v_r;  // eqs. 2-3
    const double friction = output(f, zdot, v_r);
    const double fz = load_(t);
    const double force = fz * friction;
    mechanics(t, s, force, ds);
    ds[kF] = k0_ * zdot;  // eq. 31 without branches
    ds[kSupplied] = -force * v_r;
    ds[kDissipated] = fz * dissipation(f, zdot, friction, v_r);
  }

  void jacobian(double t, const double* s, double* jac) const {
    for (int i = 0; i < kSize * kSize; ++i) jac[i] = 0.0;
    auto at = [jac](int row, int col) -> double& { return jac[col * kSize + row]; };
    const double v_r = relative_velocity(t, s);
    const double f = s[kF];
    double dg = 0.0;
    const double g = law_.isotropic_g(std::abs(v_r), v_r * v_r, &dg);
    const double dg_dv = (v_r < 0.0 ? -1.0 : 1.0) * dg;  // away from v_r = 0, as Bench's difference quotients
    const double b = bristle(f);
    const double zdot = -g * b - v_r;
    const double dzdot_df = -g * (frbd_ ? 1.0 : sigma0_ * k0_inv_);
    const double dzdot_dv = -dg_dv * b - 1.0;
    const double friction = output(f, zdot, v_r);
    const double dfriction_df = output_terms_ ? 1.0 + sigma1_ * dzdot_df : 1.0;
    const double dfriction_dv = output_terms_ ? sigma1_ * dzdot_dv - sigma2_ : 0.0;
    const double fz = load_(t);
    // D = -f (zdot + v_r) - (friction - f) v_r
    const double dD_df = -(zdot + v_r) - f * dzdot_df - (dfriction_df - 1.0) * v_r;
    at(kF, kF) = k0_ * dzdot_df;
    at(kSupplied, kF) = -fz * dfriction_df * v_r;
    at(kDissipated, kF) = fz * dD_df;
    if constexpr (D != DriveKind::velocity) {  // v_r = v - v_b: the velocity column
      at(1, kF) = fz * dfriction_df / mass_;
      at(0, 1) = 1.0;
      at(1, 1) = fz * dfriction_dv / mass_;
      at(kF, 1) = k0_ * dzdot_dv;
      at(kSupplied, 1) = -fz * (dfriction_dv * v_r + friction);
      at(kDissipated, 1) = fz * (-f * (dzdot_dv + 1.0) - dfriction_dv * v_r - (friction - f));
    }
    if constexpr (D == DriveKind::spring) {
      at(1, 0) = -spring_ / mass_;
      at(1, 2) = spring_ / mass_;
    }
  }

  /// The stage equations (c I - J) k = r of the leading block (x[, v][, x_p], f) by elimination along the
  /// Jacobian's sparsity (jacobian() above): x_p' is the input (a zero row), x' = v, and only the velocity
  /// and force rows are full. Per attempted step three divisions; per stage about fifteen operations.
  void factor_stage(double c, const double* jac) {
    auto at = [jac](int row, int col) { return jac[col * kSize + row]; };
    inv_c_ = 1.0 / c;
    inv_cf_ = 1.0 / (c - at(kF, kF));  // the force row's pivot once the velocity is known
    if constexpr (D != DriveKind::velocity) {
      j_vx_ = at(1, 0);
      j_vxp_ = D == DriveKind::spring ? at(1, 2) : 0.0;
      j_vf_ = at(1, kF);
      j_fv_ = at(kF, 1);
      // the velocity row after eliminating x (row x: c k_x - k_v = r_x) and f (row f: (c - J_ff) k_f - J_fv k_v = r_f)
      inv_pivot_v_ = 1.0 / (c - at(1, 1) - j_vx_ * inv_c_ - j_vf_ * j_fv_ * inv_cf_);
    }
  }
  void solve_stage(const double* r, double* k) const {
    if constexpr (D == DriveKind::velocity) {
      k[0] = r[0] * inv_c_;
      k[kF] = r[kF] * inv_cf_;
    } else {
      const double k_xp = D == DriveKind::spring ? r[2] * inv_c_ : 0.0;
      const double r_f = r[kF] * inv_cf_;
      const double k_v = (r[1] + j_vx_ * (r[0] * inv_c_) + j_vxp_ * k_xp + j_vf_ * r_f) * inv_pivot_v_;
      k[0] = (r[0] + k_v) * inv_c_;
      k[1] = k_v;
      if constexpr (D == DriveKind::spring) k[2] = k_xp;
      k[kF] = r_f + j_fv_ * k_v * inv_cf_;
    }
  }

  void switches(double t, const double* s, double* g) const {
    g[0] = relative_velocity(t, s);
    for (std::size_t i = 0; i < corners_.size(); ++i) g[1 + i] = t - corners_[i];
  }

  /// The row of Bench::outputs (Bench::kOutputColumns values) at a state with zero y components.
  void outputs(double t, const double* s, double* row) const {
    const double v_r = relative_velocity(t, s);
    const double f = s[kF];
    const double g = law_.isotropic_g(std::abs(v_r), v_r * v_r);
    const double zdot = -g * bristle(f) - v_r;
    const double friction = output(f, zdot, v_r);
    const double fz = load_(t);
    const double force = fz * friction;
    double v = v_r, applied = -force;
    if constexpr (D != DriveKind::velocity) v = s[1];
    if constexpr (D == DriveKind::force) applied = input_(t);
    if constexpr (D == DriveKind::spring) applied = spring_ * (s[2] - s[0]);
    const double values[Bench::kOutputColumns] = {t,
                                                  s[0],
                                                  0.0,
                                                  v,
                                                  0.0,
                                                  v_r,
                                                  0.0,
                                                  force,
                                                  0.0,
                                                  applied,
                                                  0.0,
                                                  friction,
                                                  0.0,
                                                  deformation_per_force_ * f,
                                                  0.0,
                                                  fz,
                                                  fz * (energy_per_force2_ * (f * f)),
                                                  s[kSupplied],
                                                  -force * v_r,
                                                  s[kDissipated],
                                                  fz * dissipation(f, zdot, friction, v_r)};
    for (int i = 0; i < Bench::kOutputColumns; ++i) row[i] = values[i];
  }

 private:
  double relative_velocity(double t, const double* s) const {
    if constexpr (D == DriveKind::velocity) {
      return input_(t);
    } else {
      return s[1] - belt_(t);
    }
  }
  /// What G^-1 acts on: f (FrBD, eq. 3) or Sigma0 z with z = K0bar^-1 f (Dahl/LuGre, eqs. 2 and 15).
  double bristle(double f) const { return frbd_ ? f : sigma0_ * (k0_inv_ * f); }
  /// FrictionLaw::output: f + Sigma1 zdot - Sigma2 v (LuGre), else f.
  double output(double f, double zdot, double v_r) const {
    return output_terms_ ? f + sigma1_ * zdot - sigma2_ * v_r : f;
  }
  /// ContactModel::dissipation_rate without dampers: -f (zdot + v_r) - (f_out - f) v_r.
  static double dissipation(double f, double zdot, double friction, double v_r) {
    return -f * (zdot + v_r) - (friction - f) * v_r;
  }
  void mechanics(double t, const double* s, double force, double* ds) const {
    if constexpr (D == DriveKind::velocity) {
      ds[0] = input_(t);
    } else if constexpr (D == DriveKind::force) {
      ds[0] = s[1];
      ds[1] = (input_(t) + force) * inv_mass_;
    } else {
      ds[0] = s[1];
      ds[1] = (spring_ * (s[2] - s[0]) + force) * inv_mass_;
      ds[2] = input_(t);
    }
  }

  const laws::FrictionLaw& law_;
  Input input_, belt_, load_;
  std::vector<double> corners_;
  int norm_count_;
  bool autonomous_;
  bool frbd_ = false, output_terms_ = false;
  double sigma0_ = 0.0, k0_ = 0.0, k0_inv_ = 0.0, sigma1_ = 0.0, sigma2_ = 0.0;
  double deformation_per_force_ = 0.0, energy_per_force2_ = 0.0;
  double mass_ = 1.0, inv_mass_ = 1.0, spring_ = 0.0;
  // factor_stage: 1 / c, 1 / (c - J_ff), the velocity row's Jacobian entries and 1 / its pivot
  double inv_c_ = 0.0, inv_cf_ = 0.0, j_vx_ = 0.0, j_vxp_ = 0.0, j_vf_ = 0.0, j_fv_ = 0.0, inv_pivot_v_ = 0.0;
};

/// The columns of Bench::outputs (Bench::column_names() order: t, then x/y pairs of position, velocity,
/// relative velocity, force, applied force, friction and deformation, then load, energies and powers)
/// that are not y components; those are zero on the x path. RunsAgreeWithTheGeneralPath compares every
/// column with the general path's.
static_assert(Bench::kOutputColumns == 21, "kNonzeroColumns follows Bench::outputs' 21 columns");
constexpr std::array<int, 14> kNonzeroColumns = {0, 1, 3, 5, 7, 9, 11, 13, 15, 16, 17, 18, 19, 20};

template <DriveKind D>
BenchRun run_drive(const Bench& bench, const VecX& state, const std::vector<double>& output_times,
                   const integrate::Options& options, const std::function<void(double)>& progress) {
  using System = ScalarBench<D>;
  System system(bench);
  const std::vector<int> keep = bench.x_components();
  VecX x(System::kSize);
  for (int i = 0; i < System::kSize; ++i) x[i] = state[keep[static_cast<std::size_t>(i)]];
  integrate::validate_run(options, System::kSize, x, output_times.front(), output_times);

  BenchRun result{TimeSeries(bench.column_names()), {}};
  result.x_only = true;
  result.kernel = true;
  std::array<double*, Bench::kOutputColumns> columns{};
  for (int c = 0; c < Bench::kOutputColumns; ++c) {
    result.series.columns[static_cast<std::size_t>(c)].resize(output_times.size());
    columns[static_cast<std::size_t>(c)] = result.series.columns[static_cast<std::size_t>(c)].data();
  }
  const double t0 = output_times.front(), t1 = output_times.back();
  std::size_t row = 0;
  const auto observe = [&](double t, const double* s) {
    double values[Bench::kOutputColumns];
    system.outputs(t, s, values);
    // The y columns are zero on the x path: resize() above wrote them.
    for (int c : kNonzeroColumns) columns[static_cast<std::size_t>(c)][row] = values[c];
    ++row;
    if (progress && t1 > t0) progress((t - t0) / (t1 - t0));
  };
  // One driver, the method's tableau (kernel_applies admits only the Rosenbrock methods).
  if (options.method == integrate::Method::rodas5p)
    result.stats = integrate::rodas5p(system, x, t0, output_times, options, observe);
  else
    result.stats = integrate::rodas4(system, x, t0, output_times, options, observe);
  return result;
}

template <DriveKind D>
KernelFunctions functions_of(const Bench& bench) {
  auto system = std::make_shared<const ScalarBench<D>>(bench);
  KernelFunctions k;
  k.system.size = ScalarBench<D>::kSize;
  k.system.error_norm_count = system->error_norm_count();
  k.system.autonomous = system->autonomous();
  k.system.rhs = [system](double t, const double* x, double* dxdt) { system->rhs(t, x, dxdt); };
  k.system.jacobian = [system](double t, const double* x, double* jac) { system->jacobian(t, x, jac); };
  k.system.switch_count = system->switch_count();
  k.system.switches = [system](double t, const double* x, double* g) { system->switches(t, x, g); };
  k.outputs = [system](double t, const double* x, double* row) { system->outputs(t, x, row); };
  k.solve_stage = [system](double c, const double* jacobian, const double* r, double* out) {
    ScalarBench<D> solver = *system;  // factor_stage keeps its factors in the system
    solver.factor_stage(c, jacobian);
    solver.solve_stage(r, out);
  };
  return k;
}

/// The bench's model and drive suit the kernel (whatever the state and options).
bool kernel_model(const Bench& bench) {
  const ContactModel& model = bench.model();
  const laws::LawParams& p = model.law().params();
  const bool stribeck_family =
      p.kind == laws::LawKind::dahl || p.kind == laws::LawKind::lugre || p.kind == laws::LawKind::frbd;
  const double delta = p.M.axis1.delta_s;
  return stribeck_family && !p.G_inverse && !p.M.anisotropic && (delta == 0.0 || delta >= 1.0) &&
         model.n1() == 0 && model.n2() == 0 && model.axes_decoupled();
}

}  // namespace

bool kernel_applies(const Bench& bench, const VecX& state, const integrate::Options& options) {
  if (!integrate::is_rosenbrock(options.method) || !options.atol_per_component.empty()) return false;
  return bench.x_only(state) && kernel_model(bench);
}

BenchRun run_kernel(const Bench& bench, const VecX& state, const std::vector<double>& output_times,
                    const integrate::Options& options, const std::function<void(double)>& progress) {
  switch (bench.params().drive) {
    case DriveKind::velocity: return run_drive<DriveKind::velocity>(bench, state, output_times, options, progress);
    case DriveKind::force: return run_drive<DriveKind::force>(bench, state, output_times, options, progress);
    case DriveKind::spring: return run_drive<DriveKind::spring>(bench, state, output_times, options, progress);
  }
  return run_drive<DriveKind::spring>(bench, state, output_times, options, progress);
}

}  // namespace bristle::contact::detail

namespace bristle::contact {

KernelFunctions kernel_functions(const Bench& bench) {
  if (!detail::kernel_model(bench))
    throw InvalidInput("kernel_functions: the bench's model has no compiled kernel (it needs an elastic pair and "
                       "a Dahl, LuGre or FrBD law with isotropic Stribeck M, delta_s = 0 or >= 1)");
  switch (bench.params().drive) {
    case DriveKind::velocity: return detail::functions_of<DriveKind::velocity>(bench);
    case DriveKind::force: return detail::functions_of<DriveKind::force>(bench);
    case DriveKind::spring: return detail::functions_of<DriveKind::spring>(bench);
  }
  return detail::functions_of<DriveKind::spring>(bench);
}

}  // namespace bristle::contact
