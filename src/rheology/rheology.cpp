#include "bristle/rheology/rheology.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "bristle/core/enum_names.hpp"
#include "bristle/core/error.hpp"

namespace bristle::rheology {

namespace {
constexpr NameTable<RheologyKind, 4> kNames{{
    {RheologyKind::rigid, "rigid"},
    {RheologyKind::elastic, "elastic"},
    {RheologyKind::gkv, "gkv"},
    {RheologyKind::gm, "gm"},
}};
}  // namespace

std::string_view to_string(RheologyKind kind) { return name_of(kNames, kind); }

RheologyKind rheology_kind_from_string(std::string_view key, std::string_view name) {
  return parse_name(kNames, key, name, "rheology");
}

void RheologyParams::validate(std::string_view prefix) const {
  const std::string p(prefix);
  if (kind == RheologyKind::rigid) {
    if (!branches.empty())
      throw InvalidInput(fmt::format("{}.branches = {}: a rigid body has no dissipative branches", p,
                                     branches.size()));
    return;
  }
  require_spd(p + (kind == RheologyKind::gm ? ".k_inf" : ".k0"), k_elastic);
  if (kind == RheologyKind::elastic && !branches.empty())
    throw InvalidInput(fmt::format("{}.branches = {}: an elastic body has no dissipative branches (use gkv "
                                   "or gm)",
                                   p, branches.size()));
  if (branches.size() > kMaxBranches)
    throw InvalidInput(fmt::format("{}.branches has {} entries: at most {} branches (Limits in docs/scenarios.md)", p,
                                   branches.size(), kMaxBranches));
  for (std::size_t i = 0; i < branches.size(); ++i) {
    const std::string b = fmt::format("{}.branches[{}]", p, i);
    require_spd(b + ".k", branches[i].k);
    require_spd(b + ".c", branches[i].c);
    // tau_i = K_i^-1 C_i must have positive eigenvalues (true for SPD K, C) and A stable; a
    // non-commuting pair is allowed, the realisation stays dissipative.
  }
}

void apply_eq58(RheologyParams& p, std::string_view prefix) {
  if (p.eq58_tau.empty()) return;
  const std::string where = fmt::format("{}.c = \"eq58\"", prefix);
  if (p.kind != RheologyKind::gkv)
    throw InvalidInput(fmt::format("{}: applies to {}.type = \"gkv\" ({}.type is \"{}\")", where, prefix, prefix,
                                   to_string(p.kind)));
  const Mat2& K0 = p.k_elastic;
  if (!(K0(0, 1) == 0.0 && K0(1, 0) == 0.0 && K0(0, 0) == K0(1, 1)))
    throw InvalidInput(fmt::format("{}: needs an isotropic {}.k0 (a single number)", where, prefix));
  const double k0 = K0(0, 0);
  require_positive(fmt::format("{}.k0", prefix), k0);
  p.branches.clear();
  for (std::size_t i = 0; i < p.eq58_tau.size(); ++i) {
    const double tau = p.eq58_tau[i];
    require_positive(fmt::format("{}.tau[{}]", prefix, i), tau);
    const Mat2 c = (tau * k0) * Mat2::Identity();  // paper 1, eq. 58: c_i = tau_i k0
    p.branches.push_back(Branch{Mat2(c / tau), c});  // tau = K^-1 C  ->  K = C tau^-1
  }
}

RheologyParams gkv_eq58(double k0, const std::vector<double>& tau) {
  require_positive("k0", k0);
  RheologyParams p{RheologyKind::gkv, k0 * Mat2::Identity(), {}, tau};
  apply_eq58(p, "body2");
  return p;
}

void truncate_branches(RheologyParams& p, int n, std::string_view prefix) {
  if (p.kind != RheologyKind::gkv && p.kind != RheologyKind::gm)
    throw InvalidInput(fmt::format("{}.type = \"{}\": has no dissipative branches to keep", prefix, to_string(p.kind)));
  if (n < 0 || n > p.branch_count())
    throw InvalidInput(fmt::format("{}: has {} branches; cannot keep {}", prefix, p.branch_count(), n));
  p.branches.resize(static_cast<std::size_t>(n));
  if (!p.eq58_tau.empty()) p.eq58_tau.resize(static_cast<std::size_t>(n));
  if (n == 0) p.kind = RheologyKind::elastic;  // k_elastic is K0 (GKV) or K_inf (GM): the elastic K0 either way
}

void set_relaxation_times(RheologyParams& p, double tau, std::string_view prefix) {
  if (p.kind != RheologyKind::gkv && p.kind != RheologyKind::gm)
    throw InvalidInput(fmt::format("{}.type = \"{}\": has no relaxation times", prefix, to_string(p.kind)));
  require_positive(fmt::format("{}.tau", prefix), tau);
  if (!p.eq58_tau.empty()) {
    std::fill(p.eq58_tau.begin(), p.eq58_tau.end(), tau);
    apply_eq58(p, prefix);
    return;
  }
  for (std::size_t i = 0; i < p.branches.size(); ++i) set_relaxation_time(p, i, tau);
}

void set_relaxation_time(RheologyParams& p, std::size_t i, double tau) {
  Branch& b = p.branches[i];
  if (p.kind == RheologyKind::gkv) b.k = Mat2(b.c / tau);  // tau = K^-1 C  ->  K = C tau^-1
  else b.c = Mat2(b.k * tau);                              // C = K tau
}

RheologyParams rigid() { return RheologyParams{RheologyKind::rigid, Mat2::Identity(), {}, {}}; }

RheologyParams elastic(double k0) {
  require_positive("k0", k0);
  return RheologyParams{RheologyKind::elastic, k0 * Mat2::Identity(), {}, {}};
}

RheologyParams gkv(double k0, const std::vector<double>& c, const std::vector<double>& tau) {
  require_positive("k0", k0);
  if (c.size() != tau.size())
    throw InvalidInput(fmt::format("tau: {} values for {} damping values c; one tau per branch", tau.size(),
                                   c.size()));
  RheologyParams p{RheologyKind::gkv, k0 * Mat2::Identity(), {}, {}};
  for (std::size_t i = 0; i < c.size(); ++i) {
    require_positive(fmt::format("c[{}]", i), c[i]);
    require_positive(fmt::format("tau[{}]", i), tau[i]);
    p.branches.push_back(Branch{(c[i] / tau[i]) * Mat2::Identity(), c[i] * Mat2::Identity()});
  }
  return p;
}

RheologyParams gm(double k_inf, const std::vector<double>& k, const std::vector<double>& tau) {
  require_positive("k_inf", k_inf);
  if (k.size() != tau.size())
    throw InvalidInput(fmt::format("tau: {} values for {} stiffness values k; one tau per branch", tau.size(),
                                   k.size()));
  RheologyParams p{RheologyKind::gm, k_inf * Mat2::Identity(), {}, {}};
  for (std::size_t i = 0; i < k.size(); ++i) {
    require_positive(fmt::format("k[{}]", i), k[i]);
    require_positive(fmt::format("tau[{}]", i), tau[i]);
    p.branches.push_back(Branch{k[i] * Mat2::Identity(), (k[i] * tau[i]) * Mat2::Identity()});
  }
  return p;
}

RheologyParams gm_equivalent_of_gkv(double k0, const std::vector<double>& c, const std::vector<double>& tau) {
  (void)gkv(k0, c, tau);  // validates k0, c, tau
  const std::size_t n = c.size();
  std::vector<double> k(n), poles(n);
  for (std::size_t i = 0; i < n; ++i) {
    k[i] = c[i] / tau[i];
    poles[i] = -k[i] / c[i];
  }
  auto J = [&](double s) {
    double j = 1.0 / k0;
    for (std::size_t i = 0; i < n; ++i) j += 1.0 / (k[i] + c[i] * s);
    return j;
  };
  auto dJ = [&](double s) {
    double d = 0.0;
    for (std::size_t i = 0; i < n; ++i) d -= c[i] / ((k[i] + c[i] * s) * (k[i] + c[i] * s));
    return d;
  };
  std::vector<double> sorted = poles;
  std::sort(sorted.begin(), sorted.end(), std::greater<>());  // closest to 0 first
  for (std::size_t i = 1; i < n; ++i)
    if (!(sorted[i] < sorted[i - 1]))
      throw InvalidInput(fmt::format("tau: two branches share the relaxation time {} s; merge them into one branch",
                                     format_value(-1.0 / sorted[i])));
  // One zero in each interval (sorted[i+1], sorted[i]) and one below the last pole. J is decreasing
  // between poles (J' < 0), from +inf just below a pole... to -inf just above the next one.
  std::vector<double> zeros;
  for (std::size_t i = 0; i < n; ++i) {
    double hi = sorted[i];
    double lo = i + 1 < n ? sorted[i + 1] : sorted[i] - 1.0;
    if (i + 1 == n)
      while (J(lo) < 0.0) lo = sorted[i] - 2.0 * (sorted[i] - lo);  // J -> 1/k0 > 0 as s -> -inf
    // J(hi-) = -inf, J(lo+) = +inf (or > 0): bisect on the sign.
    double a = lo, b = hi;
    for (int it = 0; it < 200 && b - a > 1e-15 * std::abs(a); ++it) {
      const double m = 0.5 * (a + b);
      if (m == a || m == b) break;
      (J(m) > 0.0 ? a : b) = m;
    }
    zeros.push_back(0.5 * (a + b));
  }
  RheologyParams out{RheologyKind::gm, (1.0 / J(0.0)) * Mat2::Identity(), {}, {}};
  for (double r : zeros) {
    const double tau_j = -1.0 / r;
    const double k_j = 1.0 / (dJ(r) * r);
    out.branches.push_back(Branch{k_j * Mat2::Identity(), (k_j * tau_j) * Mat2::Identity()});
  }
  return out;
}

Eigen::Matrix2cd compliance(const Realisation& r, std::complex<double> s) {
  using Mat2c = Eigen::Matrix2cd;
  if (r.kind == RheologyKind::rigid) return Mat2c::Zero();
  Mat2c k0_inv = r.K0_inv.cast<std::complex<double>>();
  if (r.n == 0) return k0_inv;
  const Eigen::MatrixXcd a = r.A.cast<std::complex<double>>();
  const Eigen::MatrixXcd si_minus_a = s * Eigen::MatrixXcd::Identity(2 * r.n, 2 * r.n) - a;
  const Eigen::MatrixXcd x = si_minus_a.partialPivLu().solve(r.B.cast<std::complex<double>>());
  return k0_inv * (Mat2c::Identity() - r.C.cast<std::complex<double>>() * x);
}

Realisation realise(const RheologyParams& params) {
  params.validate("rheology");
  Realisation r;
  r.kind = params.kind;
  r.branches = params.branches;
  r.n = params.branch_count();
  const int n = r.n;
  r.A = MatX::Zero(2 * n, 2 * n);
  r.B = MatX::Zero(2 * n, 2);
  r.C = MatX::Zero(2, 2 * n);
  switch (params.kind) {
    case RheologyKind::rigid:
      r.K0 = Mat2::Identity();
      r.K0_inv = Mat2::Zero();
      break;
    case RheologyKind::elastic:
    case RheologyKind::gkv:
      r.K0 = params.k_elastic;
      r.K0_inv = r.K0.inverse();
      for (int i = 0; i < n; ++i) {
        const Mat2 c_inv = params.branches[i].c.inverse();
        r.A.block<2, 2>(2 * i, 2 * i) = -c_inv * params.branches[i].k;  // -tau_i^-1, eq. 8b
        r.B.block<2, 2>(2 * i, 0) = c_inv;                                 // C_i^-1, eq. 8b
        r.C.block<2, 2>(0, 2 * i) = -r.K0;                                 // eq. 8a
      }
      break;
    case RheologyKind::gm: {
      r.K_inf = params.k_elastic;
      Mat2 k0 = params.k_elastic;
      for (const auto& b : params.branches) k0 += b.k;  // K0 = K_inf + sum K_i
      r.K0 = k0;
      r.K0_inv = k0.inverse();
      for (int i = 0; i < n; ++i) {
        const Mat2 tau_inv = params.branches[i].c.inverse() * params.branches[i].k;  // tau_i^-1 = C_i^-1 K_i
        for (int j = 0; j < n; ++j)
          r.A.block<2, 2>(2 * i, 2 * j) = tau_inv * r.K0_inv * params.branches[j].k;  // eq. 10b
        r.A.block<2, 2>(2 * i, 2 * i) -= tau_inv;
        r.B.block<2, 2>(2 * i, 0) = tau_inv * r.K0_inv;
        r.C.block<2, 2>(0, 2 * i) = -params.branches[i].k;  // eq. 10a
      }
      break;
    }
  }
  return r;
}

Vec2 Realisation::deformation(const Vec2& f_j, const double* zeta_j) const {
  if (kind == RheologyKind::rigid) return Vec2::Zero();
  Vec2 cz = Vec2::Zero();
  for (int i = 0; i < n; ++i) cz += C.block<2, 2>(0, 2 * i) * Vec2(zeta_j[2 * i], zeta_j[2 * i + 1]);
  return K0_inv * (f_j - cz);  // eq. 14
}

Mat2 Realisation::static_compliance() const {
  if (kind == RheologyKind::rigid) return Mat2::Zero();
  if (n == 0) return K0_inv;
  const MatX a_inv_b = A.partialPivLu().solve(B);  // zeta = -A^-1 B f at equilibrium
  return K0_inv * (Mat2::Identity() + C * a_inv_b);
}

double Realisation::stored_energy(const Vec2& f_j, const double* zeta_j) const {
  switch (kind) {
    case RheologyKind::rigid:
      return 0.0;
    case RheologyKind::elastic:
    case RheologyKind::gkv: {
      double w = 0.5 * f_j.dot(K0_inv * f_j);  // eq. 82
      for (int i = 0; i < n; ++i) {
        const Vec2 zi(zeta_j[2 * i], zeta_j[2 * i + 1]);
        w += 0.5 * zi.dot(branches[i].k * zi);  // eq. 83
      }
      return w;
    }
    case RheologyKind::gm: {
      const Vec2 z = deformation(f_j, zeta_j);
      double w = 0.5 * z.dot(K_inf * z);
      for (int i = 0; i < n; ++i) {
        const Vec2 e = z - Vec2(zeta_j[2 * i], zeta_j[2 * i + 1]);
        w += 0.5 * e.dot(branches[i].k * e);
      }
      return w;
    }
  }
  return 0.0;
}

double Realisation::damper_power(const double* zeta_dot_j) const {
  double p = 0.0;
  for (int i = 0; i < n; ++i) {
    const Vec2 r(zeta_dot_j[2 * i], zeta_dot_j[2 * i + 1]);
    p += r.dot(branches[i].c * r);
  }
  return p;
}

}  // namespace bristle::rheology
