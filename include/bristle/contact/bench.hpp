#pragma once
// Mechanical benches around one lumped contact (paper 1, eq. 1 without advection):
//
//   velocity  the contact is driven at a prescribed relative velocity v_r(t)           u' = h(u, v_r)
//   force     a mass m pushed by F_ext(t):      m x'' = F_ext(t) + F_z f(u, v_r),  v_r = x' - v_b(t)
//   spring    a mass pulled through a spring k whose end moves at v_p(t) (x_p' = v_p):
//             m x'' = k (x_p - x) + F_z f(u, v_r),  v_r = x' - v_b(t)
//
// where u = [f; zeta1; zeta2] is the contact state, f(u, v_r) the normalised friction force on the mass
// (with LuGre's output terms), F_z(t) the normal load (N) and v_b(t) an optional belt velocity. All
// vectors are 2-D (x, y). The stored energy is W = F_z W_pair(u) (eq. 85 at a point) and the supplied
// power P = -F_z f . v_r; passivity (eq. 79) reads  W(t) - W(0) <= int_0^t P. The dissipated power
// D = F_z ContactModel::dissipation_rate closes the balance W(t) - W(0) = int P - int D exactly.
//
// | key          | meaning                                  | unit | range  |
// |--------------|------------------------------------------|------|--------|
// | mass_kg      | mass                                     | kg   | > 0    |
// | spring_N_per_m | drive spring stiffness                 | N/m  | > 0    |
// | normal_load  | F_z(t)                                   | N    | > 0    |
#include <array>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

#include "bristle/contact/contact_model.hpp"
#include "bristle/contact/signal.hpp"
#include "bristle/core/time_series.hpp"
#include "bristle/integrate/ode.hpp"

namespace bristle::contact {

enum class DriveKind { velocity, force, spring };
std::string_view to_string(DriveKind kind);
DriveKind drive_kind_from_string(std::string_view key, std::string_view name);

struct BenchParams {
  DriveKind drive = DriveKind::velocity;
  double mass_kg = 1.0;
  double spring_N_per_m = 1.0;
  Signal input_x, input_y;                          // v_r (m/s), F_ext (N) or v_p (m/s) by drive
  Signal belt_x, belt_y;                            // belt velocity v_b (m/s), default 0
  Signal normal_load = Signal::constant_value(1.0);  // F_z (N)
  Vec2 x0 = Vec2::Zero();                            // initial position (m)
  Vec2 v0 = Vec2::Zero();                            // initial velocity (m/s)
  Vec2 spring_end0 = Vec2::Zero();                   // initial pulled-end position (m)

  void validate(std::string_view prefix) const;
};

/// The schema of BenchParams, the [bench] table (core/schema.hpp). Signals are a number (a constant) or a
/// signal table (contact::Signal's schema); a constant load is normal_load_N, a varying one a table.
template <class Archive, schema::Of<BenchParams> Self>
void serialize(Archive& a, Self& p) {
  using schema::Type;
  const bool mass = p.drive != DriveKind::velocity, spring = p.drive == DriveKind::spring;
  a.choice(p.drive, {.key = "drive", .type = Type::choice, .default_value = "required",
                     .doc = "how the bench is driven", .equation = "paper 1, eq. 1",
                     .choices = "velocity, force, spring"});
  const auto signal = [&](auto& s, std::string_view key, std::string_view unit, std::string_view def,
                          std::string_view doc, std::string_view used_by, bool applies) {
    a.table({.key = key, .type = Type::signal, .unit = unit, .default_value = def, .doc = doc, .used_by = used_by},
            [&](auto& b) { serialize(b, s); }, applies);
  };
  a.number(p.mass_kg, {.key = "mass_kg", .unit = "kg", .default_value = "1", .range = schema::positive(),
                       .doc = "mass of the driven body", .equation = "paper 1, eq. 1", .used_by = "force, spring",
                       .log_scale = true},
           mass);
  a.number(p.spring_N_per_m, {.key = "spring_N_per_m", .unit = "N/m", .default_value = "1",
                              .range = schema::positive(), .doc = "stiffness of the drive spring",
                              .equation = "paper 1, eq. 1", .used_by = "spring", .log_scale = true},
           spring);
  a.declared({.key = "normal_load_N", .unit = "N", .default_value = "1", .range = schema::positive(),
              .doc = "constant normal load F_z (not with [bench.normal_load])", .equation = "paper 1, eq. 1"},
             p.normal_load.kind == SignalKind::constant);
  signal(p.normal_load, "normal_load", "N", "-", "a time-varying normal load F_z(t), > 0 at all times", "", true);
  signal(p.input_x, "input", "m/s (velocity, spring), N (force)", "required",
         "x component of the drive input: v_r (velocity), F_ext (force), v_p (spring)", "", true);
  signal(p.input_y, "input_y", "as input", "0", "y component of the drive input", "", true);
  signal(p.belt_x, "belt", "m/s", "0", "belt velocity v_b (v_r = v - v_b)", "force, spring", mass);
  signal(p.belt_y, "belt_y", "m/s", "0", "y component of the belt velocity", "force, spring", mass);
  a.vector(p.x0, {.key = "x0_m", .type = Type::vector, .unit = "m", .default_value = "[0, 0]",
                  .range = schema::finite(),
                  .doc = "initial position (velocity drive: initial value of the integral of v_r)"});
  a.vector(p.v0, {.key = "v0_mps", .type = Type::vector, .unit = "m/s", .default_value = "[0, 0]",
                  .range = schema::finite(), .doc = "initial velocity of the mass", .used_by = "force, spring"},
           mass);
  a.vector(p.spring_end0, {.key = "spring_end0_m", .type = Type::vector, .unit = "m", .default_value = "[0, 0]",
                           .range = schema::finite(), .doc = "initial position of the pulled spring end",
                           .used_by = "spring"},
           spring);
}

/// The ODE of a bench: state layout and right-hand side, plus the outputs it records.
class Bench {
 public:
  Bench(const ContactModel& model, BenchParams params);

