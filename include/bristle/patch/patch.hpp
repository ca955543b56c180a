#pragma once
// The two-dimensional contact patch (paper 1, §4, eqs. 33-51; App. A-B, eqs. 84-85).
//
// State at a point x of the patch C: u = [f; zeta1; zeta2] (eq. 33), advected by
//   du/dt + Lambda_x du/dx + Lambda_y du/dy = h(u, x, t)                                     eq. 33
//   Lambda = blockdiag(S1 V1 + S2 V2, I V1, I V2) . grad                                      eq. 34
// with the pointwise source h of the contact model (eq. 35, contact::ContactModel::source). In the
// Riemann variables u~ = Q^T u (eq. 45), f~ = R^T f with R the rotation by theta (eq. 41):
//   f~_1 moves with V~1 = lambda1(S1) V1 + lambda1(S2) V2,  f~_2 with V~2 = lambda2(S1) V1 + ...   eq. 43
//   zeta1 moves with V1, zeta2 with V2                                                            eq. 47
// Each of these four "families" is zero on its own leading edge (eqs. 48-50): the boundary points
// where (V - V_dC) . n < 0.
//
// Kinematics (contact frame, x longitudinal, y lateral, z vertical): each body's material moves
// rigidly with a translation and a spin about the vertical axis,
//   V_i(x) = V_i0 + omega_i e_z x x = V_i0 + omega_i [-y, x]
// and the rigid relative velocity is v_r = v_1(x_1) - v_2(x_2) = V_1(x_1) - V_2(x_2) with
//   x_1 = x - S2 z + S0 zeta,  x_2 = x + S1 z + S0 zeta                                         eqs. 27, 29
// (the S-corrections, switchable; without them v_r = V1(x) - V2(x)). Rolling along x at speed V_r
// with creep (v_x, v_y) and spin omega of body 1 is V1 = (-V_r, 0), V2 = (-(V_r + v_x), -v_y),
// omega_1 = omega: v_r = (v_x - omega y, v_y + omega x) (the errata's convention for §5.2).
//
// Forces (eq. 36), moment with the phi correction (eqs. 37-38) and without it (eq. 39):
//   F = int p f dA,   M_z = int p [(x + phi_x) f_y - (y + phi_y) f_x] dA,
//   phi = (S1 - S2) z + 2 S0 zeta.
// Storage (eq. 85): W = int p w(u) dA with w the contact pair's stored energy per unit pressure.
// Passivity (Lemma B.1) needs div(p V_i) <= 0 on C (eq. 84); check_eq84 evaluates it.
//
// Geometry: the patch is described by a half-length a along x and a half-width function w(x), so
// that C = {|x| <= a, |y| <= w(x)}: rectangle w = b, ellipse w = b sqrt(1 - (x/a)^2). The solver
// works on the square (xi, eta) in [-1, 1]^2 through the level-preserving map (App. A.1)
//   x = a xi,  y = w(a xi) eta,
// in which the transported fields keep their form with velocities W = (V . grad) Phi (eq. 63c).
//
// | key              | meaning                                       | unit | range                     |
// |------------------|-----------------------------------------------|------|---------------------------|
// | shape            | "rectangle" or "ellipse"                      | -    |                           |
// | length_m         | extent along x (2a)                           | m    | > 0                       |
// | width_m          | extent along y (2b)                           | m    | > 0, length/width in      |
// |                  |                                               |      | [1e-3, 1e3]               |
// | pressure         | "uniform", "parabolic", "hertzian"            | -    |                           |
// | normal_load_N    | F_z = int p dA                                | N    | > 0                       |
// | peak_pressure_Pa | optional p_0; must give int p dA = F_z         | Pa   | > 0                       |
// | nx, ny           | cells along xi and eta                        | -    | nx >= 4, ny >= 2          |
// | tolerance        | Gauss-Seidel convergence (max change / scale) | -    | (0, 1e-3]                 |
// | max_sweeps       | sweep limit before SolverError                | -    | >= 1                      |
// Pressure shapes (p = p_0 g): uniform g = 1; parabolic g = 1 - rho^2; hertzian g = sqrt(1 - rho^2),
// with rho = |x|/a on a rectangle (a cylinder's pressure, uniform across the width) and
// rho^2 = (x/a)^2 + (y/b)^2 on an ellipse.
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/contact/contact_model.hpp"
#include "bristle/core/schema.hpp"
#include "bristle/core/types.hpp"

