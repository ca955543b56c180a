#pragma once
// Stick-slip of a structure pressed against a moving belt (paper 3, §§I, III; docs/structures.md §5).
//
// Contact point chi_c (contact_index) of the structure is pressed with normal load N against a belt
// moving at v_b; the relative velocity is v_r = w'(chi_c, t) - v_b and F is the friction force on the
// structure (N). The structure is any ContactStepper (reduced or modal model):
//
//   v_r(t_{n+1}) = c + a F_{n+1},   c = v_pred - v_b - a F_n,   a = A_cc > 0 (one-step admittance)
//
// Friction laws
//   Coulomb-Stribeck (set-valued), mu(v) = mu_d + (mu_s - mu_d) exp(-(v/v_S)^delta_S) + mu_v v:
//     stick  v_r = 0 and F = -c/a, accepted while |F| <= mu_s N (the force follows from the velocity
//            constraint: stick is exact, not regularised);
//     slip   F = -mu(|v_r|) N sgn(v_r), with |v_r| the smallest root of x = |c| - a N mu(x) in (0, |c|).
//     The step problem has a unique solution when a N max(-mu') < 1 (reported as well_posed; otherwise
//     the solution continuous with the stick branch is taken).
//   dynamic (any law of the core, through contact::ContactModel; LuGre, FrBD, ...): the contact state
//     u' = h(u, v_r) is integrated by BDF2 (BDF1 on the first step) together with the structure,
//     F = N f_out(u, v_r), solved by Newton's method per step; "stick" means |v_r| <= tolerance.
//
// Outputs: the time series, stick and slip intervals, the limit cycle (found by
// contact::StickSlipDetector, the lumped benches' detector, fed every step's stick state and break-away
// time as above: break-aways end stick phases of >= 2 steps, the fundamental period is that of the
// smallest number of break-aways per cycle whose periods agree; half peak-to-peak
// amplitudes of w, v over the last cycle) and, when the structure provides intra-step
// samples (ModalModel with track_energy), the energy account
//   belt work  int F v_b dt  =  friction dissipation  int -F v_r dt  +  modal damping  +  change of stored energy.
//
// The keys of BeltParams ([contact]) and StickSlipOptions ([run]), with units and ranges: their serialize() below.
#include <string>
#include <string_view>
#include <vector>

#include "bristle/contact/contact_model.hpp"
#include "bristle/core/progress.hpp"
#include "bristle/core/schema.hpp"
#include "bristle/core/time_series.hpp"
#include "bristle/laws/coulomb_stribeck.hpp"
#include "bristle/laws/stribeck.hpp"
#include "bristle/structures/contact_stepper.hpp"

namespace bristle::structures {

struct BeltParams {
  double normal_load_N = 1.0;
  double belt_speed_m_per_s = 0.1;
  int contact_index = 0;

  /// Throws InvalidInput("<prefix>.<key> = <value>: <rule>").
  void validate(std::string_view prefix, int contact_count) const;
};

/// Most steps of one run (t_end_s / the stepper's step): at ~1 us a step, 1e9 is a quarter of an hour.
inline constexpr double kMaxStickSlipSteps = 1e9;

struct StickSlipOptions {
  double t_end_s = 10.0;
  long output_every = 1;
  double stick_tolerance_m_per_s = 0.0;
  int cycles = 4;  // at most this many cycles averaged for the period (at least min(2, cycles) needed)

