// Patch geometry, pressure, kinematics, Riemann variables and edges (paper 1, eqs. 29, 41-49, 84).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "bristle/core/enum_names.hpp"
#include "bristle/core/error.hpp"
#include "bristle/core/interrupt.hpp"
#include "bristle/patch/patch.hpp"

namespace bristle::patch {

namespace {
constexpr NameTable<PatchShape, 2> kShapeNames{{
    {PatchShape::rectangle, "rectangle"},
    {PatchShape::ellipse, "ellipse"},
}};
constexpr NameTable<PatchPressure, 3> kPressureNames{{
    {PatchPressure::uniform, "uniform"},
    {PatchPressure::parabolic, "parabolic"},
    {PatchPressure::hertzian, "hertzian"},
}};
constexpr NameTable<Family, 4> kFamilyNames{{
    {Family::f1, "f1"},
    {Family::f2, "f2"},
    {Family::zeta1, "zeta1"},
    {Family::zeta2, "zeta2"},
}};
constexpr NameTable<Edge, 3> kEdgeNames{{
    {Edge::leading, "leading"},
    {Edge::neutral, "neutral"},
    {Edge::trailing, "trailing"},
}};

// int g dA / (a b) for the pressure shape g on the patch (closed forms).
double shape_integral(PatchShape shape, PatchPressure kind) {
  constexpr double pi = std::numbers::pi;
  if (shape == PatchShape::rectangle) {
    switch (kind) {
      case PatchPressure::uniform: return 4.0;
      case PatchPressure::parabolic: return 8.0 / 3.0;
      case PatchPressure::hertzian: return pi;
    }
  }
  switch (kind) {
    case PatchPressure::uniform: return pi;
    case PatchPressure::parabolic: return pi / 2.0;
    case PatchPressure::hertzian: return 2.0 * pi / 3.0;
  }
  return 0.0;
}

std::string key(std::string_view prefix, std::string_view name) { return fmt::format("{}.{}", prefix, name); }
}  // namespace

std::string_view to_string(PatchShape shape) { return name_of(kShapeNames, shape); }
PatchShape patch_shape_from_string(std::string_view k, std::string_view name) {
  return parse_name(kShapeNames, k, name, "patch shape");
}
std::string_view to_string(PatchPressure kind) { return name_of(kPressureNames, kind); }
PatchPressure patch_pressure_from_string(std::string_view k, std::string_view name) {
  return parse_name(kPressureNames, k, name, "patch pressure distribution");
}
std::string_view to_string(Family family) { return name_of(kFamilyNames, family); }
std::string_view to_string(Edge edge) { return name_of(kEdgeNames, edge); }

void PatchParams::validate(std::string_view prefix) const {
  require_positive(key(prefix, "length_m"), length_m);
  require_positive(key(prefix, "width_m"), width_m);
  const double aspect = length_m / width_m;
  if (!(aspect >= 1e-3 && aspect <= 1e3))
    throw InvalidInput(fmt::format("{} = {} and {} = {}: degenerate patch (length/width = {:.6g} must be in [1e-3, 1e3])",
                                   key(prefix, "length_m"), format_value(length_m), key(prefix, "width_m"),
                                   format_value(width_m), aspect));
  require_positive(key(prefix, "normal_load_N"), normal_load_N);
  if (peak_pressure_Pa) {
    require_positive(key(prefix, "peak_pressure_Pa"), *peak_pressure_Pa);
    const double load = *peak_pressure_Pa * shape_integral(shape, pressure) * 0.25 * length_m * width_m;
    if (!(std::abs(load - normal_load_N) <= 1e-6 * normal_load_N))
      throw InvalidInput(fmt::format(
          "{} = {}: the {} pressure on this {} integrates to {} N, not {} = {} N (the pressure must integrate to "
          "the load; p_0 = {:.6g} Pa would)",
          key(prefix, "peak_pressure_Pa"), format_value(*peak_pressure_Pa), to_string(pressure), to_string(shape),
          format_value(load), key(prefix, "normal_load_N"), format_value(normal_load_N),
          normal_load_N / (shape_integral(shape, pressure) * 0.25 * length_m * width_m)));
  }
  if (nx < 4) throw InvalidInput(fmt::format("{} = {}: must be >= 4", key(prefix, "nx"), nx));
  if (ny < 2) throw InvalidInput(fmt::format("{} = {}: must be >= 2", key(prefix, "ny"), ny));
  if (static_cast<long>(nx) * ny > 4'000'000)
    throw InvalidInput(fmt::format("{} x {} = {} x {}: at most 4e6 cells (Limits in docs/scenarios.md)", key(prefix, "nx"), key(prefix, "ny"), nx,
                                   ny));
  require_finite(key(prefix, "tolerance"), tolerance);
  if (!(tolerance > 0.0 && tolerance <= 1e-3))
    throw InvalidInput(fmt::format("{} = {}: must be in (0, 1e-3]", key(prefix, "tolerance"), format_value(tolerance)));
  if (max_sweeps < 1) throw InvalidInput(fmt::format("{} = {}: must be >= 1", key(prefix, "max_sweeps"), max_sweeps));
  if (max_sweeps > 100000)  // the schema's range (the reader's): Python took 1e9
    throw InvalidInput(fmt::format("{} = {}: must be in [1, 100000]", key(prefix, "max_sweeps"), max_sweeps));
}

PatchGeometry::PatchGeometry(const PatchParams& params, std::string_view prefix)
    : shape_(params.shape), kind_(params.pressure) {
  params.validate(prefix);
  a_ = 0.5 * params.length_m;
  b_ = 0.5 * params.width_m;
  load_ = params.normal_load_N;
  p0_ = load_ / (shape_integral(shape_, kind_) * a_ * b_);
}

double PatchGeometry::half_width(double x) const {
  if (shape_ == PatchShape::rectangle) return b_;
  const double r = x / a_;
  return b_ * std::sqrt(std::max(0.0, 1.0 - r * r));
}

double PatchGeometry::half_width_slope(double x) const {
  if (shape_ == PatchShape::rectangle) return 0.0;
  const double r = x / a_;
  const double q = std::sqrt(std::max(1e-300, 1.0 - r * r));
  return -b_ * r / (a_ * q);
}

bool PatchGeometry::contains(const Vec2& x) const {
  if (shape_ == PatchShape::rectangle) return std::abs(x[0]) <= a_ && std::abs(x[1]) <= b_;
  const double rx = x[0] / a_, ry = x[1] / b_;
  return rx * rx + ry * ry <= 1.0;
}

double PatchGeometry::area() const { return shape_integral(shape_, PatchPressure::uniform) * a_ * b_; }

double PatchGeometry::pressure(const Vec2& x) const {
  if (!contains(x)) return 0.0;
  const double rx = x[0] / a_, ry = x[1] / b_;
  const double rho2 = shape_ == PatchShape::rectangle ? rx * rx : rx * rx + ry * ry;
  switch (kind_) {
    case PatchPressure::uniform: return p0_;
    case PatchPressure::parabolic: return p0_ * (1.0 - rho2);
    case PatchPressure::hertzian: return p0_ * std::sqrt(std::max(0.0, 1.0 - rho2));
  }
  return 0.0;
}

Vec2 PatchGeometry::pressure_gradient(const Vec2& x) const {
  if (!contains(x) || kind_ == PatchPressure::uniform) return Vec2::Zero();
  const double rx = x[0] / a_, ry = x[1] / b_;
  // grad(rho^2) / 2
  const Vec2 half_grad = shape_ == PatchShape::rectangle ? Vec2(rx / a_, 0.0) : Vec2(rx / a_, ry / b_);
  const double rho2 = shape_ == PatchShape::rectangle ? rx * rx : rx * rx + ry * ry;
  if (kind_ == PatchPressure::parabolic) return -2.0 * p0_ * half_grad;
  return -p0_ * half_grad / std::sqrt(std::max(1e-12, 1.0 - rho2));
}

std::vector<PatchGeometry::BoundaryPoint> PatchGeometry::boundary(int n) const {
  // As classify_edges' samples (which call this): 10^8 points took 1.5 GB (helper-43), a negative n reserved 2^64.
  if (n < 1 || n > 1'000'000)
    throw InvalidInput(fmt::format("n = {}: boundary points must be in [1, 1000000]", n));
  std::vector<BoundaryPoint> out;
  out.reserve(static_cast<std::size_t>(n));
  if (shape_ == PatchShape::ellipse) {
    for (int k = 0; k < n; ++k) {
      const double t = 2.0 * std::numbers::pi * (k + 0.5) / n;
      const Vec2 x(a_ * std::cos(t), b_ * std::sin(t));
      out.push_back({x, Vec2(std::cos(t) / a_, std::sin(t) / b_).normalized()});
    }
    return out;
  }
  const double perimeter = 4.0 * (a_ + b_);
  for (int k = 0; k < n; ++k) {
    double s = perimeter * (k + 0.5) / n;  // counter-clockwise from (a, -b)
    if (s < 2.0 * b_) {
      out.push_back({Vec2(a_, -b_ + s), Vec2(1.0, 0.0)});
      continue;
    }
    s -= 2.0 * b_;
    if (s < 2.0 * a_) {
      out.push_back({Vec2(a_ - s, b_), Vec2(0.0, 1.0)});
      continue;
    }
    s -= 2.0 * a_;
    if (s < 2.0 * b_) {
      out.push_back({Vec2(-a_, b_ - s), Vec2(-1.0, 0.0)});
      continue;
    }
    s -= 2.0 * b_;
    out.push_back({Vec2(-a_ + s, -b_), Vec2(0.0, -1.0)});
  }
  return out;
}

void PatchKinematics::validate(std::string_view prefix) const {
  require_finite(key(prefix, "body1.V0_mps"), body1.V0_mps);
  require_finite(key(prefix, "body1.omega_radps"), body1.omega_radps);
  require_finite(key(prefix, "body2.V0_mps"), body2.V0_mps);
  require_finite(key(prefix, "body2.omega_radps"), body2.omega_radps);
}

PatchKinematics rolling(double V_r, double v_x, double v_y, double spin_radps, bool s_corrections) {
  PatchKinematics k;
  k.body1.V0_mps = Vec2(-V_r, 0.0);
  k.body1.omega_radps = spin_radps;
  k.body2.V0_mps = Vec2(-(V_r + v_x), -v_y);
  k.s_corrections = s_corrections;
  return k;
}

Vec2 relative_velocity(const contact::ContactModel& model, const PatchKinematics& kin, const Vec2& x,
                       const double* u) {
  Vec2 v = kin.body1.velocity(x) - kin.body2.velocity(x);  // eq. 29 without the corrections
  const double w1 = kin.body1.omega_radps, w2 = kin.body2.omega_radps;
  if (!kin.s_corrections || (w1 == 0.0 && w2 == 0.0)) return v;
  // Rigid motions are affine in position: V_i(x + d) = V_i(x) + omega_i e_z x d.
  const auto& pair = model.pair();
  const Vec2 f(u[0], u[1]);
  const Vec2 z = pair.relative_deformation(f, u + 2);
  Vec2 s0_zeta = Vec2::Zero();
  if (pair.zeta_size() > 0) s0_zeta = pair.S0() * Eigen::Map<const VecX>(u + 2, pair.zeta_size());
  const Vec2 d1 = -pair.S2() * z + s0_zeta;  // x1 - x, eq. 27a
  const Vec2 d2 = pair.S1() * z + s0_zeta;   // x2 - x, eq. 27b
  v += w1 * Vec2(-d1[1], d1[0]) - w2 * Vec2(-d2[1], d2[0]);
  return v;
}

Riemann riemann(const rheology::ContactPair& pair) {
  const Mat2& S1 = pair.S1();
  const double asym = std::abs(S1(0, 1) - S1(1, 0));
  if (!(asym <= 1e-10 * std::max(1.0, S1.norm())))
    throw InvalidInput(fmt::format("S1 = {}: must be symmetric (the bodies' stiffness matrices must commute)",
                                   format_matrix(S1)));
  Riemann r;
  const double sxx = S1(0, 0), syy = S1(1, 1), sxy = 0.5 * (S1(0, 1) + S1(1, 0));
  r.theta = 0.5 * std::atan2(2.0 * sxy, sxx - syy);  // eq. 41 (numerator s1xy, see the header)
  r.R = rotation(r.theta);
  const double mean = 0.5 * (sxx + syy), radius = 0.5 * std::sqrt((sxx - syy) * (sxx - syy) + 4.0 * sxy * sxy);
  r.lambda_S1 = Vec2(mean + radius, mean - radius);  // eq. 44
  r.lambda_S2 = Vec2(1.0 - r.lambda_S1[0], 1.0 - r.lambda_S1[1]);
  return r;
}

Vec2 family_velocity(const Riemann& r, const PatchKinematics& kin, Family family, const Vec2& x) {
  switch (family) {
    case Family::f1: return r.lambda_S1[0] * kin.body1.velocity(x) + r.lambda_S2[0] * kin.body2.velocity(x);
    case Family::f2: return r.lambda_S1[1] * kin.body1.velocity(x) + r.lambda_S2[1] * kin.body2.velocity(x);
    case Family::zeta1: return kin.body1.velocity(x);
    case Family::zeta2: return kin.body2.velocity(x);
  }
  return Vec2::Zero();
}

EdgeMap classify_edges(const PatchGeometry& geometry, const Riemann& r, const PatchKinematics& kin, int samples,
                       double tol) {
  if (samples < 4) throw InvalidInput(fmt::format("samples = {}: must be >= 4", samples));
  if (samples > kMaxEdgeSamples)
    throw InvalidInput(fmt::format("samples = {}: at most {} boundary samples", samples, kMaxEdgeSamples));
  if (!(tol >= 0.0 && tol < 1.0)) throw InvalidInput(fmt::format("tol = {}: must be in [0, 1)", format_value(tol)));
  EdgeMap out;
  out.points = geometry.boundary(samples);
  for (std::size_t k = 0; k < kFamilies.size(); ++k) {
    double vmax = family_velocity(r, kin, kFamilies[k], Vec2::Zero()).norm();
    for (const auto& p : out.points) vmax = std::max(vmax, family_velocity(r, kin, kFamilies[k], p.x).norm());
    out.max_speed[k] = vmax;
    out.edges[k].reserve(out.points.size());
    for (const auto& p : out.points) {
      poll_interrupt();
      const double vn = family_velocity(r, kin, kFamilies[k], p.x).dot(p.normal);  // V_dC = 0: fixed patch
      out.edges[k].push_back(vn < -tol * vmax ? Edge::leading : (vn > tol * vmax ? Edge::trailing : Edge::neutral));
    }
  }
  return out;
}

void require_leading_edges(const EdgeMap& edges, const contact::ContactModel& model, std::string_view prefix) {
  for (std::size_t k = 0; k < kFamilies.size(); ++k) {
    if (kFamilies[k] == Family::zeta1 && model.n1() == 0) continue;
    if (kFamilies[k] == Family::zeta2 && model.n2() == 0) continue;
    if (!(edges.max_speed[k] > 0.0)) continue;  // no transport: an ODE at each point (eq. 54b)
    if (std::find(edges.edges[k].begin(), edges.edges[k].end(), Edge::leading) == edges.edges[k].end())
      throw InvalidInput(fmt::format(
          "{}: the family {} moves (max speed {:.6g} m/s) but has no leading edge on the patch boundary (eqs. 48-50): "
          "its boundary condition never applies and the problem is not determined",
          prefix, to_string(kFamilies[k]), edges.max_speed[k]));
  }
}

Eq84Check check_eq84(const PatchGeometry& geometry, const PatchKinematics& kin, int samples) {
  if (samples < 2) throw InvalidInput(fmt::format("samples = {}: must be >= 2", samples));
  if (samples > kMaxEq84Samples)
    throw InvalidInput(fmt::format("samples = {}: at most {} per axis (samples^2 points)", samples, kMaxEq84Samples));
  Eq84Check out{-std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (int i = 0; i < samples; ++i) {
    poll_interrupt(static_cast<unsigned long>(samples));  // a row of samples points
    const double xi = -1.0 + 2.0 * (i + 0.5) / samples;
    const double x = geometry.a() * xi;
    const double w = geometry.half_width(x);
    for (int j = 0; j < samples; ++j) {
      const Vec2 p(x, w * (-1.0 + 2.0 * (j + 0.5) / samples));
      const Vec2 g = geometry.pressure_gradient(p);  // div V_i = 0 for rigid motions
      out.max_div_pV1 = std::max(out.max_div_pV1, g.dot(kin.body1.velocity(p)));
      out.max_div_pV2 = std::max(out.max_div_pV2, g.dot(kin.body2.velocity(p)));
    }
  }
  return out;
}

}  // namespace bristle::patch
