#include "bristle/contact/contact.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <utility>

#include "bristle/core/error.hpp"
#include "bristle/integrate/stepper.hpp"

namespace bristle::contact {

namespace {

// SDIRK2 of Alexander (1977), the tableau of integrate's sdirk2 (src/integrate/fixed_step.cpp):
//   gamma | gamma             U1 = u + gamma dt h(U1)
//   1     | 1 - gamma  gamma  U2 = u + (1 - gamma) dt k1 + gamma dt h(U2),  u_next = U2,  k1 = (U1 - u)/(gamma dt)
constexpr double kGamma = integrate::kSdirk2Gamma;  // 1 - 1/sqrt(2), integrate/stepper.hpp
constexpr double kB1 = 1.0 - kGamma, kB2 = kGamma;  // quadrature weights (= the last row: stiffly accurate)
constexpr int kMaxNewtonIterations = 25;
constexpr double kNewtonRtol = 1e-10, kNewtonAtol = 1e-13;
constexpr int kMaxPieces = 4096;  // a failed step is retaken in 2, 4, ..., 4096 pieces

bool affine_in_state(laws::LawKind kind) {
  // h0 of eqs. 2, 3 and 7 is affine in (z, f) at fixed v_r and the rheology (eq. 11) is linear.
  return kind != laws::LawKind::bouc_wen;
}

}  // namespace

Contact::Contact(const laws::LawParams& law, const rheology::RheologyParams& body1,
                 const rheology::RheologyParams& body2, double normal_load_N)
    : Contact(std::make_shared<const ContactModel>(law, body1, body2), normal_load_N) {}

Contact::Contact(std::shared_ptr<const ContactModel> model, double normal_load_N)
    : model_(std::move(model)), normal_load_N_(normal_load_N) {
  if (!model_) throw InvalidInput("model: must not be null");
  require_positive("normal_load_N", normal_load_N);
  m_ = model_->state_size();
  affine_ = affine_in_state(model_->law().params().kind);
  u_ = VecX::Zero(m_);
  h_ = c_ = y_ = U1_ = U2_ = r_ = backup_ = VecX::Zero(m_);
  jac_ = E_ = MatX::Zero(m_, m_);
  lu_ = Eigen::PartialPivLU<MatX>(m_);
  const rheology::ContactPair& pair = model_->pair();
  S1C1_ = pair.S1() * pair.body1().C;
  S2C2_ = pair.S2() * pair.body2().C;
  // The x-only specialisation (class comment): the elastic pair, an affine law, no cross-axis coupling.
  x_only_ = m_ == 2 && affine_ && model_->axes_decoupled();
  k0x_ = pair.K0bar()(0, 0);
  k0y_ = pair.K0bar()(1, 1);
  k0x_inv_ = pair.K0bar_inv()(0, 0);
  k0y_inv_ = pair.K0bar_inv()(1, 1);
  sigma0x_ = model_->law().sigma0()(0, 0);
  sigma0y_ = model_->law().sigma0()(1, 1);
  sigma1x_ = model_->law().params().sigma1(0, 0);
  sigma2x_ = model_->law().params().sigma2(0, 0);
}

Vec2 Contact::zdot_from_source(const double* h) const {
  const int n1 = model_->n1(), n2 = model_->n2();
  Vec2 k0_zdot(h[0], h[1]);  // eq. 31: f' = K0bar h0 + S1 C1 h1 - S2 C2 h2
  if (n1 > 0) k0_zdot.noalias() -= S1C1_ * Eigen::Map<const VecX>(h + 2, 2 * n1);
  if (n2 > 0) k0_zdot.noalias() += S2C2_ * Eigen::Map<const VecX>(h + 2 + 2 * n1, 2 * n2);
  return model_->pair().K0bar_inv() * k0_zdot;
}

TextbookModel textbook_model(laws::LawKind kind, const TextbookParams& p, double normal_load_N,
                             std::string_view prefix) {
  const auto key = [&](const char* name) { return std::string(prefix) + name; };
  if (kind != laws::LawKind::lugre && kind != laws::LawKind::dahl)
    throw InvalidInput(fmt::format("{}: textbook units are for lugre and dahl, not {}", key("type"),
                                   laws::to_string(kind)));
  const bool lugre = kind == laws::LawKind::lugre;
  require_positive(key("Fc_N"), p.Fc_N);
  if (lugre) {
    require_positive(key("Fs_N"), p.Fs_N);
    require_positive(key("vs_mps"), p.vs_mps);
  }
  require_positive(key("sigma0_N_per_m"), p.sigma0_N_per_m);
  if (lugre) {
    require_non_negative(key("sigma1_Ns_per_m"), p.sigma1_Ns_per_m);
    require_non_negative(key("sigma2_Ns_per_m"), p.sigma2_Ns_per_m);
    require_non_negative(key("delta"), p.delta);
  }
  if (!lugre) {  // Dahl takes Fc_N and sigma0_N_per_m only: a LuGre value given is refused, as [law.textbook] does
    const TextbookParams none;
    for (const auto& [name, value, unset] : {std::tuple{"Fs_N", p.Fs_N, none.Fs_N},
                                             std::tuple{"vs_mps", p.vs_mps, none.vs_mps},
                                             std::tuple{"sigma1_Ns_per_m", p.sigma1_Ns_per_m, none.sigma1_Ns_per_m},
                                             std::tuple{"sigma2_Ns_per_m", p.sigma2_Ns_per_m, none.sigma2_Ns_per_m},
                                             std::tuple{"delta", p.delta, none.delta}})
      if (!(value == unset))
        throw InvalidInput(fmt::format("{} = {}: does not apply to the dahl law (it takes Fc_N and sigma0_N_per_m)",
                                       key(name), format_value(value)));
  }
  require_positive("normal_load_N", normal_load_N);  // the argument, not a key of the table
  const double Fz = normal_load_N;  // every textbook force is F_z times a normalised one
  TextbookModel m;
  m.law.kind = kind;
  if (lugre) {
    m.law.M.axis1 = laws::StribeckParams{p.Fs_N / Fz, p.Fc_N / Fz, p.vs_mps, p.delta, 0.0};  // eq. 53
    m.law.sigma1 = (p.sigma1_Ns_per_m / Fz) * Mat2::Identity();  // per newton of load
    m.law.sigma2 = (p.sigma2_Ns_per_m / Fz) * Mat2::Identity();
  } else {
    m.law.M.axis1 = laws::StribeckParams{p.Fc_N / Fz, p.Fc_N / Fz, 1.0, 2.0, 0.0};  // constant M = Fc / F_z
  }
  m.law.M.axis2 = m.law.M.axis1;
  // Sigma0 = K_static = k0 of body 1 (body 2 rigid): F_z Sigma0 z = sigma0 z_tb (eq. 2).
  m.body1 = rheology::elastic(p.sigma0_N_per_m / Fz);
  m.body2 = rheology::rigid();
  return m;
}

Contact Contact::lugre(double Fc_N, double Fs_N, double vs_mps, double sigma0_N_per_m, double sigma1_Ns_per_m,
                       double sigma2_Ns_per_m, double delta) {
  const TextbookModel m = textbook_model(
      laws::LawKind::lugre, {Fc_N, Fs_N, vs_mps, sigma0_N_per_m, sigma1_Ns_per_m, sigma2_Ns_per_m, delta}, 1.0);
  return Contact(m.law, m.body1, m.body2, 1.0);
}

Contact Contact::dahl(double Fc_N, double sigma0_N_per_m) {
  TextbookParams p;
  p.Fc_N = Fc_N;
  p.sigma0_N_per_m = sigma0_N_per_m;
  const TextbookModel m = textbook_model(laws::LawKind::dahl, p, 1.0);
  return Contact(m.law, m.body1, m.body2, 1.0);
}

double Contact::step(double dt_s, double v_mps) {
  require_finite("v_mps", v_mps);
  return step(dt_s, Vec2(v_mps, 0.0))[0];
}

Vec2 Contact::step(double dt_s, const Vec2& v_mps) {
  require_positive("dt_s", dt_s);
  require_finite("v_mps", v_mps);
  if (try_step(dt_s, v_mps)) return last_F_;
  // Retake the step in ever more pieces from the saved data; give up with the data unchanged.
  backup_ = u_;
  const double t0 = t_s_, supplied0 = supplied_J_, dissipated0 = dissipated_J_;
  const Vec2 v0 = last_v_;
  for (int pieces = 2; pieces <= kMaxPieces; pieces *= 2) {
    bool ok = true;
    for (int i = 0; i < pieces && ok; ++i) ok = try_step(dt_s / pieces, v_mps);
    if (ok) {
      t_s_ = t0 + dt_s;  // exactly, not the sum of the pieces
      return last_F_;
    }
    u_ = backup_;
    t_s_ = t0;
    supplied_J_ = supplied0;
    dissipated_J_ = dissipated0;
    last_v_ = v0;
  }
  throw SolverError(fmt::format("Contact::step: the implicit stages did not converge at t = {} s with dt_s = {} "
                                "and v_mps = ({}, {}), even in {} pieces; the state is unchanged",
                                format_value(t_s_), format_value(dt_s), format_value(v_mps[0]),
                                format_value(v_mps[1]), kMaxPieces));
}

bool Contact::try_step(double dt, const Vec2& v) {
  if (x_only_ && x_only_enabled_ && v[1] == 0.0 && u_[1] == 0.0) return try_x_only_step(dt, v[0]);
  if (!affine_) return try_newton_step(dt, v);
  return m_ == 2 ? try_affine_step<2>(dt, v) : try_affine_step<Eigen::Dynamic>(dt, v);
}

void Contact::powers(const double* U, const Vec2& v, double& supplied_W, double& dissipated_W) {
  const Vec2 zdot = model_->source(U, v, h_.data());
  powers(U, v, h_.data(), zdot, supplied_W, dissipated_W);
}

void Contact::powers(const double* U, const Vec2& v, const double* h, const Vec2& zdot, double& supplied_W,
                     double& dissipated_W) {
  const Vec2 f(U[0], U[1]);
  last_F_ = normal_load_N_ * model_->law().output(f, zdot, v);
  supplied_W = -last_F_.dot(v);
  dissipated_W = normal_load_N_ * model_->dissipation_rate(U, v, h, zdot);
}

template <int N>
bool Contact::try_affine_step(double dt, const Vec2& v) {
  using Vec = Eigen::Matrix<double, N, 1>;
  using Mat = Eigen::Matrix<double, N, N>;
  const double a = kGamma * dt;
  Eigen::Map<const Vec> u(u_.data(), m_);
  Eigen::Map<Vec> h(h_.data(), m_), c(c_.data(), m_), y(y_.data(), m_), U1(U1_.data(), m_), U2(U2_.data(), m_);
  Eigen::Map<Mat> J(jac_.data(), m_, m_);
  // h(U) = J U + c exactly at this v (affine), so each stage U = y + a h(U) is (I - a J) U = y + a c.
  // J, c and the factorisation depend on v and dt only: kept while they repeat bitwise.
  if (!(cached_ && dt == cached_dt_ && v[0] == cached_v_[0] && v[1] == cached_v_[1])) {
    cached_ = x_cached_ = false;
    model_->affine_source(v, J.data(), c.data());  // one law evaluation
    if constexpr (N == 2) {
      const Mat2 E = Mat2::Identity() - a * J;
      const double det = E.determinant();
      if (!(std::isfinite(det) && det != 0.0)) return false;
      E_inv2_ = E.inverse();
    } else {
      E_ = -a * jac_;
      E_.diagonal().array() += 1.0;
      lu_.compute(E_);
    }
    cached_ = true;
    cached_dt_ = dt;
    cached_v_ = v;
  }
  if constexpr (N == 2) {
    U1.noalias() = E_inv2_ * (u + a * c);
    y = u + (1.0 - kGamma) / kGamma * (U1 - u);  // u + (1 - gamma) dt k1
    U2.noalias() = E_inv2_ * (y + a * c);
  } else {
    y = u + a * c;
    U1 = lu_.solve(y);
    y = u + (1.0 - kGamma) / kGamma * (U1 - u) + a * c;
    U2 = lu_.solve(y);
  }
  if (!U2.allFinite() || !U1.allFinite()) return false;
  // The stage sources without the law: h(U) = J U + c, zdot from h (zdot_from_source).
  if (!track_energy_) {
    h.noalias() = J * U2;
    h += c;
    last_F_ = normal_load_N_ * model_->law().output(Vec2(U2[0], U2[1]), zdot_from_source(h.data()), v);
    if (!last_F_.allFinite()) return false;
    u_ = U2;
    t_s_ += dt;
    supplied_J_ = dissipated_J_ = std::numeric_limits<double>::quiet_NaN();
    last_v_ = v;
    return true;
  }
  double p1, d1, p2, d2;
  h.noalias() = J * U1;  // (a product, then the sum: no temporary in the dynamic-size case)
  h += c;
  powers(U1.data(), v, h.data(), zdot_from_source(h.data()), p1, d1);
  h.noalias() = J * U2;
  h += c;
  powers(U2.data(), v, h.data(), zdot_from_source(h.data()), p2, d2);
  if (!(std::isfinite(p1) && std::isfinite(p2) && std::isfinite(d1) && std::isfinite(d2))) return false;
  u_ = U2;
  t_s_ += dt;
  supplied_J_ += dt * (kB1 * p1 + kB2 * p2);
  dissipated_J_ += dt * (kB1 * d1 + kB2 * d2);
  last_v_ = v;
  return true;
}

template bool Contact::try_affine_step<2>(double, const Vec2&);
bool Contact::try_x_only_step(double dt, double v) {
  // try_affine_step<2> at v_r = (v, 0) with f_y = 0 and the cross-axis entries of K0bar, K0bar^-1, Sigma0,
  // Sigma1, Sigma2 zero: each x entry below is the 2-D expression with its terms that are exactly (+-)0
  // dropped, the remaining operations in the 2-D order (Eigen's 2x2 products, determinant and inverse), so
  // the results are equal; the y components are zero and stay zero.
  const double a = kGamma * dt;
  if (!(x_cached_ && dt == cached_dt_ && v == cached_v_[0] && cached_v_[1] == 0.0)) {
    cached_ = x_cached_ = false;
    // ContactModel::affine_source: G^-1 = g I (FrictionLaw::G_inverse with v.norm(), v.squaredNorm()).
    const double speed_squared = v * v;
    const double g = model_->law().isotropic_g(std::sqrt(speed_squared), speed_squared);
    double jx = 0.0, jy = 0.0;  // J = K0bar dh0/dz K0bar^-1 (+ K0bar dh0/df for FrBD), its diagonal
    switch (model_->law().params().kind) {
      case laws::LawKind::dahl:
      case laws::LawKind::lugre:
        jx = (k0x_ * (-g * sigma0x_)) * k0x_inv_;  // dh0/dz = -G^-1 Sigma0, eq. 2
        jy = (k0y_ * (-g * sigma0y_)) * k0y_inv_;
        break;
      case laws::LawKind::frbd:
        jx = k0x_ * -g;  // dh0/df = -G^-1, eq. 3
        jy = k0y_ * -g;
        break;
      case laws::LawKind::bouc_wen:  // not affine: never here
      case laws::LawKind::frictionless:
        break;
    }
    const double Ex = 1.0 - a * jx, Ey = 1.0 - a * jy;  // I - a J
    const double det = Ex * Ey;                           // E_xx E_yy - E_yx E_xy, E_yx = E_xy = 0
    if (!(std::isfinite(det) && det != 0.0)) return false;
    x_E_inv_ = Ey * (1.0 / det);  // Eigen's 2x2 inverse: E_yy / det
    x_jac_ = jx;
    x_c_ = -(k0x_ * v);  // c = -K0bar v_r
    x_cached_ = true;
    cached_dt_ = dt;
    cached_v_ = Vec2(v, 0.0);
  }
  const double u = u_[0];
  const double U1 = x_E_inv_ * (u + a * x_c_);
  const double y = u + (1.0 - kGamma) / kGamma * (U1 - u);
  const double U2 = x_E_inv_ * (y + a * x_c_);
  if (!std::isfinite(U2) || !std::isfinite(U1)) return false;
  const double Fz = normal_load_N_;
  const bool output_terms = model_->law().has_output_terms();
  // F_x = F_z f_out (FrictionLaw::output) at f = U with zdot = K0bar^-1 h, h = J U + c.
  const auto force = [&](double U, double& zdot) {
    zdot = k0x_inv_ * (x_jac_ * U + x_c_);
    return Fz * (output_terms ? (U + sigma1x_ * zdot) - sigma2x_ * v : U);
  };
  double zdot2;
  const double F2 = force(U2, zdot2);
  if (!track_energy_) {
    if (!std::isfinite(F2)) return false;
    u_[0] = U2;
    u_[1] = 0.0;
    t_s_ += dt;
    supplied_J_ = dissipated_J_ = std::numeric_limits<double>::quiet_NaN();
    last_v_ = Vec2(v, 0.0);
    last_F_ = Vec2(F2, 0.0);
    return true;
  }
  // Contact::powers: supplied -F . v_r; dissipated F_z (-f . (zdot + v_r) - (f_out - f) . v_r + 0), the
  // elastic pair's damper power being 0.
  const auto dissipated = [&](double U, double zdot) {
    const double f_out = output_terms ? (U + sigma1x_ * zdot) - sigma2x_ * v : U;
    return Fz * ((-(U * (zdot + v)) - (f_out - U) * v) + 0.0);
  };
  double zdot1;
  const double F1 = force(U1, zdot1);
  const double p1 = -(F1 * v), p2 = -(F2 * v);
  const double d1 = dissipated(U1, zdot1), d2 = dissipated(U2, zdot2);
  if (!(std::isfinite(p1) && std::isfinite(p2) && std::isfinite(d1) && std::isfinite(d2))) return false;
  u_[0] = U2;
  u_[1] = 0.0;
  t_s_ += dt;
  supplied_J_ += dt * (kB1 * p1 + kB2 * p2);
  dissipated_J_ += dt * (kB1 * d1 + kB2 * d2);
  last_v_ = Vec2(v, 0.0);
  last_F_ = Vec2(F2, 0.0);
  return true;
}
template bool Contact::try_affine_step<Eigen::Dynamic>(double, const Vec2&);

bool Contact::newton_stage(double a, const Vec2& v, const double* y_ptr, double* U_ptr) {
  Eigen::Map<const VecX> y(y_ptr, m_);
  Eigen::Map<VecX> U(U_ptr, m_);
  for (int iter = 0; iter < kMaxNewtonIterations; ++iter) {
    model_->source(U.data(), v, h_.data());
    r_ = U - a * h_ - y;  // residual of U = y + a h(U)
    model_->source_jacobian(U.data(), v, jac_.data());
    E_ = -a * jac_;
    E_.diagonal().array() += 1.0;
    lu_.compute(E_);
    c_ = lu_.solve(r_);
    U -= c_;
    if (!U.allFinite()) return false;
    const double norm = (c_.array().abs() / (kNewtonAtol + kNewtonRtol * U.array().abs())).maxCoeff();
    if (norm <= 1.0) return true;
  }
  return false;
}

bool Contact::try_newton_step(double dt, const Vec2& v) {
  const double a = kGamma * dt;
  U1_ = u_;
  if (!newton_stage(a, v, u_.data(), U1_.data())) return false;
  y_ = u_ + (1.0 - kGamma) / kGamma * (U1_ - u_);
  U2_ = u_ + (U1_ - u_) / kGamma;  // guess: u + dt k1
  if (!newton_stage(a, v, y_.data(), U2_.data())) return false;
  if (!track_energy_) {
    const Vec2 zdot = model_->source(U2_.data(), v, h_.data());
    last_F_ = normal_load_N_ * model_->law().output(Vec2(U2_[0], U2_[1]), zdot, v);
    if (!last_F_.allFinite()) return false;
    u_ = U2_;
    t_s_ += dt;
    supplied_J_ = dissipated_J_ = std::numeric_limits<double>::quiet_NaN();
    last_v_ = v;
    return true;
  }
  double p1, d1, p2, d2;
  powers(U1_.data(), v, p1, d1);
  powers(U2_.data(), v, p2, d2);
  if (!(std::isfinite(p1) && std::isfinite(p2) && std::isfinite(d1) && std::isfinite(d2))) return false;
  u_ = U2_;
  t_s_ += dt;
  supplied_J_ += dt * (kB1 * p1 + kB2 * p2);
  dissipated_J_ += dt * (kB1 * d1 + kB2 * d2);
  last_v_ = v;
  return true;
}

double Contact::advance_to(double t_s, double v_mps, const AdvanceOptions& options) {
  require_finite("v_mps", v_mps);
  return advance_to(t_s, Vec2(v_mps, 0.0), options)[0];
}

Vec2 Contact::advance_to(double t_s, const Vec2& v_mps, const AdvanceOptions& options) {
  require_finite("t_s", t_s);
  require_finite("v_mps", v_mps);
  require_positive("options.rtol", options.rtol);
  require_positive("options.atol", options.atol);
  // rtol = 1e-200 shrank the steps until the stages overflowed ("non-finite values at every step size down to
  // 5.8e-309", helper-39); as Hairer & Wanner's codes, below 10 eps is refused.
  if (constexpr double kFloor = 10.0 * std::numeric_limits<double>::epsilon(); options.rtol < kFloor)
    throw InvalidInput(fmt::format("options.rtol = {}: below 10 eps = {}, a relative accuracy double precision "
                                   "cannot hold",
                                   format_value(options.rtol), format_value(kFloor)));
  if (t_s < t_s_)
    throw InvalidInput(fmt::format("t_s = {}: must be >= the contact's time {} s", format_value(t_s),
                                   format_value(t_s_)));
  if (t_s > t_s_) {
    const ContactModel& model = *model_;
    const int m = m_;
    const double Fz = normal_load_N_;
    const Vec2 v = v_mps;
    integrate::OdeSystem system;
    system.size = m + 2;
    system.autonomous = true;
    // x = [u, E_supplied, E_dissipated]: the source and the two powers of the class comment.
    system.rhs = [&model, m, Fz, v](double, const double* x, double* dx) {
      const Vec2 zdot = model.source(x, v, dx);
      const Vec2 F = Fz * model.law().output(Vec2(x[0], x[1]), zdot, v);
      dx[m] = -F.dot(v);
      dx[m + 1] = Fz * model.dissipation_rate(x, v, dx, zdot);
    };
    integrate::Options o;
    o.method = integrate::Method::rodas4;
    o.rtol = options.rtol;
    o.atol = options.atol;
    VecX x(m + 2);
    x.head(m) = u_;
    x[m] = supplied_J_;
    x[m + 1] = dissipated_J_;
    integrate::integrate(system, x, t_s_, {t_s}, o, [](double, const double*) {});
    u_ = x.head(m);
    supplied_J_ = x[m];
    dissipated_J_ = x[m + 1];
    t_s_ = t_s;
  }
  last_v_ = v_mps;
  return friction_force_N();
}

void Contact::reset() {
  u_.setZero();
  t_s_ = 0.0;
  supplied_J_ = dissipated_J_ = 0.0;
  last_v_.setZero();
  last_F_.setZero();
}

void Contact::set_state(const VecX& u) {
  if (u.size() != m_)
    throw InvalidInput(fmt::format("state: has {} entries, must have state_size() = {}", u.size(), m_));
  for (int i = 0; i < m_; ++i) require_finite(fmt::format("state[{}]", i), u[i]);
  u_ = u;
}

Vec2 Contact::friction_force_N() const { return normal_load_N_ * model_->friction(u_.data(), last_v_); }

double Contact::stored_energy_J() const { return normal_load_N_ * model_->stored_energy(u_.data()); }

ContactArray::ContactArray(std::vector<Contact> contacts) : contacts_(std::move(contacts)) {}

ContactArray::ContactArray(const Contact& prototype, int n) {
  if (n < 0) throw InvalidInput(fmt::format("n = {}: must be >= 0", n));
  if (n > kMaxSize) throw InvalidInput(fmt::format("n = {}: at most {} contacts in one array", n, kMaxSize));
  // The memory of the copies (helper-43: ~1 KB a LuGre contact, so 10^7 took 10 GB and one of 7e6 under a 6 GB cap
  // aborted the process): the Jacobian, E and its LU (m x m each), a dozen vectors, the heap's overhead.
  const double m = prototype.state_size();
  const double bytes_each = static_cast<double>(sizeof(Contact)) + 256.0 + 8.0 * (3.0 * m * m + 16.0 * m);
  if (static_cast<double>(n) * bytes_each > kMaxBytes)
    throw InvalidInput(fmt::format("n = {}: {} contacts of state size {} take about {} GiB; at most {} GiB in one "
                                   "array (n <= {})",
                                   n, n, prototype.state_size(),
                                   format_value(std::round(static_cast<double>(n) * bytes_each / (1 << 30) * 10) / 10),
                                   format_value(kMaxBytes / (1 << 30)), static_cast<long>(kMaxBytes / bytes_each)));
  contacts_.assign(static_cast<std::size_t>(n), prototype);
  for (Contact& c : contacts_) c.reset();
}

void ContactArray::step(double dt_s, const double* v_mps, double* F_N) {
  require_positive("dt_s", dt_s);
  const int n = size();
  for (int i = 0; i < n; ++i)
    if (!std::isfinite(v_mps[i]))
      throw InvalidInput(fmt::format("v_mps[{}] = {}: must be finite", i, format_value(v_mps[i])));
  for (int i = 0; i < n; ++i) F_N[i] = contacts_[static_cast<std::size_t>(i)].step(dt_s, v_mps[i]);
}

void ContactArray::step_2d(double dt_s, const double* v_mps, double* F_N) {
  require_positive("dt_s", dt_s);
  const int n = size();
  for (int i = 0; i < 2 * n; ++i)
    if (!std::isfinite(v_mps[i]))
      throw InvalidInput(
          fmt::format("v_mps[{}, {}] = {}: must be finite", i / 2, i % 2, format_value(v_mps[i])));
  for (int i = 0; i < n; ++i) {
    const Vec2 F = contacts_[static_cast<std::size_t>(i)].step(dt_s, Vec2(v_mps[2 * i], v_mps[2 * i + 1]));
    F_N[2 * i] = F[0];
    F_N[2 * i + 1] = F[1];
  }
}

void ContactArray::reset() {
  for (Contact& c : contacts_) c.reset();
}

void ContactArray::set_energy_tracking(bool on) {
  for (Contact& c : contacts_) c.set_energy_tracking(on);
}

bool ContactArray::energy_tracking() const {
  return std::all_of(contacts_.begin(), contacts_.end(), [](const Contact& c) { return c.energy_tracking(); });
}

namespace {
void require_index(int index, int size) {
  if (index < 0 || index >= size) throw InvalidInput(fmt::format("index = {}: must be in [0, {})", index, size));
}
}  // namespace

Contact& ContactArray::at(int index) {
  require_index(index, size());
  return contacts_[static_cast<std::size_t>(index)];
}

const Contact& ContactArray::at(int index) const {
  require_index(index, size());
  return contacts_[static_cast<std::size_t>(index)];
}

}  // namespace bristle::contact
