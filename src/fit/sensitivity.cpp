// Exact discrete sensitivities of the fixed-step sdirk2 scheme for velocity-driven lumped fits. See
// sensitivity.hpp.
#include "sensitivity.hpp"

#include <fmt/format.h>

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

#include "bristle/contact/contact_model.hpp"
#include "bristle/core/error.hpp"
#include "bristle/integrate/stepper.hpp"
#include "bristle/io/key_path.hpp"

namespace bristle::fit::detail {

using Eigen::Index;

namespace {

constexpr double kGamma = integrate::kSdirk2Gamma;  // sdirk2 (Alexander 1977), integrate/stepper.hpp
constexpr double kGridSlack = 1e-9;      // integrate's fixed-step grid: a time within 1e-9 dt of a multiple
constexpr double kParameterStep = 1e-6;  // relative step of the pointwise parameter partials
constexpr int kMaxNewton = 20;           // Bouc-Wen stage iterations
constexpr double kExpUnderflow = 746.0;  // laws/stribeck.cpp: exp(-x) is 0 beyond

bool affine_in_state(laws::LawKind kind) { return kind != laws::LawKind::bouc_wen; }  // as contact.cpp

bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

io::LumpedScenario with_values(const io::LumpedScenario& base, const std::vector<ParameterSpec>& parameters,
                               const VecX& p) {
  io::LumpedScenario sc = base;
  for (std::size_t j = 0; j < parameters.size(); ++j) io::set_number(sc, parameters[j].key, p[static_cast<Index>(j)]);
  return sc;
}

/// A lighter experiment for initial_state (its first two samples suffice).
Experiment head_of(const Experiment& e, const io::LumpedScenario& sc) {
  Experiment h;
  h.label = e.label;
  h.scenario = sc;
  h.times.assign(e.times.begin(), e.times.begin() + 2);
  for (const Target& t : e.targets) {
    Target c = t;
    c.values.assign(t.values.begin(), t.values.begin() + 2);
    h.targets.push_back(std::move(c));
  }
  return h;
}

/// Everything of an experiment's solve that does not depend on p: integrate's fixed-step grid between the data
/// times (steps of dt, the last one landing on the data time, as `bristle run` takes them), the drive velocity at
/// each step's stage times t + gamma h and t + h, and the velocity and normal load at each data time. The signals
/// are read once, in time order, by Signal::at's forward cursor.
struct Grid {
  std::vector<double> t_start, h; // step starts and sizes
  std::vector<Vec2> v1, v2;       // v_r at t + gamma h and at t + h
  std::vector<std::size_t> end;   // end[i]: the steps taken before data time i (end[0] = 0)
  std::vector<Vec2> v_out;        // v_r at the data times
  std::vector<double> fz_out;     // F_z at the data times
  bool along_x = true;            // every velocity above has a zero y component