namespace bristle::patch {

namespace detail {
class EnergySplit;
}

enum class PatchShape { rectangle, ellipse };
std::string_view to_string(PatchShape shape);
PatchShape patch_shape_from_string(std::string_view key, std::string_view name);

enum class PatchPressure { uniform, parabolic, hertzian };
std::string_view to_string(PatchPressure kind);
PatchPressure patch_pressure_from_string(std::string_view key, std::string_view name);

struct PatchParams {
  PatchShape shape = PatchShape::rectangle;
  double length_m = 0.1;                   // 2a
  double width_m = 0.05;                   // 2b
  PatchPressure pressure = PatchPressure::uniform;
  double normal_load_N = 3000.0;           // F_z
  std::optional<double> peak_pressure_Pa;  // p_0 if the user states it: checked against F_z
  int nx = 100, ny = 20;                   // cells on the mapped square
  double tolerance = 1e-10;                // steady Gauss-Seidel: max |change| / max(|u|, tiny)
  int max_sweeps = 400;

  void validate(std::string_view prefix) const;
};

/// The schema of PatchParams, the [patch] table (core/schema.hpp); `steady`: the keys of the steady solver
/// (tolerance, max_sweeps) apply. The cross-checks (aspect ratio, p_0 against the load, nx ny <= 4e6) are
/// validate()'s.
template <class Archive, schema::Of<PatchParams> Self>
void serialize(Archive& a, Self& p, bool steady) {
  using schema::Type;
  a.choice(p.shape, {.key = "shape", .type = Type::choice, .default_value = "rectangle",
                     .doc = "shape of the contact area C", .equation = "paper 1, §4", .choices = "rectangle, ellipse"});
  a.number(p.length_m, {.key = "length_m", .unit = "m", .default_value = "required", .range = schema::positive(),
                        .doc = "extent 2a along x (rolling direction); length/width in [1e-3, 1e3]", .log_scale = true});
  a.number(p.width_m, {.key = "width_m", .unit = "m", .default_value = "required", .range = schema::positive(),
                       .doc = "extent 2b along y", .log_scale = true});
  a.choice(p.pressure, {.key = "pressure", .type = Type::choice, .default_value = "uniform",
                        .doc = "normal pressure distribution p(x)", .choices = "uniform, parabolic, hertzian"});
  a.number(p.normal_load_N, {.key = "normal_load_N", .unit = "N", .default_value = "required",
                             .range = schema::positive(),
                             .doc = "normal load F_z = int p dA, at most 1e9 N (transient: the reference F_z0)",
                             .log_scale = true});
  a.declared({.key = "peak_pressure_Pa", .unit = "Pa", .default_value = "from the load", .range = schema::positive(),
              .doc = "p_0 if stated: must integrate to normal_load_N", .log_scale = true},
             p.peak_pressure_Pa.has_value());
  a.integer(p.nx, {.key = "nx", .type = Type::integer, .default_value = "100", .range = schema::integer_in(1, 100000),
                   .doc = "cells along x on the mapped square, >= 4 (nx ny <= 4e6)"});
  a.integer(p.ny, {.key = "ny", .type = Type::integer, .default_value = "20", .range = schema::integer_in(1, 100000),
                   .doc = "cells along y on the mapped square, >= 2"});
  a.number(p.tolerance, {.key = "tolerance", .default_value = "1e-10", .range = schema::half_open(0, 1e-3),
                         .doc = "steady Gauss-Seidel: max |change| / max |u|", .used_by = "patch_steady_map",
                         .log_scale = true, .numerics = true},
           steady);
  a.integer(p.max_sweeps, {.key = "max_sweeps", .type = Type::integer, .default_value = "400",
                           .range = schema::integer_in(1, 100000), .doc = "Gauss-Seidel sweeps at most",
                           .used_by = "patch_steady_map"},
            steady);
}

/// Shape and pressure of the patch in physical coordinates (no grid).
class PatchGeometry {
 public:
  explicit PatchGeometry(const PatchParams& params, std::string_view prefix = "patch");
  double a() const { return a_; }
  double b() const { return b_; }
  PatchShape shape() const { return shape_; }
  /// Half-width w(x) and its derivative dw/dx.
  double half_width(double x) const;
  double half_width_slope(double x) const;
  bool contains(const Vec2& x) const;
  double area() const;
  /// p(x) in Pa (0 outside), normalised so that int p dA = F_z analytically; and grad p.
  double pressure(const Vec2& x) const;
  Vec2 pressure_gradient(const Vec2& x) const;
  double peak_pressure() const { return p0_; }
  PatchPressure pressure_kind() const { return kind_; }
  double normal_load() const { return load_; }
  /// n equally spaced (in the boundary parameter) points of dC with their outward unit normals.
  struct BoundaryPoint {
    Vec2 x, normal;
  };
  std::vector<BoundaryPoint> boundary(int n) const;