  /// Mechanical state, contact state u, then two quadratures: supplied and dissipated energy (J).
  int state_size() const { return offset_u_ + model_.state_size() + 2; }
  /// The initial state: mechanical state from params, contact state u0 (zero if empty).
  VecX initial_state(const VecX& u0 = {}) const;
  integrate::OdeSystem system() const;

  /// The 1-D fast path. True if the contact model's axes are decoupled (ContactModel::axes_decoupled), the
  /// y inputs (input_y, belt_y) are the constant 0 and `state` has zero y components: then every y
  /// component of the state stays exactly zero, and the x components alone (x_system) give the same
  /// trajectory as the full system.
  bool x_only(const VecX& state) const;
  /// Indices of the x components of the state: x, v, x_p (by drive), the even entries of u (f_x and the x
  /// entries of the branch states), and both energy integrals.
  std::vector<int> x_components() const;
  /// The ODE of the x components alone. Its right-hand side, Jacobian and switches are those of system(),
  /// evaluated at the full state with zero y components (every value bitwise the full system's) and
  /// restricted to x_components(); only the x columns of the Jacobian are formed (half the difference
  /// quotients). error_norm_count is the full size, so that rodas4 takes the full system's steps. Valid
  /// only from a state where x_only() holds.
  integrate::OdeSystem x_system() const;

  /// Columns: t_s, x_m, y_m, v_mps, vy_mps, vr_mps, vr_y_mps, F_N, Fy_N, F_applied_N, F_applied_y_N,
  /// f_x, f_y, z_m, z_y_m, Fz_N, W_J, E_supplied_J, P_supplied_W, E_dissipated_J, P_dissipated_W
  /// (x and v are the relative velocity and its integral for the velocity drive).
  std::vector<std::string> column_names() const;
  std::vector<double> outputs(double t, const double* state) const;
  /// The same into `row` (kOutputColumns entries), without allocating.
  void outputs(double t, const double* state, double* row) const;
  static constexpr int kOutputColumns = 21;
  /// d(rhs)/d(state), column-major: difference quotients in the contact-state and velocity columns
  /// (the velocity increment points away from v_r = 0, so that it never straddles the kink of |v_r|),
  /// the spring terms exactly, zero elsewhere (positions of velocity/force drives and the energy
  /// integrals enter no right-hand side). system() passes it to the integrators.
  void jacobian(double t, const double* state, double* jacobian) const;

  /// The corners of the input signals (s), sorted and distinct: switching functions t - t_c of system()
  /// (after v_r,x and v_r,y), so that no step straddles them; empty if there are more than 64 (a table
  /// input: error control handles its knots).
  std::vector<double> input_corners() const;
  /// True if every input signal (inputs, belt, load) is constant: the right-hand side does not depend on t.
  bool autonomous() const;

  const ContactModel& model() const { return model_; }
  const BenchParams& params() const { return params_; }
  int contact_offset() const { return offset_u_; }

 private:
  void rhs(double t, const double* s, double* ds) const;
  /// jacobian(); with `x_columns_only` the difference quotients of the y columns are skipped (left zero).
  void jacobian_columns(double t, const double* state, double* jacobian, bool x_columns_only) const;
  Vec2 relative_velocity(double t, const double* s) const;