  explicit Grid(const Experiment& e) {
    const contact::BenchParams& bench = e.scenario.bench;
    std::size_t hx = 0, hy = 0, hz = 0;
    const auto velocity = [&](double t) {
      const Vec2 v(bench.input_x.at(t, hx), bench.input_y.at(t, hy));
      along_x = along_x && v[1] == 0.0;
      return v;
    };
    const std::size_t n = e.times.size();
    end.assign(n, 0);
    v_out.resize(n);
    fz_out.resize(n);
    v_out[0] = velocity(e.times.front());
    fz_out[0] = bench.normal_load.at(e.times.front(), hz);
    const double dt = e.scenario.integrator.dt_s;
    double t = e.times.front();
    for (std::size_t i = 1; i < n; ++i) {
      const double t_out = e.times[i];
      const double start = t;
      const double steps_to_output = std::ceil((t_out - start) / dt - kGridSlack);
      for (double k = 1.0; t < t_out; k += 1.0) {
        const double t_next = k >= steps_to_output ? t_out : std::min(start + k * dt, t_out);
        if (!(t_next > t))
          throw SolverError(fmt::format("sdirk2: integrator.dt_s = {} is below the resolution of t = {}",
                                        format_value(dt), format_value(t)));
        const double step = t_next - t;
        t_start.push_back(t);
        h.push_back(step);
        v1.push_back(velocity(t + kGamma * step));
        v2.push_back(velocity(t + step));
        t = t_next;
      }
      end[i] = h.size();
      v_out[i] = velocity(t_out);
      fz_out[i] = bench.normal_load.at(t_out, hz);
    }
  }
};

/// The scenario with its bench signals frozen at t0 (constants): all that the models, the parameter perturbations
/// and the initial state need, without copying the signal tables at every perturbation.
io::LumpedScenario frozen_at(const io::LumpedScenario& sc, double t0) {
  io::LumpedScenario f = sc;
  for (contact::Signal* s : {&f.bench.input_x, &f.bench.input_y, &f.bench.belt_x, &f.bench.belt_y,
                             &f.bench.normal_load})
    *s = contact::Signal::constant_value((*s)(t0));
  return f;
}

/// The x-only model of the scalar path (sensitivity.hpp): f' = -alpha g(|v|) f - K v, g from the Stribeck mu
/// (paper 1, eqs. 2-3, 53), F = F_z (f + sigma1 z' - sigma2 v) with z' = -g alpha (f / K) - v (LuGre's output).
struct Coefficients {
  double alpha = 0, K = 0, K_inv = 0, sigma1 = 0, sigma2 = 0;
  double mu_s = 0, mu_d = 0, v_s = 0, delta_s = 0, mu_v = 0, eps = 0;

  Coefficients operator-(const Coefficients& o) const {
    return {alpha - o.alpha, K - o.K, K_inv - o.K_inv, sigma1 - o.sigma1, sigma2 - o.sigma2, mu_s - o.mu_s,
            mu_d - o.mu_d, v_s - o.v_s, delta_s - o.delta_s, mu_v - o.mu_v, eps - o.eps};
  }
  Coefficients operator/(double d) const {
    return {alpha / d, K / d, K_inv / d, sigma1 / d, sigma2 / d, mu_s / d, mu_d / d, v_s / d, delta_s / d,
            mu_v / d, eps / d};
  }
};

/// The coefficients of a model the scalar path can solve, or nothing: an elastic pair (state size 2), Dahl, LuGre
/// or FrBD with an isotropic Stribeck mu and no user G^-1, the axes decoupled (so that a drive along x keeps the
/// y components zero: ContactModel::axes_decoupled).
std::optional<Coefficients> scalar_coefficients(const contact::ContactModel& m) {
  const laws::FrictionLaw& law = m.law();
  const laws::LawParams& lp = law.params();
  const bool kind = lp.kind == laws::LawKind::dahl || lp.kind == laws::LawKind::lugre ||
                    lp.kind == laws::LawKind::frbd;
  if (!kind || m.state_size() != 2 || lp.M.anisotropic || lp.G_inverse || !m.axes_decoupled()) return std::nullopt;
  Coefficients c;
  c.K = m.pair().K0bar()(0, 0);
  c.K_inv = m.pair().K0bar_inv()(0, 0);
  c.alpha = lp.kind == laws::LawKind::frbd ? c.K : law.sigma0()(0, 0);  // eq. 3: K0 G^-1 f; eq. 2: Sigma0 z
  if (law.has_output_terms()) {
    c.sigma1 = lp.sigma1(0, 0);
    c.sigma2 = lp.sigma2(0, 0);
  }
  const laws::StribeckParams& q = lp.M.axis1;
  c.mu_s = q.mu_s;
  c.mu_d = q.mu_d;
  c.v_s = q.v_s;
  c.delta_s = q.delta_s;
  c.mu_v = q.mu_v;
  c.eps = lp.eps;
  return c;
}

/// g(|v|) of FrictionLaw::isotropic_g (the same operations, so the same value) and its partials with respect to
/// the Stribeck coefficients and eps; `partials` false: g only.
struct LawAt {
  double g = 0;
  double dmu_s = 0, dmu_d = 0, dv_s = 0, ddelta_s = 0, dmu_v = 0, deps = 0;  // dg/d(coefficient)

