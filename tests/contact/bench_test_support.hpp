#pragma once
// Shared set-up of the lumped-bench tests (tests/contact): output grids, integrator options, and the LuGre
// stick-slip bench of Canudas de Wit et al. (1995), as in examples/lugre_stick_slip.toml.
#include <cmath>
#include <vector>

#include "bristle/contact/bench.hpp"

namespace bristle::contact::test {

/// n + 1 equally spaced times from t0 to t1 (s).
inline std::vector<double> grid(double t0, double t1, int n) {
  std::vector<double> t(static_cast<std::size_t>(n) + 1);
  for (int i = 0; i <= n; ++i) t[static_cast<std::size_t>(i)] = t0 + (t1 - t0) * i / n;
  return t;
}

inline integrate::Options options(integrate::Method method, double rtol, double atol) {
  integrate::Options o;
  o.method = method;
  o.rtol = rtol;
  o.atol = atol;
  return o;
}

/// rodas4 with atol = rtol * 1e-4, as in bench/peers/lugre_stick_slip_scipy.py.
inline integrate::Options rodas4(double rtol) { return options(integrate::Method::rodas4, rtol, rtol * 1e-4); }

/// LuGre with the 1995 parameters per newton of load: mu_s = 1.5, mu_d = 1, v_s = 1 mm/s, sigma1 = sqrt(1e5),
/// sigma2 = 0.4 s/m (sigma0 = 1e5 1/m comes from an elastic body k0 = 1e5).
inline laws::LawParams lugre_1995_law() {
  laws::LawParams p;
  p.kind = laws::LawKind::lugre;
  p.M.axis1 = laws::StribeckParams{1.5, 1.0, 1e-3, 2.0, 0.0};
  p.sigma1 = std::sqrt(1e5) * Mat2::Identity();
  p.sigma2 = 0.4 * Mat2::Identity();
  return p;
}

/// A 1 kg mass pulled through a 2 N/m spring whose end moves at `pull` (m/s) along x.
inline BenchParams spring(double pull) {
  BenchParams p;
  p.drive = DriveKind::spring;
  p.mass_kg = 1.0;
  p.spring_N_per_m = 2.0;
  p.input_x = Signal::constant_value(pull);
  return p;
}

}  // namespace bristle::contact::test
