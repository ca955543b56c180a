#pragma once
// Transient two-dimensional contact patch (paper 1, §4, eqs. 33-39, 85; App. A.1 for a time-varying
// contact area).
//
// The patch follows a prescribed load history F_z(t): its length and width scale with
//   sigma_x(t) = (F_z(t) / F_z0)^gamma_x,  sigma_y(t) = (F_z(t) / F_z0)^gamma_y
// (gamma_x = gamma_y = 1/3: Hertz point contact; tyres: gamma_x in [1/2, 1], gamma_y ~ 0), so
// x = sigma_x(t) X, y = sigma_y(t) Y with (X, Y) in the reference patch (patch.length_m x patch.width_m
// at F_z0 = patch.normal_load_N), and the pressure keeps its shape with int p dA = F_z(t) (the area
// scales with sigma_x sigma_y). The level-preserving map of App. A.1,
// Phi(x, t) = Phi_0(x / sigma_x(t), y / sigma_y(t)) onto the square (xi, eta), turns the moving domain
// into a fixed one; the transported families keep their form with the mapped velocities
//   W = (V . grad) Phi + dPhi/dt = grad Phi . (V - V_dC),
//   V_dC = (sigma_x'/sigma_x x, sigma_y'/sigma_y y)                                         (eq. 63c-d)
// and the leading edges of eqs. 48-49 are those of V - V_dC: a growing patch takes in new, unstressed
// material on its whole boundary.
//
// Scheme: Strang splitting (second order) of
//   source      du/dt = h(u, v_r)  per cell, with the kinematics and patch size of the half step's
//               midpoint. source_scheme "exponential" (sources affine in u at fixed v_r: Dahl, LuGre,
//               FrBD with eq. 3): the exact propagator u <- e^{J dt/2} u + phi1(J dt/2) dt/2 b, v_r taken
//               at a predicted midpoint state when the S-corrections make it depend on u; "sdirk2"
//               (any law: Bouc-Wen, a user G^-1): the lumped model's own L-stable SDIRK2 step (the
//               line contact's), v_r(u) evaluated at every stage; "automatic": exponential when the
//               source is affine, else sdirk2;
//   transport   du~_k/dt + W_k . grad u~_k = 0  per Riemann family with the steady solver's
//               second-order upwind stencil, SSP-RK3 in time (stable for Courant <= 0.4 per
//               direction sum), stencils at the step's midpoint.
//
// | key            | meaning                                      | unit | range                 |
// |----------------|----------------------------------------------|------|-----------------------|
// | source_scheme  | automatic, exponential (affine only), sdirk2 | -    |                       |
// | size_exponent  | gamma_x (and gamma_y unless width_exponent)  | -    | [0, 1]                |
// | width_exponent | gamma_y of sigma_y = (F_z/F_z0)^gamma_y      | -    | [0, 1]; = size_exponent |
// | cfl            | Courant number of the automatic step         | -    | (0, 0.5]              |
// | max_dt_s       | cap on the step (0: none; needed at rest)     | s    | >= 0                  |
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/core/time_series.hpp"
#include "bristle/patch/patch.hpp"
#include "bristle/transport/line_contact.hpp"

