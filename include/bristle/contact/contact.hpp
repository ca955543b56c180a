#pragma once
// A friction element to step inside one's own loop: one lumped contact (paper 1, eq. 1 without
// advection) driven by a relative velocity v_r that the caller gives step by step.
//
//   u' = h(u, v_r)                      the contact model's source, eq. 35 (contact_model.hpp)
//   F  = F_z f_out(u, v_r)   (N)        friction force on the upper body; f_out = f (+ Sigma1 z' - Sigma2 v_r
//                                       for LuGre, eq. 2 with Canudas de Wit et al. 1995's output terms)
//   W  = F_z W_pair(u)       (J)        stored energy, eq. 85 at a point
//   E_supplied   = int -F . v_r dt  (J) work done on the contact by the caller's motion
//   E_dissipated = int F_z D(u, v_r) dt (J) D of ContactModel::dissipation_rate
// so that W(t) - W(0) = E_supplied - E_dissipated (the energy balance; passivity is E_dissipated >= 0
// for the passive laws).
//
// Sign convention (docs/models.md): v_r = v1 - v2 is the velocity of the upper body over the substrate and
// F the force on the upper body, so friction opposes v_r: at steady sliding F = -F_z mu(|v|) v/|v|. The
// textbook LuGre force of Canudas de Wit et al. (1995), F_tb = sigma0 z + sigma1 z' + sigma2 v with
// m x'' = u - F_tb, is F = -F_tb.
//
// Fixed step (step): velocity held constant over the step (zero-order hold), 2-stage SDIRK of order 2,
// L-stable and stiffly accurate (Alexander 1977, gamma = 1 - 1/sqrt(2); the tableau of integrate's
// sdirk2), so a stiff sigma0 is damped, never amplified, at any dt. The stage equations
// U = y + gamma dt h(U) use the model's analytic Jacobian dh/du (ContactModel::source_jacobian). For
// Dahl, LuGre, FrBD and the frictionless law h is affine in u at a fixed v_r (eqs. 2, 3, 7 and the linear
// rheology, eq. 11), so each stage is one exact linear solve with I - gamma dt J factorised once per step;
// Bouc-Wen (eq. 4) iterates Newton's method on the same equations. The energy integrals are integrated by
// the same tableau as quadratures. Cost (docs/benchmarks.md): one law evaluation per step (J and c of
// ContactModel::affine_source), none when v and dt equal the previous step's bitwise (J, c and the
// factorised I - gamma dt J are kept); set_energy_tracking(false) skips the energy quadratures. The x-only
// specialisation: with the elastic pair, an affine law and the axes decoupled (ContactModel::axes_decoupled:
// isotropic M, no cross-axis entries), v_y = 0 and f_y = 0, the y components stay identically zero, so the
// step runs on the x components as scalars (one Stribeck evaluation, no 2x2 algebra) with the same floating
// operations, in the same order, as the 2-D stages: the state, the force and the energy integrals equal the
// 2-D step's (==; a zero may differ in sign). A step whose Newton iterations fail is retaken as two half
// steps (at most 2^12 pieces) before a SolverError; the state is then unchanged.
// Adaptive (advance_to): rodas4 (integrate/rodas4, error control rtol |u| + atol) from time_s() to t_s at
// constant v_r, for reference solutions and large jumps; it allocates, step() does not.
//
// Parameters (ContactModel, normal load) are immutable and may be shared by many contacts; the mutable data
// (state u, time, energy integrals) is the contact's own and can be read and written (state(),
// set_state(), reset()); the input v_r is an argument of each call (Drake's context / MuJoCo's mjModel,
// mjData split).
//
// | argument       | meaning                                   | unit | range        |
// |----------------|-------------------------------------------|------|--------------|
// | normal_load_N  | F_z, constant                             | N    | > 0, finite  |
// | dt_s           | step                                      | s    | > 0, finite  |
// | v_mps          | relative velocity v_r over the step       | m/s  | finite       |
// | t_s            | end time of advance_to                    | s    | >= time_s()  |
//
// Textbook units (Canudas de Wit et al. 1995, forces in N): lugre() and dahl() map
//   mu_d = Fc_N / F_z, mu_s = Fs_N / F_z, v_S = vs_mps, delta_S = delta            (eq. 53)
//   body 1 elastic with k0 = sigma0_N_per_m / F_z (per newton of load), body 2 rigid, so that the law's
//   Sigma0 = K_static = k0 and F_z Sigma0 z = sigma0 z_tb                           (eq. 2, z = -z_tb)
//   Sigma1 = sigma1_Ns_per_m / F_z, Sigma2 = sigma2_Ns_per_m / F_z                  (per newton of load)
// with F_z = 1 N (any F_z gives the same forces). Then F = -(sigma0 z_tb + sigma1 z_tb' + sigma2 v).
#include <memory>
#include <string_view>
#include <vector>

