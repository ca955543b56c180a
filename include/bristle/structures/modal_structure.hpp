#pragma once
// Linear elastic structures seen through their modes (paper 3, §II; docs/structures.md §1).
//
//   w(x, t) = sum_k n_k(x) q_k(t)                                         paper 3, eq. II.1
//   q_k'' + 2 D_k omega_k q_k' + omega_k^2 q_k = sum_j n_k(chi_j) f_j(t)   paper 3, eq. II.3
//
// n_k are the mass-normalised mode shapes (int rho n_k n_l dx = delta_kl, unit 1/sqrt(kg)), omega_k the
// natural frequencies (rad/s), D_k the modal damping ratios, chi_j the M contact points and f_j the
// contact forces (N) acting there. Every mode is underdamped: 0 <= D_k < 1.
//
// Structures
//   generic           N modes given as data: omega_k, D_k and the mode values n_k(chi_j) (N x M).
//   taut string       fixed ends, length l, line density rho, wave speed c = sqrt(T/rho):
//                     omega_k = k pi c / l,  n_k(x) = sqrt(2/(rho l)) sin(k pi x / l),  D_k = D.
//   cantilever        Euler-Bernoulli, clamped at x = 0, free at x = l, bending stiffness EI, mass per
//                     length rho A, a = sqrt(EI/(rho A)):  omega_k = a beta_k^2 / l^2 with
//                     1 + cos(beta_k) cosh(beta_k) = 0 (paper 3, after eq. III.31),
//                     n_k(x) = phi_k(x/l)/sqrt(rho A l),
//                     phi_k(s) = cosh(beta s) - cos(beta s) - sigma_k (sinh(beta s) - sin(beta s)),
//                     sigma_k = (cosh beta + cos beta)/(sinh beta + sin beta); int_0^1 phi_k^2 = 1 and
//                     phi_k(1) = 2 (-1)^(k+1) (checked in the tests). D_k = D.
//   simply supported  Euler-Bernoulli, pinned at both ends: omega_k = a (k pi/l)^2,
//                     n_k(x) = sqrt(2/(rho A l)) sin(k pi x/l), D_k = D.
// The continua have infinitely many modes; mode k is generated on demand (any k >= 1), evaluated in
// forms that stay accurate for k up to 10^7 (no cosh/sinh of large arguments).
//
// | symbol | key                       | meaning                        | unit     | range           |
// |--------|---------------------------|--------------------------------|----------|-----------------|
// | rho    | density_kg_per_m          | string line density            | kg/m     | > 0             |
// | l      | length_m                  | length                         | m        | > 0             |
// | c      | wave_speed_m_per_s        | string wave speed sqrt(T/rho)  | m/s      | > 0             |
// | EI     | bending_stiffness_N_m2    | beam bending stiffness         | N m^2    | > 0             |
// | rho A  | mass_per_length_kg_per_m  | beam mass per length           | kg/m     | > 0             |
// | D      | damping_ratio             | uniform modal damping ratio    | -        | [0, 1)          |
// | chi_j  | contact_positions_m       | contact points                 | m        | (0, l); cantilever (0, l] |
// | omega_k| frequencies_rad_per_s     | generic: natural frequencies   | rad/s    | > 0             |
// | D_k    | damping_ratios            | generic: damping ratios        | -        | [0, 1)          |
// | n_k    | mode_values               | generic: n_k(chi_j), N rows    | 1/sqrt(kg)| finite         |
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/core/schema.hpp"
#include "bristle/core/types.hpp"

namespace bristle::structures {

enum class StructureKind { generic, taut_string, cantilever, simply_supported_beam };
/// "generic", "taut_string", "cantilever", "simply_supported_beam"
std::string_view to_string(StructureKind kind);
/// Parses a kind name; throws InvalidInput naming `key` and suggesting the nearest valid name.
StructureKind structure_kind_from_string(std::string_view key, std::string_view name);

struct TautStringParams {
  double density_kg_per_m = 1.0;                 // rho
  double length_m = 1.0;                         // l
  double wave_speed_m_per_s = 1.0;               // c = sqrt(T/rho)
  double damping_ratio = 0.0;                    // D, every mode
  std::vector<double> contact_positions_m{0.3};  // chi_j in (0, l)

  /// Throws InvalidInput("<prefix>.<key> = <value>: <rule>").
  void validate(std::string_view prefix) const;
  double tension_N() const { return density_kg_per_m * wave_speed_m_per_s * wave_speed_m_per_s; }
};

struct BeamParams {
  double bending_stiffness_N_m2 = 1.0;           // EI
  double mass_per_length_kg_per_m = 1.0;         // rho A
  double length_m = 1.0;                         // l
  double damping_ratio = 0.0;                    // D, every mode
  std::vector<double> contact_positions_m{1.0};  // chi_j: cantilever (0, l], simply supported (0, l)

