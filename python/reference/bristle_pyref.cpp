// bristle_pyref: reference values computed by the C++ library directly, for the Python tests that
// check the bindings return the same doubles bit for bit (tests/python/test_bitwise.py builds the same
// inputs through the Python module). Every number is printed with 17 significant digits, which reads
// back to the same double.
//
//   bristle_pyref steady_line      label j i Fx Fy exact   (sliding Table 1, rolling Table 2, Bouc-Wen)
//   bristle_pyref lumped_steady    j i Fx Fy               (friction(steady_state(v)) for a few laws)
//   bristle_pyref bench            t x v F z               (LuGre on a GKV body, velocity-driven sine)
//   bristle_pyref line_transient   t Fx W                  (Table 1 sliding, n = 2, 40 cells)
//
// The inputs are documented next to each mode and repeated in the test.
#include <cstdio>
#include <string>
#include <vector>

#include "bristle/contact/bench.hpp"
#include "bristle/contact/contact_model.hpp"
#include "bristle/core/error.hpp"
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
    } else {
      std::fprintf(stderr, "usage: bristle_pyref steady_line|lumped_steady|bench|line_transient\n");
      return 2;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bristle_pyref: %s\n", e.what());
    return 1;
  }
  return 0;
}
