#pragma once
// Memory kernels of a structure seen from its contact points (paper 3, §III; docs/structures.md §2).
//
// With the structure at rest at t = 0 and contact forces f_j(t) (f_j(0) = 0), the contact-point
// displacement and velocity are (variation of constants, paper 3 eqs. III.10-III.11):
//
//   w_i(t) = sum_j int_0^t L1_ij(tau) f_j(t - tau) dtau
//   w_i'(t) = sum_j int_0^t L1_ij(tau) f_j'(t - tau) dtau                     (Stieltjes form)
//          = sum_j [ L1_ij(0+) f_j(t) + int_{0+}^t K_ij(tau) f_j(t - tau) dtau ]
//
//   L1_ij(tau) = sum_k n_k(chi_i) n_k(chi_j) h_k(tau)      displacement kernel = velocity step response
//   K_ij(tau)  = sum_k n_k(chi_i) n_k(chi_j) h_k'(tau)     velocity kernel (a distribution in general)
//   S_ij(tau)  = int_0^tau L1_ij = G_ij + S0_ij(tau)        displacement step response
//   G_ij       = sum_k n n / omega_k^2                      static compliance = constant part of S
//   S0_ij(tau) = -sum_k n n e^{-D w tau}(cos w_d tau + D w/w_d sin w_d tau)/w^2   oscillating part
//
// L1 = d S0/dtau is the integral of the oscillating part of the velocity kernel, the kernel L^1 of the
// paper's Figs. III.2-III.3 (docs/structures.md explains this identification and what could not be
// reconstructed from the fragment). Its right limit L1(0+) is the instantaneous admittance: the jump
// of the contact velocity per unit jump of force. A jump of L1 at tau* > 0 is a discrete delay (text
// after paper eq. III.11): the force acts again, scaled by the jump, tau* later.
//
// Evaluation (each returns a rigorous bound on the mode-sum truncation error beside the value)
//   taut string       closed forms summing all modes: undamped, L1 = (u3 + u4 - u1 - u2)/(4 rho c)
//                     with u = (c tau/l + shift) mod 2 (sawtooth form, exact and right-continuous);
//                     damped, L1 = Im[-lg(a+) - lg(a-) + lg(b+) + lg(b-)] / (2 rho l w_d) with
//                     lg(x) = log(1 - e^{mu tau + i x}), mu = (pi c/l)(-D + i sqrt(1-D^2)) (the
//                     geometric series sum z^k/k = -log(1 - z)); S by the exact sawtooth integral
//                     (undamped) or adaptive Gauss-Kronrod quadrature of L1 (damped).
//   beams             direct mode sums, as many modes as the tail bound needs (at most
//                     KernelOptions::max_modes): damped, the tail is bounded by the geometric majorant
//                     of B e^{-D w_k tau}/w_dk (exponential convergence); undamped, by
//                     B sum_{k>K} 1/omega_k (O(1/K), reported). S uses the closed-form G.
//   generic           the finite sums over its N modes (exact for that structure; error bound 0).
#include <string>
#include <vector>

#include "bristle/core/schema.hpp"
#include "bristle/structures/modal_structure.hpp"

namespace bristle::structures {

struct KernelOptions {
  long max_modes = 1L << 17;         // cap on the modes summed for a continuum without a closed form
  double relative_tolerance = 1e-13;  // target truncation bound, relative to the kernel's scale