 private:
  PatchShape shape_;
  PatchPressure kind_;
  double a_, b_, p0_, load_;
};

/// One body's rigid motion in the contact frame: V(x) = V0 + omega e_z x x.
struct BodyMotion {
  Vec2 V0_mps = Vec2::Zero();
  double omega_radps = 0.0;
  Vec2 velocity(const Vec2& x) const { return {V0_mps[0] - omega_radps * x[1], V0_mps[1] + omega_radps * x[0]}; }
};

struct PatchKinematics {
  BodyMotion body1, body2;
  bool s_corrections = true;  // eq. 29 with x1, x2 of eq. 27 (false: v_r = V1(x) - V2(x))
  void validate(std::string_view prefix) const;
};

/// The schemas of BodyMotion and PatchKinematics (core/schema.hpp).
template <class Archive, schema::Of<BodyMotion> Self>
void serialize(Archive& a, Self& b) {
  a.vector(b.V0_mps, {.key = "V0_mps", .type = schema::Type::vector, .unit = "m/s", .default_value = "[0, 0]",
                      .range = schema::finite(), .doc = "velocity of the body's point at the origin",
                      .equation = "paper 1, eq. 29"});
  a.number(b.omega_radps, {.key = "omega_radps", .unit = "rad/s", .default_value = "0", .range = schema::finite(),
                           .doc = "spin about e_z: V(x) = V0 + omega e_z x x", .equation = "paper 1, eq. 29"});
}
template <class Archive, schema::Of<PatchKinematics> Self>
void serialize(Archive& a, Self& k) {
  using schema::Type;
  a.table({.key = "body1", .type = Type::table, .default_value = "at rest", .doc = "rigid motion of body 1"},
          [&](auto& b) { serialize(b, k.body1); });
  a.table({.key = "body2", .type = Type::table, .default_value = "at rest", .doc = "rigid motion of body 2"},
          [&](auto& b) { serialize(b, k.body2); });
  a.flag(k.s_corrections, {.key = "s_corrections", .type = Type::flag, .default_value = "true",
                           .doc = "v_r of eq. 29 at the points of eq. 27 (false: V1(x) - V2(x))",
                           .equation = "paper 1, eqs. 27, 29"});
}

/// Rolling along x: V1 = (-V_r, 0), omega1 = spin; V2 = (-(V_r + v_x), -v_y). See the header comment.
PatchKinematics rolling(double V_r, double v_x, double v_y, double spin_radps, bool s_corrections = true);

/// Rigid relative velocity of eq. 29 at x for the state u (S-corrections per kinematics).
Vec2 relative_velocity(const contact::ContactModel& model, const PatchKinematics& kin, const Vec2& x,
                       const double* u);

/// Riemann decomposition (eqs. 41, 44): R rotates the axes onto the principal directions of S1
/// (theta = atan2(2 s1xy, s1xx - s1yy) / 2; the paper's eq. 41 prints 2 s1xx in the numerator, a typo:
/// the rotation diagonalising a symmetric matrix uses the off-diagonal entry), lambda1 >= lambda2.
struct Riemann {
  double theta = 0.0;
  Mat2 R = Mat2::Identity();
  Vec2 lambda_S1 = Vec2::Zero(), lambda_S2 = Vec2::Zero();  // (lambda1, lambda2) of S1 and S2 (eq. 44)
};
Riemann riemann(const rheology::ContactPair& pair);

/// The four transported families of eq. 47: f~1 (V~1), f~2 (V~2), zeta1 (V1), zeta2 (V2).
enum class Family { f1, f2, zeta1, zeta2 };
inline constexpr std::array<Family, 4> kFamilies{Family::f1, Family::f2, Family::zeta1, Family::zeta2};
std::string_view to_string(Family family);
/// Transport velocity of a family at x (eqs. 43a-b for f~, eq. 34 for zeta).
Vec2 family_velocity(const Riemann& r, const PatchKinematics& kin, Family family, const Vec2& x);

enum class Edge { leading, neutral, trailing };  // eqs. 48-49
std::string_view to_string(Edge edge);
struct EdgeMap {
  std::vector<PatchGeometry::BoundaryPoint> points;
  std::array<std::vector<Edge>, 4> edges;       // per family, per boundary point
  std::array<double, 4> max_speed{};            // max |V| of the family over the boundary and centre
};
/// Classifies boundary samples per family: (V - V_dC) . n < 0 leading, > 0 trailing, |.| <= tol *
/// max speed neutral (V_dC = boundary_velocity, zero for a fixed patch). Eqs. 48-49. InvalidInput unless
/// 4 <= samples <= kMaxEdgeSamples (the EdgeMap holds ~50 bytes a sample) and 0 <= tol < 1.
inline constexpr int kMaxEdgeSamples = 1'000'000;
EdgeMap classify_edges(const PatchGeometry& geometry, const Riemann& r, const PatchKinematics& kin, int samples = 720,
                       double tol = 1e-9);
/// Throws InvalidInput if a family that moves (max speed > 0) has no leading edge: its boundary
/// condition (eq. 50) would never be applied and the steady problem is not determined.
void require_leading_edges(const EdgeMap& edges, const contact::ContactModel& model, std::string_view prefix);

/// Eq. 84 for the given fields: max over a grid of the patch of div(p V_i) = grad p . V_i (rigid
/// motions are divergence free), i = 1, 2, in Pa m/s per m. Satisfied when <= 0.
struct Eq84Check {
  double max_div_pV1 = 0.0, max_div_pV2 = 0.0;
  bool satisfied(double tol = 0.0) const { return max_div_pV1 <= tol && max_div_pV2 <= tol; }
};
/// InvalidInput unless 2 <= samples <= kMaxEq84Samples (samples^2 points, ~50 ns each: 1e8 ~ 5 s).
inline constexpr int kMaxEq84Samples = 10'000;
Eq84Check check_eq84(const PatchGeometry& geometry, const PatchKinematics& kin, int samples = 101);

/// Results of a steady solve.
struct SteadyPatch {
  Vec2 force_N = Vec2::Zero();  // eq. 36
  double Mz_Nm = 0.0;           // eq. 38 (with phi)
  double Mz_no_phi_Nm = 0.0;    // eq. 39
  double stored_energy_J = 0.0;        // eq. 85
  double supplied_power_W = 0.0;       // -int p f_out . v_r dA
  double dissipated_power_W = 0.0;     // int p D(u) dA (D of ContactModel::dissipation_rate)
  // Energy budget (docs/patch.md): dW/dt = P_supplied - D - Phi_out + Gamma = 0 at steady state.
  double outflow_power_W = 0.0;      // Phi_out: storage carried out through the trailing edges (>= 0)
  double compression_power_W = 0.0;  // Gamma = sum_k int div(p c_k) w_k dA (0 for uniform p, <= 0 by eq. 84)
  double budget_residual_W = 0.0;    // P_supplied - D - Phi_out + Gamma (discretisation error)
  int sweeps = 0;
  long newton_steps = 0;               // node Newton steps over all sweeps (source evaluations)
};

/// The steady state of the patch at fixed kinematics:
///   W_xi du~_k/dxi + W_eta du~_k/deta = h~_k(u~)   on (-1, 1)^2, u~_k = 0 on the family's leading edge
/// discretised on nx x ny cell centres by second-order upwind differences (three-point backward
/// formulas; the boundary value enters at the face, half a cell away) and solved by Gauss-Seidel
/// sweeps, each node's components together by Newton with the source Jacobian. When the sweep order
/// follows every family's flow, a sweep is forward substitution: each node is solved to the tolerance
/// (chord iteration in v_r) and one sweep is the steady state; otherwise the sweeps alternate
/// direction with one Newton step per node until a sweep's change is below the tolerance. Forces by
/// the midpoint rule with the pressure's cell weights normalised so that they sum to F_z; the energy
/// budget's terms as in docs/patch.md.
class PatchSolver {
 public:
  PatchSolver(const contact::ContactModel& model, const PatchParams& params);

