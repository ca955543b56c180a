#pragma once
// The adaptive Rosenbrock methods RODAS4 and Rodas5P: one driver, a template on the method's tableau and on a
// statically typed system (the design of Boost.Odeint): a system whose right-hand side is a concrete type has
// it inlined into the stage loop. integrate() with `Method::rodas4` or `Method::rodas5p` runs this same driver
// on an OdeSystem (its std::function members behind an adapter); contact::run uses it directly for its
// compiled 1-D bench kernel. The methods, their error control, dense output and switch handling are
// described in src/integrate/rosenbrock.cpp and docs/integrators.md.
//
// A StaticSystem S provides
//   S::kSize         the state size if fixed at compile time (fixed-size Eigen work, no allocation), else
//                    Eigen::Dynamic;
//   S::kQuadratures  Q: the last Q components are quadratures (as in SUNDIALS' CVodeQuad): they enter no
//                    right-hand side, no switching function and no column of the Jacobian; their own
//                    derivatives may depend on the other components. The LU then factorises only the
//                    leading n - Q block and the quadrature rows are solved by substitution (the same
//                    stages, fewer operations);
//   size(), error_norm_count(), autonomous(), has_jacobian(), switch_count()  as the fields of OdeSystem;
//   rhs(t, x, dxdt), jacobian(t, x, J) (column-major, size x size; called only if has_jacobian()),
//   switches(t, x, g).
// Optionally (concept StageSolver), the system solves the stage equations (c I - J_lead) k_lead = r_lead,
// c = 1 / (h gamma), itself, as a SUNDIALS user-supplied linear solver does: a system that knows the
// sparsity of its Jacobian eliminates in a few operations what the dense inverse or LU does in many.
//   factor_stage(c, J)   once per attempted step, J the full Jacobian (column-major, size x size);
//   solve_stage(r, k)    per stage, k_lead from r_lead (the first size - Q components of each).
// integrate() checks its inputs; a caller of rosenbrock() (rodas4(), rodas5p()) directly must pass a finite initial state of
// size() components and finite, non-decreasing output times >= t0, and validated Options.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <limits>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/core/interrupt.hpp"
#include "bristle/integrate/ode.hpp"

