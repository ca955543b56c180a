// Steady line contact: at constant velocities the PDEs of eqs. 33-35 become an ODE in xi,
//   c_k du_k/dxi = h_k(u, v_r)   (c_k != 0),     0 = h_k(u, v_r)   (c_k = 0),
// with u_k = 0 at xi = 0 for c_k > 0 and at xi = L for c_k < 0.
//
// Affine source (every law but Bouc-Wen and a user G^-1, with linear rheologies): h = J u + b at fixed
// v_r. Eliminating the zero-speed components leaves  u_M' = A u_M + beta,  solved exactly with the
// matrix exponential of the augmented system  y = [u_M, 1, G0, G1, G2],  G0' = f, G1' = G0, G2' = G1.
// The force integrals follow by parts: int f = G0(L), int xi f = L G0 - G1, int xi^2 f = L^2 G0 -
// 2 (L G1 - G2), exact for uniform and parabolic pressure.
// Otherwise (or with a tabulated pressure): an adaptive BDF integration in xi at rtol 1e-12, the
// zero-speed components solved by Newton at each evaluation, the force as a quadrature state.
#include <fmt/format.h>

#include <unsupported/Eigen/MatrixFunctions>
#include <cmath>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/integrate/ode.hpp"
#include "bristle/transport/line_contact.hpp"

