#pragma once
// Linear viscoelastic bristle rheologies in state-space form (paper 1, eqs. 8-11):
//
//   f = K0 z + C zeta,   zeta' = A zeta + B f                                       eq. 11
//
// Generalised Kelvin-Voigt, n branches (eq. 8):
//   f = K0 z - K0 sum_i z_i,   z_i' = -tau_i^-1 z_i + C_i^-1 f,   tau_i = K_i^-1 C_i   eqs. 8-9
//   A = blockdiag(-tau_i^-1), B = [C_i^-1], C = -K0 [I ... I]
// Generalised Maxwell, n branches (eq. 10, with the summation index fixed per the errata):
//   f = K0 z - sum_i K_i z_i,   z_i' = -tau_i^-1 z_i + tau_i^-1 K0^-1 (f + sum_j K_j z_j),
//   K0 = K_inf + sum_i K_i
// Elastic: n = 0. Rigid: K0 -> infinity (compliance 0), the body does not deform.
//
// | symbol   | key     | meaning                                    | unit   | range |
// |----------|---------|--------------------------------------------|--------|-------|
// | K0       | k0      | elastic-branch stiffness (GKV, elastic)    | 1/m    | SPD   |
// | K_inf    | k_inf   | equilibrium stiffness (GM)                 | 1/m    | SPD   |
// | K_i      | k       | branch stiffness                           | 1/m    | SPD   |
// | C_i      | c       | branch damping                             | s/m    | SPD   |
// | tau_i    | tau     | relaxation time K_i^-1 C_i                 | s      | > 0   |
// Stiffnesses are normalised by the reference normal load (force per load per metre), as in the paper.
#include <cstddef>
#include <complex>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/core/schema.hpp"
#include "bristle/core/types.hpp"

namespace bristle::rheology {

enum class RheologyKind { rigid, elastic, gkv, gm };
std::string_view to_string(RheologyKind kind);
RheologyKind rheology_kind_from_string(std::string_view key, std::string_view name);

/// One dissipative branch: stiffness K_i and damping C_i (both SPD); tau_i = K_i^-1 C_i (eq. 9).
struct Branch {
  Mat2 k = Mat2::Identity();
  Mat2 c = Mat2::Identity();
};

/// Most dissipative branches per body: the bench Jacobian is dense in the state (2 + 2 per branch and body); 10^5
/// branches exhausted memory, 3,000 took 2 GB and 12 s to build a contact model.
inline constexpr std::size_t kMaxBranches = 100;

struct RheologyParams {
  RheologyKind kind = RheologyKind::elastic;
  Mat2 k_elastic = Mat2::Identity();  // K0 (GKV, elastic) or K_inf (GM)
  std::vector<Branch> branches;       // empty for elastic and rigid
  /// Paper 1, eq. 58 (TOML: c = "eq58"): a GKV body whose branch dampings follow its own isotropic elastic
  /// stiffness, C_i = tau_i k0 (for the substrate with pair.s: c_i,2 = tau_i,2 k01 (1 - s)/s), from these
  /// relaxation times tau_i (s, one per branch). Empty: the branches as given. apply_eq58() sets `branches`
  /// from it; ContactPair applies it, so that a changed k0 (pair.s, body2.k0) keeps the rule.
  std::vector<double> eq58_tau;