namespace bristle::integrate {

template <class S>
concept StaticSystem = requires(S& s, const S& c, double t, const double* x, double* out) {
  { S::kSize } -> std::convertible_to<int>;
  { S::kQuadratures } -> std::convertible_to<int>;
  { c.size() } -> std::convertible_to<int>;
  { c.error_norm_count() } -> std::convertible_to<int>;
  { c.autonomous() } -> std::convertible_to<bool>;
  { c.has_jacobian() } -> std::convertible_to<bool>;
  { c.switch_count() } -> std::convertible_to<int>;
  s.rhs(t, x, out);
  s.jacobian(t, x, out);
  s.switches(t, x, out);
};

template <class S>
concept StageSolver = requires(S& s, double c, const double* jacobian, const double* r, double* k) {
  s.factor_stage(c, jacobian);
  s.solve_stage(r, k);
};

namespace rosenbrock_detail {

/// The transformed form of a Rosenbrock method (Hairer & Wanner II, §IV.7), as both tableaus below give
/// it: stage times alpha_i, gamma_i = sum_j gamma_ij (for f_t), a_ij and c_ij strictly lower triangular
/// row-wise ((2,1), (3,1), (3,2), (4,1), ...), and the dense-output rows over the first kDenseStages
/// stages. Both methods are stiffly accurate (the last row of a is the solution's weights minus e_s), so
/// y_1 = (the last stage's argument) + K_s, and the error estimate is K_s (the embedded solution is the
/// last stage's argument).
constexpr int lower(int i, int j) { return i * (i - 1) / 2 + j; }  // index of (i, j), 0-based, j < i

/// RODAS4: Hairer & Wanner's RODAS (coefficients of their code in the notation of Sandu et al., Atmos.
/// Environ. 31(20), 1997): 6 stages, order 4(3), dense output of order 3.
struct Rodas4Tableau {
  static constexpr const char* kName = "rodas4";
  static constexpr Method kMethod = Method::rodas4;
  static constexpr int kStages = 6;
  static constexpr int kErrorOrder = 4;  // err ~ h^4: the controller's exponent is 1/4
  static constexpr double kGamma = 0.25;
  static constexpr std::array<double, kStages> kAlpha = {0.0, 0.386, 0.21, 0.63, 1.0, 1.0};
  static constexpr std::array<double, kStages> kGammaSum = {0.25, -0.1043, 0.1035, -0.3620000000000023e-01, 0.0,
                                                            0.0};
  static constexpr std::array<double, 15> kA = {
      0.1544000000000000e+01,  0.9466785280815826e+00, 0.2557011698983284e+00, 0.3314825187068521e+01,
      0.2896124015972201e+01,  0.9986419139977817e+00, 0.1221224509226641e+01, 0.6019134481288629e+01,
      0.1253708332932087e+02,  -0.6878860361058950e+00, 0.1221224509226641e+01, 0.6019134481288629e+01,
      0.1253708332932087e+02,  -0.6878860361058950e+00, 1.0};
  static constexpr std::array<double, 15> kC = {
      -0.5668800000000000e+01, -0.2430093356833875e+01, -0.2063599157091915e+00, -0.1073529058151375e+00,
      -0.9594562251023355e+01, -0.2047028614809616e+02, 0.7496443313967647e+01,  -0.1024680431464352e+02,
      -0.3399990352819905e+02, 0.1170890893206160e+02,  0.8083246795921522e+01,  -0.7981132988064893e+01,
      -0.3152159432874371e+02, 0.1631930543123136e+02,  -0.6058818238834054e+01};
  // Continuous extension y(t + s h) = (1 - s) y + s (y_1 + (1 - s) (D_1 + s D_2)), D_k = sum_j d_kj K_j.
  static constexpr int kDenseStages = 5;
  static constexpr int kDenseRows = 2;
  static constexpr std::array<std::array<double, kDenseStages>, kDenseRows> kDense = {{
      {10.12623508344586, -7.487995877610167, -34.80091861555747, -7.992771707568823, 1.025137723295662},
      {-0.6762803392801253, 6.087714651680015, 16.43084320892478, 24.76722511418386, -6.594389125716872},
  }};
};

/// Rodas5P: Steinebach, BIT Numer. Math. 63, 27 (2023), coefficients as verified in
/// /work/shared/notes/rodas5p.md: 8 stages, order 5(4), L-stable, stiffly accurate, dense output with the
/// h4 terms (order 5 at theta = 1/2 there). Rows 7 and 8 of a are row 6 plus e_6, and plus e_6 + e_7
/// (u_7 = u_6 + K_6, u_8 = u_7 + K_7); alpha_6..8 = 1, gamma_6..8 = 0.
struct Rodas5PTableau {
  static constexpr const char* kName = "rodas5p";
  static constexpr Method kMethod = Method::rodas5p;
  static constexpr int kStages = 8;
  static constexpr int kErrorOrder = 5;  // the embedded solution has order 4: err ~ h^5
  static constexpr double kGamma = 0.21193756319429014;
  static constexpr std::array<double, kStages> kAlpha = {
      0.0, 0.6358126895828704, 0.4095798393397535, 0.9769306725060716, 0.4288403609558664, 1.0, 1.0, 1.0};
  static constexpr std::array<double, kStages> kGammaSum = {
      0.21193756319429014, -0.42387512638858027, -0.3384627126235924, 1.8046452872882734, 2.325825639765069,
      0.0, 0.0, 0.0};
  static constexpr double a61 = -7.502846399306121, a62 = 2.561846144803919, a63 = -11.627539656261098,
                          a64 = -0.18268767659942256, a65 = 0.030198172008377946;
  static constexpr std::array<double, 28> kA = {
      3.0,                                                                       // a21
      2.849394379747939,   0.45842242204463923,                                  // a31, a32
      -6.954028509809101,  2.489845061869568,   -10.358996098473584,             // a41..a43
      2.8029986275628964,  0.5072464736228206,  -0.3988312541770524, -0.04721187230404641,  // a51..a54
      a61, a62, a63, a64, a65,                                                   // a61..a65
      a61, a62, a63, a64, a65, 1.0,                                              // a7j = a6j + e_6
      a61, a62, a63, a64, a65, 1.0, 1.0};                                        // a8j = a7j + e_7
  static constexpr std::array<double, 28> kC = {
      -14.155112264123755,                                                        // C21
      -17.97296035885952, -2.859693295451294,                                     // C31, C32
      147.12150275711716, -1.41221402718213, 71.68940251302358,                   // C41..C43
      165.43517024871676, -0.4592823456491126, 42.90938336958603, -5.961986721573306,   // C51..C54
      24.854864614690072, -3.0009227002832186, 47.4931110020768, 5.5814197821558125,
      -0.6610691825249471,                                                        // C61..C65
      30.91273214028599, -3.1208243349937974, 77.79954646070892, 34.28646028294783, -19.097331116725623,
      -28.087943162872662,                                                        // C71..C76
      37.80277123390563, -3.2571969029072276, 112.26918849496327, 66.9347231244047, -40.06618937091002,
      -54.66780262877968, -9.48861652309627};                                     // C81..C87
  // Continuous extension y(t + s h) = (1 - s) y + s (y_1 + (1 - s) (D_1 + s (D_2 + s D_3))),
  // D_k = sum_j h_(k+1)j K_j (the note's y_n + theta (y_1 - y_n + (1 - theta) (...)), rearranged).
  static constexpr int kDenseStages = 8;
  static constexpr int kDenseRows = 3;
  static constexpr std::array<std::array<double, kDenseStages>, kDenseRows> kDense = {{
      {25.948786856663858, -2.5579724845846235, 10.433815404888879, -2.3679251022685204, 0.524948541321073,
       1.1241088310450404, 0.4272876194431874, -0.17202221070155493},
      {-9.91568850695171, -0.9689944594115154, 3.0438037242978453, -24.495224566215796, 20.176138334709044,
       15.98066361424651, -6.789040303419874, -6.710236069923372},
      {11.419903575922262, 2.8879645146136994, 72.92137995996029, 80.12511834622643, -52.072871366152654,
       -59.78993625266729, -0.15582684282751913, 4.883087185713722},
  }};
};

/// Stage i's argument is stage i-1's plus K_{i-1} (row i of a = row i-1 + e_{i-1}): formed by one addition
/// (the same sum in the same order as from y, so bitwise the same).
template <class T>
constexpr bool extends_previous(int i) {
  if (i < 2) return false;
  for (int j = 0; j < i - 1; ++j)
    if (T::kA[lower(i, j)] != T::kA[lower(i - 1, j)]) return false;
  return T::kA[lower(i, i - 1)] == 1.0;
}

/// err^(1/p) for the controller: two square roots for p = 4 (RODAS4 as before), pow otherwise.
template <int P>
inline double root_of(double e) {
  if constexpr (P == 4) {
    return std::sqrt(std::sqrt(e));
  } else {
    return std::pow(e, 1.0 / P);
  }
}

constexpr double kSafety = 0.9;
constexpr double kMinShrink = 0.2;           // h_new >= h / 5
constexpr double kMaxGrowth = 6.0;           // h_new <= 6 h
constexpr double kNonFiniteShrink = 0.25;    // step factor after a non-finite stage
constexpr double kMinStepRelative = 10.0 * std::numeric_limits<double>::epsilon();
constexpr int kMaxRootIterations = 60;
/// A step within this fraction of the time left is stretched to the end (no sliver step from round-off).
constexpr double kEndSlack = 1e-10;
/// A shortened step ending this close to the start (relative to h) is not taken: the root is at t.
constexpr double kRootAtStart = 1e-10;
constexpr long kChatterSteps = 2;
constexpr int kMaxChatteringRoots = 100;

template <class Tableau, StaticSystem System>
class Rosenbrock {
  static constexpr int kStages = Tableau::kStages;
  static constexpr double kGamma = Tableau::kGamma;
  static constexpr auto kAlpha = Tableau::kAlpha;
  static constexpr auto kGammaSum = Tableau::kGammaSum;
  static constexpr auto kA = Tableau::kA;
  static constexpr auto kC = Tableau::kC;
  static constexpr auto kExtends = [] {
    std::array<bool, Tableau::kStages> e{};
    for (int i = 0; i < Tableau::kStages; ++i) e[static_cast<std::size_t>(i)] = extends_previous<Tableau>(i);
    return e;
  }();


