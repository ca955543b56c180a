#include "bristle/contact/contact_model.hpp"

#include <algorithm>
#include <stdexcept>

namespace bristle::contact {

ContactModel::ContactModel(const laws::LawParams& law, const rheology::RheologyParams& body1,
                           const rheology::RheologyParams& body2)
    : pair_(body1, body2), law_(law, pair_.K_static()) {
  S1C1_ = pair_.S1() * pair_.body1().C;
  S2C2_ = pair_.S2() * pair_.body2().C;
  const int m = state_size(), n1 = pair_.n1(), n2 = pair_.n2();
  dz_du_ = Mat2X::Zero(2, m);
  dz_du_.leftCols(2) = pair_.K0bar_inv();
  if (n1 + n2 > 0) dz_du_.rightCols(m - 2) = -pair_.K0bar_inv() * pair_.Cbar();
  // Rows of zeta: dh1/du = [B1, A1, 0], dh2/du = [-B2, 0, A2] (eq. 17b-c).
  MatX dh_zeta = MatX::Zero(m - 2, m);
  if (n1 > 0) {
    dh_zeta.block(0, 0, 2 * n1, 2) = pair_.body1().B;
    dh_zeta.block(0, 2, 2 * n1, 2 * n1) = pair_.body1().A;
  }
  if (n2 > 0) {
    dh_zeta.block(2 * n1, 0, 2 * n2, 2) = -pair_.body2().B;
    dh_zeta.block(2 * n1, 2 + 2 * n1, 2 * n2, 2 * n2) = pair_.body2().A;
  }
  linear_rows_ = MatX::Zero(m, m);
  linear_rows_.bottomRows(m - 2) = dh_zeta;
  if (n1 > 0) linear_rows_.topRows(2) += S1C1_ * dh_zeta.topRows(2 * n1);
  if (n2 > 0) linear_rows_.topRows(2) -= S2C2_ * dh_zeta.bottomRows(2 * n2);
}

void ContactModel::source_jacobian(const double* u, const Vec2& v_r, double* jacobian) const {
  const int m = state_size();
  const Vec2 f(u[0], u[1]);
  const Vec2 z = dz_du_ * Eigen::Map<const VecX>(u, m);
  Mat2 dz, df;
  law_.h0_jacobian(z, f, v_r, dz, df);
  Eigen::Map<MatX> jac(jacobian, m, m);
  jac = linear_rows_;
  const Mat2 k0_dz = pair_.K0bar() * dz;
  jac.topRows(2).noalias() += k0_dz * dz_du_;
  jac.topLeftCorner(2, 2) += pair_.K0bar() * df;
}

void ContactModel::affine_source(const Vec2& v_r, double* jacobian, double* c) const {
  if (law_.params().kind == laws::LawKind::bouc_wen)
    throw std::logic_error("ContactModel::affine_source: Bouc-Wen (eq. 4) is not affine in the state");
  const int m = state_size();
  Mat2 dz, df;
  law_.h0_jacobian(Vec2::Zero(), Vec2::Zero(), v_r, dz, df);  // independent of z and f for these laws
  const Mat2 k0_dz = pair_.K0bar() * dz;
  if (m == 2) {  // the elastic pair: dz/du = K0bar^-1, no constant rows (fixed-size products)
    Eigen::Map<Mat2> jac(jacobian);
    jac.noalias() = k0_dz * pair_.K0bar_inv();
    if (law_.params().kind == laws::LawKind::frbd) jac.noalias() += pair_.K0bar() * df;
  } else {
    Eigen::Map<MatX> jac(jacobian, m, m);
    jac = linear_rows_;
    jac.topRows(2).noalias() += k0_dz * dz_du_;
    jac.topLeftCorner(2, 2) += pair_.K0bar() * df;
  }
  const Vec2 c0 = -(pair_.K0bar() * v_r);  // eq. 31 at u = 0: K0bar h0(0, 0, v_r)
  c[0] = c0[0];
  c[1] = c0[1];
  std::fill(c + 2, c + m, 0.0);
}

Vec2 ContactModel::source(const double* u, const Vec2& v_r, double* h) const {
  const int n1 = pair_.n1(), n2 = pair_.n2();
  const Vec2 f(u[0], u[1]);
  Eigen::Map<const VecX> zeta1(u + 2, 2 * n1);
  Eigen::Map<const VecX> zeta2(u + 2 + 2 * n1, 2 * n2);
  Eigen::Map<VecX> h1(h + 2, 2 * n1);
  Eigen::Map<VecX> h2(h + 2 + 2 * n1, 2 * n2);

  Vec2 z = f;  // eq. 15: z = K0bar^-1 (f - Cbar zeta)
  if (n1 + n2 > 0) {
    Eigen::Map<const VecX> zeta(u + 2, 2 * (n1 + n2));
    z -= pair_.Cbar() * zeta;
  }
  z = pair_.K0bar_inv() * z;
  const Vec2 zdot = law_.h0(z, f, v_r);  // eqs. 2-7

  Vec2 fdot = pair_.K0bar() * zdot;  // eq. 31
  if (n1 > 0) {
    h1.noalias() = pair_.body1().A * zeta1 + pair_.body1().B * f;  // eq. 17b
    fdot += S1C1_ * h1;
  }
  if (n2 > 0) {
    h2.noalias() = pair_.body2().A * zeta2 - pair_.body2().B * f;  // eq. 17c (errata: B2)
    fdot -= S2C2_ * h2;
  }
  h[0] = fdot[0];
  h[1] = fdot[1];
  return zdot;
}

Vec2 ContactModel::friction(const double* u, const Vec2& v_r) const {
  const Vec2 f(u[0], u[1]);
  if (!law_.has_output_terms()) return f;
  const int n = pair_.zeta_size();
  Vec2 z = f;
  if (n > 0) z -= pair_.Cbar() * Eigen::Map<const VecX>(u + 2, n);
  z = pair_.K0bar_inv() * z;
  return law_.output(f, law_.h0(z, f, v_r), v_r);
}

double ContactModel::damper_power(const double* h) const {
  return pair_.body1().damper_power(h + 2) + pair_.body2().damper_power(h + 2 + 2 * pair_.n1());
}

double ContactModel::dissipation_rate(const double* u, const Vec2& v_r, const double* h, const Vec2& zdot) const {
  const Vec2 f(u[0], u[1]);
  const Vec2 f_out = law_.output(f, zdot, v_r);
  return -f.dot(zdot + v_r) - (f_out - f).dot(v_r) + damper_power(h);
}

namespace {
/// True if m(i, j) == 0 wherever row i and column j belong to different axes; `row_axis0` and `col_axis0`
/// are the axes (0 = x, 1 = y) of row and column 0, the axes alternating from there.
bool no_cross_axis(const MatX& m, int row_axis0 = 0, int col_axis0 = 0) {
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i)
      if ((i + row_axis0) % 2 != (j + col_axis0) % 2 && m(i, j) != 0.0) return false;
  return true;
}
}  // namespace