  LawAt(const Coefficients& c, double v, bool partials, bool delta_partial) {
    const double speed = std::sqrt(v * v), speed_squared = v * v;  // Vec2(v, 0).norm(), .squaredNorm()
    const double inv_v_s = 1.0 / c.v_s;                            // laws::stribeck_mu, paper 1 eq. 53
    const double r = speed * inv_v_s;
    const double power = c.delta_s == 2.0 ? r * r : c.delta_s == 1.0 ? r : std::pow(r, c.delta_s);
    const double decay = power > kExpUnderflow ? 0.0 : std::exp(-power);
    const double mu = c.mu_d + (c.mu_s - c.mu_d) * decay + c.mu_v * speed;
    double dg_dmu = 0.0;
    if (c.eps == 0.0) {
      g = speed / mu;
      dg_dmu = -g / mu;
    } else {
      const double q = std::sqrt(mu * mu * speed_squared + c.eps);
      g = q / (mu * mu);
      dg_dmu = (mu * speed_squared / q) / (mu * mu) - 2.0 * g / mu;
      deps = 0.5 / (q * mu * mu);
    }
    if (!partials) return;
    dmu_s = dg_dmu * decay;
    dmu_d = dg_dmu * (1.0 - decay);
    dmu_v = dg_dmu * speed;
    dv_s = dg_dmu * (c.mu_s - c.mu_d) * decay * c.delta_s * power * inv_v_s;  // d(-r^delta)/dv_s = delta r^delta / v_s
    if (delta_partial && r > 0.0) ddelta_s = -dg_dmu * (c.mu_s - c.mu_d) * decay * power * std::log(r);
  }

  /// d(alpha g)/dp_j for the coefficient derivatives d = dc/dp_j.
  double dA(const Coefficients& c, const Coefficients& d) const {
    return d.alpha * g + c.alpha * (dmu_s * d.mu_s + dmu_d * d.mu_d + dv_s * d.v_s + ddelta_s * d.delta_s +
                                    dmu_v * d.mu_v + deps * d.eps);
  }
};

class Solver {
 public:
  Solver(const Experiment& e, const Grid& grid, const io::LumpedScenario& light,
         const std::vector<ParameterSpec>& parameters, const VecX& p, InitialState init, bool sensitivities,
         bool allow_scalar)
      : e_(e),
        grid_(grid),
        light_(light),
        sc_(with_values(light_, parameters, p)),
        model_(sc_.law, sc_.body1, sc_.body2),
        m_(model_.state_size()),
        np_(static_cast<Index>(parameters.size())),
        sens_(sensitivities),
        affine_(affine_in_state(sc_.law.kind)) {
    u0_ = initial_state(head_of(e, sc_), init);
    if (sens_) {
      for (Index j = 0; j < np_; ++j) {
        const double pj = p[j];
        const double delta = kParameterStep * (pj != 0.0 ? std::abs(pj) : 1.0);
        VecX pm = p, pp = p;
        pm[j] -= delta;
        pp[j] += delta;
        std::optional<io::LumpedScenario> sm, sp;
        try {
          sm = with_values(light_, parameters, pm);
        } catch (const InvalidInput&) {
          pm[j] = pj;  // one-sided: the scenario rejects p_j - delta
        }
        try {
          sp = with_values(light_, parameters, pp);
        } catch (const InvalidInput&) {
          pp[j] = pj;
        }
        if (!sm && !sp)
          throw SolverError(fmt::format("fit: {} = {}: no neighbouring value is valid for its derivative",
                                        parameters[static_cast<std::size_t>(j)].key, format_value(pj)));
        if (!sm) sm = sc_;
        if (!sp) sp = sc_;
        step_.push_back(pp[j] - pm[j]);
        minus_.emplace_back(std::in_place, sm->law, sm->body1, sm->body2);
        plus_.emplace_back(std::in_place, sp->law, sp->body1, sp->body2);
        const VecX um = initial_state(head_of(e, *sm), init), up = initial_state(head_of(e, *sp), init);
        du0_.push_back((up - um) / step_.back());  // du0/dp_j
      }
    }
    if (allow_scalar) scalar_ = scalar_applies();
  }

