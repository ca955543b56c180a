// Fig. 7 transient (paper 1, §5.1.2, Table 1; s = 0.4, V_x = 0.1 m/s, n1 = n2 = 2, uniform pressure)
// solved by bristle's transient line-contact solver, for bench/peers/fig7_transient_mol.py.
// Built and run by that script; the model is built exactly as in BM_Fig7Transient (bench/line_bench.cpp).
//
//   fig7_bristle_driver CELLS REPEATS [NOOUT_REPEATS [CFL [land]]]
//
// The grid run takes the solver's own (CFL) steps and reads F_x at the 201 output times from
// LineContact::sample (dense output, interpolated between steps); with "land" the steps land on every
// output time instead (advance_to(t_j) in turn, the pre-dense-output way). One untimed warm-up solve
// precedes the timed ones.
// Prints, on stdout:
//   # cells N steps S steps_noout S0
//   # solve_s_grid  T1 T2 ...   (wall time of each repeat: through the output grid, F_x at each)
//   # solve_s_noout T1 T2 ...   (wall time of each repeat: advance_to(2 s) alone, as BM_Fig7Transient)
//   # cpu_s_grid, # cpu_s_noout   (the same, thread CPU time)
//   t_s Fx_N                    (201 rows, t = 0, 0.01, ..., 2 s, from the last grid repeat)
//   # field 1.00, then CELLS rows f_x (cell values at t = 1 s), and the same for t = 2 s
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "bristle/transport/line_contact.hpp"

namespace {

using namespace bristle;

contact::ContactModel table1_model(double s, int n2) {
  laws::LawParams law;
  law.kind = laws::LawKind::frbd;
  law.M.axis1 = laws::StribeckParams{1.0, 0.7, 6.0, 2.0, 0.0};
  const double k01 = 240.0;
  const double k02 = rheology::substrate_stiffness_from_s("s", s, k01);
  std::vector<double> c2, tau2;
  for (int i = 0; i < n2; ++i) {
    tau2.push_back(0.1);
    c2.push_back(0.1 * k01 * (1.0 - s) / s);  // eq. 58
  }
  return contact::ContactModel(law, rheology::gkv(k01, {100.0, 50.0}, {0.1, 0.1}), rheology::gkv(k02, c2, tau2));
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s CELLS REPEATS [NOOUT_REPEATS [CFL [land]]]\n", argv[0]);
    return 2;
  }
  try {
    const int cells = std::atoi(argv[1]);
    const int repeats = std::atoi(argv[2]);
    const int repeats_noout = argc > 3 ? std::atoi(argv[3]) : repeats;
    if (cells < 2 || repeats < 1 || repeats_noout < 0) {
      std::fprintf(stderr, "fig7_bristle_driver: need CELLS >= 2, REPEATS >= 1, NOOUT_REPEATS >= 0\n");
      return 2;
    }
    const contact::ContactModel model = table1_model(0.4, 2);
    transport::LineContactParams line;
    line.L_m = 0.2;
    line.normal_load_N = 10.0;
    line.cells = cells;
    if (argc > 4) line.cfl = std::atof(argv[4]);
    const bool land = argc > 5 && std::string(argv[5]) == "land";
    line.V1 = contact::Signal::constant_value(0.0);
    line.V2 = contact::Signal::constant_value(0.1);

    constexpr int kOut = 201;  // t = 0, 0.01, ..., 2 s
    std::vector<double> times(kOut), fx(kOut);
    for (int j = 0; j < kOut; ++j) times[j] = 0.01 * j;

    constexpr int kFieldAt[] = {100, 200};  // fields f_x(xi) at t = 1 s and 2 s
    std::vector<std::vector<double>> fields(2, std::vector<double>(cells));
    std::vector<double> t_grid, t_noout, cpu_grid, cpu_noout;
    long steps = 0, steps_noout = 0;
    {
      // One untimed warm-up solve: the first solve in a fresh process pays for page faults, lazy symbol
      // binding and cold caches (about 2 ms here), which scipy's runs, in a warm interpreter, do not.
      transport::LineContact warm(model, line);
      warm.advance_to(2.0);
      volatile double sink = warm.total_force()[0];
      (void)sink;
    }
    for (int r = 0; r < repeats; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      const double c0 = thread_cpu_seconds();
      transport::LineContact lc(model, line);
      const auto visit = [&](std::size_t j, const transport::LineContact& at) {
        fx[j] = at.total_force()[0];
        for (int q = 0; q < 2; ++q)
          if (static_cast<int>(j) == kFieldAt[q] && r + 1 == repeats)  // two O(cells) copies: negligible
            for (int i = 0; i < cells; ++i) fields[q][i] = at.state()[i * at.components()];
      };
      if (land) {
        for (int j = 0; j < kOut; ++j) {
          lc.advance_to(times[j]);
          visit(j, lc);
        }
      } else {
        lc.sample(times, visit);  // the solver's own steps; outputs interpolated between them
      }
      t_grid.push_back(seconds_since(t0));
      cpu_grid.push_back(thread_cpu_seconds() - c0);
      steps = lc.steps_taken();
    }
    for (int r = 0; r < repeats_noout; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      const double c0 = thread_cpu_seconds();
      transport::LineContact lc(model, line);
      lc.advance_to(2.0);
      volatile double sink = lc.total_force()[0];
      (void)sink;
      t_noout.push_back(seconds_since(t0));
      cpu_noout.push_back(thread_cpu_seconds() - c0);
      steps_noout = lc.steps_taken();
    }
    std::printf("# cells %d steps %ld steps_noout %ld\n", cells, steps, steps_noout);
    std::printf("# solve_s_grid");
    for (double t : t_grid) std::printf(" %.6e", t);
    std::printf("\n# solve_s_noout");
    for (double t : t_noout) std::printf(" %.6e", t);
    std::printf("\n# cpu_s_grid");
    for (double t : cpu_grid) std::printf(" %.6e", t);
    std::printf("\n# cpu_s_noout");
    for (double t : cpu_noout) std::printf(" %.6e", t);
    std::printf("\n");
    for (int j = 0; j < kOut; ++j) std::printf("%.2f %.17e\n", times[j], fx[j]);
    for (int q = 0; q < 2; ++q) {
      std::printf("# field %.2f\n", times[kFieldAt[q]]);
      for (int i = 0; i < cells; ++i) std::printf("%.17e\n", fields[q][i]);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fig7_bristle_driver: %s\n", e.what());
    return 1;
  }
  return 0;
}