namespace bristle::patch {

/// e^A and phi1(A) = A^-1 (e^A - I) (= int_0^1 e^{A tau} dtau) of a real 2 x 2 matrix, in closed form
/// (Cayley-Hamilton) with the phi1 integral by Gauss-Legendre: the exact source step of elastic pairs.
void exp_phi1_2x2(const Mat2& A, Mat2& E, Mat2& F);

struct PatchTransientParams {
  PatchParams patch;             // the reference patch at F_z0 = patch.normal_load_N, and the grid
  double size_exponent = 1.0 / 3.0;            // gamma_x (and gamma_y when width_exponent is unset)
  std::optional<double> width_exponent;        // gamma_y; unset: = size_exponent (isotropic)
  /// gamma_y: width_exponent when set, else size_exponent.
  double width_gamma() const { return width_exponent ? *width_exponent : size_exponent; }
  double cfl = 0.4;
  double max_dt_s = 0.0;
  transport::SourceScheme source_scheme = transport::SourceScheme::automatic;
  void validate(std::string_view prefix) const;
};

/// The schema of PatchTransientParams (core/schema.hpp): the [transient] table (cfl, max_dt_s, source_scheme).
/// The reference patch is PatchParams' serialize(); the size scaling sits in [patch] (serialize_scaling).
template <class Archive, schema::Of<PatchTransientParams> Self>
void serialize(Archive& a, Self& p) {
  using schema::Type;
  a.number(p.cfl, {.key = "cfl", .default_value = "0.4", .range = schema::half_open(0, 0.5),
                   .doc = "Courant number of the transport step", .numerics = true});
  a.number(p.max_dt_s, {.key = "max_dt_s", .unit = "s", .default_value = "0 (none)", .range = schema::non_negative(),
                        .doc = "largest step", .numerics = true});
  a.choice(p.source_scheme, {.key = "source_scheme", .type = Type::choice, .default_value = "automatic",
                             .doc = "source step: exponential (affine sources only) or sdirk2 (any law)",
                             .choices = "automatic, exponential, sdirk2"});
}

/// The size scaling of the transient patch, keys of [patch] (App. A.1): length ~ F_z^gamma_x, width ~ F_z^gamma_y.
template <class Archive, schema::Of<PatchTransientParams> Self>
void serialize_scaling(Archive& a, Self& p) {
  a.number(p.size_exponent, {.key = "size_exponent", .default_value = "1/3", .range = schema::closed(0, 1),
                             .doc = "gamma_x: length ~ (F_z/F_z0)^gamma_x (and gamma_y unless width_exponent)",
                             .equation = "paper 1, App. A.1", .used_by = "patch_transient"});
  a.declared({.key = "width_exponent", .default_value = "size_exponent", .range = schema::closed(0, 1),
              .doc = "gamma_y: width ~ (F_z/F_z0)^gamma_y", .equation = "paper 1, App. A.1",
              .used_by = "patch_transient"},
             p.width_exponent.has_value());
}

/// One parameter p_j of a tangent-linear run (PatchTransient::track_sensitivities): the contact model at p_j - step
/// and at p_j + step (models that differ from the run's in the pointwise source and friction only: a key of law,
/// body1, body2 or pair that leaves the pair's S1, S2 -- the transport velocities -- and the state's size alone).
struct PatchTransientSensitivity {
  const contact::ContactModel* minus = nullptr;
  const contact::ContactModel* plus = nullptr;
  double step = 0.0;
};

using KinematicsHistory = std::function<PatchKinematics(double t)>;
using LoadHistory = std::function<double(double t)>;

struct PatchSnapshot {
  double t_s = 0.0;
  double Fz_N = 0.0, scale = 1.0;     // load and sigma_x (the length's scale)
  double scale_y = 1.0;               // sigma_y (the width's scale)
  Vec2 force_N = Vec2::Zero();        // eq. 36
  double Mz_Nm = 0.0, Mz_no_phi_Nm = 0.0;  // eqs. 38, 39
  double stored_energy_J = 0.0;       // eq. 85
  double supplied_power_W = 0.0;      // -int p f . v_r dA
  double dissipated_power_W = 0.0;    // int p D dA
  double supplied_energy_J = 0.0;     // int_0^t supplied power (trapezoidal over steps)
  // Energy budget (docs/patch.md): dW/dt = P_supplied - D - Phi_out + Gamma + L
  double outflow_power_W = 0.0;       // Phi_out: storage carried out through the trailing edges (>= 0)
  double compression_power_W = 0.0;   // Gamma = sum_k int div(p (c_k - V_dC)) w_k dA
  double load_power_W = 0.0;          // L = (dF_z/dt / F_z) W: storage change of the pressure's scaling
  double dissipated_energy_J = 0.0, outflow_energy_J = 0.0, compression_energy_J = 0.0, load_energy_J = 0.0;
  /// W(t) - W(t0) - int (P_supplied - D - Phi_out + Gamma + L) dt (trapezoidal over steps): the
  /// discretisation error of the budget.
  double energy_residual_J = 0.0;
};

/// Empty if `perturbed` (a contact model at perturbed parameters) leaves the transient patch's transport alone --
/// the pair's S1 and S2 (the Riemann families' velocities, eqs. 41-44) to rounding and the state's size -- else
/// why not (PatchTransient::track_sensitivities' check).
std::string transport_change(const contact::ContactModel& model, const contact::ContactModel& perturbed);

class PatchTransient {
 public:
  PatchTransient(const contact::ContactModel& model, PatchTransientParams params, KinematicsHistory kinematics,
                 LoadHistory load);