  /// Solves at the given kinematics (warm-starting from the previous solution when `warm` is true).
  SteadyPatch solve(const PatchKinematics& kin, bool warm = false);

  /// Derivatives of the last solve()'s F_x, F_y, M_z (eq. 38) and M_z without phi (eq. 39) (rows, in that order)
  /// with respect to parameters p_j that change only the pointwise source and friction, not the transport:
  /// the implicit-function derivative of the discrete steady equations (the stencil's W . grad u~ = h~(u~; p)),
  ///   (diag(d) - dh~/du~) S_n + sum_k wt_k S_nb(k) = dh~/dp,     dF/dp = sum_n load_n (do/du~ S_n + do/dp),
  /// solved node by node in the forward-substitution order of the sweep (S_n = du~_n/dp). `perturbed[j]` are
  /// the model at p_j + dp_j and at p_j - dp_j; dh~/dp and do/dp are central differences of those pointwise
  /// functions at the solution, dh~/du~ and do/du~ central differences in u~ (step 1e-6 of the state's scale):
  /// smooth functions, error ~1e-10 relative, no solver noise. nullopt where it does not apply: a sweep that
  /// is not forward substitution (mixed flow directions), or a perturbed model whose pair changes the transport
  /// (S0, S1, S2; K0bar^-1 and Cbar when v_r depends on the state).
  std::optional<MatX> output_derivatives(const std::vector<std::array<const contact::ContactModel*, 2>>& perturbed,
                                         const std::vector<double>& dp) const;

