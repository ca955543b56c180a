// Memory kernels against the note's closed forms (elastic-structures-memory-kernels.md) and against
// brute-force sums over 10^5 modes; discrete delays (exact and detected).
#include "bristle/structures/kernels.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "bristle/core/error.hpp"

namespace bristle::structures {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr long kBruteModes = 100000;

double heaviside(double x) { return x >= 0.0 ? 1.0 : 0.0; }

/// The note's §3 formula for the undamped string, written out independently:
/// L1 = 1/(2 rho c) sum_n [H(tau - 2nl/c) - H(tau - 2nl/c - 2chi/c) - H(tau - 2nl/c - 2(l-chi)/c) + H(tau - 2(n+1)l/c)].
double note_string_L1(double rho, double l, double c, double chi, double tau) {
  double sum = 0.0;
  for (int n = 0; 2.0 * n * l / c <= tau + 1.0; ++n) {
    const double t0 = 2.0 * n * l / c;
    sum += heaviside(tau - t0) - heaviside(tau - t0 - 2.0 * chi / c) - heaviside(tau - t0 - 2.0 * (l - chi) / c) +
           heaviside(tau - 2.0 * (n + 1) * l / c);
  }
  return sum / (2.0 * rho * c);
}

Structure paper_string(double damping, std::vector<double> chi = {0.3}) {
  TautStringParams p;  // rho = l = c = 1 (paper 3, Fig. III.2)
  p.damping_ratio = damping;
  p.contact_positions_m = std::move(chi);
  return Structure::taut_string(p);
}

std::vector<double> grid(double a, double b, int n) {
  std::vector<double> t;
  for (int k = 0; k <= n; ++k) t.push_back(a + (b - a) * k / n);
  return t;
}

// issue 17 (mutation run): the jumps up to tau_max = 1e12 s of a string with 2 l / c = 2 s were generated
// one by one, ~2e12 of them: std::bad_alloc. At most kMaxKernelJumps candidates, 4 per round trip.
TEST(StringKernel, JumpsAreBoundedInCount) {
  TautStringParams p;
  p.contact_positions_m = {0.3};
  const Structure s = Structure::taut_string(p);
  EXPECT_EQ(kernel_jump_candidates(s, 6.0), 16.0);  // 3 round trips of 2 s, and the one begun at tau = 6
  // At chi = 0.3 (l = c = 1) two of the four coincide at every 2 k: jumps at 2k, 2k + 0.6, 2k + 1.4.
  EXPECT_EQ(kernel_jumps(s, 0, 0, 6.0).size(), 9u);
  EXPECT_EQ(kernel_jumps(s, 0, 0, 49'998.0).size(), 74'997u);  // 4 (24,999 + 1) = 1e5 candidates: the limit
  try {
    (void)kernel_jumps(s, 0, 0, 1e12);
    ADD_FAILURE() << "no error";
  } catch (const bristle::InvalidInput& e) {
    EXPECT_STREQ(e.what(), "tau_max_s = 1000000000000: the undamped string's kernel has 2000000000004 candidate "
                           "jumps up to it (4 per round trip 2 l / c = 2 s); at most 100000");
  }
}

TEST(StringKernel, UndampedEqualsTheNoteClosedFormAndTheModeSum) {
  TautStringParams p;
  p.density_kg_per_m = 2.0;
  p.length_m = 1.5;
  p.wave_speed_m_per_s = 3.0;
  p.contact_positions_m = {0.4};
  const Structure s = Structure::taut_string(p);
  const double w = kPi * 3.0 / 1.5, alpha = 0.0, beta = kPi * 0.8 / 1.5;
  const std::vector<KernelJump> jumps = kernel_jumps(s, 0, 0, 4.0);
  // Jumps at 2 chi/c = 0.2667, 2(l - chi)/c = 0.7333, 2l/c = 1, ...
  std::vector<double> tau;
  for (const double t : grid(0.005, 3.0, 150)) {
    bool at_jump = false;
    for (const KernelJump& j : jumps) at_jump |= std::abs(t - j.tau_s) < 1e-9;
    if (!at_jump) tau.push_back(t);
  }
  const KernelSamples k = displacement_kernel(s, 0, 0, tau);
  const std::vector<double> brute = truncated_kernel(s, 0, 0, kBruteModes, KernelQuantity::displacement, tau);
  int within_1e6 = 0;
  for (std::size_t i = 0; i < tau.size(); ++i) {
    // the note's formula: exact (both are sums of steps), everywhere off the jumps
    EXPECT_NEAR(k.value[i], note_string_L1(2.0, 1.5, 3.0, 0.4, tau[i]), 1e-14) << tau[i];
    EXPECT_EQ(k.error_bound[i], 0.0);
    // the 10^5-mode sum: L1 = (1/(2 rho l w)) [saw(x1) + saw(x2) - saw(x3) - saw(x4)], x = w tau -+ alpha,
    // w tau -+ beta, and each truncated sawtooth sum_{k<=N} sin(k x)/k errs by at most
    // 1/((N+1) |sin(x/2)|) (Abel summation): 10^-6 once tau is ~0.1 period away from every jump.
    double bound = 0.0;
    for (const double x : {w * tau[i] - alpha, w * tau[i] + alpha, w * tau[i] - beta, w * tau[i] + beta})
      bound += 1.0 / ((kBruteModes + 1.0) * std::abs(std::sin(0.5 * x)));
    bound /= 2.0 * 2.0 * 1.5 * w;
    EXPECT_NEAR(brute[i], k.value[i], bound) << tau[i];
    if (std::abs(brute[i] - k.value[i]) <= 1e-6) ++within_1e6;
  }
  EXPECT_GT(within_1e6, static_cast<int>(tau.size()) / 3);
  // The right limit is half the inverse wave impedance, 1/(2 sqrt(T rho)).
  EXPECT_DOUBLE_EQ(right_limit(s, 0, 0), 1.0 / (2.0 * std::sqrt(p.tension_N() * 2.0)));
  EXPECT_DOUBLE_EQ(displacement_kernel(s, 0, 0, {0.0}).value[0], right_limit(s, 0, 0));
}

TEST(StringKernel, NoteDirectWavePartAndPeriodicity) {
  // The note's "constant part" (1/(rho l)) sum_k sin(w_k tau)/w_k = (1/(2 rho c))(1 - c tau/l) on
  // (0, 2l/c): checked against a brute-force sum. It is the chi-independent (direct-wave) part of L1,
  // not a constant; docs/structures.md §3 records this.
  const double l = 1.0, c = 1.0, rho = 1.0;
  for (const double t : {0.05, 0.5, 1.0, 1.7, 1.95}) {
    double sum = 0.0;
    for (long k = kBruteModes; k >= 1; --k) sum += std::sin(k * kPi * c * t / l) / (k * kPi * c / l);
    // truncation of the sawtooth series: at most 1/((N+1) |sin(x/2)|) / (rho l w), x = pi c t / l
    const double bound = 1.0 / ((kBruteModes + 1.0) * std::abs(std::sin(0.5 * kPi * c * t / l)) * rho * l * kPi * c / l);
    EXPECT_NEAR(sum / (rho * l), (1.0 - c * t / l) / (2.0 * rho * c), bound) << t;
  }
  // The undamped kernel is periodic with period 2l/c; the damped one decays.
  const Structure u = paper_string(0.0), d = paper_string(0.1);
  const std::vector<double> t{0.25, 0.9, 1.55}, t2{2.25, 2.9, 3.55}, t20{20.25, 20.9, 21.55};
  for (std::size_t i = 0; i < t.size(); ++i) {
    EXPECT_DOUBLE_EQ(displacement_kernel(u, 0, 0, {t[i]}).value[0], displacement_kernel(u, 0, 0, {t2[i]}).value[0]);
    EXPECT_LT(std::abs(displacement_kernel(d, 0, 0, {t20[i]}).value[0]), 5e-4);
  }
}

TEST(StringKernel, DampedClosedFormEqualsTheModeSum) {
  for (const double D : {0.1, 0.01}) {
    const Structure s = paper_string(D, {0.3, 0.75});
    const std::vector<double> tau = D > 0.05 ? grid(0.01, 6.0, 30) : std::vector<double>{0.01, 0.6, 1.4, 2.0, 5.5};
    for (int i = 0; i < 2; ++i)
      for (int j = i; j < 2; ++j) {
        const KernelSamples k = displacement_kernel(s, i, j, tau);
        const std::vector<double> brute = truncated_kernel(s, i, j, kBruteModes, KernelQuantity::displacement, tau);
        // the neglected modes are below (2/pi) e^{-D pi N tau}/N: negligible for D = 0.1; for D = 0.01
        // and tau = 0.01 they are ~ e^{-31}
        for (std::size_t p = 0; p < tau.size(); ++p) EXPECT_NEAR(k.value[p], brute[p], 2e-13) << D << " " << tau[p];
      }
  }
}

TEST(StringKernel, RightLimitWithUniformDamping) {
  // Paper 3, eq. III.30 (re-derived): L1(0+) = arccos(D) / (pi rho c sqrt(1 - D^2)); checked against the
  // closed form at tiny tau and against the 10^5-mode sum at tau = 1e-3 (where the sum has converged:
  // e^{-D pi N tau} = e^{-31}), extrapolated linearly from two points.
  const double D = 0.1;
  const Structure s = paper_string(D);
  const double expected = std::acos(D) / (kPi * std::sqrt(1.0 - D * D));
  EXPECT_NEAR(right_limit(s, 0, 0), expected, 1e-15);
  EXPECT_NEAR(displacement_kernel(s, 0, 0, {1e-9}).value[0], expected, 1e-10);
  const std::vector<double> b = truncated_kernel(s, 0, 0, kBruteModes, KernelQuantity::displacement, {1e-3, 2e-3});
  EXPECT_NEAR(2.0 * b[0] - b[1], expected, 1e-6);
  // Off-diagonal kernels start at zero (no instantaneous coupling between distinct points).
  const Structure two = paper_string(D, {0.3, 0.6});
  EXPECT_EQ(right_limit(two, 0, 1), 0.0);
}

TEST(StringKernel, VelocityKernelAndStepResponse) {
  const Structure s = paper_string(0.1);
  const std::vector<double> tau{0.05, 0.3, 0.61, 1.2, 2.5};
  const KernelSamples K = velocity_kernel(s, 0, 0, tau);
  const std::vector<double> brute = truncated_kernel(s, 0, 0, kBruteModes, KernelQuantity::velocity, tau);
  for (std::size_t p = 0; p < tau.size(); ++p) {
    EXPECT_NEAR(K.value[p], brute[p], 1e-10) << tau[p];
    const double d = 1e-5;
    const double fd =
        (displacement_kernel(s, 0, 0, {tau[p] + d}).value[0] - displacement_kernel(s, 0, 0, {tau[p] - d}).value[0]) /
        (2 * d);
    EXPECT_NEAR(K.value[p], fd, 1e-7) << tau[p];
  }
  // S: constant part G (static compliance), oscillating part S0 -> 0.
  const KernelSamples S = step_response(s, 0, 0, {0.4, 1.3, 60.0});
  const std::vector<double> Sb = truncated_kernel(s, 0, 0, kBruteModes, KernelQuantity::step, {0.4, 1.3, 60.0});
  const double G = 0.3 * 0.7;
  // the brute sum misses the compliance tail sum_{k>N} 2 sin^2(k pi chi)/(k pi)^2 ~ 1/(pi^2 N)
  for (int p = 0; p < 3; ++p) EXPECT_NEAR(S.value[p], Sb[p] + 1.0 / (kPi * kPi * kBruteModes), 2e-9);
  EXPECT_NEAR(S.value[2], G, 1e-8);
  EXPECT_NEAR(step_response_oscillating(s, 0, 0, {60.0}).value[0], 0.0, 1e-8);
  // Undamped velocity kernel is zero between the jumps (the jumps are its deltas).
  EXPECT_EQ(velocity_kernel(paper_string(0.0), 0, 0, {0.3}).value[0], 0.0);
}

TEST(BeamKernel, CantileverSqrtLawNearZero) {
  // Paper 3, Fig. III.3(b): L1 ~ C tau^p with 0 < p < 1 near 0. We find p = 1/2 and, at the free end,
  // C = 4 / (rho A sqrt(2 pi a (1 + D))) -- four times the note's interior-point value.
  for (const double D : {0.0, 0.1}) {
    BeamParams bp;
    bp.damping_ratio = D;
    const Structure c = Structure::cantilever(bp);
    const double C = sqrt_law_coefficient(c, 0);
    EXPECT_NEAR(C, 4.0 / std::sqrt(2.0 * kPi * (1.0 + D)), 1e-15);
    const std::vector<double> tau{1e-7, 1e-6, 1e-5};
    const KernelSamples k = displacement_kernel(c, 0, 0, tau);
    for (std::size_t p = 0; p < tau.size(); ++p) {
      EXPECT_NEAR(k.value[p] / (C * std::sqrt(tau[p])), 1.0, 3.0 * std::sqrt(tau[p]) + k.error_bound[p] / (C * std::sqrt(tau[p])))
          << D << " " << tau[p];
      EXPECT_LE(k.error_bound[p], D > 0.0 ? 1e-12 : 4e-6);
    }
    // the exponent: log-log slope between 1e-7 and 1e-5
    const double slope = std::log(k.value[2] / k.value[0]) / std::log(100.0);
    EXPECT_NEAR(slope, 0.5, 2e-3);
  }
  // Interior points: the note's value 1 / (rho A sqrt(2 pi a)), here with rho A = 2, EI = 8 (a = 2).
  BeamParams bp;
  bp.bending_stiffness_N_m2 = 8.0;
  bp.mass_per_length_kg_per_m = 2.0;
  bp.damping_ratio = 0.05;
  bp.contact_positions_m = {0.37};
  const Structure ss = Structure::simply_supported_beam(bp);
  const double C = sqrt_law_coefficient(ss, 0);
  EXPECT_NEAR(C, 1.0 / (2.0 * std::sqrt(2.0 * kPi * 2.0 * 1.05)), 1e-15);
  EXPECT_NEAR(displacement_kernel(ss, 0, 0, {1e-8}).value[0] / (C * 1e-4), 1.0, 1e-6);
  const Structure cin = Structure::cantilever(bp);
  EXPECT_NEAR(displacement_kernel(cin, 0, 0, {1e-8}).value[0] / (sqrt_law_coefficient(cin, 0) * 1e-4), 1.0, 1e-6);
  // ... and the velocity kernel ~ C / (2 sqrt(tau))
  EXPECT_NEAR(velocity_kernel(ss, 0, 0, {1e-8}).value[0] / (0.5 * C / 1e-4), 1.0, 1e-6);
}

TEST(BeamKernel, ModeSumsAgreeWithBruteForceWithinTheReportedBound) {
  BeamParams bp;
  bp.damping_ratio = 0.1;
  const Structure damped = Structure::cantilever(bp);
  bp.damping_ratio = 0.0;
  const Structure undamped = Structure::cantilever(bp);
  const std::vector<double> tau{1e-4, 0.01, 0.2, 1.0};
  const std::vector<double> bd = truncated_kernel(damped, 0, 0, kBruteModes, KernelQuantity::displacement, tau);
  const std::vector<double> bu = truncated_kernel(undamped, 0, 0, kBruteModes, KernelQuantity::displacement, tau);
  const KernelSamples kd = displacement_kernel(damped, 0, 0, tau);
  const KernelSamples ku = displacement_kernel(undamped, 0, 0, tau);
  for (std::size_t p = 0; p < tau.size(); ++p) {
    EXPECT_NEAR(kd.value[p], bd[p], 1e-13) << tau[p];
    EXPECT_LE(kd.modes[p], 2000);  // exponential convergence: few modes
    // undamped: 131072 modes vs 10^5 -- both within the rigorous O(1/K) bound of the exact value
    EXPECT_NEAR(ku.value[p], bu[p], ku.error_bound[p] + 4.0 / (kPi * kPi * (kBruteModes - 0.6)));
    EXPECT_LT(ku.error_bound[p], 4e-6);
  }
  // The undamped beam kernel is continuous but not differentiable (paper 3, Fig. III.3(a)): its
  // difference quotients keep jumping around as the step shrinks (Riemann's function has the same
  // quadratic phases), whereas with damping they settle on the velocity kernel.
  const std::vector<double> t0s{0.1234, 0.3, 0.5, 0.7}, hs{1e-4, 1e-5, 1e-6};
  std::vector<double> points;
  for (const double t0 : t0s) {
    points.push_back(t0);
    for (const double h : hs) points.push_back(t0 + h);
  }
  const KernelSamples U = displacement_kernel(undamped, 0, 0, points);
  const KernelSamples Dk = displacement_kernel(damped, 0, 0, points);
  for (std::size_t a = 0; a < t0s.size(); ++a) {
    const double t0 = t0s[a];
    double umin = 1e300, umax = 0.0, dmin = 1e300, dmax = 0.0;
    for (std::size_t b = 0; b < hs.size(); ++b) {
      const double h = hs[b];
      const std::size_t base = a * (hs.size() + 1), at = base + 1 + b;
      const KernelSamples u{{}, {U.value[base], U.value[at]}, {}, {}, ""};
      const KernelSamples d{{}, {Dk.value[base], Dk.value[at]}, {}, {}, ""};
      const double qu = std::abs(u.value[1] - u.value[0]) / h, qd = std::abs(d.value[1] - d.value[0]) / h;
      umin = std::min(umin, qu);
      umax = std::max(umax, qu);
      dmin = std::min(dmin, qd);
      dmax = std::max(dmax, qd);
      EXPECT_LT(std::abs(u.value[1] - u.value[0]), 100.0 * std::sqrt(h));  // continuous (Hoelder)
    }
    EXPECT_GT(umax, 1.5 * umin) << t0;
    EXPECT_LT(dmax, 1.02 * dmin) << t0;
    EXPECT_NEAR(dmax, std::abs(velocity_kernel(damped, 0, 0, {t0}).value[0]), 2e-2 * dmax) << t0;
  }
  EXPECT_TRUE(kernel_jumps(undamped, 0, 0, 5.0).empty());
  // Step response: constant part G = l^3/(3 EI), oscillating part decays.
  EXPECT_NEAR(step_response(damped, 0, 0, {150.0}).value[0], 1.0 / 3.0, 1e-12);
  // The undamped beam has no pointwise velocity kernel.
  try {
    velocity_kernel(undamped, 0, 0, {0.1});
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()),
              "structure.damping_ratio = 0: the velocity kernel of an undamped cantilever is not a function (its mode "
              "series diverges); give damping_ratio > 0");
  }
}