bool ContactModel::axes_decoupled() const {
  const laws::LawParams& p = law_.params();
  switch (p.kind) {
    case laws::LawKind::dahl:
    case laws::LawKind::lugre:
    case laws::LawKind::frbd:
      if (p.M.anisotropic || p.G_inverse) return false;
      break;
    case laws::LawKind::bouc_wen:  // eq. 4: h0_y = -g_y z_y - A v_y, zero with z_y = v_y = 0
    case laws::LawKind::frictionless:
      break;
  }
  for (const MatX& m : {MatX(law_.sigma0()), MatX(p.sigma1), MatX(p.sigma2), MatX(pair_.K0bar()),
                       MatX(pair_.K0bar_inv())})
    if (!no_cross_axis(m)) return false;
  if (!no_cross_axis(pair_.Cbar()) || !no_cross_axis(S1C1_) || !no_cross_axis(S2C2_)) return false;
  for (const rheology::Realisation* body : {&pair_.body1(), &pair_.body2()})
    if (!no_cross_axis(body->A) || !no_cross_axis(body->B) || !no_cross_axis(body->C)) return false;
  return true;
}

VecX ContactModel::steady_state(const Vec2& v_r) const {
  VecX u = VecX::Zero(state_size());
  // The state f is the bristle force; for LuGre the sigma2 output term is not part of it.
  Vec2 f = law_.steady_force(v_r);
  if (law_.params().kind == laws::LawKind::lugre) f += law_.params().sigma2 * v_r;
  u[0] = f[0];
  u[1] = f[1];
  const int n1 = pair_.n1(), n2 = pair_.n2();
  if (n1 > 0)
    u.segment(2, 2 * n1) = pair_.body1().A.partialPivLu().solve(-pair_.body1().B * f);
  if (n2 > 0)
    u.segment(2 + 2 * n1, 2 * n2) = pair_.body2().A.partialPivLu().solve(pair_.body2().B * f);
  return u;
}

}  // namespace bristle::contact
