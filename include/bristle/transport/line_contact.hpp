#pragma once
// Line contact of length L: the viscoelasto-kinematic PDEs of paper 1 (eqs. 33-35, 74, 76) in one
// space dimension, for sliding (eq. 54), rolling (eq. 60) and anything between.
//
// Coordinate xi in [0, L] from the leading edge (xi = L/2 - x, §5.1). The material velocities of the
// two bodies along xi are inputs V1(t), V2(t) (sliding: V1 = 0, V2 = V_x; rolling: V1 = V_r,
// V2 = V_x; errata §5.2). Each component of u = [f; zeta1; zeta2] is transported with its own speed
//   f_x: S1_xx V1 + S2_xx V2,  f_y: S1_yy V1 + S2_yy V2   (s1 V1 + s2 V2, eq. 34a)
//   zeta1: V1,  zeta2: V2                                  (eq. 34a)
// and reacts through the pointwise source of the contact model (eq. 35):
//   du/dt + Lambda du/dxi = h(u, v_r),   v_r = (V2 - V1, v_y)  (the rigid relative velocity)
// A component with positive speed enters at xi = 0, one with negative speed at xi = L, where it is
// zero (eqs. 50, 54d-e, 60d-f); a component with zero speed needs no boundary condition and is an
// ODE at each xi (eq. 54b). With V1 = V2 = 0 every cell follows the lumped model exactly.
//
// Forces: F(t) = int_0^L p(xi) f(xi, t) dxi (eq. 36) with int p = F_z. Energy: W = int p w(u) dxi
// (eq. 85), supplied power P = -int p f . v_r dxi (eq. 79).
//
// | key        | meaning                                 | unit | range                |
// |------------|-----------------------------------------|------|----------------------|
// | L_m        | contact length                          | m    | > 0                  |
// | cells      | finite volumes                          | -    | >= 2                 |
// | normal_load_N | F_z                                  | N    | > 0                  |
// | cfl        | Courant number of the automatic step    | -    | (0, 1]               |
// | dt_s       | fixed time step (0: automatic)          | s    | >= 0, CFL-stable     |
#include <functional>
#include <limits>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "bristle/contact/contact_model.hpp"
#include "bristle/contact/signal.hpp"
#include "bristle/core/schema.hpp"
#include "bristle/core/time_series.hpp"
#include "bristle/integrate/ode.hpp"

namespace bristle::integrate {
class FixedStepper;
}

namespace bristle::transport {

enum class PressureKind { uniform, parabolic, table };
std::string_view to_string(PressureKind kind);
PressureKind pressure_kind_from_string(std::string_view key, std::string_view name);

struct PressureParams {
  PressureKind kind = PressureKind::uniform;
  std::vector<double> xi_m, values;  // table: shape of p(xi), scaled so that int p = F_z
  void validate(std::string_view prefix) const;
};

/// The schema of PressureParams (core/schema.hpp). A scenario writes it in [line] as pressure = "<kind>" and
/// [line.pressure_table] (LineContactParams' serialize()).
template <class Archive, schema::Of<PressureParams> Self>
void serialize(Archive& a, Self& p) {
  using schema::Type;
  const bool table = p.kind == PressureKind::table;
  a.choice(p.kind, {.key = "kind", .type = Type::choice, .default_value = "uniform",
                    .doc = "pressure distribution p(xi)", .choices = "uniform, parabolic, table"});
  a.declared({.key = "xi_m", .type = Type::number_list, .unit = "m", .default_value = "required",
              .doc = "positions xi, strictly increasing, covering [0, L_m]", .used_by = "table"},
             table);
  a.declared({.key = "values", .type = Type::number_list, .default_value = "required",
              .doc = "pressure shape at each xi_m, >= 0", .used_by = "table"},
             table);
}

/// p(xi) in N/m, normalised so that int_0^L p dxi = F_z.
class Pressure {
 public:
  /// `key` names the table in messages (a scenario passes its key path, e.g. "line.pressure_table").
  Pressure(const PressureParams& params, double L, double normal_load_N, std::string_view key = "pressure");
  double operator()(double xi) const;
  /// Mean of p over [a, b] (exact for uniform, parabolic and piecewise-linear tables).
  double mean(double a, double b) const;
  const PressureParams& params() const { return params_; }
  double normal_load() const { return normal_load_; }
  /// The contact length L (m) it was built with.
  double L() const { return L_; }