 public:
  static constexpr int N = System::kSize;
  static constexpr int Q = System::kQuadratures;
  static constexpr int L = N == Eigen::Dynamic ? Eigen::Dynamic : N - Q;  // the block the LU factorises
  using Vec = Eigen::Matrix<double, N, 1>;
  using Mat = Eigen::Matrix<double, N, N>;
  using Lead = Eigen::Matrix<double, L, L>;
  /// A fixed leading block of at most 4 components (a quadrature system) is inverted explicitly (Eigen's
  /// closed-form cofactor inverse): each stage is then a matrix-vector product instead of two triangular
  /// solves with their serial dependencies.
  static constexpr bool kOwnSolver = StageSolver<System>;
  static constexpr bool kInvert = !kOwnSolver && Q > 0 && L != Eigen::Dynamic && L <= 4;

  Rosenbrock(System& system, const Options& options)
      : system_(system),
        options_(options),
        n_(system.size()),
        lead_(n_ - Q),
        norm_count_(system.error_norm_count() > 0 ? system.error_norm_count() : n_),
        atol_(absolute_tolerances(options, n_)),
        y_(n_),
        y1_(n_),
        f0_(n_),
        f1_(n_),
        ft_(n_),
        work_(n_),
        rhs_(n_),
        known_(n_),
        interp_(n_),
        jacobian_(n_, n_),
        matrix_(lead_, lead_),
        lu_(lead_) {
    for (auto& k : k_) k.resize(n_);
    for (auto& d : dense_rows_) d.resize(n_);
    g0_.resize(static_cast<std::size_t>(system.switch_count()));
    g1_.resize(g0_.size());
    gm_.resize(g0_.size());
  }