namespace bristle::transport {

namespace {

bool source_is_affine(const contact::ContactModel& model) {
  const auto& law = model.law().params();
  return law.kind != laws::LawKind::bouc_wen && !law.G_inverse && !model.law().has_output_terms();
}

struct Partition {
  std::vector<int> moving, resting;  // component indices with c != 0 and c == 0
};

Partition partition(const VecX& c) {
  Partition p;
  for (Eigen::Index k = 0; k < c.size(); ++k) (c[k] != 0.0 ? p.moving : p.resting).push_back(static_cast<int>(k));
  return p;
}

MatX select(const MatX& a, const std::vector<int>& rows, const std::vector<int>& cols) {
  MatX out(rows.size(), cols.size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < cols.size(); ++j) out(i, j) = a(rows[i], cols[j]);
  return out;
}
VecX select(const VecX& a, const std::vector<int>& rows) {
  VecX out(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) out[i] = a[rows[i]];
  return out;
}

std::vector<std::string> field_names(const contact::ContactModel& model) {
  std::vector<std::string> names{"xi_m", "f_x", "f_y"};
  for (int i = 0; i < model.n1(); ++i)
    for (const char* a : {"x", "y"}) names.push_back(fmt::format("z1_{}_{}_m", i + 1, a));
  for (int i = 0; i < model.n2(); ++i)
    for (const char* a : {"x", "y"}) names.push_back(fmt::format("z2_{}_{}_m", i + 1, a));
  return names;
}

Vec2 force_from_moments(const Pressure& p, double L, const Vec2& g0, const Vec2& g1, const Vec2& g2) {
  if (p.params().kind == PressureKind::uniform) return p(0.0) * g0;
  // parabolic p = a xi (L - xi), a = 6 F_z / L^3
  const double a = 6.0 * p.normal_load() / (L * L * L);
  const Vec2 int_xf = L * g0 - g1;
  const Vec2 int_x2f = L * L * g0 - 2.0 * (L * g1 - g2);
  return a * (L * int_xf - int_x2f);
}

SteadyLine steady_affine(const contact::ContactModel& model, const LineContactParams& params, const Pressure& pressure,
                         const VecX& c, const Vec2& v_r, int field_points) {
  const int m = model.state_size();
  const double L = params.L_m;
  // h(u) = J u + b, read off exactly (up to rounding) since h is affine in u at fixed v_r.
  VecX b(m), col(m), u = VecX::Zero(m);
  model.source(u.data(), v_r, b.data());
  MatX J(m, m);
  for (int k = 0; k < m; ++k) {
    u.setZero();
    u[k] = 1.0;
    model.source(u.data(), v_r, col.data());
    J.col(k) = col - b;
  }
  const Partition part = partition(c);
  const int nm = static_cast<int>(part.moving.size());
  // Zero-speed components: J_RR u_R + J_RM u_M + b_R = 0  ->  u_R = E u_M + e.
  MatX E = MatX::Zero(part.resting.size(), nm);
  VecX e = VecX::Zero(part.resting.size());
  if (!part.resting.empty()) {
    const auto lu = select(J, part.resting, part.resting).partialPivLu();
    E = -lu.solve(select(J, part.resting, part.moving));
    e = -lu.solve(select(b, part.resting));
  }
  VecX inv_c(nm);
  for (int i = 0; i < nm; ++i) inv_c[i] = 1.0 / c[part.moving[i]];
  const MatX A = inv_c.asDiagonal() * (select(J, part.moving, part.moving) + select(J, part.moving, part.resting) * E);
  const VecX beta = inv_c.asDiagonal() * (select(b, part.moving) + select(J, part.moving, part.resting) * e);
  // f = P u_M + q (f's components may move or rest).
  MatX P = MatX::Zero(2, nm);
  Vec2 q = Vec2::Zero();
  auto full_state = [&](const VecX& um) {  // u from u_M
    VecX full(m);
    for (int i = 0; i < nm; ++i) full[part.moving[i]] = um[i];
    const VecX ur = E * um + e;
    for (std::size_t i = 0; i < part.resting.size(); ++i) full[part.resting[i]] = ur[i];
    return full;
  };
  for (int d = 0; d < 2; ++d) {
    for (int i = 0; i < nm; ++i)
      if (part.moving[i] == d) P(d, i) = 1.0;
    for (std::size_t i = 0; i < part.resting.size(); ++i)
      if (part.resting[i] == d) {
        P.row(d) = E.row(i);
        q[d] = e[i];
      }
  }
  // Augmented linear system y = [u_M, 1, G0(2), G1(2), G2(2)].
  const int na = nm + 7;
  MatX Aug = MatX::Zero(na, na);
  Aug.topLeftCorner(nm, nm) = A;
  Aug.block(0, nm, nm, 1) = beta;
  Aug.block(nm + 1, 0, 2, nm) = P;
  Aug.block(nm + 1, nm, 2, 1) = q;
  Aug.block(nm + 3, nm + 1, 2, 2) = Mat2::Identity();
  Aug.block(nm + 5, nm + 3, 2, 2) = Mat2::Identity();
  const MatX expL = (Aug * L).exp();
  // Boundary values: u_k(0) = 0 for c_k > 0; u_k(L) = 0 for c_k < 0 (unknown u_k(0)).
  VecX y0 = VecX::Zero(na);
  y0[nm] = 1.0;
  std::vector<int> unknown;
  for (int i = 0; i < nm; ++i)
    if (c[part.moving[i]] < 0.0) unknown.push_back(i);
  if (!unknown.empty()) {
    const int nu = static_cast<int>(unknown.size());
    MatX S(nu, nu);
    VecX r(nu);
    for (int a = 0; a < nu; ++a) {
      r[a] = -expL(unknown[a], nm);  // contribution of the constant 1
      for (int bi = 0; bi < nu; ++bi) S(a, bi) = expL(unknown[a], unknown[bi]);
    }
    const VecX x = S.partialPivLu().solve(r);
    for (int a = 0; a < nu; ++a) y0[unknown[a]] = x[a];
  }
  const VecX yL = expL * y0;
  SteadyLine out;
  out.exact = true;
  out.force_N = force_from_moments(pressure, L, yL.segment<2>(nm + 1), yL.segment<2>(nm + 3), yL.segment<2>(nm + 5));
  if (field_points > 0) {
    out.field = TimeSeries(field_names(model));
    const double h = field_points > 1 ? L / (field_points - 1) : 0.0;
    const MatX step = (Aug * h).exp();
    VecX y = y0;
    for (int j = 0; j < field_points; ++j) {
      const VecX full = full_state(y.head(nm));
      std::vector<double> r{j * h};
      for (int k = 0; k < m; ++k) r.push_back(full[k]);
      out.field.add_row(r);
      y = step * y;
    }
  }
  return out;
}

SteadyLine steady_general(const contact::ContactModel& model, const LineContactParams& params,
                          const Pressure& pressure, const VecX& c, const Vec2& v_r, int field_points) {
  const int m = model.state_size();
  const Partition part = partition(c);
  for (int k : part.moving)
    if (c[k] < 0.0)
      throw InvalidInput(fmt::format("line.V1/V2: component {} moves towards the leading edge (speed {} m/s); the "
                                     "nonlinear steady solver integrates from xi = 0 and needs every speed >= 0",
                                     k, format_value(c[k])));
  const int nm = static_cast<int>(part.moving.size());
  VecX resting = VecX::Zero(part.resting.size());  // Newton warm start, updated along xi
  VecX full(m), h(m);
  auto complete = [&](const double* um) {
    for (int i = 0; i < nm; ++i) full[part.moving[i]] = um[i];
    for (std::size_t i = 0; i < part.resting.size(); ++i) full[part.resting[i]] = resting[i];
    // Newton on h_R(u_M, u_R) = 0 with a difference-quotient Jacobian.
    const int nr = static_cast<int>(part.resting.size());
    for (int it = 0; it < 50 && nr > 0; ++it) {
      model.source(full.data(), v_r, h.data());
      VecX r = select(h, part.resting);
      MatX jr(nr, nr);
      for (int j = 0; j < nr; ++j) {
        const double saved = full[part.resting[j]];
        const double d = 1e-7 * std::max(1e-6, std::abs(saved));
        full[part.resting[j]] = saved + d;
        VecX hp(m);
        model.source(full.data(), v_r, hp.data());
        jr.col(j) = (select(hp, part.resting) - r) / d;
        full[part.resting[j]] = saved;
      }
      const VecX delta = jr.partialPivLu().solve(-r);
      for (int j = 0; j < nr; ++j) full[part.resting[j]] += delta[j];
      if (delta.norm() <= 1e-15 * (1.0 + select(full, part.resting).norm())) break;
    }
    for (std::size_t i = 0; i < part.resting.size(); ++i) resting[i] = full[part.resting[i]];
  };
  integrate::OdeSystem sys;
  sys.size = nm + 2;  // u_M and the force quadrature int p f
  sys.rhs = [&](double xi, const double* y, double* dy) {
    complete(y);
    model.source(full.data(), v_r, h.data());
    for (int i = 0; i < nm; ++i) dy[i] = h[part.moving[i]] / c[part.moving[i]];
    const Vec2 f = pressure(xi) * model.friction(full.data(), v_r);  // f plus LuGre's output terms
    dy[nm] = f[0];
    dy[nm + 1] = f[1];
  };
  integrate::Options options;
  options.rtol = 1e-12;
  options.atol = 1e-15;
  const double L = params.L_m;
  std::vector<double> grid{0.0, L};
  if (field_points > 1) {
    grid.clear();
    for (int j = 0; j < field_points; ++j) grid.push_back(L * j / (field_points - 1));
  }
  SteadyLine out;
  if (field_points > 0) out.field = TimeSeries(field_names(model));
  VecX y = VecX::Zero(nm + 2);
  integrate::integrate(sys, y, 0.0, grid, options, [&](double xi, const double* yy) {
    if (field_points <= 0) return;
    complete(yy);
    std::vector<double> r{xi};
    for (int k = 0; k < m; ++k) r.push_back(full[k]);
    out.field.add_row(r);
  });
  out.force_N = Vec2(y[nm], y[nm + 1]);
  return out;
}

}  // namespace

SteadyLine steady_state(const contact::ContactModel& model, const LineContactParams& params, double V1, double V2,
                        double v_y, int field_points) {
  params.validate("line");
  require_finite("line.V1", V1);
  require_finite("line.V2", V2);
  require_finite("line.v_y", v_y);
  const Pressure pressure(params.pressure, params.L_m, params.normal_load_N);
  const VecX c = characteristic_speeds(model, V1, V2);
  const Vec2 v_r(V2 - V1, v_y);
  if (c.cwiseAbs().maxCoeff() == 0.0) {
    // No advection: every point sits at the lumped steady state.
    SteadyLine out;
    out.exact = true;
    out.force_N = params.normal_load_N * model.friction(model.steady_state(v_r).data(), v_r);
    return out;
  }
  if (source_is_affine(model) && params.pressure.kind != PressureKind::table)
    return steady_affine(model, params, pressure, c, v_r, field_points);
  return steady_general(model, params, pressure, c, v_r, field_points);
}

}  // namespace bristle::transport