  int nx() const { return nx_; }
  int ny() const { return ny_; }
  int components() const { return m_; }
  /// Node (i, j) in physical coordinates, its area weight (m^2) and pressure weight (N).
  Vec2 node(int i, int j) const { return x_[idx(i, j)]; }
  double area_weight(int i, int j) const { return area_[idx(i, j)]; }
  double load_weight(int i, int j) const { return load_[idx(i, j)]; }
  /// The state at node (i, j) in the original variables u = [f; zeta1; zeta2].
  VecX state(int i, int j) const;
  /// Quadrature of the analytic pressure on the grid minus F_z, relative (a measure of the grid).
  double load_quadrature_error() const { return load_quadrature_error_; }
  const PatchGeometry& geometry() const { return geometry_; }
  const PatchParams& params() const { return params_; }
  const Riemann& riemann_decomposition() const { return riemann_; }
  const contact::ContactModel& model() const { return model_; }

  /// One family's discrete W . grad u~ at a node: diag u~_node + sum wt[k] u~[nb[k]] (nb < 0 unused;
  /// the boundary value 0 of eq. 50 drops out).
  struct Stencil {
    double diag = 0.0;
    std::array<int, 4> nb{-1, -1, -1, -1};
    std::array<double, 4> wt{0.0, 0.0, 0.0, 0.0};
  };