  bool scalar() const { return scalar_; }

  /// Residuals of this experiment into r (targets major), and their Jacobian rows into J (if sensitivities).
  void run(VecX& r, Index at, Eigen::MatrixXd* J) {
    if (scalar_) return run_scalar(r, at, J);
    const std::size_t n = e_.times.size();
    VecX x = u0_;
    MatX S = MatX::Zero(m_, np_);
    if (sens_)
      for (Index j = 0; j < np_; ++j) S.col(j) = du0_[static_cast<std::size_t>(j)];
    resize();
    record(0, x, S, r, at, J);
    for (std::size_t i = 1; i < n; ++i) {
      for (std::size_t k = grid_.end[i - 1]; k < grid_.end[i]; ++k) step(k, x, S);
      record(i, x, S, r, at, J);
    }
  }

 private:
  /// The scalar path applies at p (and at every perturbed p of the sensitivities): see sensitivity.hpp.
  bool scalar_applies() {
    if (!grid_.along_x) return false;
    for (const Target& t : e_.targets)
      if (t.output != "F_N") return false;
    const std::optional<Coefficients> c = scalar_coefficients(model_);
    if (!c || u0_[1] != 0.0) return false;
    c_ = *c;
    if (!sens_) return true;
    dc_.clear();
    for (Index j = 0; j < np_; ++j) {
      const std::size_t k = static_cast<std::size_t>(j);
      const std::optional<Coefficients> cp = scalar_coefficients(*plus_[k]), cm = scalar_coefficients(*minus_[k]);
      if (!cp || !cm || du0_[k][1] != 0.0) return false;
      dc_.push_back((*cp - *cm) / step_[k]);
      if (c_.eps == 0.0 && dc_.back().eps != 0.0) return false;  // dg/deps is infinite at |v| = 0 there
      if (dc_.back().delta_s != 0.0) delta_partial_ = true;
    }
    return true;
  }