  /// Unloaded contact (u = 0) at t0.
  void reset(double t0);
  /// Steps to t_end; on_step(t), if given, after each step (progress inside a long interval). InvalidInput, before
  /// any step, when the span at the first step's size asks for more than kMaxCellUpdates cell updates
  /// (transient.cfl = 1e-200 ran for ever); SolverError when a step no longer moves the time.
  void advance_to(double t_end, const std::function<void(double)>& on_step = nullptr);
  /// Cell updates one advance_to may take (~0.1-1 us each): beyond it the step is not meant.
  static constexpr double kMaxCellUpdates = 1e12;
  /// The largest load ratio F_z(t) / patch.normal_load_N the size scaling takes (InvalidInput beyond it).
  static constexpr double kMaxLoadRatio = 1e6;
  /// One Strang step: half source, transport, half source. dt finite, > 0 and within the Courant limit at time() (cell
  /// size / the largest transport speed; InvalidInput otherwise: step(1e300) gave F = 0).
  void step(double dt);
  /// The CFL step at t (cfl h / max |W|, capped by max_dt_s): a function of the kinematics at t and of the load at
  /// t and t +- rate_step(t) (the patch's size and its rate).
  double stable_dt(double t) const;
  /// The half-width of the central difference of the patch's size rate (sigma_rate) at t.
  static double rate_step(double t) { return 1e-7 * std::max(1.0, std::abs(t)); }
  PatchSnapshot snapshot() const;
  double time() const { return t_; }
  long steps_taken() const { return steps_; }
  /// True when the source step is the exact exponential propagator (affine source), false for SDIRK2.
  bool exponential_source() const { return exponential_; }
  int nx() const { return nx_; }
  int ny() const { return ny_; }
  /// The state at cell (i, j) in the original variables.
  VecX state(int i, int j) const;
  /// Tangent-linear companion (discrete forward sensitivities of the scheme above): from now on every step also
  /// carries S_j = du~/dp_j (started at 0: call it right after reset(), the unloaded state does not depend on p),
  /// the derivative of the discrete Strang step:
  ///   source     S <- dPhi/du~ S + dPhi/dp_j,  Phi(u~; p) = P u~ + q the cell's exact step (P, q at v_r; with
  ///              v_r(u) the predicted-midpoint map): dPhi/du~ = P itself when v_r does not depend on the state
  ///              (the step is affine), else central differences of Phi in u~ (step 1e-6 of the state's scale);
  ///              dPhi/dp_j central differences of the cell's step map between the models at p_j -/+ step at the
  ///              same cell state (a smooth local function: its error ~1e-9 relative);
  ///   transport  the same SSP-RK3 stencils applied to S (the scheme is linear in u~, without a limiter, and its
  ///              stencils, steps and grid do not depend on p_j).
  /// InvalidInput (saying why) where it does not apply: the sdirk2 source scheme (Bouc-Wen, a user G^-1), or a
  /// perturbed model whose pair changes the transport (S1, S2 beyond rounding) or the state's size.
  void track_sensitivities(std::vector<PatchTransientSensitivity> sensitivities);
  /// The outputs output_derivatives() differentiates, its rows in this order, by their output column names (of
  /// snapshot(): force_N[0], force_N[1], Mz_Nm, Mz_no_phi_Nm, stored_energy_J, supplied_power_W, dissipated_power_W).
  static const std::vector<std::string>& sensitivity_outputs();
  /// d(output)/dp_j at the current time, outputs x parameters: sum over cells of load x (do/du~ S_j + do/dp_j),
  /// do/du~ central differences in u~ (step 1e-6 of the state's scale) and do/dp_j between the models at p_j -/+
  /// step: smooth pointwise functions. Throws std::logic_error without track_sensitivities.
  MatX output_derivatives() const;
  /// What it was built with (what rebuilds it, e.g. for pickling).
  const contact::ContactModel& model() const { return model_; }
  const PatchTransientParams& params() const { return params_; }
  const KinematicsHistory& kinematics() const { return kinematics_; }
  const LoadHistory& load() const { return load_; }

