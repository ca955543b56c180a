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
// Slow speeds are stiff (stiffness_ratio): the affine case goes to the adaptive path past a ratio of 2e6 and is
// refused past 1e10 (steady_state).
#include <fmt/format.h>

#include <unsupported/Eigen/MatrixFunctions>
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "bristle/core/error.hpp"
#include "bristle/integrate/ode.hpp"
#include "bristle/transport/line_contact.hpp"
#include "bristle/transport/line_steady_derivatives.hpp"

namespace bristle::transport {

namespace {

// The steady force integrates f_out = f + (LuGre output terms); those are affine too, but the
// exact path integrates f only, so LuGre with sigma1/sigma2 takes the general path.
bool steady_is_affine(const contact::ContactModel& model) {
  return source_is_affine(model) && !model.law().has_output_terms();
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

// One decoupled block of components (all of them, or one axis when x and y do not couple).
struct BlockSolution {
  Vec2 force = Vec2::Zero();
  std::vector<VecX> field;  // full-size states at the field points (block entries filled)
};

/// The augmented linear system of one block (see the top of the file): y' = aug y, y = [u_M, 1, G0, (G1, G2)] per
/// force component, with the zero-speed components u_R = E u_M + e and the components entering at xi = L.
struct AffineBlock {
  Partition part;
  int nm = 0, na = 0, moments = 1;
  MatX E;
  VecX e;
  std::vector<int> force_dims;  // the force component (0: x, 1: y) of each G0
  std::vector<int> unknown;     // moving components with c < 0 (their u(0) is unknown)
  MatX aug;
};

AffineBlock assemble_affine_block(const MatX& J_full, const VecX& b_full, const VecX& c_full,
                                  const std::vector<int>& block, const Pressure& pressure) {
  AffineBlock out;
  const MatX J = select(J_full, block, block);
  const VecX b = select(b_full, block);
  const VecX c = select(c_full, block);
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
  // The force components present in this block (f_x is component 0, f_y component 1): f_d = P_d u_M + q_d.
  std::vector<int> force_dims;
  std::vector<Eigen::RowVectorXd> P;
  std::vector<double> q;
  for (int d = 0; d < 2; ++d) {
    for (int i = 0; i < nm; ++i)
      if (block[part.moving[i]] == d) {
        force_dims.push_back(d);
        P.push_back(Eigen::RowVectorXd::Unit(nm, i));
        q.push_back(0.0);
      }
    for (std::size_t i = 0; i < part.resting.size(); ++i)
      if (block[part.resting[i]] == d) {
        force_dims.push_back(d);
        P.push_back(E.row(static_cast<Eigen::Index>(i)));
        q.push_back(e[static_cast<Eigen::Index>(i)]);
      }
  }
  // Augmented linear system y = [u_M, 1, G0, G1, G2] per force component (G1, G2 only for parabolic
  // pressure), G0' = f, G1' = G0, G2' = G1.
  const int moments = pressure.params().kind == PressureKind::uniform ? 1 : 3;
  const int nf = static_cast<int>(force_dims.size());
  const int na = nm + 1 + moments * nf;
  MatX aug = MatX::Zero(na, na);
  aug.topLeftCorner(nm, nm) = A;
  aug.block(0, nm, nm, 1) = beta;
  for (int k = 0; k < nf; ++k) {
    const int g0 = nm + 1 + k * moments;
    aug.block(g0, 0, 1, nm) = P[k];
    aug(g0, nm) = q[k];
    for (int j = 1; j < moments; ++j) aug(g0 + j, g0 + j - 1) = 1.0;
  }
  for (int i = 0; i < nm; ++i)
    if (c[part.moving[i]] < 0.0) out.unknown.push_back(i);
  out.part = part;
  out.nm = nm;
  out.na = na;
  out.moments = moments;
  out.E = std::move(E);
  out.e = std::move(e);
  out.force_dims = std::move(force_dims);
  out.aug = std::move(aug);
  return out;
}

/// y(0): the constant 1, zero where the components enter at xi = 0, and the u(0) that make u(L) = 0 for those
/// entering at xi = L (c_k < 0): S x = r with S, r from expL.
VecX initial_values(const AffineBlock& a, const MatX& expL) {
  VecX y0 = VecX::Zero(a.na);
  y0[a.nm] = 1.0;
  if (!a.unknown.empty()) {
    const int nu = static_cast<int>(a.unknown.size());
    MatX S(nu, nu);
    VecX r(nu);
    for (int i = 0; i < nu; ++i) {
      r[i] = -expL(a.unknown[i], a.nm);  // contribution of the constant 1
      for (int j = 0; j < nu; ++j) S(i, j) = expL(a.unknown[i], a.unknown[j]);
    }
    const VecX x = S.partialPivLu().solve(r);
    for (int i = 0; i < nu; ++i) y0[a.unknown[i]] = x[i];
  }
  return y0;
}

/// The force of y(L) (eq. 36; linear in y(L)).
Vec2 block_force(const AffineBlock& a, const VecX& yL, const Pressure& pressure, double L) {
  Vec2 force = Vec2::Zero();
  for (std::size_t k = 0; k < a.force_dims.size(); ++k) {
    const int g0 = a.nm + 1 + static_cast<int>(k) * a.moments;
    if (a.moments == 1) {
      force[a.force_dims[k]] += pressure(0.0) * yL[g0];
    } else {
      // int p f for p = a xi (L - xi), a = 6 F_z / L^3, by parts: int xi f = L G0 - G1,
      // int xi^2 f = L^2 G0 - 2 (L G1 - G2).
      const double p = 6.0 * pressure.normal_load() / (L * L * L);
      const double int_xf = L * yL[g0] - yL[g0 + 1];
      const double int_x2f = L * L * yL[g0] - 2.0 * (L * yL[g0 + 1] - yL[g0 + 2]);
      force[a.force_dims[k]] += p * (L * int_xf - int_x2f);
    }
  }
  return force;
}

BlockSolution solve_affine_block(const MatX& J_full, const VecX& b_full, const VecX& c_full,
                                 const std::vector<int>& block, const Pressure& pressure, double L,
                                 int field_points, int m) {
  const AffineBlock a = assemble_affine_block(J_full, b_full, c_full, block, pressure);
  const MatX expL = (a.aug * L).exp();
  // Boundary values: u_k(0) = 0 for c_k > 0; u_k(L) = 0 for c_k < 0 (unknown u_k(0)).
  const VecX y0 = initial_values(a, expL);
  const VecX yL = expL * y0;
  BlockSolution out;
  out.force = block_force(a, yL, pressure, L);
  if (field_points > 0) {
    const double h = field_points > 1 ? L / (field_points - 1) : 0.0;
    const MatX step = (a.aug * h).exp();
    VecX y = y0;
    for (int j = 0; j < field_points; ++j) {
      VecX full = VecX::Zero(m);
      const VecX um = y.head(a.nm);
      const VecX ur = a.E * um + a.e;
      for (int i = 0; i < a.nm; ++i) full[block[a.part.moving[i]]] = um[i];
      for (std::size_t i = 0; i < a.part.resting.size(); ++i) full[block[a.part.resting[i]]] = ur[i];
      out.field.push_back(full);
      y = step * y;
    }
  }
  return out;
}

/// h(u) = J u + b at fixed v_r, read off exactly (up to rounding) since h is affine in u.
void affine_source(const contact::ContactModel& model, const Vec2& v_r, MatX& J, VecX& b) {
  const int m = model.state_size();
  VecX col(m), u = VecX::Zero(m);
  b.resize(m);
  model.source(u.data(), v_r, b.data());
  J.resize(m, m);
  for (int k = 0; k < m; ++k) {
    u.setZero();
    u[k] = 1.0;
    model.source(u.data(), v_r, col.data());
    J.col(k) = col - b;
  }
}

/// The stiffness of the steady ODE over the contact: max over the moving components of |J_kk| L / |c_k|, how many
/// times faster component k relaxes than it crosses the contact. The augmented exponential loses ~5e-15 R of the
/// force (measured against the adaptive path: a GKV pair sliding at V2 = 1e-8 m/s, R = 6e8, was 1.8e-6 off; at
/// 1e-14 m/s it gave -1.5 N for -9.58 N, and NaN below): up to kMaxExponentialStiffness the exponential keeps 1e-8.
/// Beyond, the adaptive path (every speed >= 0) keeps its rtol, at a cost that grows with R (2 s at R = 6e9, 10 s at
/// 6e10): up to kMaxAdaptiveStiffness; beyond both, the speeds are refused.
constexpr double kMaxExponentialStiffness = 2e6;
constexpr int kMaxFieldPoints = 1'000'000;
constexpr double kMaxAdaptiveStiffness = 1e10;
double stiffness_ratio(const MatX& J, const VecX& c, double L) {  // J: affine_source's
  double R = 0.0;
  for (Eigen::Index k = 0; k < c.size(); ++k)
    if (c[k] != 0.0) R = std::max(R, std::abs(J(k, k)) * L / std::abs(c[k]));
  return R;
}

/// The state is [f_x, f_y, zeta_1x, zeta_1y, ...]: x components at even indices. When the axes do not couple
/// (isotropic or axis-aligned matrices), each axis is its own smaller problem.
std::vector<std::vector<int>> affine_blocks(const MatX& J) {
  const int m = static_cast<int>(J.rows());
  std::vector<std::vector<int>> blocks(2);
  bool coupled = false;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j)
      if ((i + j) % 2 == 1 && J(i, j) != 0.0) coupled = true;
  if (coupled) {
    blocks = {std::vector<int>(m)};
    for (int i = 0; i < m; ++i) blocks[0][i] = i;
  } else {
    for (int i = 0; i < m; ++i) blocks[i % 2].push_back(i);
  }
  return blocks;
}

SteadyLine steady_affine(const contact::ContactModel& model, const LineContactParams& params, const Pressure& pressure,
                         const VecX& c, const MatX& J, const VecX& b, int field_points) {  // J, b: affine_source's
  const int m = model.state_size();
  // An axis without forcing (b = 0 there, e.g. no lateral slip) stays identically zero.
  const std::vector<std::vector<int>> blocks = affine_blocks(J);
  SteadyLine out;
  out.exact = true;
  std::vector<VecX> field(field_points > 0 ? field_points : 0, VecX::Zero(m));
  for (const auto& block : blocks) {
    if (select(b, block).cwiseAbs().maxCoeff() == 0.0) continue;  // unforced: u = 0 on this block
    const BlockSolution sol = solve_affine_block(J, b, c, block, pressure, params.L_m, field_points, m);
    out.force_N += sol.force;
    for (std::size_t j = 0; j < sol.field.size(); ++j) field[j] += sol.field[j];
  }
  if (field_points > 0) {
    out.field = TimeSeries(field_names(model));
    const double h = field_points > 1 ? params.L_m / (field_points - 1) : 0.0;
    for (int j = 0; j < field_points; ++j) {
      std::vector<double> r{j * h};
      for (int k = 0; k < m; ++k) r.push_back(field[j][k]);
      out.field.add_row(r);
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
      throw InvalidInput(fmt::format("{}: component {} moves towards the leading edge (speed {} m/s); the "
                                     "nonlinear steady solver integrates from xi = 0 and needs every speed >= 0",
                                     LineContactParams::key_of("line", params.message_keys.speeds, "V1/V2"), k,
                                     format_value(c[k])));
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
  if (field_points > kMaxFieldPoints)  // a row of the state per point
    throw InvalidInput(fmt::format("field_points = {}: at most {}", field_points, kMaxFieldPoints));
  require_finite(LineContactParams::key_of("line", params.message_keys.V1, "V1"), V1);
  require_finite(LineContactParams::key_of("line", params.message_keys.V2, "V2"), V2);
  require_finite("line.v_y", v_y);
  const Pressure pressure(params.pressure, params.L_m, params.normal_load_N,
                          params.pressure_key());
  VecX c = characteristic_speeds(model, V1, V2);
  // A speed at the rounding level of its terms (S1 V1 + S2 V2 of V1 = 0.3, V2 = -0.7 at s = 0.3 is 2.8e-17) is 0:
  // the component rests (its stiffness ratio would be 1e16).
  for (Eigen::Index k = 0; k < c.size(); ++k)
    if (std::abs(c[k]) <= 1e-14 * (std::abs(V1) + std::abs(V2))) c[k] = 0.0;
  const Vec2 v_r(V2 - V1, v_y);
  if (c.cwiseAbs().maxCoeff() == 0.0) {
    // No advection: every point sits at the lumped steady state.
    SteadyLine out;
    out.exact = true;
    out.force_N = params.normal_load_N * model.friction(model.steady_state(v_r).data(), v_r);
    return out;
  }
  if (steady_is_affine(model) && params.pressure.kind != PressureKind::table) {
    MatX J;
    VecX b;
    affine_source(model, v_r, J, b);
    const double R = stiffness_ratio(J, c, params.L_m);
    const bool mirror = c.maxCoeff() <= 0.0;                 // every moving component enters at xi = L
    const bool backward = !mirror && c.minCoeff() < 0.0;     // mixed directions: the exponential alone
    const double most = backward ? kMaxExponentialStiffness : kMaxAdaptiveStiffness;
    if (R > most)  // checked here, so that the message gives the speeds as written (the mirror negates them)
      throw InvalidInput(fmt::format(
          "{} = {} m/s, {} = {} m/s: too stiff for the steady solver: a component relaxes {:.3g} times faster than "
          "it crosses the contact (at most {:g}{}; slower speeds and stiffer pairs raise the ratio)",
          LineContactParams::key_of("line", params.message_keys.V1, "V1"), format_value(V1),
          LineContactParams::key_of("line", params.message_keys.V2, "V2"), format_value(V2), R, most,
          backward ? " with a component moving towards the leading edge" : ""));
    if (mirror) {
      // The affine source is odd, h(-u, -v_r) = -h(u, v_r) (J depends on |v_r|, b is odd in it), and uniform and
      // parabolic pressures are symmetric, so u(xi; V) = -u(L - xi; -V): solve the mirrored problem, whose
      // components enter at xi = 0. The exponential with every component entering at L gave -4.6e20 N for
      // +9.578 N (Table 1 pair, V2 = -0.3 m/s; the transient solver agrees with the mirror), 0 N at -1 m/s and
      // NaN at -1e-5 m/s, all with exact = true.
      SteadyLine out = steady_state(model, params, -V1, -V2, -v_y, field_points);
      out.force_N = Vec2::Zero() - out.force_N;  // 0 - x: no -0 in the outputs
      for (std::size_t k = 1; k < out.field.columns.size(); ++k) {  // column 0 is xi on the same symmetric grid
        std::vector<double>& column = out.field.columns[k];
        std::reverse(column.begin(), column.end());
        for (double& x : column) x = 0.0 - x;
      }
      return out;
    }
    if (R <= kMaxExponentialStiffness) return steady_affine(model, params, pressure, c, J, b, field_points);
  }
  return steady_general(model, params, pressure, c, v_r, field_points);
}

std::optional<SteadyLineDerivatives> steady_state_derivatives(const contact::ContactModel& model,
                                                             const std::vector<const contact::ContactModel*>& plus,
                                                             const std::vector<const contact::ContactModel*>& minus,
                                                             const std::vector<double>& h,
                                                             const LineContactParams& params, double V1, double V2) {
  params.validate("line");
  const std::size_t np = h.size();
  if (plus.size() != np || minus.size() != np)
    throw InvalidInput("steady_state_derivatives: one model at p + h and one at p - h per parameter");
  const VecX c = characteristic_speeds(model, V1, V2);
  if (c.cwiseAbs().maxCoeff() == 0.0 || !steady_is_affine(model) || params.pressure.kind == PressureKind::table)
    return std::nullopt;
  const Pressure pressure(params.pressure, params.L_m, params.normal_load_N,
                          params.pressure_key());
  const Vec2 v_r(V2 - V1, 0.0);
  const double L = params.L_m;
  MatX J;
  VecX b;
  affine_source(model, v_r, J, b);
  if (stiffness_ratio(J, c, L) > kMaxExponentialStiffness || c.maxCoeff() <= 0.0)
    return std::nullopt;  // steady_state integrates, or mirrors every component entering at xi = L
  const std::vector<std::vector<int>> blocks = affine_blocks(J);
  // The perturbed models' pointwise matrices, with the same structure.
  struct Perturbed {
    MatX J;
    VecX b, c;
  };
  std::vector<Perturbed> pm(2 * np);
  for (std::size_t k = 0; k < 2 * np; ++k) {
    const contact::ContactModel& mk = k < np ? *plus[k] : *minus[k - np];
    if (mk.state_size() != model.state_size() || !steady_is_affine(mk)) return std::nullopt;
    affine_source(mk, v_r, pm[k].J, pm[k].b);
    pm[k].c = characteristic_speeds(mk, V1, V2);
    for (Eigen::Index i = 0; i < c.size(); ++i)
      if ((pm[k].c[i] > 0.0) != (c[i] > 0.0) || (pm[k].c[i] < 0.0) != (c[i] < 0.0)) return std::nullopt;
    if (affine_blocks(pm[k].J) != blocks) return std::nullopt;
  }
  SteadyLineDerivatives out;
  out.dforce_N = Eigen::Matrix<double, 2, Eigen::Dynamic>::Zero(2, static_cast<Eigen::Index>(np));
  for (const auto& block : blocks) {
    const bool forced = select(b, block).cwiseAbs().maxCoeff() != 0.0;
    bool forced_nearby = false;
    for (const Perturbed& q : pm) forced_nearby = forced_nearby || select(q.b, block).cwiseAbs().maxCoeff() != 0.0;
    if (!forced && !forced_nearby) continue;  // u = 0 on this block at p and nearby
    if (!forced) return std::nullopt;
    const AffineBlock a = assemble_affine_block(J, b, c, block, pressure);
    const MatX X = a.aug * L;
    const MatX expL = X.exp();
    const VecX y0 = initial_values(a, expL);
    out.force_N += block_force(a, expL * y0, pressure, L);
    const int na = a.na, nu = static_cast<int>(a.unknown.size());
    MatX S(nu, nu);
    VecX x(nu);
    for (int i = 0; i < nu; ++i) {
      x[i] = y0[a.unknown[i]];
      for (int j = 0; j < nu; ++j) S(i, j) = expL(a.unknown[i], a.unknown[j]);
    }
    Eigen::PartialPivLU<MatX> S_lu;
    if (nu > 0) S_lu.compute(S);
    MatX big = MatX::Zero(2 * na, 2 * na);
    big.topLeftCorner(na, na) = X;
    big.bottomRightCorner(na, na) = X;
    for (std::size_t j = 0; j < np; ++j) {
      const AffineBlock ap = assemble_affine_block(pm[j].J, pm[j].b, pm[j].c, block, pressure);
      const AffineBlock am = assemble_affine_block(pm[np + j].J, pm[np + j].b, pm[np + j].c, block, pressure);
      if (ap.na != na || am.na != na || ap.unknown != a.unknown || am.unknown != a.unknown ||
          ap.force_dims != a.force_dims || am.force_dims != a.force_dims)
        return std::nullopt;
      big.topRightCorner(na, na) = (ap.aug - am.aug) * (L / (2.0 * h[j]));
      const MatX dexpL = big.exp().topRightCorner(na, na);  // the Fréchet derivative L_exp(X, dX)
      VecX dy0 = VecX::Zero(na);
      if (nu > 0) {  // S x = r: dS x + S dx = dr
        VecX rhs(nu);
        for (int i = 0; i < nu; ++i) {
          rhs[i] = -dexpL(a.unknown[i], a.nm);
          for (int k = 0; k < nu; ++k) rhs[i] -= dexpL(a.unknown[i], a.unknown[k]) * x[k];
        }
        const VecX dx = S_lu.solve(rhs);
        for (int i = 0; i < nu; ++i) dy0[a.unknown[i]] = dx[i];
      }
      out.dforce_N.col(static_cast<Eigen::Index>(j)) += block_force(a, dexpL * y0 + expL * dy0, pressure, L);
    }
  }
  return out;
}

}  // namespace bristle::transport