  void validate(std::string_view prefix) const;
  int branch_count() const { return static_cast<int>(branches.size()); }
};

/// The schema of RheologyParams, a [body1] / [body2] table (core/schema.hpp). The branches are stored as
/// (K_i, C_i) and written as c + (tau | k) (gkv) or k + (tau | c) (gm): declared fields, converted by the
/// reader's branch hook (and io/key_path.cpp).
template <class Archive, schema::Of<RheologyParams> Self>
void serialize(Archive& a, Self& p) {
  using schema::Type;
  const RheologyKind kind = p.kind;
  const bool gkv = kind == RheologyKind::gkv, gm = kind == RheologyKind::gm;
  a.choice(p.kind, {.key = "type", .type = Type::choice, .default_value = "required (in a present table)",
                    .doc = "the rheology", .equation = "paper 1, eqs. 8-11", .choices = "rigid, elastic, gkv, gm"});
  a.matrix(p.k_elastic, {.key = "k0", .type = Type::matrix, .unit = "1/m",
                         .default_value = "required (body2: or from pair.s)", .range = schema::spd(),
                         .doc = "elastic stiffness K0 (normalised by the load)", .equation = "paper 1, eq. 8",
                         .used_by = "elastic, gkv", .log_scale = true},
           kind == RheologyKind::elastic || gkv);
  a.matrix(p.k_elastic, {.key = "k_inf", .type = Type::matrix, .unit = "1/m", .default_value = "required",
                         .range = schema::spd(), .doc = "equilibrium stiffness K_inf (K0 = K_inf + sum K_i)",
                         .equation = "paper 1, eq. 10", .used_by = "gm", .log_scale = true},
           gm);
  a.declared({.key = "c", .type = Type::matrix_list, .unit = "s/m", .default_value = "gkv: required",
              .range = schema::spd(),
              .doc = "branch dampings C_i, one entry per branch; gkv: \"eq58\" for C_i = tau_i k0 (eq. 58)",
              .equation = "paper 1, eqs. 8, 10", .used_by = "gkv, gm", .log_scale = true},
             gkv || gm);
  a.declared({.key = "k", .type = Type::matrix_list, .unit = "1/m", .default_value = "gm: required",
              .range = schema::spd(), .doc = "branch stiffnesses K_i, one entry per branch",
              .equation = "paper 1, eqs. 8, 10", .used_by = "gkv, gm", .log_scale = true},
             gkv || gm);
  a.declared({.key = "tau", .type = Type::matrix_list, .unit = "s", .default_value = "-", .range = schema::spd(),
              .doc = "relaxation times tau_i = K_i^-1 C_i (instead of k for gkv, c for gm)",
              .equation = "paper 1, eq. 9", .used_by = "gkv, gm", .log_scale = true},
             gkv || gm);
}

/// Convenience constructors for isotropic bodies (K = k I).
/// Paper 1, eq. 58: when p.eq58_tau is given, sets p's branches to C_i = tau_i k0, K_i = C_i / tau_i (the
/// relaxation times tau_i, the dampings proportional to the body's scalar k0). Throws InvalidInput naming
/// `prefix` if p is not a GKV body with an isotropic k0 or a tau_i is not > 0.
void apply_eq58(RheologyParams& p, std::string_view prefix);
/// A GKV body under eq. 58: k0 (1/m) and the relaxation times tau_i (s); the dampings are tau_i k0.
RheologyParams gkv_eq58(double k0, const std::vector<double>& tau);

/// The first n branches of a GKV or GM body (0 <= n <= its branch count; paper 1, §5: the model orders n1, n2 of
/// Figs. 5, 6, 8). n = 0 leaves it elastic with its elastic stiffness: K0 for GKV, K_inf for GM (K0 = K_inf without
/// branches). Eq. 58 keeps its first n relaxation times. Throws InvalidInput naming `prefix` otherwise.
void truncate_branches(RheologyParams& p, int n, std::string_view prefix);
/// One relaxation time tau (s, > 0) for every branch of a GKV or GM body: GKV keeps its dampings (K_i = C_i / tau),
/// GM its stiffnesses (C_i = K_i tau), eq. 58 its rule (C_i = tau k0). Throws InvalidInput naming `prefix` otherwise.
void set_relaxation_times(RheologyParams& p, double tau, std::string_view prefix);
/// Branch i's relaxation time tau (s) of a GKV or GM body, by its rule: GKV keeps the damping (K_i = C_i / tau,
/// paper 1, eq. 8), GM the stiffness (C_i = K_i tau, eq. 10). Unchecked: the caller validates tau and i.
void set_relaxation_time(RheologyParams& p, std::size_t i, double tau);

RheologyParams rigid();
RheologyParams elastic(double k0);
/// GKV with branches given by damping c_i and relaxation time tau_i (k_i = c_i / tau_i).
RheologyParams gkv(double k0, const std::vector<double>& c, const std::vector<double>& tau);
/// GM with equilibrium stiffness k_inf and branches (k_i, tau_i), c_i = k_i tau_i.
RheologyParams gm(double k_inf, const std::vector<double>& k, const std::vector<double>& tau);

/// The generalised Maxwell model with the same relaxation function as an isotropic GKV model
/// (k0, branches c_i, tau_i): the compliance J(s) = 1/k0 + sum_i 1/(k_i + c_i s) has n real negative
/// zeros r_j, interlaced with its poles; then k_inf = 1/J(0), tau_j' = -1/r_j and
/// k_j' = 1/(J'(r_j) r_j) (residues of the modulus 1/J). Paper 1, §3.1.1: both models admit
/// equivalent realisations.
RheologyParams gm_equivalent_of_gkv(double k0, const std::vector<double>& c, const std::vector<double>& tau);

/// Transfer function z(s)/f(s) of a realisation (complex s), K0^-1 (I - C (sI - A)^-1 B); eq. 11.
Eigen::Matrix2cd compliance(const struct Realisation& r, std::complex<double> s);

/// The state-space realisation (eq. 11) of one body, with input its own bristle force f_j.
struct Realisation {
  RheologyKind kind = RheologyKind::elastic;
  int n = 0;                        // number of branches; the state zeta has 2n entries
  Mat2 K0 = Mat2::Identity();       // elastic stiffness (unused when rigid)
  Mat2 K0_inv = Mat2::Identity();   // compliance; zero for a rigid body
  MatX A, B, C;                     // 2n x 2n, 2n x 2, 2 x 2n
  std::vector<Branch> branches;
  Mat2 K_inf = Mat2::Identity();    // GM only

  /// Stored energy (normalised, m) for body force f_j and state zeta_j: eq. 82-83 for GKV; the
  /// spring energies for GM.
  double stored_energy(const Vec2& f_j, const double* zeta_j) const;
  /// Power dissipated in the dampers (normalised, m/s) given the branch rates zeta_j'.
  double damper_power(const double* zeta_dot_j) const;
  /// Static compliance: z_j / f_j once the branches have relaxed, K0^-1 (I + C A^-1 B); 0 if rigid.
  Mat2 static_compliance() const;
  /// Body deformation z_j = K0^-1 (f_j - C zeta_j) (eq. 14).
  Vec2 deformation(const Vec2& f_j, const double* zeta_j) const;
};

Realisation realise(const RheologyParams& params);

}  // namespace bristle::rheology