 private:
  double primitive(double xi) const;  // int_0^xi p
  PressureParams params_;
  double L_ = 1.0, normal_load_ = 1.0, scale_ = 1.0;
};

enum class Limiter { none, minmod, van_leer, mc };  // none = first-order upwind
std::string_view to_string(Limiter limiter);
Limiter limiter_from_string(std::string_view key, std::string_view name);

/// How the source half-steps are integrated.
///   sdirk2       the lumped model's own fixed-step SDIRK2 (Newton, analytic Jacobian), any law;
///   exponential  exact propagator u <- e^{J h} u + phi_1(J h) h b of the source frozen at the half
///                step's midpoint, h(u) = J u + b; only for sources affine in u at fixed v_r (every law
///                but Bouc-Wen and a user G^-1). Second order like the splitting; exact for constant
///                velocities, and one matrix-vector product per cell;
///   automatic    exponential when the source is affine, else sdirk2.
enum class SourceScheme { automatic, sdirk2, exponential };
std::string_view to_string(SourceScheme scheme);
SourceScheme source_scheme_from_string(std::string_view key, std::string_view name);

/// True when the contact model's source is affine in the state at fixed v_r.
bool source_is_affine(const contact::ContactModel& model);
struct LineContactParams {
  /// At most this many cells (~200 bytes of state and work each; a scenario's line.cells has the same limit).
  static constexpr int kMaxCells = 1'000'000;
  double L_m = 0.2;
  int cells = 200;
  double normal_load_N = 1.0;
  PressureParams pressure;
  contact::Signal V1, V2;                 // material velocities along xi (m/s)
  contact::Signal v_y;                    // lateral rigid relative velocity (m/s), default 0
  double cfl = 0.9;
  double dt_s = 0.0;                      // 0: automatic, from the CFL condition
  double max_dt_s = 0.0;                  // cap on the automatic step (0: none; needed without advection)
  Limiter limiter = Limiter::van_leer;
  SourceScheme source_scheme = SourceScheme::automatic;
  /// run(): false = the steps land on every output time; true = the solver keeps its own (CFL) steps
  /// and the outputs are interpolated between them (see LineContact::sample).
  bool interpolate_outputs = false;

  /// The names messages give what a scenario file writes elsewhere (a scenario passes the key paths its user wrote,
  /// e.g. "kinematics.Vr"); empty: "<prefix>.V1", "<prefix>.V2", "<prefix>.pressure" and "<prefix>.V1/V2" (the
  /// characteristic speeds), the fields' own names.
  struct MessageKeys {
    std::string V1, V2, pressure, speeds;
  } message_keys;

