// Energy budget of the contact patch: per-family storage, trailing-edge flux and compression term
// (paper 1, eqs. 82-85, 87-88; see budget.hpp and docs/patch.md).
#include "budget.hpp"

#include <cmath>
#include <limits>

namespace bristle::patch::detail {

EnergySplit::EnergySplit(const contact::ContactModel& model, const Riemann& r)
    : model_(model), R_(r.R), m_(model.state_size()), u_(VecX::Zero(model.state_size())),
      part_(VecX::Zero(model.state_size())) {
  // Probe the storage with a generic state: the parts must add up to the whole.
  VecX ut(m_);
  for (int c = 0; c < m_; ++c) ut[c] = 1e-3 * (1.0 + 0.37 * c) * (c % 2 ? -1.0 : 1.0);
  VecX u = ut;
  u.head<2>() = R_ * ut.head<2>();
  const double total = w(u);
  VecX f1 = VecX::Zero(m_), f2 = VecX::Zero(m_), f = VecX::Zero(m_), z = u;
  f1.head<2>() = R_.col(0) * ut[0];
  f2.head<2>() = R_.col(1) * ut[1];
  f.head<2>() = u.head<2>();
  z.head<2>().setZero();
  const double tol = 1e-12 * std::abs(total);
  const int n1 = 2 * model.n1();
  VecX z1 = z, z2 = z;
  if (n1 > 0) z2.segment(2, n1).setZero();
  z1.tail(m_ - 2 - n1).setZero();
  const double wz = w(z1) + w(z2);
  separable_ = std::abs(total - (w(f) + wz)) <= tol;
  if (separable_ && !(std::abs(w(f) - w(f1) - w(f2)) <= tol)) {
    // f~1 and f~2 coupled in the storage: only harmless when they move together (lambda1 = lambda2).
    merged_f_ = true;
    separable_ = std::abs(r.lambda_S1[0] - r.lambda_S1[1]) <= 1e-12;
  }
}

std::array<double, 4> EnergySplit::operator()(const double* ut) const {
  std::array<double, 4> out{};
  if (!separable_) {
    out.fill(std::numeric_limits<double>::quiet_NaN());
    return out;
  }
  for (int c = 0; c < m_; ++c) u_[c] = ut[c];
  const Vec2 f = R_ * Vec2(ut[0], ut[1]);
  u_[0] = f[0];
  u_[1] = f[1];
  const double total = w(u_);
  part_.setZero();
  part_.head<2>() = f;
  const double wf = w(part_);
  if (merged_f_) {
    out[0] = wf;
  } else {
    part_.head<2>() = R_.col(0) * ut[0];
    out[0] = w(part_);
    out[1] = wf - out[0];
  }
  const int n1 = 2 * model_.n1();
  if (n1 > 0) {
    part_.head<2>().setZero();
    part_.segment(2, n1) = u_.segment(2, n1);
    out[2] = w(part_);
  }
  out[3] = m_ > 2 + n1 ? total - wf - out[2] : 0.0;
  return out;
}

BudgetTerms energy_flux_terms(const BudgetFrame& fr, const EnergySplit& split, const std::vector<double>& ut) {
  BudgetTerms out;
  if (!split.separable()) {
    out.outflow_W = out.compression_W = std::numeric_limits<double>::quiet_NaN();
    return out;
  }
  const PatchGeometry& g = *fr.geometry;
  const int nx = fr.nx, ny = fr.ny, m = fr.m;
  const double hx = 2.0 / nx, hy = 2.0 / ny, a = g.a();
  const Vec2 s = fr.sigma;
  const double slope_factor = s[1] / s[0];  // dw_phys/dx = (sigma_y / sigma_x) w'(X)
  std::vector<double> face(static_cast<std::size_t>(m));
  // Mapped velocity of family k at reference point X (eta its mapped lateral coordinate).
  auto mapped = [&](int k, const Vec2& X, double eta) {
    const Vec2 x = s.cwiseProduct(X);
    const Vec2 c = fr.velocity(k, x) - fr.rate.cwiseProduct(x);  // c_k - V_dC
    const double w = s[1] * g.half_width(X[0]), ws = slope_factor * g.half_width_slope(X[0]);
    return Vec2(c[0] / (s[0] * a), (c[1] - eta * ws * c[0]) / w);
  };
  // One boundary face: ut at the face from the edge cell e and its neighbour e2, outward mapped
  // normal n (one of +-e_xi, +-e_eta), face length dl in the mapped square.
  auto add_face = [&](int e, int e2, const Vec2& X, double eta, const Vec2& n, double dl) {
    const double J = s[0] * s[1] * a * g.half_width(X[0]);  // |d(x, y)/d(xi, eta)|
    if (!(J > 0.0)) return;                            // the tips of an ellipse
    const double p = fr.pressure_factor * g.pressure(X * (1.0 - 1e-12));  // just inside the boundary
    if (!(p > 0.0)) return;
    for (int c = 0; c < m; ++c)
      face[static_cast<std::size_t>(c)] = 1.5 * ut[static_cast<std::size_t>(e) * m + c] -
                                          0.5 * ut[static_cast<std::size_t>(e2) * m + c];
    const std::array<double, 4> wk = split(face.data());
    for (int k = 0; k < 4; ++k) {
      if (!fr.present[k]) continue;
      const double Wn = mapped(k, X, eta).dot(n);
      if (Wn > 0.0) out.outflow_W += p * J * wk[k] * Wn * dl;  // trailing: W . n > 0 (eq. 49)
    }  // leading faces carry w_k = 0 (eqs. 50-51)
  };
  for (int j = 0; j < ny; ++j) {
    const double eta = -1.0 + (j + 0.5) * hy;
    for (int side : {-1, 1}) {
      const int i = side < 0 ? 0 : nx - 1, i2 = side < 0 ? 1 : nx - 2;
      const double X = side * a;
      add_face(i * ny + j, i2 * ny + j, Vec2(X, g.half_width(X) * eta), eta, Vec2(side, 0.0), hy);
    }
  }
  for (int i = 0; i < nx; ++i) {
    const double X = a * (-1.0 + (i + 0.5) * hx);
    const double w = g.half_width(X);
    for (int side : {-1, 1}) {
      const int j = side < 0 ? 0 : ny - 1, j2 = side < 0 ? 1 : ny - 2;
      add_face(i * ny + j, i * ny + j2, Vec2(X, side * w), side, Vec2(0.0, side), hx);
    }
  }
  // Gamma = sum_k int div(p (c_k - V_dC)) w_k dA. Per cell, int_cell div(p (c - V_dC)) dA is the net
  // outflow of the mapped flux q W through the cell's four faces (Piola: div_xi(q W) = J div_x(p (c -
  // V_dC))), with p and the velocities at the face midpoints: it needs no grad p, which is singular at
  // the edge of a Hertzian pressure. Exactly zero for a uniform pressure on a fixed patch (rigid
  // motions are divergence free), where it is skipped.
  const bool uniform_fixed = fr.rate == Vec2::Zero() && g.pressure_kind() == PatchPressure::uniform;
  if (!uniform_fixed) {
    // Mapped flux of family k through a face at reference point X, mapped coordinate eta, per unit
    // face length: along xi (q W_xi) or along eta (q W_eta), q = p J.
    auto flux = [&](int k, const Vec2& X, double eta, bool along_xi) {
      const double w = g.half_width(X[0]);
      const double p = fr.pressure_factor * g.pressure(X * (1.0 - 1e-12));
      if (!(p > 0.0) || !(w > 0.0)) return 0.0;
      const Vec2 W = mapped(k, X, eta);
      const double J = s[0] * s[1] * a * w;
      return p * J * (along_xi ? W[0] : W[1]);
    };
    for (int i = 0; i < nx; ++i) {
      const double Xl = a * (-1.0 + i * hx), Xr = a * (-1.0 + (i + 1) * hx), X0 = 0.5 * (Xl + Xr);
      const double wl = g.half_width(Xl), wr = g.half_width(Xr), w0 = g.half_width(X0);
      for (int j = 0; j < ny; ++j) {
        const double eta = -1.0 + (j + 0.5) * hy, eta_lo = eta - 0.5 * hy, eta_hi = eta + 0.5 * hy;
        const std::array<double, 4> wk = split(ut.data() + static_cast<std::size_t>(i * ny + j) * m);
        for (int k = 0; k < 4; ++k) {
          if (!fr.present[k]) continue;
          const double net = (flux(k, Vec2(Xr, wr * eta), eta, true) - flux(k, Vec2(Xl, wl * eta), eta, true)) * hy +
                             (flux(k, Vec2(X0, w0 * eta_hi), eta_hi, false) -
                              flux(k, Vec2(X0, w0 * eta_lo), eta_lo, false)) *
                                 hx;
          out.compression_W += net * wk[k];
        }
      }
    }
  }
  return out;
}

}  // namespace bristle::patch::detail