  void validate(std::string_view prefix) const;
};

/// The schema of BeltParams (core/schema.hpp): the keys of [contact].
template <class Archive, schema::Of<BeltParams> Self>
void serialize(Archive& a, Self& p) {
  using schema::Type;
  a.number(p.normal_load_N, {.key = "normal_load_N", .unit = "N", .default_value = "required",
                             .range = schema::positive(), .doc = "normal load N on the belt", .log_scale = true});
  a.number(p.belt_speed_m_per_s, {.key = "belt_speed_m_per_s", .unit = "m/s", .default_value = "required",
                                  .range = schema::finite(), .doc = "belt speed v_b"});
  a.integer(p.contact_index, {.key = "contact_index", .type = Type::integer, .default_value = "0",
                              .range = schema::at_least(0), .doc = "the contact point on the belt, < the contact count"});
}

/// The schema of StickSlipOptions (core/schema.hpp): its keys of [run] (the step dt_s is the caller's).
template <class Archive, schema::Of<StickSlipOptions> Self>
void serialize(Archive& a, Self& o) {
  using schema::Type;
  a.number(o.t_end_s, {.key = "t_end_s", .unit = "s", .default_value = "required", .range = schema::positive(),
                       .doc = "duration (at most 1e9 steps)", .numerics = true});
  a.integer(o.output_every, {.key = "output_every", .type = Type::integer, .default_value = "1",
                             .range = schema::at_least(1), .doc = "record every k-th step"});
  a.number(o.stick_tolerance_m_per_s, {.key = "stick_tolerance_m_per_s", .unit = "m/s", .default_value = "0",
                                       .range = schema::non_negative(),
                                       .doc = "dynamic laws: |v_r| counted as stick (0: 1e-3 |v_b|)",
                                       .numerics = true});
  a.integer(o.cycles, {.key = "cycles", .type = Type::integer, .default_value = "4", .range = schema::at_least(1),
                       .doc = "cycles averaged for the limit cycle's period"});
}

struct StickSlipInterval {
  double t_start_s = 0.0;
  double t_end_s = 0.0;
  bool stick = false;
};

struct LimitCycle {
  bool found = false;          // a stick-slip limit cycle (contact::StickSlipDetector: sticking itself)
  int cycles = 0;              // cycles averaged (= cycles_used)
  int cycles_used = 0;         // the same, under the detector's name (up to StickSlipOptions::cycles)
  int breakaways_per_cycle = 0;
  double period_s = 0.0;         // fundamental period: the smallest the motion repeats with
  double period_spread_s = 0.0;  // largest deviation of a measured cycle from the mean
  double amplitude_w_m = 0.0;    // half peak-to-peak over the last cycle
  double amplitude_v_mps = 0.0;
  double mean_w_m = 0.0;
  double force_min_N = 0.0, force_max_N = 0.0;
  double stick_fraction = 0.0;   // of the last cycle's duration
};

struct EnergyAccount {
  bool available = false;
  double belt_work_J = 0.0;             // int F v_b dt
  double friction_dissipation_J = 0.0;  // int -F v_r dt
  double modal_damping_J = 0.0;         // int sum 2 D w q'^2 dt
  double stored_energy_change_J = 0.0;  // E(t_end) - E(0)
  double residual_J() const {
    return belt_work_J - friction_dissipation_J - modal_damping_J - stored_energy_change_J;
  }
};

struct StickSlipResult {
  /// Columns: t_s, w_m, v_mps, vr_mps, F_N, stick (1/0); with an energy account also E_belt_J,
  /// D_friction_J, D_modal_J, dE_stored_J, energy_residual_J; dynamic laws add f_state (normalised).
  TimeSeries series;
  std::vector<StickSlipInterval> intervals;
  LimitCycle cycle;
  EnergyAccount energy;
  long steps = 0;
  bool well_posed = true;
  double admittance_m_per_N_s = 0.0;  // a
  double max_stick_velocity_mps = 0.0;  // max |v_r| over stick steps
  double max_stick_force_ratio = 0.0;   // max |F| / (mu_s N) over stick steps (Coulomb-Stribeck)
};

/// Forward sensitivity of a run with respect to one parameter of the contact -- the friction law, the bristles,
/// the belt's load or speed; not the structure (fit/structure_stick_slip.hpp's exact Jacobian). The structure is
/// linear and starts at rest, so the derivative of its contact motion is its response to the derivative of the
/// force history: a second copy of the structure carries it. Each step's solution is differentiated exactly
/// (implicit differentiation of the step equations at the solution: the set-valued stick F = -c/a, the slip root
/// x = |c| - a N mu(x), the dynamic law's BDF step); the partials in the parameter are central differences of the
/// step equations between the law and belt at p - h and p + h (smooth, noise-free functions: ~1e-9 relative). The
/// discrete run is piecewise smooth in p: a step that would switch between stick and slip under the perturbation
/// takes the one-sided difference on the side of the run's own branch.
struct StickSlipSensitivity {
  double step = 0.0;                 // h > 0: the perturbation of the parameter
  BeltParams belt_minus, belt_plus;  // the belt at p -/+ h (contact_index the run's)
  laws::CoulombStribeckParams friction_minus, friction_plus;  // Coulomb-Stribeck runs: the law at p -/+ h
  const contact::ContactModel* law_minus = nullptr;            // dynamic runs: the law at p -/+ h
  const contact::ContactModel* law_plus = nullptr;
  ContactStepper* structure = nullptr;  // a copy of the run's structure, at rest; it carries d(w, v)/dp
  /// Output: d(column)/dp at every recorded row, the run's columns (t_s the time; stick and the energy columns NaN:
  /// not differentiated).
  TimeSeries derivative;
};

/// Coulomb-Stribeck friction (set-valued stick, laws::CoulombStribeck). `friction` is validated under
/// "friction". `progress`: the fraction of the steps done, as core/progress.hpp says; if it throws, the
/// exception propagates and the structure is left at the step reached. `sensitivities`: if given, each entry's
/// derivative series is filled (its structure advanced with the run).
StickSlipResult run_stick_slip(ContactStepper& structure, const BeltParams& belt,
                               const laws::CoulombStribeckParams& friction, const StickSlipOptions& options,
                               const Progress& progress = {}, std::vector<StickSlipSensitivity>* sensitivities = nullptr);
/// The same with the coefficient mu(v) given as a StribeckParams.
StickSlipResult run_stick_slip(ContactStepper& structure, const BeltParams& belt, const laws::StribeckParams& friction,
                               const StickSlipOptions& options, const Progress& progress = {});

/// A dynamic law of the core (contact state from rest, u = 0).
StickSlipResult run_stick_slip(ContactStepper& structure, const BeltParams& belt, const contact::ContactModel& law,
                               const StickSlipOptions& options, const Progress& progress = {},
                               std::vector<StickSlipSensitivity>* sensitivities = nullptr);

}  // namespace bristle::structures