  void validate(std::string_view prefix) const;
  /// The message key of a field: message_keys' or "<prefix>.<field>".
  static std::string key_of(std::string_view prefix, const std::string& given, std::string_view field) {
    return given.empty() ? std::string(prefix) + "." + std::string(field) : given;
  }
  /// The pressure table's name in the messages of transport::Pressure: message_keys' or "pressure".
  std::string_view pressure_key() const {
    if (message_keys.pressure.empty()) return "pressure";
    return message_keys.pressure;  // (a ?: of the two would make a temporary std::string)
  }
};

/// The schema of the [line] table (core/schema.hpp): LineContactParams without V1, V2, v_y (the
/// [kinematics] of the scenario kinds). `transient`: the keys of the transient solver apply.
template <class Archive, schema::Of<LineContactParams> Self>
void serialize(Archive& a, Self& p, bool transient) {
  using schema::Type;
  constexpr std::string_view tr = "line_transient";
  a.number(p.L_m, {.key = "L_m", .unit = "m", .default_value = "required", .range = schema::positive(),
                   .doc = "contact length L", .equation = "paper 1, §5", .log_scale = true});
  a.number(p.normal_load_N, {.key = "normal_load_N", .unit = "N", .default_value = "required",
                             .range = schema::positive(), .doc = "normal load F_z = int_0^L p dxi",
                             .log_scale = true});
  a.choice(p.pressure.kind, {.key = "pressure", .type = Type::choice, .default_value = "uniform",
                             .doc = "pressure distribution p(xi)", .choices = "uniform, parabolic, table"});
  a.table({.key = "pressure_table", .type = Type::table, .default_value = "required with pressure = \"table\"",
           .doc = "p(xi) as a table, scaled so that its integral is F_z", .used_by = "pressure = table"},
          [&](auto& b) {
            b.declared({.key = "xi_m", .type = Type::number_list, .unit = "m", .default_value = "required",
                        .doc = "positions xi, strictly increasing, covering [0, L_m]"});
            b.declared({.key = "values", .type = Type::number_list, .default_value = "required",
                        .doc = "pressure shape at each xi_m, >= 0"});
          },
          p.pressure.kind == PressureKind::table);
  a.integer(p.cells, {.key = "cells", .type = Type::integer, .default_value = "200", .range = schema::at_least(2),
                      .doc = "finite volumes along xi, at most 1e6", .used_by = tr},
            transient);
  a.number(p.cfl, {.key = "cfl", .default_value = "0.9", .range = schema::half_open(0, 1),
                   .doc = "Courant number of the automatic step", .used_by = tr, .numerics = true},
           transient);
  a.number(p.dt_s, {.key = "dt_s", .unit = "s", .default_value = "0", .range = schema::non_negative(),
                    .doc = "a fixed step (0: automatic), checked against the CFL condition over the run",
                    .used_by = tr, .numerics = true},
           transient);
  a.number(p.max_dt_s, {.key = "max_dt_s", .unit = "s", .default_value = "0", .range = schema::non_negative(),
                        .doc = "cap on the automatic step (0: none)", .used_by = tr, .numerics = true},
           transient);
  a.choice(p.limiter, {.key = "limiter", .type = Type::choice, .default_value = "van_leer",
                       .doc = "slope limiter of the transport scheme (none: first-order upwind)",
                       .choices = "none, minmod, van_leer, mc", .used_by = tr},
           transient);
  a.choice(p.source_scheme, {.key = "source_scheme", .type = Type::choice, .default_value = "automatic",
                             .doc = "the source step (exponential: affine sources only)",
                             .choices = "automatic, sdirk2, exponential", .used_by = tr},
           transient);
  a.flag(p.interpolate_outputs, {.key = "interpolate_outputs", .type = Type::flag, .default_value = "false",
                                 .doc = "keep the solver's own (CFL) steps and interpolate the outputs", .used_by = tr},
         transient);
}

/// Forward (tangent-linear) sensitivity of a transient run with respect to one parameter of the contact model
/// (the law, the bodies, the pair) that leaves the transport speeds (S1, S2 of eq. 34a) and hence the steps as
/// they are; fit/line.hpp's exact Jacobian. Every stage of the discrete scheme is differentiated exactly on the
/// affine-source path: the source propagator u <- P u + q (du <- P du + dP u + dq), the limited transport (the
/// limiter's derivative on the branch it takes: minmod and mc pick one argument or their mean, van Leer is
/// smooth where active), the outputs (eqs. 36, 79, 85, the trapezoidal supplied energy, the dissipated power) and
/// the dense-output interpolation (linear in the step values). Only pointwise partials in the parameter are
/// central differences between the models at p - h and p + h: the frozen source's J and b at the step's own v_r
/// (dP, dq then by the Frechet derivative of the exponential of [[J, b], [0, 0]] h; differencing P itself would
/// lose digits, P being close to the identity), the friction force, stored energy and dissipation rate at a point
/// (smooth, noise-free: ~1e-10 relative for h = 1e-6 |p|). The friction force is affine and the energies quadratic
/// in the state, so their state derivatives are exact central differences along the tangent. The initial state is
/// taken independent of p.
struct LineSensitivity {
  double step = 0.0;                               // h > 0: the perturbation of the parameter
  const contact::ContactModel* minus = nullptr;    // the contact model at p - h
  const contact::ContactModel* plus = nullptr;     // the contact model at p + h
  bool energies = true;  // run(): false skips d W_J and d P_dissipated_W (NaN; a sum over the cells per output)
  /// Output of run(): d(column)/dp at every output row, the run's columns (t_s the time; the velocities 0).
  TimeSeries derivative;
};

/// Characteristic speeds of each state component for material velocities (V1, V2): eq. 34a.
/// Requires S1, S2 diagonal (the decoupled longitudinal/lateral line contact).
VecX characteristic_speeds(const contact::ContactModel& model, double V1, double V2);
/// The largest |characteristic speed| over [a, b] for the velocities V1(t), V2(t) and the time it is reached: at the
/// signals' extreme candidates (contact::extreme_candidates), plus `samples` + 1 equally spaced times when a sine is
/// involved (a sine combined with another signal need not peak at its own crests). A lower bound in general; exact
/// for signals that are piecewise linear or alone.
std::pair<double, double> fastest_characteristic_speed(const contact::ContactModel& model, const contact::Signal& V1,
                                                       const contact::Signal& V2, double a, double b, int samples = 0);

class LineContact {
 public:
  LineContact(const contact::ContactModel& model, LineContactParams params);
  ~LineContact();
  LineContact(const LineContact&) = delete;
  LineContact& operator=(const LineContact&) = delete;