  /// Integrates as integrate() does; `observe(t, x)` is called at every output time.
  template <class Observe>
  Stats run(VecX& x, double t0, const std::vector<double>& output_times, Observe&& observe) {
    const double t_end = output_times.back();
    std::size_t next = 0;
    for (; next < output_times.size() && output_times[next] <= t0; ++next)
      observe(t0, x.data());
    if (next == output_times.size()) return stats_;

    double t = t0;
    y_ = x;
    evaluate(t, y_, f0_);
    if (!finite(f0_))
      throw SolverError(fmt::format("{}: the right-hand side returned a non-finite value at t = {} (the initial "
                                    "state)",
                                    Tableau::kName, format_value(t)));
    if (!g0_.empty()) switches(t, y_, g0_);
    double h = initial_step(t, t_end);
    double h_prev = 0.0, err_prev = 0.0;  // last accepted step, for Gustafsson's controller
    bool rejected = false;
    bool jacobian_current = false;
    double smallest = std::numeric_limits<double>::infinity();
    while (next < output_times.size()) {
      poll_interrupt(static_cast<unsigned long>(n_));  // core/interrupt.hpp: a step is ~n^2 work at least
      if (stats_.steps >= options_.max_steps)
        throw SolverError(fmt::format("{}: step budget exhausted at t = {}: {} = {} steps taken before reaching t = {}",
                                      Tableau::kName, format_value(t), options_.max_steps_key, options_.max_steps,
                                      format_value(t_end)));
      const double remaining = t_end - t;
      const double min_step = std::max(kMinStepRelative * std::abs(t), std::numeric_limits<double>::min());
      // The first step is at least min_step (it was 1 % of the span: a span below 100 min_step, an
      // advance_to(t + 1e-15), collapsed at once); so a span below min_step is one step to the end. (A remainder
      // below min_step after a step is taken as before: the next step reaches past it and is cut to it.)
      if (stats_.steps == 0 && !rejected) h = std::max(h, min_step);
      const bool sliver = remaining <= min_step;
      bool to_end = false;
      if (h >= remaining * (1.0 - kEndSlack)) {
        h = remaining;
        to_end = true;
      }
      if (!(h >= min_step) && !to_end)
        throw SolverError(collapse(t, h, min_step));
      if (!jacobian_current) {
        evaluate_jacobian(t, t_end);
        jacobian_current = true;
      }
      double err = 0.0;
      if (!attempt(t, h, err)) {  // a non-finite stage: shrink and retry
        ++stats_.error_test_failures;
        if (sliver)  // the span itself is the shortest step; 1/h overflows the stages below ~1e-290 s
          throw SolverError(fmt::format("{} cannot step from t = {} to t = {}: the stages are not finite at a step of "
                                        "{} s; advance over a longer span",
                                        Tableau::kName, format_value(t), format_value(t_end), format_value(h)));
        h *= kNonFiniteShrink;
        rejected = true;
        if (!(h >= min_step))
          throw SolverError(fmt::format("{} failed at t = {}: the right-hand side returned non-finite values "
                                        "at every step size down to {}",
                                        Tableau::kName, format_value(t), format_value(h)));
        continue;
      }
      const double t1 = to_end ? t_end : t + h;
      // Switches, before the error test: a step across a kink of f is usually rejected, and shrinking it
      // blindly would creep towards the kink; instead the step is retaken to end at the root.
      if (!g0_.empty() && !landing_) {
        switches(t1, y1_, g1_);
        if (any_crossing()) {
          // An accurate step: the root on its dense output; an inaccurate one: a secant estimate.
          const double theta = err <= 1.0 ? first_root(t, h) : secant_root();
          if (theta < 1.0 && theta > kRootAtStart) {
            landing_switch_ = first_crossing();
            count_landing(t, landing_switch_);
            // A root closer to t than the smallest step t can take (min_step, ~10 ulp of t) is at t: the step
            // starts on the kink, as at t = 0 from rest, and is not shortened. Landing on it asked for a step
            // below min_step, an immediate "step-size collapse" (a sine velocity started at t = 1 from
            // v = sin(2 pi) ~ -1e-18). It still counts as a landing, so that a switch chattering about zero
            // ends the run as before.
            if (theta * h >= min_step) {
              h *= theta;
              landing_ = true;
              continue;  // the same Jacobian, a shorter step
            }
          }
        }
      }
      if (err > 1.0) {
        ++stats_.error_test_failures;
        if (sliver) throw SolverError(collapse(t, h, min_step));  // no shorter step exists
        h *= std::max(kMinShrink, kSafety * std::pow(err, -1.0 / Tableau::kErrorOrder));
        rejected = true;
        landing_ = false;
        continue;
      }
      evaluate(t1, y1_, f1_);
      if (!finite(f1_)) {  // the end state is out of the right-hand side's domain: shrink and retry
        ++stats_.error_test_failures;
        if (sliver) throw SolverError(collapse(t, h, min_step));
        h *= kNonFiniteShrink;
        rejected = true;
        landing_ = false;
        continue;
      }
      if (landing_) {
        // A step shortened to a root is accepted whatever the switches do at its end, and the switch it
        // landed on counts as zero there: if the root was placed a little early, the next step crosses
        // it under ordinary error control instead of landing again (and again) ever closer to it.
        landing_ = false;
        switches(t1, y1_, g1_);
        ++stats_.restarts;
        g1_[landing_switch_] = 0.0;
      }
      // Accepted.
      ++stats_.steps;
      smallest = std::min(smallest, h);
      stats_.largest_step = std::max(stats_.largest_step, h);
      for (; next < output_times.size() && output_times[next] <= t1; ++next) {
        const double t_out = output_times[next];
        if (t_out >= t1) {
          observe(t_out, y1_.data());
        } else {
          dense((t_out - t) / h);
          observe(t_out, interp_.data());
        }
      }
      // Next step size (Gustafsson).
      const double e = std::max(err, 1e-10);
      double q = root_of<Tableau::kErrorOrder>(e) / kSafety;
      if (h_prev > 0.0) q = std::max(q, (h_prev / h) * root_of<Tableau::kErrorOrder>(e * e / err_prev) / kSafety);
      q = std::clamp(q, 1.0 / kMaxGrowth, 1.0 / kMinShrink);
      h_prev = h;
      err_prev = std::max(err, 1e-2);
      double h_new = h / q;
      if (rejected) h_new = std::min(h_new, h);
      if (options_.max_dt_s > 0.0) h_new = std::min(h_new, options_.max_dt_s);
      rejected = false;
      t = t1;
      y_.swap(y1_);
      f0_.swap(f1_);
      g0_.swap(g1_);
      jacobian_current = false;
      h = h_new;
      if (to_end) break;
    }
    // Any output times left equal t_end up to round-off.
    x = y_;
    for (; next < output_times.size(); ++next)
      observe(output_times[next], x.data());
    stats_.smallest_step = stats_.steps > 0 ? smallest : 0.0;
    return stats_;
  }