 private:
  int idx(int i, int j) const { return i * ny_ + j; }
  void prepare(const PatchKinematics& kin);
  /// One Gauss-Seidel sweep; every node's equation solved to the tolerance in at most `node_steps`
  /// Newton steps (nodes_converged: all were). `scale` is the running max |u~| of the node criterion;
  /// returns the largest change of a node over the sweep.
  double sweep(int direction, int node_steps, double& scale, bool& nodes_converged);
  /// One Newton step at node n (upstream part of the stencil in rhs_, diagonal in d_); false if not finite.
  /// `fresh`: form the Jacobian (else reuse the node's previous one).
  bool newton_step(int n, double* ut, double& change, bool fresh);
  static constexpr int kNodeIterations = 30;
  SteadyPatch integrate(const PatchKinematics& kin) const;

  const contact::ContactModel& model_;
  PatchParams params_;
  PatchGeometry geometry_;
  Riemann riemann_;
  int nx_, ny_, m_;
  std::vector<int> family_of_;     // component -> family index
  std::vector<Vec2> x_;            // node positions
  std::vector<double> xi_, eta_;   // mapped coordinates of the cell centres
  std::vector<double> area_, load_;
  double load_quadrature_error_ = 0.0;
  double load_scale_ = 1.0;  // cell loads = load_scale_ p(x) x area (normalised to sum to F_z)
  std::vector<std::array<Stencil, 4>> stencils_;  // per node and family
  int xi_sign_ = 2;                                // +-1: every family flows that way along xi; else mixed
  std::vector<int> col_sign_;                      // the same along eta, per column
  std::vector<double> ut_;  // Riemann state u~, node-major
  // workspace
  MatX Q_, J_, Jt_, A_;
  VecX u_, h_, ht_, rhs_, d_, delta_, start_;
  Mat2 A_inv2_ = Mat2::Identity();
  // v_r = vr_rigid0_ + vr_spin_ e_z x x + G_ u~ (eq. 29, affine in the state; set by prepare)
  Vec2 vr_rigid0_ = Vec2::Zero();
  double vr_spin_ = 0.0;
  Mat2X G_;
  Mat2 G2_ = Mat2::Zero();
  bool vr_linear_ = false;
  Vec2 rigid_relative_velocity(int n) const {
    const Vec2& x = x_[n];
    return {vr_rigid0_[0] - vr_spin_ * x[1], vr_rigid0_[1] + vr_spin_ * x[0]};
  }  // elastic pairs: (diag(d) - J~)^-1 of the node
  bool source_affine_ = false;  // h affine in u at fixed v_r (transport::source_is_affine)
  double node_budget_ = 1.0;    // share of the tolerance left to one node's estimated error
  long newton_steps_ = 0;
  bool exact_step_ = false;     // ... and v_r independent of u at these kinematics: one Newton step is exact
  Eigen::PartialPivLU<MatX> lu_;
  std::shared_ptr<const detail::EnergySplit> energy_split_;  // storage by family (src/patch/budget.hpp)
};

/// Steady solutions at many operating points (a force-and-moment map). The points are taken in
/// chains of `chain_length` consecutive points (the last chain may be shorter; 0: one chain of all
/// points): a chain is solved in order by one PatchSolver, its first point from the unloaded state and
/// every further point warm-started from its predecessor, exactly as a serial loop calling
/// solve(kin, i > 0) would. Chains are independent and run on `threads` workers (0: every core), each
/// with its own solver, so the results are bit-identical for any number of threads. The model must be
/// safe to evaluate from several threads (a law calling back into Python is not: use threads = 1).
/// Errors: the failing point with the lowest index, its message followed by "(operating point k)".
/// `progress`, if set, is called with the number of points solved so far, from the calling thread (which
/// then only polls, every 100 ms, while the workers solve; an exception from it stops them and is rethrown).
std::vector<SteadyPatch> solve_steady_map(const contact::ContactModel& model, const PatchParams& params,
                                          const std::vector<PatchKinematics>& points, std::size_t chain_length,
                                          int threads = 0,
                                          const std::function<void(std::size_t points_done)>& progress = {});

}  // namespace bristle::patch