  int cells() const { return params_.cells; }
  int components() const { return model_.state_size(); }
  double dx() const { return dx_; }
  /// x of cell i's centre (m); InvalidInput unless 0 <= i < cells().
  double cell_centre(int i) const;
  /// The state field, cell-major: u(i, k) = state[i * components() + k]. The affine-source path keeps
  /// its own work arrays and refreshes this vector when it is read (const methods may therefore write
  /// internal caches: do not share one LineContact between threads); after the non-const state() the
  /// next step reloads it, so changes made through it take effect.
  VecX& state();
  const VecX& state() const {
    sync();
    return u_;
  }
  double time() const { return t_; }
  /// Back to time t0 (finite) with the state `initial` (one point's, or every cell's; empty: zero).
  void reset(double t0, const VecX& initial = {});

  /// Advances to t_end (finite, not before time()) with steps of at most the CFL limit (or the fixed dt_s); throws
  /// SolverError if a fixed dt_s breaks the CFL condition at some time, or if the state becomes non-finite.
  /// InvalidInput, before any step, when the span at the first step's size asks for more than kMaxCellUpdates cell
  /// updates (line.dt_s = 1e-200 ran for ever); SolverError when a step no longer moves the time.
  void advance_to(double t_end);
  /// Cell updates one advance_to or sample may take (~50 ns each: ~14 h): beyond it the step is not meant.
  static constexpr double kMaxCellUpdates = 1e12;
  /// One Strang-split step: half source, transport, half source (second order). dt finite, > 0 and within the
  /// Courant limit dx / max |speed| at time() (InvalidInput otherwise: a step beyond it is unstable).
  void step(double dt);
  /// Dense output: advances to times.back() with the solver's own steps (as advance_to(times.back()),
  /// not landing on the other times) and calls visit(j, *this) once per times[j], in order, while the
  /// contact's state(), time(), supplied_energy() and every output show their values at times[j],
  /// interpolated between the steps (Lagrange polynomial of degree 5 through the six nearest step points, centred:
  /// error O(dt^6), below the scheme's O(dt^2) once the step resolves the source's time scale; exact at
  /// the step points). Afterwards the contact is at times.back().
  /// `times` must be non-decreasing and not before time().
  void sample(const std::vector<double>& times, const std::function<void(std::size_t, const LineContact&)>& visit);
  /// Largest stable step at time t: cfl * dx / max |speed| (infinity without advection).
  double stable_dt(double t) const;