 private:
  static std::string collapse(double t, double h, double min_step) {
    return fmt::format(
        "{} failed at t = {}: step-size collapse (h = {} below {}): the error test failed repeatedly; the "
        "right-hand side may be discontinuous here or the solution singular",
        Tableau::kName, format_value(t), format_value(h), format_value(min_step));
  }

  void evaluate(double t, const Vec& y, Vec& f) {
    ++stats_.rhs_evaluations;
    system_.rhs(t, y.data(), f.data());
  }

  static bool finite(const Vec& v) { return v.allFinite(); }


  double initial_step(double t, double t_end) {
    double h = options_.initial_dt_s;
    if (!(h > 0.0)) {
      // Hairer & Wanner I, §II.4: h = 0.01 ||y|| / ||f|| in the weighted norm, or 1e-6 when either is tiny.
      const double d0 = weighted_norm(y_, y_), d1 = weighted_norm(f0_, y_);
      h = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
      h = std::min(h, 0.01 * (t_end - t));
    }
    if (options_.max_dt_s > 0.0) h = std::min(h, options_.max_dt_s);
    return h;
  }

  double weighted_norm(const Vec& v, const Vec& scale_from) const {
    double sum = 0.0;
    for (int i = 0; i < n_; ++i) {
      const double w = atol_[i] + options_.rtol * std::abs(scale_from[i]);
      const double r = v[i] / w;
      sum += r * r;
    }
    return std::sqrt(sum / norm_count_);
  }