  /// `cantilever` selects the allowed contact range. Throws InvalidInput naming `prefix`.key.
  void validate(std::string_view prefix, bool cantilever) const;
  /// a = sqrt(EI / (rho A)) (m^2/s): omega = a kappa^2 for wavenumber kappa.
  double flexural_constant() const;
};

/// The keys of [structure] (core/schema.hpp), each declared once: used by the serialize() of TautStringParams and
/// BeamParams below and by the scenarios' [structure] table, one key list for the four types
/// (io/structures_scenario.hpp).
namespace structure_keys {
inline constexpr schema::Field kDensity{.key = "density_kg_per_m", .unit = "kg/m", .default_value = "1",
                                        .range = schema::positive(), .doc = "mass per length rho",
                                        .used_by = "taut_string", .log_scale = true};
inline constexpr schema::Field kBendingStiffness{.key = "bending_stiffness_N_m2", .unit = "N m^2", .default_value = "1",
                                                 .range = schema::positive(), .doc = "bending stiffness EI",
                                                 .used_by = "cantilever, simply_supported_beam", .log_scale = true};
inline constexpr schema::Field kMassPerLength{.key = "mass_per_length_kg_per_m", .unit = "kg/m", .default_value = "1",
                                              .range = schema::positive(), .doc = "mass per length rho A",
                                              .used_by = "cantilever, simply_supported_beam", .log_scale = true};
inline constexpr schema::Field kLength{.key = "length_m", .unit = "m", .default_value = "1",
                                       .range = schema::positive(), .doc = "length l",
                                       .used_by = "taut_string, cantilever, simply_supported_beam"};
inline constexpr schema::Field kWaveSpeed{.key = "wave_speed_m_per_s", .unit = "m/s", .default_value = "1",
                                          .range = schema::positive(), .doc = "wave speed c = sqrt(T / rho)",
                                          .used_by = "taut_string", .log_scale = true};
inline constexpr schema::Field kDampingRatio{.key = "damping_ratio", .default_value = "0",
                                             .range = schema::non_negative(),
                                             .doc = "modal damping ratio D of every mode, in [0, 1): 0 or >= 1e-6",
                                             .used_by = "taut_string, cantilever, simply_supported_beam"};
/// A list (declared: the reader and the Python Traits convert it).
inline constexpr schema::Field kContactPositions{
    .key = "contact_positions_m", .type = schema::Type::number_list, .unit = "m",
    .default_value = "string 0.3, cantilever l, simply supported l/2", .range = schema::positive(),
    .doc = "contact points chi_j: string and simply supported (0, l), cantilever (0, l]",
    .used_by = "taut_string, cantilever, simply_supported_beam"};
}  // namespace structure_keys

/// The schema of TautStringParams (core/schema.hpp): its keys of [structure] (type = "taut_string").
template <class Archive, schema::Of<TautStringParams> Self>
void serialize(Archive& a, Self& p, bool applies = true) {
  a.number(p.density_kg_per_m, structure_keys::kDensity, applies);
  a.number(p.length_m, structure_keys::kLength, applies);
  a.number(p.wave_speed_m_per_s, structure_keys::kWaveSpeed, applies);
  a.number(p.damping_ratio, structure_keys::kDampingRatio, applies);
  a.declared(structure_keys::kContactPositions, applies);
}

/// The schema of BeamParams (core/schema.hpp): its keys of [structure] (type = "cantilever" or
/// "simply_supported_beam").
template <class Archive, schema::Of<BeamParams> Self>
void serialize(Archive& a, Self& p, bool applies = true) {
  a.number(p.bending_stiffness_N_m2, structure_keys::kBendingStiffness, applies);
  a.number(p.mass_per_length_kg_per_m, structure_keys::kMassPerLength, applies);
  a.number(p.length_m, structure_keys::kLength, applies);
  a.number(p.damping_ratio, structure_keys::kDampingRatio, applies);
  a.declared(structure_keys::kContactPositions, applies);
}

struct GenericModalParams {
  std::vector<double> frequencies_rad_per_s;      // omega_k > 0, N entries
  std::vector<double> damping_ratios;             // D_k in [0, 1), N entries
  std::vector<std::vector<double>> mode_values;   // N rows of M values n_k(chi_j) (1/sqrt(kg))

