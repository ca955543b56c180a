// A crawler with bristle feet on a wiggly surface: eps-system and rate-independent limit.
#include "bristle/directional/crawler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>

#include "bristle/core/error.hpp"

namespace bristle::directional {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

std::string join(std::string_view prefix, std::string_view key) {
  return prefix.empty() ? std::string(key) : fmt::format("{}.{}", prefix, key);
}

/// Gradient of E_el(t, x) = sum_j k_a/2 (x_{j+1} - x_j - L_j(t))^2.
VecX elastic_gradient(const CrawlerParams& c, double t, const VecX& x) {
  VecX g = VecX::Zero(x.size());
  for (int j = 0; j + 1 < c.feet; ++j) {
    const double s = c.k_a_N_per_m * (x[j + 1] - x[j] - c.rest_length(j, t));
    g[j + 1] += s;
    g[j] -= s;
  }
  return g;
}

double elastic_energy(const CrawlerParams& c, double t, const VecX& x) {
  double e = 0.0;
  for (int j = 0; j + 1 < c.feet; ++j) {
    const double s = x[j + 1] - x[j] - c.rest_length(j, t);
    e += 0.5 * c.k_a_N_per_m * s * s;
  }
  return e;
}

/// K = Hessian of E_el (a path-graph Laplacian times k_a).
MatX elastic_hessian(const CrawlerParams& c) {
  MatX K = MatX::Zero(c.feet, c.feet);
  for (int j = 0; j + 1 < c.feet; ++j) {
    K(j, j) += c.k_a_N_per_m;
    K(j + 1, j + 1) += c.k_a_N_per_m;
    K(j, j + 1) -= c.k_a_N_per_m;
    K(j + 1, j) -= c.k_a_N_per_m;
  }
  return K;
}

/// Feet at rest at t = 0: x_1 = 0, x_{j+1} = x_j + L_j(0) (every spring relaxed, a stable start).
VecX relaxed_start(const CrawlerParams& c) {
  VecX x = VecX::Zero(c.feet);
  for (int j = 0; j + 1 < c.feet; ++j) x[j + 1] = x[j] + c.rest_length(j, 0.0);
  return x;
}

double dissipation(double dx, double rho_plus, double rho_minus) {
  return dx >= 0.0 ? rho_plus * dx : rho_minus * dx;  // eq. 2.2
}

std::vector<std::string> column_names(int feet) {
  std::vector<std::string> names{"t_s"};
  for (int i = 1; i <= feet; ++i) names.push_back(fmt::format("x{}_m", i));
  names.emplace_back("center_m");
  names.emplace_back("D_J");
  return names;
}

double advance_per_cycle(const TimeSeries& series, const CrawlerParams& c, int cycles) {
  // The center at t = T and at t = cycles T: the first cycle is a start-up transient.
  const auto& t = series.column("t_s");
  const auto& center = series.column("center_m");
  auto at = [&](double time) {
    const auto it = std::min_element(t.begin(), t.end(), [&](double a, double b) {
      return std::abs(a - time) < std::abs(b - time);
    });
    return center[static_cast<std::size_t>(it - t.begin())];
  };
  return (at(cycles * c.period_s) - at(c.period_s)) / (cycles - 1);
}

}  // namespace

void CrawlerParams::validate(std::string_view prefix) const {
  if (feet != 2 && feet != 3)
    throw InvalidInput(fmt::format("{} = {}: must be 2 or 3", join(prefix, "feet"), feet));
  require_positive(join(prefix, "k_a_N_per_m"), k_a_N_per_m);
  require_positive(join(prefix, "rest_length_m"), rest_length_m);
  require_positive(join(prefix, "stroke_m"), stroke_m);
  require_positive(join(prefix, "period_s"), period_s);
  require_finite(join(prefix, "phase_lag"), phase_lag);
  if (!(phase_lag >= 0.0 && phase_lag < 1.0))
    throw InvalidInput(fmt::format("{} = {}: must lie in [0, 1) (a fraction of the period)", join(prefix, "phase_lag"),
                                   format_value(phase_lag)));
}

double CrawlerParams::rest_length(int spring, double t) const {
  return rest_length_m + 0.5 * stroke_m * (1.0 - std::cos(kTwoPi * (t / period_s - phase_lag * spring)));
}

double CrawlerParams::rest_length_rate(int spring, double t) const {
  return 0.5 * stroke_m * kTwoPi / period_s * std::sin(kTwoPi * (t / period_s - phase_lag * spring));
}

double two_foot_advance(double rho_plus, double rho_minus, double k_a, double stroke) {
  const double lo = std::max(rho_minus, -rho_plus), hi = std::min(rho_plus, -rho_minus);
  const double step = std::max(0.0, stroke - (hi - lo) / k_a);
  if (rho_plus < -rho_minus) return step;   // rightward is easier: both feet step right
  if (rho_plus > -rho_minus) return -step;  // leftward is easier
  return 0.0;                               // symmetric friction: no net advance
}