  void evaluate_jacobian(double t, double t_end) {
    ++stats_.jacobian_evaluations;
    if (system_.has_jacobian()) {
      jacobian_.setZero();
      system_.jacobian(t, y_.data(), jacobian_.data());
      if (!jacobian_.allFinite())
        throw SolverError(fmt::format("{}: the Jacobian returned a non-finite value at t = {}", Tableau::kName, format_value(t)));
    } else {
      const double root_eps = std::sqrt(std::numeric_limits<double>::epsilon());
      for (int j = 0; j < n_; ++j) {
        const double yj = y_[j];
        const double increment = root_eps * std::max(std::abs(yj), atol_[j] / options_.rtol);
        y_[j] = yj + increment;
        evaluate(t, y_, work_);
        y_[j] = yj;
        jacobian_.col(j) = (work_ - f0_) / (y_[j] + increment - yj);
      }
    }
    // f_t by a difference in t, never beyond the end time (zero for an autonomous system).
    if (system_.autonomous()) {
      ft_.setZero();
      return;
    }
    const double dt = std::sqrt(std::numeric_limits<double>::epsilon()) * std::max(std::abs(t), 1.0);
    const double ts = t + dt <= t_end ? t + dt : t - dt;
    evaluate(ts, y_, work_);
    ft_ = (work_ - f0_) / (ts - t);
  }

  /// One step of size h from (t, y_); y1_ and the scaled error. False if a stage is non-finite.
  bool attempt(double t, double h, double& err) {
    dense_ready_ = false;
    if constexpr (kOwnSolver) {
      system_.factor_stage(1.0 / (h * kGamma), jacobian_.data());
    } else {
      if constexpr (Q == 0) {
        matrix_ = -jacobian_;
      } else if constexpr (L == Eigen::Dynamic) {
        matrix_ = -jacobian_.topLeftCorner(lead_, lead_);
      } else {
        matrix_ = -jacobian_.template topLeftCorner<L, L>();
      }
      matrix_.diagonal().array() += 1.0 / (h * kGamma);
      if constexpr (kInvert) {
        inverse_ = matrix_.inverse();
      } else {
        lu_.compute(matrix_);
      }
    }
    const double inv_h = 1.0 / h;
    const bool autonomous = system_.autonomous();  // f_t = 0
    for (int i = 0; i < kStages; ++i) {
      // The stage's known terms, sum_j (c_ij / h) K_j + gamma_i h f_t, are summed before its right-hand
      // side is evaluated: the step is a chain of dependent stages, and only one addition then follows
      // the evaluation on it.
      if (i == 0) {
        if (autonomous) {
          rhs_ = f0_;
        } else {
          rhs_ = f0_ + (kGammaSum[0] * h) * ft_;
        }
      } else {
        known_ = (kC[lower(i, 0)] * inv_h) * k_[0];
        for (int j = 1; j < i; ++j) known_.noalias() += (kC[lower(i, j)] * inv_h) * k_[j];
        if (!autonomous && kGammaSum[i] != 0.0) known_.noalias() += (kGammaSum[i] * h) * ft_;
        if (kExtends[static_cast<std::size_t>(i)]) {
          work_ += k_[i - 1];  // u_i = u_(i-1) + K_(i-1)
        } else {
          work_ = y_;
          for (int j = 0; j < i; ++j) work_.noalias() += kA[lower(i, j)] * k_[j];
        }
        evaluate(t + kAlpha[i] * h, work_, rhs_);
        if (!finite(rhs_)) return false;
        rhs_ += known_;
      }
      solve_stage(h, k_[i]);
    }
    // Both methods are stiffly accurate: the last stage's weights a_sj are the solution weights m_j (j < s)
    // and m_s = 1, so y_1 is the last stage's argument plus K_s (for RODAS4 the same sum in the same order
    // as y + sum m_i K_i), and that argument is the embedded solution: the error estimate is K_s.
    static_assert(Tableau::kAlpha[kStages - 1] == 1.0 && Tableau::kGammaSum[kStages - 1] == 0.0);
    y1_ = work_ + k_[kStages - 1];
    if (!finite(y1_)) return false;
    double sum = 0.0;
    for (int i = 0; i < n_; ++i) {
      const double w = atol_[i] + options_.rtol * std::max(std::abs(y_[i]), std::abs(y1_[i]));
      const double r = k_[kStages - 1][i] / w;
      sum += r * r;
    }
    err = std::sqrt(sum / norm_count_);
    return std::isfinite(err);
  }