  void validate(std::string_view prefix) const;
};

/// The schema of KernelOptions (core/schema.hpp): the truncation keys of [kernel].
template <class Archive, schema::Of<KernelOptions> Self>
void serialize(Archive& a, Self& o) {
  using schema::Type;
  a.integer(o.max_modes, {.key = "max_modes", .type = Type::integer, .default_value = "131072",
                          .range = schema::at_least(1), .doc = "cap on the modes summed (continua without a closed form)"});
  a.number(o.relative_tolerance, {.key = "relative_tolerance", .default_value = "1e-13", .range = schema::positive(),
                                  .doc = "target truncation bound, relative to the kernel's scale",
                                  .log_scale = true, .numerics = true});
}

/// Samples of one kernel entry (i, j) with a truncation-error bound per sample.
struct KernelSamples {
  std::vector<double> tau_s;
  std::vector<double> value;
  std::vector<double> error_bound;  // bound on |value - exact| from truncating the mode sum (0: all modes)
  std::vector<long> modes;          // modes summed (0 for a closed form)
  std::string method;               // how the values were obtained
  double max_error_bound() const;
};

/// L1_ij(tau) for tau >= 0 (right-continuous; tau = 0 gives L1(0+)).
KernelSamples displacement_kernel(const Structure& s, int i, int j, const std::vector<double>& tau,
                                  const KernelOptions& options = {});
/// K_ij(tau) = dL1_ij/dtau for tau > 0. For the undamped string it is zero between the jumps (the
/// deltas at the jumps are the discrete delays of kernel_jumps); an undamped beam has no pointwise
/// velocity kernel (the series diverges) and is rejected with InvalidInput.
KernelSamples velocity_kernel(const Structure& s, int i, int j, const std::vector<double>& tau,
                              const KernelOptions& options = {});
/// S_ij(tau) = int_0^tau L1_ij (displacement per unit step force) for tau >= 0.
KernelSamples step_response(const Structure& s, int i, int j, const std::vector<double>& tau,
                            const KernelOptions& options = {});
/// S0_ij(tau) = S_ij(tau) - G_ij: the oscillating part (decays with damping, zero mean without).
KernelSamples step_response_oscillating(const Structure& s, int i, int j, const std::vector<double>& tau,
                                        const KernelOptions& options = {});

/// L1_ij(0+): arccos(D) / (pi rho c sqrt(1 - D^2)) for the string when chi_i = chi_j (1/(2 rho c) without
/// damping; paper 3, eq. III.30 as re-derived in docs/structures.md), 0 for i != j, for beams and for
/// finite structures.
double right_limit(const Structure& s, int i, int j);

/// Short-time law of the beams, L1_ii(tau) ~ C sqrt(tau) as tau -> 0 (docs/structures.md §2.4):
/// C = g / (rho A sqrt(2 pi a (1 + D))) with g = 1 at interior points and g = 4 at the free end of the
/// cantilever. Throws InvalidInput for other structures.
double sqrt_law_coefficient(const Structure& s, int i);

/// The first n_modes terms of a kernel sum, no tail: the brute-force reference.
enum class KernelQuantity { displacement, velocity, step };
std::vector<double> truncated_kernel(const Structure& s, int i, int j, long n_modes, KernelQuantity quantity,
                                     const std::vector<double>& tau);

/// A jump of L1_ij at tau_s > 0: jump = L1(tau*+) - L1(tau*-) (discrete delay gain, m/(N s)).
struct KernelJump {
  double tau_s = 0.0;
  double jump = 0.0;
};
/// The exact jumps in (0, tau_max]: for the undamped string at (2 n l + |chi_i - chi_j|)/c and
/// (2 (n+1) l - |chi_i - chi_j|)/c (gain +1/(2 rho c) each) and at (2 n l + chi_i + chi_j)/c,
/// (2 (n+1) l - chi_i - chi_j)/c (gain -1/(2 rho c) each), coinciding ones merged; empty for every other
/// structure (their kernels are continuous for tau > 0). Four jumps per round trip 2 l / c: at most
/// kMaxKernelJumps candidates (kernel_jump_candidates) are generated, more is InvalidInput naming tau_max_s
/// (a tau_max of 1e12 s asked for ~1e12 jumps: std::bad_alloc).
inline constexpr double kMaxKernelJumps = 1e5;
/// The number of candidate jumps kernel_jumps generates in (0, tau_max]: 4 per round trip of the undamped
/// string, 4 (floor(c tau_max / (2 l)) + 1); 0 for every other structure.
double kernel_jump_candidates(const Structure& s, double tau_max);
std::vector<KernelJump> kernel_jumps(const Structure& s, int i, int j, double tau_max);

struct JumpDetectionOptions {
  long modes = 1024;               // modes used (the lowest); the cut-off frequency Omega is the last one's
  double relative_threshold = 0.05;  // report peaks above this fraction of the largest one and of
                                     // the kernel scale sup_k |n_k(chi_i) n_k(chi_j)| / omega_1 ...
  double consistency = 0.1;        // ... whose estimate at Omega/2 agrees to this relative tolerance
  void validate(std::string_view prefix) const;
};

/// The schema of JumpDetectionOptions (core/schema.hpp).
template <class Archive, schema::Of<JumpDetectionOptions> Self>
void serialize(Archive& a, Self& o) {
  a.integer(o.modes, {.key = "modes", .type = schema::Type::integer, .default_value = "1024",
                      .range = schema::at_least(16), .doc = "modes used (the lowest); Omega is the last one's"});
  a.number(o.relative_threshold, {.key = "relative_threshold", .default_value = "0.05", .range = schema::open(0, 1),
                                  .doc = "peaks above this fraction of the largest one and of the kernel scale"});
  a.number(o.consistency, {.key = "consistency", .default_value = "0.1", .range = schema::open(0, 1),
                           .doc = "relative agreement of a peak's estimate at Omega/2"});
}
/// Jumps detected numerically from the mode data alone (concentration method): the filtered velocity
/// kernel  E(tau) = pi sum_k s(w_k/Omega) n n h_k'(tau) / sum_k s(w_k/Omega) dw_k,  s(x) = exp(-16 x^2),
/// tends to the jump of L1 at a jump and to zero elsewhere as Omega grows. Peaks of |E| are refined and
/// kept when the estimate with Omega/2 agrees (a true jump), which rejects dispersive waves (beams) and
/// damped reflections. The scan samples tau every 1/Omega, so only the modes with omega tau_max <= 65536
/// are used (at least 16 are needed); the first ~12/Omega of tau (the tau = 0 peak) are skipped.
std::vector<KernelJump> detect_kernel_jumps(const Structure& s, int i, int j, double tau_max,
                                            const JumpDetectionOptions& options = {});

}  // namespace bristle::structures