  /// The scalar path: the same scheme on the x component, each stage in closed form,
  ///   Y = (b - a K v) / (1 + a alpha g(v)),   dY/dp = (db/dp - a (d(alpha g)/dp Y + dK/dp v)) / (1 + a alpha g(v)).
  void run_scalar(VecX& r, Index at, Eigen::MatrixXd* J) {
    const std::size_t n = e_.times.size();
    const std::size_t np = static_cast<std::size_t>(np_);
    const Coefficients& c = c_;
    double f = u0_[0];
    S_.assign(np, 0.0);
    dF_s_.assign(np, 0.0);
    if (sens_)
      for (std::size_t j = 0; j < np; ++j) S_[j] = du0_[j][0];
    constexpr double cc = (1.0 - kGamma) / kGamma;
    const bool output_terms = c.sigma1 != 0.0 || c.sigma2 != 0.0 || [&] {
      for (const Coefficients& d : dc_)
        if (d.sigma1 != 0.0 || d.sigma2 != 0.0) return true;
      return false;
    }();
    std::optional<LawAt> last;  // the law at the last stage velocity (= the data time's when a step ends there)
    double last_v = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      if (i > 0) {
        for (std::size_t k = grid_.end[i - 1]; k < grid_.end[i]; ++k) {
          const double a = kGamma * grid_.h[k];
          const double w1 = grid_.v1[k][0], w2 = grid_.v2[k][0];
          const LawAt l1(c, w1, sens_, delta_partial_);
          const double d1 = 1.0 + a * (c.alpha * l1.g);
          const double Y1 = (f - a * (c.K * w1)) / d1;
          const double b = f + cc * (Y1 - f);
          const LawAt l2(c, w2, sens_, delta_partial_);
          const double d2 = 1.0 + a * (c.alpha * l2.g);
          const double Y2 = (b - a * (c.K * w2)) / d2;
          if (sens_)
            for (std::size_t j = 0; j < np; ++j) {
              const Coefficients& d = dc_[j];
              const double dY1 = (S_[j] - a * (l1.dA(c, d) * Y1 + d.K * w1)) / d1;
              const double db = S_[j] + cc * (dY1 - S_[j]);
              S_[j] = (db - a * (l2.dA(c, d) * Y2 + d.K * w2)) / d2;
            }
          f = Y2;
          if (!std::isfinite(f))
            throw SolverError(fmt::format("sdirk2: non-finite state in the step from t = {}", format_value(grid_.t_start[k])));
          last.emplace(l2);
          last_v = w2;
        }
      }
      // The output at data time i: F = F_z (f + sigma1 z' - sigma2 v), z' = -g alpha (f / K) - v.
      const double v = grid_.v_out[i][0], fz = grid_.fz_out[i];
      const LawAt l = last && last_v == v ? *last : LawAt(c, v, sens_, delta_partial_);
      double F = f;
      double zdot = 0.0;
      if (output_terms) {
        zdot = -(l.g * (c.alpha * (c.K_inv * f))) - v;
        F = f + c.sigma1 * zdot - c.sigma2 * v;
      }
      F *= fz;
      if (sens_) {
        const double A = c.alpha * l.g;
        for (std::size_t j = 0; j < np; ++j) {
          double dF = S_[j];
          if (output_terms) {
            const Coefficients& d = dc_[j];
            const double dzdot = -(l.dA(c, d) * f + A * S_[j]) * c.K_inv - A * f * d.K_inv;
            dF += d.sigma1 * zdot + c.sigma1 * dzdot - d.sigma2 * v;
          }
          dF_s_[j] = fz * dF;
        }
      }
      for (std::size_t k = 0; k < e_.targets.size(); ++k) {
        const Target& tg = e_.targets[k];
        const Index row = at + static_cast<Index>(k * n + i);
        r[row] = tg.weight * (F - tg.values[i]);
        if (sens_ && J)
          for (std::size_t j = 0; j < np; ++j) (*J)(row, static_cast<Index>(j)) = tg.weight * dF_s_[j];
      }
    }
  }

  void resize() {
    h_.resize(m_);
    hp_.resize(m_);
    hm_.resize(m_);
    res_.resize(m_);
    jac_.resize(m_, m_);
    M_.resize(m_, m_);
    dhdp_.resize(m_, np_);
    Y1_.resize(m_);
    Y2_.resize(m_);
    base_.resize(m_);
    S1_.resize(m_, np_);
    rhs_.resize(m_, np_);
    d_.resize(m_);
    xp_.resize(m_);
    xm_.resize(m_);
    dFdu_.resize(2, m_);
    dF_.resize(2, np_);
  }

  /// Solves Y = base + a h(Y, v) from the guess in Y; leaves I - a dh/du(Y) factorised in lu_.
  void stage(double a, const Vec2& v, const VecX& base, VecX& Y, double t) {
    for (int it = 0; it < kMaxNewton; ++it) {
      model_.source(Y.data(), v, h_.data());
      res_ = base + a * h_ - Y;
      model_.source_jacobian(Y.data(), v, jac_.data());
      M_ = -a * jac_;
      M_.diagonal().array() += 1.0;
      lu_.compute(M_);
      d_.noalias() = lu_.solve(res_);
      Y += d_;
      if (!Y.allFinite())
        throw SolverError(fmt::format("sdirk2: non-finite state in the step from t = {}", format_value(t)));
      if (affine_) return;  // exact in one step; dh/du does not depend on u
      if (d_.lpNorm<Eigen::Infinity>() <= 1e-14 * (1.0 + Y.lpNorm<Eigen::Infinity>())) {
        model_.source_jacobian(Y.data(), v, jac_.data());  // at the solution, for the sensitivities
        M_ = -a * jac_;
        M_.diagonal().array() += 1.0;
        lu_.compute(M_);
        return;
      }
    }
    throw SolverError(fmt::format("sdirk2: the stage equations did not converge in the step from t = {}",
                                  format_value(t)));
  }

