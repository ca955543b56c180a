// Closed loop: a mass under PD position control with LuGre friction, with and without friction
// compensation, stepped at 1 kHz with bristle::contact::Contact::step (the Python twin is
// examples/closed_loop_pd.py; the same problem, parameters and scheme, so the same numbers).
//
//   m x'' = u + F(v),  v = x'              plant: a mass m, F the LuGre friction force on it (N)
//   u = m a_ref + kp (x_ref - x) + kd (v_ref - v) + u_ff   (PD with the inertial feed-forward m a_ref)
//   u_ff = -F_model(v_ref)                  feed-forward: the controller's own LuGre contact driven by v_ref
//   x_ref(t) = A (1 - cos(2 pi t / T))     starts at rest; the velocity reverses every T / 2, where friction
//                                           sticks the mass and the PD loop alone lags behind
// Friction: textbook LuGre of Canudas de Wit et al. (1995), Table 1 (Fc = 1 N, Fs = 1.5 N, vs = 1 mm/s,
// sigma0 = 1e5 N/m, sigma1 = sqrt(1e5) Ns/m, sigma2 = 0.4 Ns/m); m = 1 kg, kp = 100 N/m, kd = 20 Ns/m
// (chosen for this example), A = 0.1 m, T = 2 s, 4 s simulated from rest at x = 0. The mass is advanced by
// semi-implicit Euler with the force of the contact's step: v += dt (u + F) / m, x += dt v.
//
// Usage: bristle_closed_loop_pd [--out DIR] [--check]
//   writes DIR/closed_loop_pd.csv (t_s, error_pd_m, error_ff_m; plot it with any tool) and prints the RMS
//   errors; --check exits 1 unless the feed-forward divides the RMS error by at least 10 (measured: 142).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "bristle/contact/contact.hpp"

namespace {

constexpr double kMass_kg = 1.0, kKp_N_per_m = 100.0, kKd_Ns_per_m = 20.0;
constexpr double kA_m = 0.1, kPeriod_s = 2.0, kTEnd_s = 4.0, kDt_s = 1e-3;

bristle::contact::Contact lugre() {
  return bristle::contact::Contact::lugre(1.0, 1.5, 1e-3, 1e5, std::sqrt(1e5), 0.4);
}

/// Tracking error x_ref - x (m) after every 1 ms step.
std::vector<double> simulate(bool compensate) {
  bristle::contact::Contact plant = lugre(), model = lugre();
  const int n = static_cast<int>(std::lround(kTEnd_s / kDt_s));
  const double w = 2.0 * std::numbers::pi / kPeriod_s;
  std::vector<double> error(static_cast<std::size_t>(n));
  double x = 0.0, v = 0.0;
  for (int i = 0; i < n; ++i) {
    const double t0 = i * kDt_s;
    const double x_ref = kA_m * (1.0 - std::cos(w * t0)), v_ref = kA_m * w * std::sin(w * t0);
    const double a_ref = kA_m * w * w * std::cos(w * t0);
    double u = kMass_kg * a_ref + kKp_N_per_m * (x_ref - x) + kKd_Ns_per_m * (v_ref - v);
    if (compensate) u -= model.step(kDt_s, v_ref);  // cancel the friction expected at the reference motion
    const double F = plant.step(kDt_s, v);           // friction on the mass over this step (N)
    v += kDt_s * (u + F) / kMass_kg;
    x += kDt_s * v;
    error[static_cast<std::size_t>(i)] = kA_m * (1.0 - std::cos(w * (i + 1) * kDt_s)) - x;
  }
  return error;
}

double rms(const std::vector<double>& e) {
  double s = 0.0;
  for (double x : e) s += x * x;
  return std::sqrt(s / static_cast<double>(e.size()));
}

}  // namespace

int main(int argc, char** argv) {
  std::string out = "out";
  bool check = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
      out = argv[++i];
    } else if (std::strcmp(argv[i], "--check") == 0) {
      check = true;
    } else {
      std::fprintf(stderr, "usage: %s [--out DIR] [--check]\n", argv[0]);
      return 2;
    }
  }
  const std::vector<double> e_pd = simulate(false), e_ff = simulate(true);
  const double rms_pd = rms(e_pd), rms_ff = rms(e_ff);
  std::printf("rms tracking error: PD %.6e m, PD + LuGre feed-forward %.6e m, ratio %.2f\n", rms_pd, rms_ff,
              rms_pd / rms_ff);
  std::filesystem::create_directories(out);
  const std::filesystem::path path = std::filesystem::path(out) / "closed_loop_pd.csv";
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream csv(tmp);
    csv << "t_s,error_pd_m,error_ff_m\n";
    char line[96];
    for (std::size_t i = 0; i < e_pd.size(); ++i) {
      std::snprintf(line, sizeof line, "%.3f,%.9e,%.9e\n", (static_cast<double>(i) + 1) * kDt_s, e_pd[i], e_ff[i]);
      csv << line;
    }
    if (!csv) {
      std::fprintf(stderr, "cannot write %s\n", tmp.c_str());
      return 1;
    }
  }
  std::filesystem::rename(tmp, path);  // no half-written output
  std::printf("wrote %s\n", path.c_str());
  if (check && !(rms_pd > 10.0 * rms_ff)) {
    std::fprintf(stderr, "check failed: the feed-forward does not divide the rms error by 10\n");
    return 1;
  }
  return 0;
}
