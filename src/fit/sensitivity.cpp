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

/// A signal read at non-decreasing times: a table walks its knots from the last position instead of a binary search
/// over all of them (the same interpolation formula as Signal::operator(), so the same values bit for bit).
class SignalCursor {
 public:
  explicit SignalCursor(const contact::Signal& s) : s_(s) {}
  double operator()(double t) {
    if (s_.kind != contact::SignalKind::table) return s_(t);
    const std::vector<double>& T = s_.times;
    if (t <= T.front()) return s_.values.front();
    if (t >= T.back()) return s_.values.back();
    if (i_ == 0 || T[i_ - 1] > t) i_ = static_cast<std::size_t>(std::upper_bound(T.begin(), T.end(), t) - T.begin());
    while (T[i_] <= t) ++i_;  // T[i - 1] <= t < T[i], as upper_bound
    const double w = (t - T[i_ - 1]) / (T[i_] - T[i_ - 1]);
    return s_.values[i_ - 1] + w * (s_.values[i_] - s_.values[i_ - 1]);
  }

 private:
  const contact::Signal& s_;
  std::size_t i_ = 0;
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

class Solver {
 public:
  Solver(const Experiment& e, const std::vector<ParameterSpec>& parameters, const VecX& p, InitialState init,
         bool sensitivities)
      : e_(e),
        light_(frozen_at(e.scenario, e.times.front())),
        sc_(with_values(light_, parameters, p)),
        model_(sc_.law, sc_.body1, sc_.body2),
        m_(model_.state_size()),
        np_(static_cast<Index>(parameters.size())),
        sens_(sensitivities),
        affine_(affine_in_state(sc_.law.kind)) {
    u0_ = initial_state(head_of(e, sc_), init);
    if (!sens_) return;
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

  /// Residuals of this experiment into r (targets major), and their Jacobian rows into J (if sensitivities).
  void run(VecX& r, Index at, Eigen::MatrixXd* J) {
    const std::size_t n = e_.times.size();
    VecX x = u0_;
    MatX S = MatX::Zero(m_, np_);
    if (sens_)
      for (Index j = 0; j < np_; ++j) S.col(j) = du0_[static_cast<std::size_t>(j)];
    resize();
    record(0, x, S, r, at, J);
    const double dt = e_.scenario.integrator.dt;
    double t = e_.times.front();
    for (std::size_t i = 1; i < n; ++i) {
      const double t_out = e_.times[i];
      const double start = t;
      const double steps_to_output = std::ceil((t_out - start) / dt - kGridSlack);
      for (double k = 1.0; t < t_out; k += 1.0) {
        const double t_next = k >= steps_to_output ? t_out : std::min(start + k * dt, t_out);
        if (!(t_next > t))
          throw SolverError(fmt::format("sdirk2: integrator.dt = {} is below the resolution of t = {}",
                                        format_value(dt), format_value(t)));
        step(t, t_next - t, x, S);
        t = t_next;
      }
      record(i, x, S, r, at, J);
    }
  }

 private:
  Vec2 velocity(double t) { return Vec2(input_x_(t), input_y_(t)); }

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

  void step(double t, double h, VecX& x, MatX& S) {
    const double a = kGamma * h;
    const Vec2 v1 = velocity(t + kGamma * h), v2 = velocity(t + h);
    Y1_ = x;
    stage(a, v1, x, Y1_, t);
    if (sens_) {
      source_partials(Y1_, v1);
      rhs_ = S + a * dhdp_;
      S1_.noalias() = lu_.solve(rhs_);
    }
    constexpr double c = (1.0 - kGamma) / kGamma;
    base_ = x + c * (Y1_ - x);
    Y2_ = Y1_;
    stage(a, v2, base_, Y2_, t);
    if (sens_) {
      source_partials(Y2_, v2);
      rhs_ = S + c * (S1_ - S) + a * dhdp_;
      S.noalias() = lu_.solve(rhs_);
    }
    x = Y2_;
  }

  /// The outputs at data time i: residual rows and their Jacobian rows.
  void record(std::size_t i, const VecX& x, const MatX& S, VecX& r, Index at, Eigen::MatrixXd* J) {
    const double t = e_.times[i];
    const Vec2 v = velocity(t);
    const double fz = normal_load_(t);
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
  io::LumpedScenario light_, sc_;
  SignalCursor input_x_{e_.scenario.bench.input_x}, input_y_{e_.scenario.bench.input_y};
  SignalCursor normal_load_{e_.scenario.bench.normal_load};
  contact::ContactModel model_;
  Index m_, np_;
  bool sens_, affine_;
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

VecX sdirk2_residuals(const std::vector<Experiment>& experiments, const std::vector<ParameterSpec>& parameters,
                      const VecX& p, InitialState initial_state, Eigen::MatrixXd* jacobian) {
  std::size_t n = 0;
  for (const Experiment& e : experiments) n += e.times.size() * e.targets.size();
  VecX r(static_cast<Index>(n));
  if (jacobian) jacobian->resize(static_cast<Index>(n), p.size());
  Index at = 0;
  for (const Experiment& e : experiments) {
    Solver solver(e, parameters, p, initial_state, jacobian != nullptr);
    solver.run(r, at, jacobian);
    at += static_cast<Index>(e.times.size() * e.targets.size());
  }
  if (!r.allFinite() || (jacobian && !jacobian->allFinite())) throw SolverError("the model output is not finite");
  return r;
}

}  // namespace bristle::fit::detail