namespace {
/// kMaxCrawlCycles and kMaxCrawlRows (crawler.hpp): cycles x steps overflowed an int (1e9 cycles gave 2 rows and an
/// advance of 0, exit 0) or asked for 2e8 rows.
void check_crawl_size(int cycles, int per_cycle, std::string_view per_cycle_key) {
  if (cycles > kMaxCrawlCycles)
    throw InvalidInput(fmt::format("cycles = {}: at most {}", cycles, kMaxCrawlCycles));
  if (const double rows = static_cast<double>(cycles) * per_cycle; rows > kMaxCrawlRows)
    throw InvalidInput(fmt::format("{} = {}: cycles x {} = {} rows; at most {}", per_cycle_key, per_cycle,
                                   per_cycle_key, format_value(rows), format_value(kMaxCrawlRows)));
}
}  // namespace

CrawlerRun crawl_epsilon(const Mechanism& bristle, const CrawlerParams& crawler, const EpsilonParams& eps, int cycles,
                         int samples_per_cycle, const Progress& progress) {
  crawler.validate();
  eps.validate();
  if (cycles < 2) throw InvalidInput(fmt::format("cycles = {}: must be >= 2 (the first is a transient)", cycles));
  if (samples_per_cycle < 4)
    throw InvalidInput(fmt::format("samples_per_cycle = {}: must be >= 4", samples_per_cycle));
  check_crawl_size(cycles, samples_per_cycle, "samples_per_cycle");
  require_wiggles(2.0 * crawler.feet * crawler.stroke_m * cycles, eps.epsilon, "2 x feet x stroke_m x cycles");
  const WigglyPotential V(bristle, eps.epsilon);
  const double nu = std::pow(eps.epsilon, eps.gamma);  // eps^gamma, eq. 2.7
  const double gap = bristle.gap();
  const int n = crawler.feet;
  const MatX K = elastic_hessian(crawler);

  integrate::OdeSystem s;
  s.size = n + 1;  // feet, then the dissipation D = int eps^gamma |x'|^2
  s.rhs = [&](double t, const double* x, double* dx) {
    const VecX xs = Eigen::Map<const VecX>(x, n);
    const VecX g = elastic_gradient(crawler, t, xs);
    double power = 0.0;
    for (int i = 0; i < n; ++i) {
      dx[i] = (-g[i] - V.d1(xs[i] + gap)) / nu;  // eq. 2.8 per foot
      power += nu * dx[i] * dx[i];
    }
    dx[n] = power;
  };
  s.jacobian = [&](double t, const double* x, double* jac) {  // column-major (n+1) x (n+1)
    const VecX xs = Eigen::Map<const VecX>(x, n);
    const VecX g = elastic_gradient(crawler, t, xs);
    VecX v(n), d2(n);
    for (int i = 0; i < n; ++i) {
      const auto point = V.at(xs[i] + gap);
      v[i] = (-g[i] - point.dV) / nu;
      d2[i] = point.d2V;
    }
    const int m = n + 1;
    for (int j = 0; j < n; ++j) {
      double dpower = 0.0;
      for (int i = 0; i < n; ++i) {
        const double dvij = -(K(i, j) + (i == j ? d2[i] : 0.0)) / nu;
        jac[j * m + i] = dvij;
        dpower += 2.0 * nu * v[i] * dvij;
      }
      jac[j * m + n] = dpower;
    }
  };

  VecX x(n + 1);
  x.head(n) = relaxed_start(crawler);
  x[n] = 0.0;
  std::vector<double> times;
  for (int k = 0; k <= cycles * samples_per_cycle; ++k)
    times.push_back(crawler.period_s * k / samples_per_cycle);
  auto options = WigglySystem::default_options(eps.epsilon);
  // Each foot passes over about 2 strokes of surface per cycle.
  WigglySystem::apply_step_budget(options, 2.0 * n * crawler.stroke_m * cycles, eps.epsilon);
  options.atol_per_component.assign(static_cast<std::size_t>(n), 1e-7 * eps.epsilon);
  options.atol_per_component.push_back(1e-12);
  CrawlerRun out;
  out.series = TimeSeries(column_names(n));
  ProgressThrottle report(progress);
  const auto start = std::chrono::steady_clock::now();
  out.stats = integrate::integrate(s, x, 0.0, times, options, [&](double t, const double* state) {
    std::vector<double> row{t};
    double center = 0.0;
    for (int i = 0; i < n; ++i) {
      row.push_back(state[i]);
      center += state[i] / n;
    }
    row.push_back(center);
    row.push_back(state[n]);
    out.series.add_row(row);
    if (report) report(t / times.back());
  });
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.advance_per_cycle_m = advance_per_cycle(out.series, crawler, cycles);
  return out;
}