  /// k = (I / (h gamma) - J)^-1 rhs_. With quadratures the LU solves the leading block, and each
  /// quadrature row, (1 / (h gamma)) k_q - J_q,lead k_lead = rhs_q (its own columns of J are zero), is
  /// solved by substitution.
  void solve_stage(double h, Vec& k) {
    // The leading block: the system's own solver, the explicit inverse or the LU.
    if constexpr (kOwnSolver) {
      system_.solve_stage(rhs_.data(), k.data());
    } else if constexpr (Q == 0) {
      k.noalias() = lu_.solve(rhs_);
    } else if constexpr (L == Eigen::Dynamic) {
      k.head(lead_).noalias() = lu_.solve(rhs_.head(lead_));
    } else if constexpr (kInvert) {
      k.template head<L>().noalias() = inverse_ * rhs_.template head<L>();
    } else {
      k.template head<L>().noalias() = lu_.solve(rhs_.template head<L>());
    }
    // The quadrature rows by substitution.
    if constexpr (Q > 0) {
      if constexpr (L == Eigen::Dynamic) {
        k.tail(Q).noalias() = (h * kGamma) * (rhs_.tail(Q) + jacobian_.bottomLeftCorner(Q, lead_) * k.head(lead_));
      } else {
        k.template tail<Q>().noalias() = (h * kGamma) * (rhs_.template tail<Q>() +
                                                        jacobian_.template bottomLeftCorner<Q, L>() *
                                                            k.template head<L>());
      }
    }
  }

  /// interp_ = the method's continuous extension at fraction s of the step (y_ to y1_):
  ///   y(t + s h) = (1 - s) y + s (y_1 + (1 - s) (D_1 + s (D_2 + s D_3))),  D_k = sum_j d_kj K_j
  /// (RODAS4 has no D_3).
  void dense(double s) {
    if (!dense_ready_) {
      for (int r = 0; r < Tableau::kDenseRows; ++r) {
        Vec& d = dense_rows_[static_cast<std::size_t>(r)];
        d.setZero();
        for (int j = 0; j < Tableau::kDenseStages; ++j)
          d.noalias() += Tableau::kDense[static_cast<std::size_t>(r)][static_cast<std::size_t>(j)] * k_[j];
      }
      dense_ready_ = true;
    }
    const Vec& d1 = dense_rows_[0];
    const Vec& d2 = dense_rows_[1];
    if constexpr (Tableau::kDenseRows == 2) {
      interp_ = (1.0 - s) * y_ + s * (y1_ + (1.0 - s) * (d1 + s * d2));
    } else {
      static_assert(Tableau::kDenseRows == 3);
      interp_ = (1.0 - s) * y_ + s * (y1_ + (1.0 - s) * (d1 + s * (d2 + s * dense_rows_[2])));
    }
  }

  void switches(double t, const Vec& y, std::vector<double>& g) {
    system_.switches(t, y.data(), g.data());
    for (std::size_t i = 0; i < g.size(); ++i)
      if (!std::isfinite(g[i]))
        throw SolverError(fmt::format("{}: the switching functions returned a non-finite value at t = {} (g[{}])",
                                      Tableau::kName, format_value(t), i));
  }

  static bool crosses(double a, double b) { return (a < 0.0 && b > 0.0) || (a > 0.0 && b < 0.0); }

  std::size_t first_crossing() const {
    std::size_t i = 0;
    while (i < g0_.size() && !crosses(g0_[i], g1_[i])) ++i;
    return i;
  }

  /// Landings at most kChatterSteps accepted steps apart count as chattering; kMaxChatteringRoots of
  /// them in a row end the run (a right-hand side discontinuous across the switch, e.g. a sliding mode).
  void count_landing(double t, std::size_t which) {
    chattering_ = stats_.steps - steps_at_last_landing_ <= kChatterSteps ? chattering_ + 1 : 1;
    if (chattering_ == 1) chattering_since_ = t;
    steps_at_last_landing_ = stats_.steps;
    if (chattering_ >= kMaxChatteringRoots)
      throw SolverError(fmt::format(
          "{}: switching function g[{}] chatters at t = {}: {} sign changes in a row, at most {} steps apart, "
          "since t = {}; the right-hand side is probably discontinuous across it (e.g. a sliding mode), regularise "
          "it",
          Tableau::kName, which, format_value(t), chattering_, kChatterSteps, format_value(chattering_since_)));
  }

