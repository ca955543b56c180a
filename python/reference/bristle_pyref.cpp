// bristle_pyref: reference values computed by the C++ library directly, for the Python tests that
// check the bindings return the same doubles bit for bit (tests/python/test_bitwise.py builds the same
// inputs through the Python module). Every number is printed with 17 significant digits, which reads
// back to the same double.
//
//   bristle_pyref steady_line      label j i Fx Fy exact   (sliding Table 1, rolling Table 2, Bouc-Wen)
//   bristle_pyref lumped_steady    j i Fx Fy               (friction(steady_state(v)) for a few laws)
//   bristle_pyref bench            t x v F z               (LuGre on a GKV body, velocity-driven sine)
//   bristle_pyref line_transient   t Fx W                  (Table 1 sliding, n = 2, 40 cells)
//   bristle_pyref frbd_general     tag ...                 (FrBD with a user G^-1: steady forces, a bench run)
//   bristle_pyref directional      tag ...                 (paper 2: coefficients, V_eps, loops, sliding force,
//                                                           crawler)
//   bristle_pyref structures       tag ...                 (paper 3: kernels, steppers, stick-slip)
//   bristle_pyref patch            tag ...                 (paper 1, §4: steady and transient 2-D patch)
//
// The inputs are documented next to each mode and repeated in the test.
#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include <cmath>

#include "bristle/contact/bench.hpp"
#include "bristle/directional/crawler.hpp"
#include "bristle/directional/drive.hpp"
#include "bristle/directional/mechanism.hpp"
#include "bristle/structures/kernels.hpp"
#include "bristle/structures/modal_model.hpp"
#include "bristle/structures/reduced_model.hpp"
#include "bristle/structures/stick_slip.hpp"
#include "bristle/contact/contact_model.hpp"
#include "bristle/core/error.hpp"
#include "bristle/patch/patch.hpp"
#include "bristle/patch/transient.hpp"
#include "bristle/rheology/contact_pair.hpp"
#include "bristle/rheology/rheology.hpp"
#include "bristle/transport/line_contact.hpp"