  /// dh/dp at (Y, v) into dhdp_.
  void source_partials(const VecX& Y, const Vec2& v) {
    for (Index j = 0; j < np_; ++j) {
      const std::size_t k = static_cast<std::size_t>(j);
      plus_[k]->source(Y.data(), v, hp_.data());
      minus_[k]->source(Y.data(), v, hm_.data());
      dhdp_.col(j) = (hp_ - hm_) / step_[k];
    }
  }

  /// Step k of the grid.
  void step(std::size_t k, VecX& x, MatX& S) {
    const double h = grid_.h[k];
    const double a = kGamma * h;
    const Vec2& v1 = grid_.v1[k];
    const Vec2& v2 = grid_.v2[k];
    Y1_ = x;
    stage(a, v1, x, Y1_, grid_.t_start[k]);
    if (sens_) {
      source_partials(Y1_, v1);
      rhs_ = S + a * dhdp_;
      S1_.noalias() = lu_.solve(rhs_);
    }
    constexpr double c = (1.0 - kGamma) / kGamma;
    base_ = x + c * (Y1_ - x);
    Y2_ = Y1_;
    stage(a, v2, base_, Y2_, grid_.t_start[k]);
    if (sens_) {
      source_partials(Y2_, v2);
      rhs_ = S + c * (S1_ - S) + a * dhdp_;
      S.noalias() = lu_.solve(rhs_);
    }
    x = Y2_;
  }

  /// The outputs at data time i: residual rows and their Jacobian rows.
  void record(std::size_t i, const VecX& x, const MatX& S, VecX& r, Index at, Eigen::MatrixXd* J) {
    const Vec2 v = grid_.v_out[i];
    const double fz = grid_.fz_out[i];
    const Vec2 F = fz * model_.friction(x.data(), v);
    Mat2X& dF = dF_;
    if (sens_) {
      // df_out/du (central differences: f_out is affine in u for every law, so these are exact to rounding)
      Mat2X& dFdu = dFdu_;
      VecX& xp = xp_;
      VecX& xm = xm_;
      xp = x;
      xm = x;
      const double scale = std::max(x.lpNorm<Eigen::Infinity>(), 1e-3);
      for (Index k = 0; k < m_; ++k) {
        const double d = 1e-5 * (std::abs(x[k]) + scale);
        xp[k] = x[k] + d;
        xm[k] = x[k] - d;
        dFdu.col(k) = (model_.friction(xp.data(), v) - model_.friction(xm.data(), v)) / (2.0 * d);
        xp[k] = xm[k] = x[k];
      }
      dF.noalias() = dFdu * S;
      for (Index j = 0; j < np_; ++j) {
        const std::size_t k = static_cast<std::size_t>(j);
        dF.col(j) += (plus_[k]->friction(x.data(), v) - minus_[k]->friction(x.data(), v)) / step_[k];
      }
      dF *= fz;
    }
    const std::size_t n = e_.times.size();
    for (std::size_t k = 0; k < e_.targets.size(); ++k) {
      const Target& tg = e_.targets[k];
      const int axis = tg.output == "F_N" ? 0 : 1;
      const Index row = at + static_cast<Index>(k * n + i);
      r[row] = tg.weight * (F[axis] - tg.values[i]);
      if (sens_ && J) J->row(row) = tg.weight * dF.row(axis);
    }
  }