  /// Carries the tangent of each sensitivity's parameter (LineSensitivity: the models at p -/+ h) with every
  /// following step, from the current state taken independent of p (du = 0). The affine-source path only, with
  /// models of the same state size and transport speeds (S1, S2 within 1e-12 relative): InvalidInput otherwise;
  /// during the run, InvalidInput if a perturbed model forces a component the run keeps at zero (the source's
  /// structure changes with the parameter). The models must outlive the tracking; reset() ends it, and the
  /// non-const state() may not be called while tracking (std::logic_error). Without tracking nothing of the
  /// primal computation changes.
  void track(const std::vector<LineSensitivity>& sensitivities);
  std::size_t tracked() const;
  /// d/dp_j of the outputs of the visible state (j: the index in track()'s list; interpolated in a sample visit).
  Vec2 total_force_derivative(std::size_t j) const;
  double stored_energy_derivative(std::size_t j) const;
  double supplied_power_derivative(std::size_t j) const;
  double supplied_energy_derivative(std::size_t j) const;
  double dissipated_power_derivative(std::size_t j) const;

  Vec2 relative_velocity(double t) const;
  Vec2 total_force() const;            // eq. 36, N
  double stored_energy() const;        // eq. 85, J
  double supplied_power() const;       // -int p f . v_r, W
  double dissipated_power() const;     // int p D(u), W
  double supplied_energy() const { return supplied_energy_; }  // int_0^t supplied power, J (trapezoidal)
  /// The fields at the current time: xi_m, p_N_per_m, f_x, f_y, z1_<i>_<x|y>_m, z2_<i>_<x|y>_m.
  TimeSeries field() const;
  long steps_taken() const { return steps_; }

  const contact::ContactModel& model() const { return model_; }
  const LineContactParams& params() const { return params_; }
  const Pressure& pressure() const { return pressure_; }

 private:
  // Propagator of the frozen affine source over h at v_r = v: u <- P u + q, with the sparsity of J.
  struct Propagator {
    Vec2 v = Vec2::Constant(std::numeric_limits<double>::quiet_NaN());
    double h = -1.0;
    MatX P, coupled;  // coupled(k, j) != 0: J(k, j) != 0
    VecX q;
    std::vector<char> forced;  // b_k != 0
  };
  void sync() const;  // u_ <- the visible state (the work arrays, or their interpolation in a sample visit)
  Vec2 affine_force(const VecX& weighted_sum, const Vec2& v_r) const;  // int p friction for an affine source
  VecX visible_weighted_sum() const;
  double next_dt(double t_end) const;   // the step advance_to takes towards t_end (CFL / fixed dt_s)
  void check_work(double t_end) const;  // kMaxCellUpdates at the first step's size
  void check_progress(double dt) const;  // a step below the resolution of the time
  double max_speed(double t) const;     // max |characteristic speed| (no allocation)
  void source_step(double t, double dt);  // SDIRK2 path, on u_
  void transport_step(double t, double dt);  // SDIRK2 path, on u_
  void legacy_step(double dt);
  void step_unchecked(double dt);  // step() without its argument checks: advance_to's steps are within them
  // Affine-source path: component-major work arrays, only the non-zero or forced components.
  const Propagator& propagator(const Vec2& v, double h, const Propagator* keep);
  void load_work();    // u_ -> work (component-major); marks the components that are non-zero
  void fast_step(double dt);
  void transport_column(double* column, double c, double dt);
  // Tangent of the affine path (track()): per parameter the ring of du, its weighted sums and energies.
  struct Tangent;
  void tangent_source(const Propagator& pr, int in, int out, bool to_scratch);
  void tangent_transport(int slot, double dt);
  void tangent_outputs(double dt);
  const MatX& visible_tangent(std::size_t j) const;
  VecX visible_tangent_sum(std::size_t j) const;
  VecX visible_sum() const;  // the weighted sums of the visible state, also before the work arrays are live