  const ContactModel& model_;
  BenchParams params_;
  int offset_u_ = 0;  // index of u in the state: velocity 2 (x), force 4 (x, v), spring 6 (x, v, x_p)
};

struct BenchRun {
  TimeSeries series;
  integrate::Stats stats;
  bool x_only = false;  // the 1-D fast path (Bench::x_system) was taken
  bool kernel = false;  // ... as the compiled scalar kernel (elastic pair, Stribeck-family law; see run())
};

/// The most output times of one run (its rows are held in memory; a scenario's time.outputs has the same limit).
inline constexpr std::size_t kMaxRunOutputs = 2'000'001;

/// The most periods of a sine signal over one run (each needs steps of its own: omega = 1e8 rad/s over 1 s ran
/// 51 s into the step budget). run() refuses more; a scenario checks it first with its time keys. It bounds the
/// work, not the step budget: at 1e6 periods in 1 s the default budget still runs out (after ~24 s).
inline constexpr double kMaxSinePeriods = 1e6;

/// The signals of a bench with their key paths (TOML; Python's keywords are the part after "bench.").
inline constexpr std::array<std::pair<std::string_view, Signal BenchParams::*>, 5> kBenchSignals = {{
    {"bench.input", &BenchParams::input_x},
    {"bench.input_y", &BenchParams::input_y},
    {"bench.belt", &BenchParams::belt_x},
    {"bench.belt_y", &BenchParams::belt_y},
    {"bench.normal_load", &BenchParams::normal_load},
}};
/// The signals of `p` with their key paths (kBenchSignals).
std::array<std::pair<const Signal*, std::string_view>, 5> named_signals(const BenchParams& p);
/// InvalidInput when a sine signal of `p` spans more than kMaxSinePeriods periods over `span_s` (a non-finite span is
/// left to the time checks): "<key>.omega = w: the run (<span_text>) spans N of its periods; at most 1000000<note>".
void require_sine_periods(const BenchParams& p, double span_s, std::string_view span_text,
                          std::string_view note = "");

/// Integrates the bench through `output_times` (t0 = output_times.front()), recording a row at each.
/// InvalidInput for more than kMaxRunOutputs output times or a sine signal of more than kMaxSinePeriods periods.
/// `progress` (optional) is called with the fraction done. With rodas4 (whose steps do not depend on the
/// number of state components, see OdeSystem::error_norm_count), no per-component atol, and
/// bench.x_only(initial state), the 1-D x subsystem is integrated instead of the full one
/// (`allow_x_only` = false forces the full system): the same trajectory up to rounding, with 6 instead of
/// 10 states for a spring drive (smaller LU, half the Jacobian's difference quotients). Every output row
/// is computed from the full state (zero y components) by outputs(), as on the full path.
/// When moreover the pair is elastic (n1 = n2 = 0) and the law is Dahl, LuGre or FrBD with an isotropic
/// Stribeck M (delta_S = 0 or >= 1), the x subsystem runs as a compiled scalar kernel (the same equations
/// and steps, an analytic Jacobian, the energy integrals as quadratures, rows written directly;
/// docs/integrators.md); `allow_kernel` = false keeps it on the general x_system.
BenchRun run(const Bench& bench, const std::vector<double>& output_times, const integrate::Options& options,
             const VecX& u0 = {}, const std::function<void(double)>& progress = {}, bool allow_x_only = true,
             bool allow_kernel = true);

/// The compiled scalar kernel of run() (elastic pair, Dahl/LuGre/FrBD with isotropic Stribeck M, driven along
/// x) behind std::function, for inspection and tests: `system` is the ODE of Bench::x_components() (x[, v][,
/// x_p], f_x, E_supplied, E_dissipated) with the kernel's analytic Jacobian and switches, `outputs` its row
/// of Bench::outputs (kOutputColumns values) at such a state, `solve_stage` its solver of the Rosenbrock
/// stage equations (integrate::StageSolver): k = (c I - J_lead)^-1 r on the leading x[, v][, x_p], f_x
/// components, J the full Jacobian (column-major) and r, k of system.size components (the quadratures'
/// entries of k untouched). run() calls the same functions without this std::function layer. Valid while
/// `bench` and its model live (as Bench::system()). Throws InvalidInput if the bench is not of that kind.
struct KernelFunctions {
  integrate::OdeSystem system;
  std::function<void(double t, const double* x, double* row)> outputs;
  std::function<void(double c, const double* jacobian, const double* r, double* k)> solve_stage;
};
KernelFunctions kernel_functions(const Bench& bench);

}  // namespace bristle::contact