 private:
  void step_unchecked(double dt);  // step() without the Courant check: advance_to's steps are within it
  double courant_dt(double t) const;  // the step of Courant number 1 at t (stable_dt without cfl and max_dt_s)
  double max_rate(double t) const;    // the largest stencil diagonal at t, 3|W|/(2h) (builds the stencils for t)
  /// sigma_x (direction 0) or sigma_y (direction 1).
  double sigma(double t, int direction = 0) const;
  double sigma_rate(double t, int direction = 0) const;  // sigma'/sigma of that direction
  Vec2 scales(double t) const;  // (sigma_x, sigma_y) from one reading of the load history
  double load_rate(double t) const;   // F_z'/F_z
  /// The budget's power terms at the current state (supplied, dissipated, outflow, compression, load).
  std::array<double, 5> powers(const PatchSnapshot& s) const;
  void build_stencils(double t);
  void transport_step(double t, double dt);
  void source_step(double t, double dt);
  void source_step_sdirk2(double t, double dt);  // any law: the lumped model's SDIRK2 step per cell
  /// The exact propagator of the affine source at v_r for model M over dt: u~ <- P u~ + q (cached for one v_r).
  struct Propagator {
    Vec2 v = Vec2::Constant(std::numeric_limits<double>::quiet_NaN());
    MatX P, aug, J;
    VecX q, b, zero;
  };
  void propagator(const contact::ContactModel& M, const Vec2& v, double dt, Propagator& c) const;
  /// One cell's exponential source step u~ -> P u~ + q for model M (v_r at the predicted midpoint when it
  /// depends on u).
  VecX cell_step(const contact::ContactModel& M, const PatchKinematics& kin, bool vr_depends_on_u, const Vec2& x,
                 const VecX& ut, double dt, Propagator& c) const;
  /// SSP-RK3 of the transport with the current stencils on a field laid out as ut_.
  void transport_rk3(std::vector<double>& u, double dt);
  /// The outputs of sensitivity_outputs() per unit load at cell n for model M and state u~.
  Eigen::Matrix<double, 7, 1> cell_outputs(const contact::ContactModel& M, const PatchKinematics& kin, int n,
                                           const Vec2& s, const VecX& ut) const;
  Vec2 position(int n, const Vec2& s) const { return s.cwiseProduct(X_[static_cast<std::size_t>(n)]); }

  const contact::ContactModel& model_;
  PatchTransientParams params_;
  KinematicsHistory kinematics_;
  LoadHistory load_;
  PatchGeometry geometry_;  // the reference patch
  Riemann riemann_;
  int nx_, ny_, m_;
  std::vector<int> family_of_;
  std::vector<Vec2> X_;         // reference cell centres
  std::vector<double> eta_;
  std::vector<double> weight_;  // fraction of the load per cell (sums to 1)
  std::vector<std::array<PatchSolver::Stencil, 4>> stencils_;
  std::vector<double> ut_, k1_, k2_;
  MatX Q_;
  double ref_load_sum_ = 1.0;  // sum of p_ref x area over the reference cells (before normalising)
  std::shared_ptr<const detail::EnergySplit> energy_split_;
  double t_ = 0.0, initial_energy_ = 0.0;
  std::array<double, 5> energy_{}, power_{};  // integrals and current values of the budget's terms
  long steps_ = 0;
  bool exponential_ = true;
  // The tangent-linear companion (track_sensitivities): per parameter its models and S_j, laid out as ut_.
  std::vector<PatchTransientSensitivity> sensitivities_;
  std::vector<std::vector<double>> tangents_;
};

}  // namespace bristle::patch