#include "bristle/contact/contact_model.hpp"
#include "bristle/core/schema.hpp"
#include "bristle/integrate/ode.hpp"

namespace bristle::contact {

/// Textbook LuGre / Dahl parameters (Canudas de Wit et al. 1995, forces in N): Contact::lugre and dahl,
/// Python's Contact.lugre / .dahl and the TOML table [law.textbook] (io/scenario.hpp) all map them with
/// textbook_model(). Dahl uses Fc_N and sigma0_N_per_m only.
struct TextbookParams {
  double Fc_N = 0.0;             // Coulomb force F_c (N), > 0
  double Fs_N = 0.0;             // static force F_s (N), > 0 (LuGre)
  double vs_mps = 0.0;           // Stribeck velocity v_s (m/s), > 0 (LuGre)
  double sigma0_N_per_m = 0.0;   // bristle stiffness sigma0 (N/m), > 0
  double sigma1_Ns_per_m = 0.0;  // micro-damping sigma1 (Ns/m), >= 0 (LuGre)
  double sigma2_Ns_per_m = 0.0;  // viscous coefficient sigma2 (Ns/m), >= 0 (LuGre)
  double delta = 2.0;            // Stribeck exponent delta (-), >= 0 (LuGre)
};

/// The schema of TextbookParams (core/schema.hpp): the keys of [law.textbook]. `lugre`: the law is LuGre (Dahl
/// uses Fc_N and sigma0_N_per_m only).
template <class Archive, schema::Of<TextbookParams> Self>
void serialize(Archive& a, Self& p, bool lugre = true) {
  a.number(p.Fc_N, {.key = "Fc_N", .unit = "N", .default_value = "required", .range = schema::positive(),
                    .doc = "Coulomb force F_c", .equation = "mu_d = F_c / F_z; Canudas de Wit et al. 1995; paper 1, eq. 53",
                    .used_by = "dahl, lugre"});
  a.number(p.Fs_N, {.key = "Fs_N", .unit = "N", .default_value = "required", .range = schema::positive(),
                    .doc = "static force F_s", .equation = "mu_s = F_s / F_z; paper 1, eq. 53", .used_by = "lugre"},
           lugre);
  a.number(p.vs_mps, {.key = "vs_mps", .unit = "m/s", .default_value = "required", .range = schema::positive(),
                      .doc = "Stribeck velocity v_s", .equation = "v_S = v_s; paper 1, eq. 53", .used_by = "lugre"},
           lugre);
  a.number(p.sigma0_N_per_m, {.key = "sigma0_N_per_m", .unit = "N/m", .default_value = "required",
                              .range = schema::positive(), .doc = "bristle stiffness sigma0",
                              .equation = "body1.k0 = sigma0 / F_z; Canudas de Wit et al. 1995; paper 1, eq. 2",
                              .used_by = "dahl, lugre", .log_scale = true});
  a.number(p.sigma1_Ns_per_m, {.key = "sigma1_Ns_per_m", .unit = "Ns/m", .default_value = "0",
                               .range = schema::non_negative(), .doc = "micro-damping sigma1",
                               .equation = "law.sigma1 = sigma1 / F_z; Canudas de Wit et al. 1995", .used_by = "lugre"},
           lugre);
  a.number(p.sigma2_Ns_per_m, {.key = "sigma2_Ns_per_m", .unit = "Ns/m", .default_value = "0",
                               .range = schema::non_negative(), .doc = "viscous coefficient sigma2",
                               .equation = "law.sigma2 = sigma2 / F_z; Canudas de Wit et al. 1995", .used_by = "lugre"},
           lugre);
  a.number(p.delta, {.key = "delta", .default_value = "2", .range = schema::non_negative(),
                     .doc = "Stribeck exponent", .equation = "law.delta_s = delta; paper 1, eq. 53", .used_by = "lugre"},
           lugre);
}

/// The normalised model of textbook parameters under the normal load F_z = normal_load_N (the mapping of
/// the class comment of Contact, with F_z instead of 1 N):
///   mu_d = Fc_N / F_z, mu_s = Fs_N / F_z, v_S = vs_mps, delta_S = delta                  (eq. 53)
///   body1 elastic, k0 = sigma0_N_per_m / F_z; body2 rigid (Sigma0 = K_static = k0)       (eq. 2)
///   Sigma1 = sigma1_Ns_per_m / F_z, Sigma2 = sigma2_Ns_per_m / F_z
/// (Dahl: mu_s = mu_d = Fc_N / F_z, no output terms; a LuGre-only value other than its default is refused). kind is
/// lugre or dahl. Throws InvalidInput naming `prefix` + the parameter ("law.textbook.Fc_N = -1: must be > 0").
struct TextbookModel {
  laws::LawParams law;
  rheology::RheologyParams body1, body2;
};
TextbookModel textbook_model(laws::LawKind kind, const TextbookParams& p, double normal_load_N,
                             std::string_view prefix = "");

/// The adaptive method of Contact::advance_to: rodas4 with these tolerances (state units: f is normalised,
/// the energy integrals are in J).
struct AdvanceOptions {
  double rtol = 1e-8;   // >= 10 eps (InvalidInput below: double precision holds no more)
  double atol = 1e-12;  // > 0
};

class Contact {
 public:
  /// A contact of `law` between `body1` (upper) and `body2` (substrate) under the normal load F_z.
  /// Throws InvalidInput naming the key ("law.mu_s", "body1.k0", "normal_load_N") for bad parameters.
  Contact(const laws::LawParams& law, const rheology::RheologyParams& body1, const rheology::RheologyParams& body2,
          double normal_load_N);
  /// A contact sharing an existing (immutable) model.
  Contact(std::shared_ptr<const ContactModel> model, double normal_load_N);