TEST(Jumps, ExactDelaysOfTheUndampedStringAreDetectedFromModeDataAlone) {
  const Structure s = paper_string(0.0, {0.3, 0.55});
  for (int i = 0; i < 2; ++i)
    for (int j = i; j < 2; ++j) {
      const std::vector<KernelJump> exact = kernel_jumps(s, i, j, 3.0);
      const std::vector<KernelJump> found = detect_kernel_jumps(s, i, j, 3.0);
      ASSERT_EQ(found.size(), exact.size()) << i << j;
      for (std::size_t p = 0; p < exact.size(); ++p) {
        EXPECT_NEAR(found[p].tau_s, exact[p].tau_s, 2e-4) << i << j;
        EXPECT_NEAR(found[p].jump, exact[p].jump, 0.01 * std::abs(exact[p].jump)) << i << j;
      }
      // each jump is the kernel's step there
      for (const KernelJump& k : exact) {
        const KernelSamples v = displacement_kernel(s, i, j, {k.tau_s - 1e-9, k.tau_s + 1e-9});
        EXPECT_NEAR(v.value[1] - v.value[0], k.jump, 1e-12);
      }
    }
  // contact at 0.3: reflections return at 0.6 and 1.4 (-1/2 each), the full period at 2 (+1)
  const std::vector<KernelJump> e = kernel_jumps(s, 0, 0, 2.5);
  ASSERT_EQ(e.size(), 3u);
  EXPECT_NEAR(e[0].tau_s, 0.6, 1e-15);
  EXPECT_DOUBLE_EQ(e[0].jump, -0.5);
  EXPECT_NEAR(e[2].tau_s, 2.0, 1e-15);
  EXPECT_DOUBLE_EQ(e[2].jump, 1.0);
  // No discrete delays with damping, nor for the dispersive beam.
  EXPECT_TRUE(detect_kernel_jumps(paper_string(0.1), 0, 0, 3.0).empty());
  BeamParams bp;
  EXPECT_TRUE(detect_kernel_jumps(Structure::cantilever(bp), 0, 0, 2.0).empty());
  bp.contact_positions_m = {0.5};
  EXPECT_TRUE(detect_kernel_jumps(Structure::simply_supported_beam(bp), 0, 0, 2.0).empty());
}

TEST(Kernels, BadInput) {
  const Structure s = paper_string(0.1);
  try {
    displacement_kernel(s, 0, 0, {0.1, -1.0});
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), "tau_s[1] = -1: must be >= 0");
  }
  try {
    displacement_kernel(s, 0, 1, {0.1});
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), "contact index j = 1: must lie in [0, 0]");
  }
  KernelOptions o;
  o.max_modes = 0;
  try {
    displacement_kernel(s, 0, 0, {0.1}, o);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), "kernel.max_modes = 0: must be >= 1");
  }
}

}  // namespace
}  // namespace bristle::structures