  const Experiment& e_;
  const Grid& grid_;
  const io::LumpedScenario& light_;
  io::LumpedScenario sc_;
  contact::ContactModel model_;
  Index m_, np_;
  bool sens_, affine_;
  bool scalar_ = false, delta_partial_ = false;
  Coefficients c_;
  std::vector<Coefficients> dc_;
  std::vector<double> S_, dF_s_;
  VecX u0_;
  std::vector<VecX> du0_;
  std::vector<std::optional<contact::ContactModel>> minus_, plus_;
  std::vector<double> step_;
  VecX h_, hp_, hm_, res_, Y1_, Y2_, base_, d_, xp_, xm_;
  MatX jac_, M_, dhdp_, S1_, rhs_;
  Mat2X dFdu_, dF_;
  Eigen::PartialPivLU<MatX> lu_;
};

}  // namespace

std::string sensitivity_obstacle(const std::vector<Experiment>& experiments,
                                 const std::vector<ParameterSpec>& parameters) {
  for (const Experiment& e : experiments) {
    if (e.scenario.integrator.method != integrate::Method::sdirk2)
      return fmt::format("integrator.method = \"{}\" (the exact Jacobian needs \"sdirk2\")",
                         integrate::to_string(e.scenario.integrator.method));
    if (e.scenario.bench.drive != contact::DriveKind::velocity)
      return fmt::format("bench.drive = \"{}\" (the exact Jacobian needs \"velocity\")",
                         contact::to_string(e.scenario.bench.drive));
    for (const Target& t : e.targets)
      if (t.output != "F_N" && t.output != "Fy_N")
        return fmt::format("target {} (the exact Jacobian fits F_N or Fy_N)", t.output);
  }
  for (const ParameterSpec& p : parameters)
    if (!starts_with(p.key, "law.") && !starts_with(p.key, "body1.") && !starts_with(p.key, "body2."))
      return fmt::format("parameter {} (the exact Jacobian differentiates keys of law, body1 and body2)", p.key);
  return {};
}

struct Sdirk2Residuals::Prepared {
  const Experiment* experiment;
  io::LumpedScenario light;  // the scenario with its signals frozen at the window start
  Grid grid;
};

Sdirk2Residuals::Sdirk2Residuals(const std::vector<Experiment>& experiments,
                                 const std::vector<ParameterSpec>& parameters, InitialState initial_state, Path path)
    : parameters_(parameters), initial_state_(initial_state), path_(path) {
  prepared_.reserve(experiments.size());
  for (const Experiment& e : experiments) {
    prepared_.push_back(Prepared{&e, frozen_at(e.scenario, e.times.front()), Grid(e)});
    residual_count_ += e.times.size() * e.targets.size();
  }
}

Sdirk2Residuals::~Sdirk2Residuals() = default;

VecX Sdirk2Residuals::operator()(const VecX& p, Eigen::MatrixXd* jacobian) const {
  VecX r(static_cast<Index>(residual_count_));
  if (jacobian) jacobian->resize(static_cast<Index>(residual_count_), p.size());
  Index at = 0;
  scalar_solves_ = 0;
  for (const Prepared& pr : prepared_) {
    const Experiment& e = *pr.experiment;
    Solver solver(e, pr.grid, pr.light, parameters_, p, initial_state_, jacobian != nullptr,
                  path_ == Path::automatic);
    if (solver.scalar()) ++scalar_solves_;
    solver.run(r, at, jacobian);
    at += static_cast<Index>(e.times.size() * e.targets.size());
  }
  if (!r.allFinite() || (jacobian && !jacobian->allFinite())) throw SolverError("the model output is not finite");
  return r;
}

VecX sdirk2_residuals(const std::vector<Experiment>& experiments, const std::vector<ParameterSpec>& parameters,
                      const VecX& p, InitialState initial_state, Eigen::MatrixXd* jacobian) {
  return Sdirk2Residuals(experiments, parameters, initial_state)(p, jacobian);
}

}  // namespace bristle::fit::detail