  /// Textbook LuGre (Canudas de Wit et al. 1995):
  ///   z_tb' = v - sigma0 |v| z_tb / g(v),  g(v) = Fc + (Fs - Fc) exp(-(|v|/vs)^delta),
  ///   F_tb = sigma0 z_tb + sigma1 z_tb' + sigma2 v;   step() returns F = -F_tb (force on the moving body).
  /// Fc_N, Fs_N, vs_mps, sigma0_N_per_m > 0; sigma1_Ns_per_m, sigma2_Ns_per_m, delta >= 0.
  static Contact lugre(double Fc_N, double Fs_N, double vs_mps, double sigma0_N_per_m, double sigma1_Ns_per_m,
                       double sigma2_Ns_per_m, double delta = 2.0);
  /// Textbook Dahl (Canudas de Wit et al. 1995, eq. 2): z_tb' = v - sigma0 |v| z_tb / Fc, F_tb = sigma0 z_tb.
  static Contact dahl(double Fc_N, double sigma0_N_per_m);

  /// Advances the state over [t, t + dt_s] at the constant relative velocity v_mps and returns the friction
  /// force F (N) at the end of the step. The 1-D form drives along x and returns F_x.
  /// Throws InvalidInput ("dt_s = 0: must be > 0", "v_mps = nan: must be finite") before any change.
  double step(double dt_s, double v_mps);
  Vec2 step(double dt_s, const Vec2& v_mps);
  /// Integrates adaptively from time_s() to t_s >= time_s() at constant v_mps; returns F (N) at t_s.
  double advance_to(double t_s, double v_mps, const AdvanceOptions& options = {});
  Vec2 advance_to(double t_s, const Vec2& v_mps, const AdvanceOptions& options = {});