  const contact::ContactModel& model_;
  LineContactParams params_;
  Pressure pressure_;
  double dx_ = 0.0, t_ = 0.0;
  long steps_ = 0;
  double supplied_energy_ = 0.0, supplied_power_ = 0.0;
  mutable VecX u_;  // cell-major; may lag the work arrays of the affine path (see sync)
  std::vector<double> p_cell_;  // cell means of p
  integrate::OdeSystem cell_system_;  // u' = h(u, v_r(t)) at one point: the lumped model
  integrate::Stats stepper_stats_;
  std::unique_ptr<integrate::FixedStepper> stepper_;
  bool exponential_ = false;  // resolved source scheme
  Propagator cache_[2];
  int cache_next_ = 0;
  // Work arrays of the affine path: the state as cells x components (column k = component k), ring
  // slots for dense output, a scratch matrix, the transport column and faces.
  std::vector<MatX> ring_;
  int head_ = 0;
  MatX scratch_;
  std::vector<double> column_, face_;
  VecX weights_;                 // p_i dx
  double weight_sum_ = 0.0;
  std::vector<char> nonzero_;    // component may be non-zero somewhere
  std::vector<int> active_;      // components updated this step
  VecX speed_;
  mutable VecX mean_;
  bool work_live_ = false;       // ring_[head_] holds the current state (u_ may lag)
  mutable bool u_fresh_ = true;  // u_ holds the visible state
  // Per ring slot: time, supplied energy and int p u dxi (the weighted sum of each component).
  static constexpr int kDenseNodes = 6;  // step points of the dense-output interpolant (degree 5)
  double slot_t_[kDenseNodes] = {}, slot_e_[kDenseNodes] = {};
  VecX slot_sum_[kDenseNodes];
  // The interpolation shown during a sample visit: sum_i interp_w_[i] ring_[interp_slot_[i]].
  int interp_count_ = 0, interp_slot_[kDenseNodes] = {};
  double interp_w_[kDenseNodes] = {};
  mutable MatX interp_buf_;
  std::unique_ptr<Tangent> tangent_;  // set by track()
};


/// The most field rows (field times x cells) one run holds: ~15 columns of doubles, 1e7 rows ~ 1.2 GB in memory.
inline constexpr double kMaxFieldRows = 1e7;

struct LineRun {
  TimeSeries series;   // t_s, V1_mps, V2_mps, vr_mps, Fx_N, Fy_N, W_J, P_supplied_W, E_supplied_J, ...
  std::vector<double> field_times;
  std::vector<TimeSeries> fields;   // per field time: xi_m, f_x, f_y, z1_<i>_x ..., p_N_per_m
  long steps = 0;
};

/// Runs from t0 through output_times, recording forces and energy at each, and the fields at the
/// requested field_times (each one of output_times, in increasing order; InvalidInput otherwise; at most
/// contact::kMaxRunOutputs output times, as a bench run, and kMaxFieldRows field rows). The steps land on every
/// output time, or, with params.interpolate_outputs, keep the solver's own size and the outputs are
/// interpolated between them (LineContact::sample).
/// `sensitivities`: if given, the contact tracks them from its current state (LineContact::track) and each
/// entry's derivative series receives a row per output time.
LineRun run(LineContact& contact, const std::vector<double>& output_times, const std::vector<double>& field_times,
            const std::function<void(double)>& progress = {},
            std::vector<LineSensitivity>* sensitivities = nullptr);

// ---- Steady state ----------------------------------------------------------------------------------
struct SteadyLine {
  Vec2 force_N = Vec2::Zero();     // eq. 36
  bool exact = false;              // true: matrix exponential (affine source); false: adaptive ODE in xi
  TimeSeries field;                // xi_m, f_x, f_y, state components (when requested)
};

/// The steady state of the line contact at constant V1, V2, v_y: the ODE in xi
///   Lambda du/dxi = h(u, v_r)  (zero-speed components algebraic: h_k = 0)
/// solved exactly by a matrix exponential when the source is affine in u at fixed v_r (Dahl, LuGre,
/// FrBD, frictionless with any linear rheology), else by an adaptive integrator at rtol 1e-12. Slow speeds
/// make the ODE stiff: past R = max_k |J_kk| L / |c_k| = 2e6 (a component relaxing 2e6 times faster than it
/// crosses the contact; the exponential keeps ~5e-15 R) the adaptive integrator solves the affine case too
/// (exact = false; its cost grows with R), and past R = 1e10, or 2e6 with a component moving towards the
/// leading edge, InvalidInput names V1, V2 and the ratio. A speed at the rounding level of its terms is 0.
/// `field_points` > 0 also returns the fields at that many equally spaced xi.
SteadyLine steady_state(const contact::ContactModel& model, const LineContactParams& params, double V1, double V2,
                        double v_y = 0.0, int field_points = 0);

}  // namespace bristle::transport