  /// Throws InvalidInput naming `prefix`.key (mismatched counts, non-positive frequencies, ...).
  void validate(std::string_view prefix) const;
};

/// Modes 1..N of a structure, structure-of-arrays.
struct ModeTable {
  VecX omega;    // omega_k (rad/s), N
  VecX damping;  // D_k, N
  MatX values;   // n_k(chi_j), N x M (1/sqrt(kg))
  long size() const { return static_cast<long>(omega.size()); }
};

/// Root beta_k (k >= 1) of 1 + cos(beta) cosh(beta) = 0, to full double precision: Newton iterations
/// on cos(beta) + sech(beta) = 0 (the stable form: no cosh overflow) from the asymptotic value
/// (k - 1/2) pi + (-1)^(k+1) 2 exp(-(k - 1/2) pi), safeguarded by bisection in ((k-1) pi, k pi).
double cantilever_root(long k);

/// phi_k(s) of the cantilever (see above) at s in [0, 1], stable for any k.
double cantilever_mode_shape(double beta, double s);

/// An immutable structure: modal data plus, for the continua, the closed forms the kernels use.
class Structure {
 public:
  /// Validates under `prefix` (the scenario table name) and builds.
  static Structure taut_string(const TautStringParams& params, std::string_view prefix = "structure");
  static Structure cantilever(const BeamParams& params, std::string_view prefix = "structure");
  static Structure simply_supported_beam(const BeamParams& params, std::string_view prefix = "structure");
  static Structure generic(const GenericModalParams& params, std::string_view prefix = "structure");
  /// The structure of `kind` from the parameters of that kind (the others are not used), every mode's damping ratio
  /// replaced by `damping` when given.
  static Structure of_kind(StructureKind kind, TautStringParams string, BeamParams beam, GenericModalParams generic,
                           std::optional<double> damping = std::nullopt,
                           std::string_view prefix = "structure");
  /// The first `n_modes` modes of `continuum` as a generic (finite) structure: the truncated model.
  static Structure truncated(const Structure& continuum, long n_modes);

  StructureKind kind() const { return kind_; }
  int contact_count() const { return contact_count_; }
  /// True for generic structures (a finite set of modes); false for the continua.
  bool finite() const { return kind_ == StructureKind::generic; }
  /// Number of modes of a finite structure; kUnbounded for a continuum.
  long mode_count() const;
  static constexpr long kUnbounded = INT64_MAX;

  /// Modes 1..count (count <= mode_count()). Throws InvalidInput if count exceeds a finite structure or
  /// kMaxModes.
  ModeTable modes(long count) const;
  /// The most modes generated at once (modes(), truncated(), the kernels' max_modes): ~(16 + 8 M) bytes a
  /// mode for M contact points, 2^24 modes ~ 400 MB at M = 1 (2^27 asked for 6 GB from Python).
  static constexpr long kMaxModes = 1L << 24;
  /// Mode k (1-based): omega_k, D_k and n_k(chi_j) written to `values` (M entries).
  void mode(long k, double& omega, double& damping, double* values) const;

  /// Static compliance G_ij = sum_k n_k(chi_i) n_k(chi_j) / omega_k^2 (m/N): the static deflection at
  /// chi_i under a unit load at chi_j. Closed forms for the continua (Green's functions, see
  /// docs/structures.md), the finite sum for generic structures.
  const MatX& static_compliance() const { return static_compliance_; }

  /// sup_k |n_k(chi_i) n_k(chi_j)| over all k (1/kg), for tail bounds. Exact for the string and the
  /// simply supported beam (2/(rho l)); for the cantilever 4/(rho A l) (|phi_k| <= 2).
  double mode_product_bound() const;
  /// A lower bound omega_low(k) <= omega_k valid for every k >= 1 (continua); for tail bounds.
  double frequency_lower_bound(long k) const;
  /// Smallest modal damping ratio (inf over all modes).
  double min_damping_ratio() const;
  /// Uniform damping ratio of the continua (also of generic structures whose D_k are all equal).
  bool uniform_damping() const;

  /// Contact positions (m) of the continua (empty for generic structures).
  const std::vector<double>& contact_positions_m() const { return contact_positions_m_; }
  const TautStringParams& string_params() const { return string_; }
  const BeamParams& beam_params() const { return beam_; }

 private:
  Structure() = default;
  /// A continuum of `kind` touching at `contact_positions_m` (parameters set by the caller).
  static Structure continuum(StructureKind kind, const std::vector<double>& contact_positions_m);
  /// The sine mode values sqrt(2/(rho l)) sin(k pi chi_j / l) of the string and the simply supported beam.
  void sine_mode_values(long k, double length, double mass_per_length, double* values) const;
  void finish();

  StructureKind kind_ = StructureKind::generic;
  int contact_count_ = 0;
  TautStringParams string_;
  BeamParams beam_;
  std::vector<double> contact_positions_m_;
  std::shared_ptr<const ModeTable> table_;  // generic structures
  MatX static_compliance_;
};

}  // namespace bristle::structures