  /// Back to the relaxed state u = 0 at t = 0 with zero energy integrals.
  void reset();
  /// Contact state u = [f; zeta1; zeta2] (state_size() entries; f normalised by F_z, eq. 33).
  const VecX& state() const { return u_; }
  /// Sets u (time and energy integrals untouched); InvalidInput for a wrong size or non-finite entries.
  void set_state(const VecX& u);
  int state_size() const { return m_; }

  double time_s() const { return t_s_; }
  /// F (N) at the current state and the velocity of the last step (0 before the first).
  Vec2 friction_force_N() const;
  double stored_energy_J() const;                                   // W = F_z W_pair(u)
  double supplied_energy_J() const { return supplied_J_; }          // int -F . v_r dt since reset
  double dissipated_energy_J() const { return dissipated_J_; }      // int F_z D dt since reset
  /// Whether step() integrates supplied_energy_J() and dissipated_energy_J() (on by default). Off, a step
  /// skips the two power evaluations per stage and sets both integrals to NaN (unknown, never a plausible
  /// wrong value) until reset() zeroes them; the state and the force are bitwise those of a tracked step.
  /// advance_to() always integrates them (from NaN it stays NaN).
  void set_energy_tracking(bool on) { track_energy_ = on; }
  bool energy_tracking() const { return track_energy_; }
  /// Whether step() may take the x-only specialisation (class comment; on by default). Off, every step runs
  /// the general 2-D stages (for tests and benchmarks comparing the two; the results are equal).
  void set_x_only_fast_path(bool on) { x_only_enabled_ = on; }
  bool x_only_fast_path() const { return x_only_enabled_; }
  double normal_load_N() const { return normal_load_N_; }
  const ContactModel& model() const { return *model_; }
  const std::shared_ptr<const ContactModel>& shared_model() const { return model_; }

 private:
  /// One SDIRK2 step of dt at v; false (state untouched) if Newton failed or the result is not finite.
  bool try_step(double dt, const Vec2& v);
  /// The affine case with N state entries (2: the elastic pair, fixed-size; Eigen::Dynamic otherwise).
  template <int N>
  bool try_affine_step(double dt, const Vec2& v);
  bool try_newton_step(double dt, const Vec2& v);
  /// The x-only specialisation of try_affine_step<2> (v = (v_x, 0), f_y = 0; class comment).
  bool try_x_only_step(double dt, double v_x);
  /// Newton's method on U - a h(U) = y from the guess in U (non-affine laws).
  bool newton_stage(double a, const Vec2& v, const double* y, double* U);
  /// Power supplied and dissipated at state U (its source evaluated into h_): F_z-scaled (W).
  void powers(const double* U, const Vec2& v, double& supplied_W, double& dissipated_W);
  /// zdot = h0 recovered from a source h (eq. 31 solved for h0): K0bar^-1 (h_f - S1 C1 h1 + S2 C2 h2).
  Vec2 zdot_from_source(const double* h) const;
  /// The same given the source h at U and its zdot.
  void powers(const double* U, const Vec2& v, const double* h, const Vec2& zdot, double& supplied_W,
              double& dissipated_W);