CrawlerRun crawl_limit(const Mechanism& bristle, const CrawlerParams& crawler, int cycles, int steps_per_cycle) {
  crawler.validate();
  if (cycles < 2) throw InvalidInput(fmt::format("cycles = {}: must be >= 2 (the first is a transient)", cycles));
  if (steps_per_cycle < 4) throw InvalidInput(fmt::format("steps_per_cycle = {}: must be >= 4", steps_per_cycle));
  check_crawl_size(cycles, steps_per_cycle, "steps_per_cycle");
  const double rho_plus = bristle.limit().rho_plus, rho_minus = bristle.limit().rho_minus;
  const int n = crawler.feet;
  const MatX K = elastic_hessian(crawler);
  VecX x = relaxed_start(crawler);
  double dissipated = 0.0;
  CrawlerRun out;
  out.series = TimeSeries(column_names(n));
  auto record = [&](double t) {
    std::vector<double> row{t};
    for (int i = 0; i < n; ++i) row.push_back(x[i]);
    row.push_back(x.mean());
    row.push_back(dissipated);
    out.series.add_row(row);
  };
  const auto start = std::chrono::steady_clock::now();
  record(0.0);
  int patterns = 1;
  for (int i = 0; i < n; ++i) patterns *= 3;
  for (int k = 1; k <= cycles * steps_per_cycle; ++k) {
    const double t = crawler.period_s * k / steps_per_cycle;
    // Incremental problem: min_y E_el(t, y) + sum_i R(y_i - x_i). Gradient of E_el: K y - b(t).
    const VecX b = K * x - elastic_gradient(crawler, t, x);
    double best = std::numeric_limits<double>::infinity();
    VecX best_y = x;
    for (int code = 0; code < patterns; ++code) {
      std::vector<int> sign(static_cast<std::size_t>(n));  // -1 slide left, 0 stick, +1 slide right
      for (int i = 0, c = code; i < n; ++i, c /= 3) sign[static_cast<std::size_t>(i)] = c % 3 - 1;
      std::vector<int> moving;
      for (int i = 0; i < n; ++i)
        if (sign[static_cast<std::size_t>(i)] != 0) moving.push_back(i);
      VecX y = x;
      if (!moving.empty()) {
        // Sliding feet: -(K y - b)_i = rho_{sign_i}; stuck feet keep y_j = x_j.
        const auto m = static_cast<int>(moving.size());
        MatX A(m, m);
        VecX r(m);
        for (int a = 0; a < m; ++a) {
          const int i = moving[static_cast<std::size_t>(a)];
          const double rho = sign[static_cast<std::size_t>(i)] > 0 ? rho_plus : rho_minus;
          r[a] = b[i] - rho;
          for (int c2 = 0; c2 < n; ++c2)
            if (sign[static_cast<std::size_t>(c2)] == 0) r[a] -= K(i, c2) * x[c2];
          for (int c2 = 0; c2 < m; ++c2) A(a, c2) = K(i, moving[static_cast<std::size_t>(c2)]);
        }
        const Eigen::FullPivLU<MatX> lu(A);
        if (!lu.isInvertible()) continue;
        const VecX ym = lu.solve(r);
        for (int a = 0; a < m; ++a) y[moving[static_cast<std::size_t>(a)]] = ym[a];
      }
      // KKT: slide directions consistent, stuck feet inside [rho_-, rho_+].
      const VecX force = b - K * y;  // -dE_el/dy
      const double tol = 1e-10 * (1.0 + std::abs(rho_plus) + std::abs(rho_minus) + force.cwiseAbs().maxCoeff());
      bool ok = true;
      for (int i = 0; i < n && ok; ++i) {
        const int si = sign[static_cast<std::size_t>(i)];
        if (si == 0) ok = force[i] <= rho_plus + tol && force[i] >= rho_minus - tol;
        else ok = si * (y[i] - x[i]) >= -1e-14 * (1.0 + std::abs(x[i]));
      }
      if (!ok) continue;
      double objective = elastic_energy(crawler, t, y);
      for (int i = 0; i < n; ++i) objective += dissipation(y[i] - x[i], rho_plus, rho_minus);
      if (objective < best) {
        best = objective;
        best_y = y;
      }
    }
    if (!std::isfinite(best))
      throw SolverError(fmt::format("crawler limit: no stick/slip pattern satisfies the KKT conditions at t = {}",
                                    format_value(t)));
    for (int i = 0; i < n; ++i) dissipated += dissipation(best_y[i] - x[i], rho_plus, rho_minus);
    x = best_y;
    record(t);
  }
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.advance_per_cycle_m = advance_per_cycle(out.series, crawler, cycles);
  return out;
}

}  // namespace bristle::directional