namespace {

using namespace bristle;

laws::LawParams frbd(double mu_s, double mu_d, double v_s, double delta_s, double eps) {
  laws::LawParams p;
  p.kind = laws::LawKind::frbd;
  p.M.axis1 = laws::StribeckParams{mu_s, mu_d, v_s, delta_s, 0.0};
  p.eps = eps;
  return p;
}

std::vector<double> first(const std::vector<double>& v, int n) { return {v.begin(), v.begin() + n}; }

// Table 1 (sliding): k01 = 240, block c = 100, 50, tau 0.1; substrate k02 from s, c from eq. 58, tau 0.1.
contact::ContactModel sliding_model(double s, int n) {
  const double k01 = 240.0, k02 = rheology::substrate_stiffness_from_s("s", s, k01);
  const double c2 = 0.1 * k01 * (1.0 - s) / s;
  return contact::ContactModel(frbd(1.0, 0.7, 6.0, 2.0, 0.0),
                               rheology::gkv(k01, first({100.0, 50.0}, n), first({0.1, 0.1}, n)),
                               rheology::gkv(k02, first({c2, c2}, n), first({0.1, 0.1}, n)));
}

// Table 2 (rolling): cylinder c = 72, 78, tau 0.1; substrate c = 18, 21.6, tau 0.3.
contact::ContactModel rolling_model(double s, int n) {
  const double k01 = 240.0, k02 = rheology::substrate_stiffness_from_s("s", s, k01);
  return contact::ContactModel(frbd(1.2, 0.7, 3.49, 0.6, 1e-12),
                               rheology::gkv(k01, first({72.0, 78.0}, n), first({0.1, 0.1}, n)),
                               rheology::gkv(k02, first({18.0, 21.6}, n), first({0.3, 0.3}, n)));
}

transport::LineContactParams line(double L, double Fz) {
  transport::LineContactParams p;
  p.L_m = L;
  p.normal_load_N = Fz;
  return p;
}

void print_steady(const char* label, int j, int i, const transport::SteadyLine& st) {
  std::printf("%s %d %d %.17g %.17g %d\n", label, j, i, st.force_N[0], st.force_N[1], st.exact ? 1 : 0);
}

void steady_line() {
  // sliding: j = 3 * (s index) + n over s = 0.2, 0.4, 0.6, 0.8 and n = 0, 1, 2; V1 = 0, V2 = V.
  const std::vector<double> s_values{0.2, 0.4, 0.6, 0.8}, V{0.01, 0.1, 1.0, 3.0, 10.0, 30.0};
  int j = 0;
  for (double s : s_values)
    for (int n = 0; n <= 2; ++n, ++j) {
      const auto model = sliding_model(s, n);
      for (std::size_t i = 0; i < V.size(); ++i)
        print_steady("sliding", j, static_cast<int>(i), transport::steady_state(model, line(0.2, 10.0), 0.0, V[i]));
    }
  // rolling: V1 = 16, V2 = 16 + v_x.
  const std::vector<double> vx{-3.2, -0.5, 0.5, 3.2};
  j = 0;
  for (double s : s_values)
    for (int n = 0; n <= 2; ++n, ++j) {
      const auto model = rolling_model(s, n);
      for (std::size_t i = 0; i < vx.size(); ++i)
        print_steady("rolling", j, static_cast<int>(i),
                     transport::steady_state(model, line(0.1, 3000.0), 16.0, 16.0 + vx[i]));
    }
  // Bouc-Wen (not affine: the adaptive solver in xi), elastic pair s = 0.5, parabolic pressure.
  laws::LawParams bw;
  bw.kind = laws::LawKind::bouc_wen;
  bw.A = 1.0;
  bw.beta1 = 2.0e4;
  bw.beta2 = 0.0;
  bw.gamma = 1.0e4;
  const contact::ContactModel model(bw, rheology::elastic(240.0), rheology::elastic(240.0));
  transport::LineContactParams p = line(0.2, 10.0);
  p.pressure.kind = transport::PressureKind::parabolic;
  const std::vector<double> Vb{0.05, 0.5, 2.0};
  for (std::size_t i = 0; i < Vb.size(); ++i)
    print_steady("bouc_wen", 0, static_cast<int>(i), transport::steady_state(model, p, 0.0, Vb[i]));
}

void lumped_steady() {
  // j = 0: Table 1 sliding model s = 0.4, n = 2; j = 1: LuGre (mu_s 1.5, mu_d 1, v_s 1e-3, sigma1 316.2,
  // sigma2 0.4) on an elastic body k0 = 1e5 over a rigid substrate. v = (v_x, v_y) below.
  laws::LawParams lugre;
  lugre.kind = laws::LawKind::lugre;
  lugre.M.axis1 = laws::StribeckParams{1.5, 1.0, 1e-3, 2.0, 0.0};
  lugre.sigma1 = 316.2 * Mat2::Identity();
  lugre.sigma2 = 0.4 * Mat2::Identity();
  const std::vector<contact::ContactModel> models{
      sliding_model(0.4, 2), contact::ContactModel(lugre, rheology::elastic(1e5), rheology::rigid())};
  const std::vector<Vec2> v{Vec2(1e-4, 0.0), Vec2(2e-3, 0.0), Vec2(-0.3, 0.1), Vec2(1.0, -2.0)};
  for (std::size_t j = 0; j < models.size(); ++j)
    for (std::size_t i = 0; i < v.size(); ++i) {
      const Vec2 f = 3.0 * models[j].friction(models[j].steady_state(v[i]).data(), v[i]);
      std::printf("%d %d %.17g %.17g\n", static_cast<int>(j), static_cast<int>(i), f[0], f[1]);
    }
}

void bench() {
  // LuGre as above on gkv(1e5, c = [50], tau = [0.01]) over a rigid substrate; velocity drive
  // v = 1e-3 + 2e-3 sin(20 t) m/s, normal load 2 N; CVODE rtol 1e-9, atol 1e-14; outputs t = 0, 0.01, ..., 0.5.
  laws::LawParams lugre;
  lugre.kind = laws::LawKind::lugre;
  lugre.M.axis1 = laws::StribeckParams{1.5, 1.0, 1e-3, 2.0, 0.0};
  lugre.sigma1 = 316.2 * Mat2::Identity();
  lugre.sigma2 = 0.4 * Mat2::Identity();
  const contact::ContactModel model(lugre, rheology::gkv(1e5, {50.0}, {0.01}), rheology::rigid());
  contact::BenchParams bp;
  bp.drive = contact::DriveKind::velocity;
  bp.input_x.kind = contact::SignalKind::sine;
  bp.input_x.offset = 1e-3;
  bp.input_x.amplitude = 2e-3;
  bp.input_x.omega = 20.0;
  bp.normal_load = contact::Signal::constant_value(2.0);
  const contact::Bench bench(model, bp);
  integrate::Options o;
  o.rtol = 1e-9;
  o.atol = 1e-14;
  std::vector<double> times;
  for (int k = 0; k <= 50; ++k) times.push_back(0.01 * k);
  const auto run = contact::run(bench, times, o);
  const auto& s = run.series;
  for (std::size_t r = 0; r < s.rows(); ++r)
    std::printf("%.17g %.17g %.17g %.17g %.17g\n", s.column("t_s")[r], s.column("x_m")[r], s.column("v_mps")[r],
                s.column("F_N")[r], s.column("z_m")[r]);
}

void line_transient() {
  // Table 1 sliding model s = 0.4, n = 2; L = 0.2 m, F_z = 10 N, 40 cells, V1 = 0, V2 = 0.3 m/s;
  // from rest, outputs t = 0, 0.05, ..., 1.
  const auto model = sliding_model(0.4, 2);
  transport::LineContactParams p = line(0.2, 10.0);
  p.cells = 40;
  p.V2 = contact::Signal::constant_value(0.3);
  transport::LineContact lc(model, p);
  std::vector<double> times;
  for (int k = 0; k <= 20; ++k) times.push_back(0.05 * k);
  const auto run = transport::run(lc, times, {});
  const auto& s = run.series;
  for (std::size_t r = 0; r < s.rows(); ++r)
    std::printf("%.17g %.17g %.17g\n", s.column("t_s")[r], s.column("Fx_N")[r], s.column("W_J")[r]);
}


void print_row(const char* tag, const std::vector<double>& values) {
  std::printf("%s", tag);
  for (double v : values) std::printf(" %.17g", v);
  std::printf("\n");
}

void print_columns(const char* tag, const TimeSeries& s, const std::vector<std::string>& names) {
  for (std::size_t r = 0; r < s.rows(); ++r) {
    std::vector<double> row;
    for (const auto& n : names) row.push_back(s.column(n)[r]);
    print_row(tag, row);
  }
}

void frbd_general() {
  // FrBD general form with G^-1(v) = (0.5 + ||v||) [[1, 0.1], [0.1, 2]] (m/s), on gkv(240, c = [100], tau = [0.1])
  // over elastic(600). Steady friction at v below (normal load 2 N), and a velocity-driven bench
  // v = 0.2 + 0.3 sin(5 t) m/s, normal load 1 N, CVODE rtol 1e-9 atol 1e-12, t = 0, 0.05, ..., 1.
  laws::LawParams p = frbd(1.0, 0.7, 6.0, 2.0, 0.0);
  p.G_inverse = [](const Vec2& v) {
    const double g = 0.5 + std::sqrt(v[0] * v[0] + v[1] * v[1]);
    Mat2 m;
    m << g * 1.0, g * 0.1, g * 0.1, g * 2.0;
    return m;
  };
  const contact::ContactModel model(p, rheology::gkv(240.0, {100.0}, {0.1}), rheology::elastic(600.0));
  const std::vector<Vec2> v{Vec2(0.01, 0.0), Vec2(0.3, -0.2), Vec2(-2.0, 1.0)};
  for (const auto& vi : v) {
    const Vec2 f = 2.0 * model.friction(model.steady_state(vi).data(), vi);
    print_row("steady", {f[0], f[1]});
  }
  contact::BenchParams bp;
  bp.drive = contact::DriveKind::velocity;
  bp.input_x.kind = contact::SignalKind::sine;
  bp.input_x.offset = 0.2;
  bp.input_x.amplitude = 0.3;
  bp.input_x.omega = 5.0;
  bp.normal_load = contact::Signal::constant_value(1.0);
  const contact::Bench bench(model, bp);
  integrate::Options o;
  o.rtol = 1e-9;
  o.atol = 1e-12;
  std::vector<double> times;
  for (int k = 0; k <= 20; ++k) times.push_back(0.05 * k);
  const auto run = contact::run(bench, times, o);
  print_columns("bench", run.series, {"t_s", "x_m", "F_N"});
}

void directional_ref() {
  namespace dir = bristle::directional;
  // Symmetric sine omega_+- = +-0.5 and the ratchet r = 1/4 (A = 0.5/(2 pi)); the three default mechanisms.
  dir::ProfileParams sine;
  sine.kind = dir::ProfileKind::sine;
  sine.amplitude = 0.5 / (2.0 * 3.14159265358979323846);
  dir::ProfileParams ratchet = sine;
  ratchet.kind = dir::ProfileKind::ratchet;
  ratchet.asymmetry = 0.25;
  for (const auto& pp : {sine, ratchet}) {
    const dir::Profile w(pp);
    print_row("profile", {w.omega_plus(), w.omega_minus(), w.w_max(), w.w_min()});
    for (auto kind : {dir::MechanismKind::vertical, dir::MechanismKind::slanted, dir::MechanismKind::angular}) {
      dir::MechanismParams mp;
      mp.kind = kind;
      const dir::Mechanism m(mp, w);
      const auto& l = m.limit();
      print_row("limit", {l.alpha, l.a, l.mu_plus, l.mu_minus, l.rho_plus, l.rho_minus, m.gap(), m.epsilon_max()});
    }
  }
  // V_eps of the slanted spring on the sine at eps = 0.01, z = -0.3 .. 0.3.
  dir::MechanismParams slanted;
  slanted.kind = dir::MechanismKind::slanted;
  const dir::Mechanism ms(slanted, dir::Profile(sine));
  const dir::WigglyPotential V(ms, 0.01);
  for (int k = 0; k <= 6; ++k) {
    const auto pt = V.at(-0.3 + 0.1 * k);
    print_row("potential", {pt.p, pt.y, pt.V, pt.dV, pt.d2V});
  }
  // Loops: triangle 0 -> 0.8 -> -0.8 -> 0 (period 2 s, 1 cycle), k_h = 1, eps = 0.05, gamma = 1; t = 0, 0.1, .., 2.
  const dir::Loading q = dir::Loading::triangle(0.0, 0.8, 2.0, 1.0);
  dir::DriveParams drive;
  std::vector<double> times;
  for (int k = 0; k <= 20; ++k) times.push_back(0.1 * k);
  const auto eloop = dir::epsilon_loop(ms, {0.05, 1.0}, drive, q, times);
  print_columns("eloop", eloop.series, {"t_s", "u_m", "F_N", "D_J"});
  const auto lloop = dir::limit_loop(ms, drive, q, times);
  print_columns("lloop", lloop.series, {"t_s", "u_m", "F_N", "D_J"});
  // Sliding force at eps = 1e-3, both directions (default options).
  for (int d : {1, -1}) {
    const auto f = dir::measure_sliding_force(ms, {1e-3, 1.0}, d);
    print_row("sliding", {f.mean_N, f.min_N, f.max_N, f.limit_N});
  }
  // Two-foot crawler, angular feet, limit law: 3 cycles, 400 steps per cycle.
  dir::MechanismParams angular;
  angular.kind = dir::MechanismKind::angular;
  const dir::Mechanism ma(angular, dir::Profile(sine));
  const auto crawl = dir::crawl_limit(ma, dir::CrawlerParams{}, 3, 400);
  print_row("crawl", {crawl.advance_per_cycle_m, crawl.series.column("center_m").back()});
}

void structures_ref() {
  namespace st = bristle::structures;
  // Kernels: the string of string_kernel.toml with D = 0.1, the cantilever with D = 0.1, tau = 0.05 .. 1.
  st::TautStringParams sp;
  sp.damping_ratio = 0.1;
  const auto string = st::Structure::taut_string(sp);
  st::BeamParams bp;
  bp.damping_ratio = 0.1;
  const auto beam = st::Structure::cantilever(bp);
  std::vector<double> tau;
  for (int k = 1; k <= 20; ++k) tau.push_back(0.05 * k);
  print_row("string_L1", st::displacement_kernel(string, 0, 0, tau).value);
  print_row("string_S", st::step_response(string, 0, 0, tau).value);
  print_row("beam_L1", st::displacement_kernel(beam, 0, 0, tau).value);
  print_row("beam_K", st::velocity_kernel(beam, 0, 0, tau).value);
  print_row("limits", {st::right_limit(string, 0, 0), st::sqrt_law_coefficient(beam, 0), string.static_compliance()(0, 0),
                       beam.static_compliance()(0, 0)});
  // Stick-slip of the string through the reduced model: dt = 2 ms, 12 s, every 25th step.
  st::BeltParams belt;
  belt.normal_load_N = 1.0;
  belt.belt_speed_m_per_s = 0.1;
  laws::StribeckParams f{0.5, 0.3, 0.1, 2.0, 0.0};
  st::StickSlipOptions o;
  o.t_end_s = 12.0;
  o.output_every = 25;
  auto reduced = st::make_reduced_model(string, 2e-3);
  const auto r = st::run_stick_slip(*reduced, belt, f, o);
  print_columns("stick_slip", r.series, {"t_s", "w_m", "v_mps", "F_N"});
  print_row("cycle", {r.cycle.period_s, r.cycle.amplitude_w_m, r.cycle.stick_fraction, r.admittance_m_per_N_s});
  // The truncated modal model (50 modes), 200 steps of dt = 1 ms under f = sin(3 t) N.
  st::ModalModel modal(string, 50, 1e-3);
  VecX force(1);
  for (int n = 1; n <= 200; ++n) {
    force[0] = std::sin(3.0 * 1e-3 * n);
    modal.advance(force);
  }
  print_row("modal", {modal.velocity()[0], modal.displacement()[0], modal.stored_energy()});
}
void patch_ref() {
  // Table 2 rolling model s = 0.4, n = 1. Steady: rectangle 0.1 x 0.05 m, uniform pressure, F_z = 3000 N,
  // nx = 30, ny = 12, rolling(V_r, v_x, v_y, spin) for the cases below (S-corrections on); prints
  // "steady i Fx Fy Mz Mz_no_phi W sweeps". Transient: the same patch on nx = 20, ny = 8 (gamma 1/3,
  // cfl 0.4), constant rolling(16, 0.6, 0.4, 6) and F_z = 3000 N, from rest at t = 0, outputs
  // t = 0.0005 k, k = 0..8: "transient t Fx Fy Mz W E_supplied".
  const auto model = rolling_model(0.4, 1);
  patch::PatchParams pp;
  pp.nx = 30;
  pp.ny = 12;
  patch::PatchSolver solver(model, pp);
  const std::vector<std::array<double, 4>> cases{
      {16.0, 0.6, 0.4, 6.0}, {16.0, 1.0, 0.0, 0.0}, {16.0, -0.5, 0.3, -4.0}};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    const patch::SteadyPatch st = solver.solve(patch::rolling(c[0], c[1], c[2], c[3]));
    std::printf("steady %d %.17g %.17g %.17g %.17g %.17g %d\n", static_cast<int>(i), st.force_N[0], st.force_N[1],
                st.Mz_Nm, st.Mz_no_phi_Nm, st.stored_energy_J, st.sweeps);
  }
  patch::PatchTransientParams tp;
  tp.patch.nx = 20;
  tp.patch.ny = 8;
  const patch::PatchKinematics kin = patch::rolling(16.0, 0.6, 0.4, 6.0);
  patch::PatchTransient tr(
      model, tp, [kin](double) { return kin; }, [](double) { return 3000.0; });
  for (int k = 0; k <= 8; ++k) {
    tr.advance_to(0.0005 * k);
    const patch::PatchSnapshot s = tr.snapshot();
    print_row("transient", {s.t_s, s.force_N[0], s.force_N[1], s.Mz_Nm, s.stored_energy_J, s.supplied_energy_J});
  }
}
}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  try {
    if (mode == "steady_line") {
      steady_line();
    } else if (mode == "lumped_steady") {
      lumped_steady();
    } else if (mode == "bench") {
      bench();
    } else if (mode == "line_transient") {
      line_transient();
    } else if (mode == "frbd_general") {
      frbd_general();
    } else if (mode == "directional") {
      directional_ref();
    } else if (mode == "structures") {
      structures_ref();
    } else if (mode == "patch") {
      patch_ref();
    } else {
      std::fprintf(stderr,
                   "usage: bristle_pyref steady_line|lumped_steady|bench|line_transient|frbd_general|directional|"
                   "structures|patch\n");
      return 2;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bristle_pyref: %s\n", e.what());
    return 1;
  }
  return 0;
}