  std::shared_ptr<const ContactModel> model_;
  double normal_load_N_ = 1.0;
  int m_ = 0;
  bool affine_ = true;
  bool track_energy_ = true;
  // The x-only specialisation: possible for this model (x_only_) and allowed (x_only_enabled_); the diagonal
  // entries it uses: K0bar, K0bar^-1 and Sigma0 (x and y, for the 2x2 determinant), Sigma1 and Sigma2 (x).
  bool x_only_ = false, x_only_enabled_ = true;
  double k0x_ = 0.0, k0x_inv_ = 0.0, k0y_ = 0.0, k0y_inv_ = 0.0, sigma0x_ = 0.0, sigma0y_ = 0.0;
  double sigma1x_ = 0.0, sigma2x_ = 0.0;
  Mat2X S1C1_, S2C2_;  // S1 C1 (2 x 2 n1) and S2 C2 (2 x 2 n2) of eq. 31

  // Mutable data.
  VecX u_;
  double t_s_ = 0.0;
  double supplied_J_ = 0.0, dissipated_J_ = 0.0;
  Vec2 last_v_ = Vec2::Zero();
  Vec2 last_F_ = Vec2::Zero();  // F (N) at the end of the last step

  // Workspace, sized once (no allocation per step).
  VecX h_, c_, y_, U1_, U2_, r_, backup_;
  MatX jac_, E_;
  Eigen::PartialPivLU<MatX> lu_;
  // The affine stages' J, c (in jac_, c_) and factorised I - gamma dt J (E_inv2_ or lu_), valid for the
  // velocity cached_v_ and step cached_dt_ (bitwise) when cached_ is true.
  bool cached_ = false;
  double cached_dt_ = 0.0;
  Vec2 cached_v_ = Vec2::Zero();
  Mat2 E_inv2_ = Mat2::Zero();
  // The x-only stages' J_xx, c_x and (I - gamma dt J)^-1_xx, valid for cached_dt_ and v = (cached_v_[0], 0)
  // when x_cached_ is true (cached_ and x_cached_ are never both true).
  bool x_cached_ = false;
  double x_jac_ = 0.0, x_c_ = 0.0, x_E_inv_ = 0.0;
};

/// N independent contacts stepped together (a multi-joint robot, a field of bristles). Velocities and
/// forces are arrays: 1-D, N entries (along x); 2-D, N x 2 row-major (v_x, v_y per contact).
class ContactArray {
 public:
  ContactArray() = default;
  explicit ContactArray(std::vector<Contact> contacts);
  /// N copies of `prototype` (sharing its model; each with its own state); 0 <= n <= kMaxSize.
  ContactArray(const Contact& prototype, int n);
  /// The most contacts of one array (10^9 asked for ~100 GB), and the most memory of the copies, estimated from the
  /// state size (~1 KB a LuGre contact: ~3.7e6 of them; 10^7 took 10 GB).
  static constexpr int kMaxSize = 10'000'000;
  static constexpr double kMaxBytes = 4.0 * (1 << 30);

  int size() const { return static_cast<int>(contacts_.size()); }
  /// Steps every contact i by dt_s at v_mps[i] and writes F_N[i]. Throws InvalidInput ("dt_s", "v_mps[3] =
  /// nan: must be finite") before any contact moves. A SolverError of contact i (see Contact::step) leaves
  /// contacts 0..i-1 stepped and i..n-1 unchanged.
  void step(double dt_s, const double* v_mps, double* F_N);
  /// 2-D: v_mps and F_N hold 2 N values, (x, y) of each contact in turn.
  void step_2d(double dt_s, const double* v_mps, double* F_N);
  void reset();
  /// Contact::set_energy_tracking on every contact (contacts added later keep their own setting).
  void set_energy_tracking(bool on);
  /// True if every contact tracks its energies (true for an empty array).
  bool energy_tracking() const;
  /// Contact i; InvalidInput "index = 7: must be in [0, 4)" out of range.
  Contact& at(int index);
  const Contact& at(int index) const;

 private:
  std::vector<Contact> contacts_;
};

}  // namespace bristle::contact