  bool any_crossing() const {
    for (std::size_t i = 0; i < g0_.size(); ++i)
      if (crosses(g0_[i], g1_[i])) return true;
    return false;
  }

  /// Fraction of the step at the earliest sign change, by linear interpolation of the end values.
  double secant_root() const {
    double earliest = 1.0;
    for (std::size_t i = 0; i < g0_.size(); ++i)
      if (crosses(g0_[i], g1_[i])) earliest = std::min(earliest, g0_[i] / (g0_[i] - g1_[i]));
    return earliest;
  }

  /// Fraction of the step h at the earliest sign change of a switch (1 if none), on the dense output.
  double first_root(double t, double h) {
    double earliest = 1.0;
    for (std::size_t i = 0; i < g0_.size(); ++i) {
      if (!crosses(g0_[i], g1_[i])) continue;
      // Illinois regula falsi on g_i(t + s h, interp(s)), s in [0, 1].
      double sa = 0.0, sb = 1.0, ga = g0_[i], gb = g1_[i];
      int side = 0;
      for (int it = 0; it < kMaxRootIterations && sb - sa > 1e-12; ++it) {
        double s = (sa * gb - sb * ga) / (gb - ga);
        if (!(s > sa && s < sb)) s = 0.5 * (sa + sb);
        dense(s);
        switches(t + s * h, interp_, gm_);
        const double gs = gm_[i];
        if (gs == 0.0) {
          sa = sb = s;
          break;
        }
        if (crosses(ga, gs)) {
          sb = s;
          gb = gs;
          if (side == -1) ga *= 0.5;
          side = -1;
        } else {
          sa = s;
          ga = gs;
          if (side == 1) gb *= 0.5;
          side = 1;
        }
      }
      earliest = std::min(earliest, sb);  // the end just beyond the root: the step straddles no kink
    }
    return earliest;
  }

  System& system_;
  const Options& options_;
  int n_;
  int lead_;        // n_ - Q: the components the LU factorisation covers
  int norm_count_;  // components of the RMS error norm (system.error_norm_count, else n_)
  VecX atol_;
  Vec y_, y1_, f0_, f1_, ft_, work_, rhs_, known_, interp_;
  std::array<Vec, Tableau::kDenseRows> dense_rows_;  // D_k of the dense output
  bool dense_ready_ = false;                          // dense_rows_ belong to the current attempt
  std::array<Vec, kStages> k_;
  Mat jacobian_;
  Lead matrix_;
  Lead inverse_;  // kInvert: matrix_^-1
  Eigen::PartialPivLU<Lead> lu_;
  std::vector<double> g0_, g1_, gm_;
  bool landing_ = false;
  std::size_t landing_switch_ = 0;
  long steps_at_last_landing_ = -1000;
  int chattering_ = 0;
  double chattering_since_ = 0.0;
  Stats stats_;
};

}  // namespace rosenbrock_detail

using Rodas4Tableau = rosenbrock_detail::Rodas4Tableau;
using Rodas5PTableau = rosenbrock_detail::Rodas5PTableau;

/// The Rosenbrock method of `Tableau` (Rodas4Tableau, Rodas5PTableau) on a StaticSystem from (t0, x) through
/// `output_times`, calling observe(t, x) at each (see integrate()); on return x holds the state at the last
/// output time.
template <class Tableau, StaticSystem System, class Observe>
Stats rosenbrock(System& system, VecX& x, double t0, const std::vector<double>& output_times, const Options& options,
                 Observe&& observe) {
  rosenbrock_detail::Rosenbrock<Tableau, System> solver(system, options);
  Stats stats = solver.run(x, t0, output_times, observe);
  stats.method_used = Tableau::kMethod;
  return stats;
}

/// RODAS4 (rosenbrock<Rodas4Tableau>).
template <StaticSystem System, class Observe>
Stats rodas4(System& system, VecX& x, double t0, const std::vector<double>& output_times, const Options& options,
             Observe&& observe) {
  return rosenbrock<Rodas4Tableau>(system, x, t0, output_times, options, observe);
}

/// Rodas5P (rosenbrock<Rodas5PTableau>).
template <StaticSystem System, class Observe>
Stats rodas5p(System& system, VecX& x, double t0, const std::vector<double>& output_times, const Options& options,
              Observe&& observe) {
  return rosenbrock<Rodas5PTableau>(system, x, t0, output_times, options, observe);
}

}  // namespace bristle::integrate
