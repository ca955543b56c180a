// The affine-source path of the transient line-contact solver (component-major work arrays, skipped
// zero components, forces from weighted sums) against a plain full-state implementation of the same
// scheme; dense output (LineContact::sample) against exact solutions and the landing steps.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <iostream>
#include <random>
#include <unsupported/Eigen/MatrixFunctions>

#include "bristle/core/error.hpp"
#include "bristle/integrate/ode.hpp"
#include "bristle/transport/line_contact.hpp"
#include "support/test_support.hpp"

namespace bristle::transport {
namespace {

namespace rh = bristle::rheology;

constexpr double kK01 = 240.0;

laws::LawParams frbd_law() {
  laws::LawParams p;
  p.kind = laws::LawKind::frbd;
  p.M.axis1 = laws::StribeckParams{1.0, 0.7, 6.0, 2.0, 0.0};
  return p;
}

// Fig. 7's model (Table 1, s = 0.4, n1 = n2 = 2).
contact::ContactModel fig7_model() {
  const double s = 0.4;
  const double c2 = 0.1 * kK01 * (1.0 - s) / s;  // eq. 58
  return contact::ContactModel(frbd_law(), rh::gkv(kK01, {100.0, 50.0}, {0.1, 0.1}),
                               rh::gkv(rh::substrate_stiffness_from_s("s", s, kK01), {c2, c2}, {0.1, 0.1}));
}

LineContactParams fig7_line(int cells) {
  LineContactParams p;
  p.L_m = 0.2;
  p.normal_load_N = 10.0;
  p.cells = cells;
  p.V1 = contact::Signal::constant_value(0.0);
  p.V2 = contact::Signal::constant_value(0.1);
  return p;
}

// The scheme of line_contact.cpp written plainly on the full cell-major state: half source (the exact
// propagator of the frozen affine source, every component, every cell), limited upwind transport of
// every component, half source.
class PlainScheme {
 public:
  PlainScheme(const contact::ContactModel& model, const LineContactParams& p, const VecX& u0)
      : model_(model), p_(p), m_(model.state_size()), n_(p.cells), dx_(p.L_m / p.cells), u_(u0) {}

  void step(double t, double dt) {
    source(t + 0.5 * (0.5 * dt), 0.5 * dt);
    transport(t + 0.5 * dt, dt);
    source(t + 0.5 * dt + 0.5 * (0.5 * dt), 0.5 * dt);
  }
  const VecX& state() const { return u_; }

 private:
  void source(double t_mid, double h) {
    const Vec2 v(p_.V2(t_mid) - p_.V1(t_mid), p_.v_y(t_mid));
    const VecX zero = VecX::Zero(m_);
    VecX b(m_);
    model_.source(zero.data(), v, b.data());
    MatX jac(m_, m_);
    model_.source_jacobian(zero.data(), v, jac.data());
    MatX aug = MatX::Zero(m_ + 1, m_ + 1);
    aug.topLeftCorner(m_, m_) = jac;
    aug.topRightCorner(m_, 1) = b;
    const MatX e = (aug * h).exp();
    for (int i = 0; i < n_; ++i) {
      const VecX x = u_.segment(i * m_, m_);
      u_.segment(i * m_, m_) = e.topLeftCorner(m_, m_) * x + e.topRightCorner(m_, 1);
    }
  }
  void transport(double t, double dt) {
    const VecX c = characteristic_speeds(model_, p_.V1(t), p_.V2(t));
    for (int k = 0; k < m_; ++k) {
      if (c[k] == 0.0) continue;
      const double nu = std::abs(c[k]) * dt / dx_;
      auto cell = [&](int j) { return c[k] > 0 ? j : n_ - 1 - j; };  // j-th cell downstream of the inflow
      std::vector<double> col(n_ + 2), face(n_ + 1);
      for (int j = 0; j < n_; ++j) col[j + 1] = u_[cell(j) * m_ + k];
      col[0] = -col[1];
      col[n_ + 1] = 2.0 * col[n_] - col[n_ - 1];
      face[0] = 0.0;
      for (int j = 0; j < n_; ++j) {
        const double l = col[j + 1] - col[j], r = col[j + 2] - col[j + 1];
        const double sigma = l * r > 0.0 ? 2.0 * l * r / (l + r) : 0.0;  // van Leer
        face[j + 1] = col[j + 1] + 0.5 * (1.0 - nu) * sigma;
      }
      for (int j = 0; j < n_; ++j) u_[cell(j) * m_ + k] = col[j + 1] - nu * (face[j + 1] - face[j]);
    }
  }

  const contact::ContactModel& model_;
  LineContactParams p_;
  int m_, n_;
  double dx_;
  VecX u_;
};

// Reversing rolling-like velocities: both inflow edges are used, the f speed changes sign.
void reversing_velocities(LineContactParams& p) {
  p.V1.kind = contact::SignalKind::sine;
  p.V1.offset = 0.02;
  p.V1.amplitude = 0.08;
  p.V1.omega = 9.0;
  p.V2.kind = contact::SignalKind::sine;
  p.V2.offset = 0.03;
  p.V2.amplitude = 0.1;
  p.V2.omega = 7.0;
  p.dt_s = 0.002;  // Courant number <= 0.13 / (0.2 / 40) * 0.002 = 0.52
}

double max_component_error(const VecX& a, const VecX& b, int m) {
  // Per component, relative to that component's largest magnitude (f ~ 1, zeta ~ 1e-3).
  double worst = 0.0;
  const int n = static_cast<int>(a.size()) / m;
  for (int k = 0; k < m; ++k) {
    double scale = 0.0, diff = 0.0;
    for (int i = 0; i < n; ++i) {
      scale = std::max(scale, std::abs(b[i * m + k]));
      diff = std::max(diff, std::abs(a[i * m + k] - b[i * m + k]));
    }
    worst = std::max(worst, scale > 0.0 ? diff / scale : diff);
  }
  return worst;
}

// Skipping the zero, unforced lateral components (v_y = 0, zero lateral start) gives the full
// solve; and with non-zero lateral states (every component active) the same holds.
TEST(LineFastPath, EqualsThePlainFullStateScheme) {
  const contact::ContactModel model = fig7_model();
  const int m = model.state_size();
  for (const bool lateral : {false, true}) {
    LineContactParams p = fig7_line(40);
    reversing_velocities(p);
    if (lateral) p.v_y = contact::Signal::constant_value(0.01);
    LineContact lc(model, p);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-0.5, 0.5);
    VecX u0 = VecX::Zero(lc.cells() * m);
    for (int i = 0; i < lc.cells(); ++i)
      for (int k = 0; k < m; ++k)
        if (lateral || k % 2 == 0) u0[i * m + k] = u(rng) * (k < 2 ? 1.0 : 1e-3);  // even k: x components
    lc.reset(0.0, u0);
    PlainScheme plain(model, p, u0);
    const int steps = 250;
    for (int s = 0; s < steps; ++s) plain.step(s * p.dt_s, p.dt_s);
    lc.advance_to(steps * p.dt_s);
    ASSERT_EQ(lc.steps_taken(), steps);
    const double err = max_component_error(lc.state(), plain.state(), m);
    std::cout << "fast path vs plain full-state scheme (" << (lateral ? "all components" : "lateral zero, skipped")
              << "): max relative difference " << err << "\n";
    EXPECT_LE(err, 1e-13);
    if (!lateral) {
      for (int i = 0; i < lc.cells(); ++i)
        for (int k = 1; k < m; k += 2) EXPECT_EQ(lc.state()[i * m + k], 0.0);  // still exactly zero
    }
    // Forces and power from weighted sums (affine friction) = the cell-by-cell sums.
    const Vec2 v = lc.relative_velocity(lc.time());
    Vec2 force = Vec2::Zero();
    for (int i = 0; i < lc.cells(); ++i)
      force += lc.pressure().mean(i * lc.dx(), (i + 1) * lc.dx()) * lc.dx() * model.friction(lc.state().data() + i * m, v);
    EXPECT_NEAR(lc.total_force()[0], force[0], 1e-13 * std::abs(force[0]));
    EXPECT_NEAR(lc.supplied_power(), -force.dot(v), 1e-13 * std::abs(force.dot(v)) + 1e-300);
  }
}

// A LuGre law (sigma1, sigma2 output terms: friction affine in u, not equal to f) with a parabolic
// pressure: the O(m) force equals the cell-by-cell eq. 36.
TEST(LineFastPath, WeightedSumForceWithOutputTerms) {
  laws::LawParams law;
  law.kind = laws::LawKind::lugre;
  law.M.axis1 = laws::StribeckParams{1.0, 0.7, 6.0, 2.0, 0.0};
  law.sigma1 = Mat2::Identity() * 0.05;
  law.sigma2 = Mat2::Identity() * 0.4;
  const contact::ContactModel model(law, rh::gkv(kK01, {100.0}, {0.1}), rh::elastic(360.0));
  LineContactParams p = fig7_line(50);
  p.pressure.kind = PressureKind::parabolic;
  reversing_velocities(p);
  p.v_y = contact::Signal::constant_value(0.02);
  LineContact lc(model, p);
  lc.advance_to(0.3);
  const int m = model.state_size();
  const Vec2 v = lc.relative_velocity(lc.time());
  Vec2 force = Vec2::Zero();
  for (int i = 0; i < lc.cells(); ++i)
    force += lc.pressure().mean(i * lc.dx(), (i + 1) * lc.dx()) * lc.dx() * model.friction(lc.state().data() + i * m, v);
  EXPECT_GT(force.norm(), 1e-3);
  EXPECT_NEAR((lc.total_force() - force).norm(), 0.0, 1e-13 * force.norm());
}

// Dense output without advection: the exponential scheme is exact in time, so the difference between
// sample() and the exact (lumped) solution at off-step times is the interpolation error alone; the
// degree-5 interpolant makes it fall as dt^6.
TEST(LineDenseOutput, InterpolationErrorIsSixthOrder) {
  const contact::ContactModel model(frbd_law(), rh::gkv(kK01, {100.0}, {0.1}), rh::gkv(300.0, {40.0}, {0.2}));
  const int m = model.state_size();
  VecX x0(m);
  for (int k = 0; k < m; ++k) x0[k] = 0.1 * std::cos(k + 1.0) * (k < 2 ? 1.0 : 1e-2);
  // Exact solution at the output times: CVODE at rtol 1e-12 on the lumped model.
  integrate::OdeSystem lumped;
  lumped.size = m;
  lumped.rhs = [&](double, const double* x, double* dx) { model.source(x, Vec2(0.0, 0.05), dx); };
  integrate::Options cvode;
  cvode.rtol = 1e-12;
  cvode.atol = 1e-15;
  std::vector<double> times;
  for (int j = 0; j <= 37; ++j) times.push_back(0.0137 * j);  // off the step points, 0.5 s
  std::vector<VecX> exact;
  {
    VecX x = x0;
    integrate::integrate(lumped, x, 0.0, times, cvode, [&](double, const double* y) { exact.emplace_back(Eigen::Map<const VecX>(y, m)); });
  }
  ASSERT_EQ(exact.size(), times.size());
  std::vector<double> errors;
  for (const double dt : {0.04, 0.02, 0.01}) {
    LineContactParams p = fig7_line(3);
    p.V2 = contact::Signal::constant_value(0.0);
    p.v_y = contact::Signal::constant_value(0.05);
    p.dt_s = dt;
    LineContact lc(model, p);
    lc.reset(0.0, x0);
    double worst = 0.0;
    lc.sample(times, [&](std::size_t j, const LineContact& at) {
      EXPECT_DOUBLE_EQ(at.time(), times[j]);
      for (int i = 0; i < at.cells(); ++i)
        worst = std::max(worst, (at.state().segment(i * m, m) - exact[j]).cwiseAbs().maxCoeff());
    });
    EXPECT_NEAR(lc.time(), times.back(), 1e-15);
    errors.push_back(worst);
  }
  std::cout << "dense output error (exact-in-time scheme), dt = 0.04, 0.02, 0.01: " << errors[0] << ", " << errors[1]
            << ", " << errors[2] << "\n";
  for (std::size_t k = 0; k + 1 < errors.size(); ++k) EXPECT_GE(std::log2(errors[k] / errors[k + 1]), 5.5);
  EXPECT_LE(errors.back(), 1e-7);
}

// At the step points themselves the interpolation is exact: sampling at the steps of a fixed dt_s
// gives the landing run to round-off.
TEST(LineDenseOutput, ExactAtStepPointsAndCloseToLandingOtherwise) {
  const contact::ContactModel model = fig7_model();
  LineContactParams p = fig7_line(100);
  p.dt_s = 0.01;
  std::vector<double> steps_grid;
  for (int j = 0; j <= 40; ++j) steps_grid.push_back(0.01 * j);
  LineContact landed(model, p), sampled(model, p);
  std::vector<double> f_land, f_sample;
  for (const double t : steps_grid) {
    landed.advance_to(t);
    f_land.push_back(landed.total_force()[0]);
  }
  sampled.sample(steps_grid, [&](std::size_t, const LineContact& at) { f_sample.push_back(at.total_force()[0]); });
  ASSERT_EQ(f_sample.size(), f_land.size());
  for (std::size_t j = 0; j < f_land.size(); ++j) EXPECT_NEAR(f_sample[j], f_land[j], 1e-12 * std::abs(f_land.back()));
  EXPECT_EQ(sampled.steps_taken(), landed.steps_taken());
  EXPECT_NEAR(sampled.supplied_energy(), landed.supplied_energy(), 1e-12 * std::abs(landed.supplied_energy()));

  // Automatic steps (CFL 0.9) against landing on 201 outputs, and both against a fine reference: the
  // interpolation adds far less than the scheme's own error.
  auto fx = [&](int cells, bool interpolate, long* steps) {
    LineContactParams q = fig7_line(cells);
    q.interpolate_outputs = interpolate;
    LineContact lc(model, q);
    std::vector<double> times;
    for (int j = 0; j <= 100; ++j) times.push_back(0.01 * j);
    const LineRun r = run(lc, times, {0.5});
    if (steps) *steps = r.steps;
    EXPECT_EQ(r.fields.size(), 1u);
    return r.series.column("Fx_N");
  };
  long steps_land = 0, steps_interp = 0;
  const auto ref = fx(1600, false, nullptr);
  const auto land = fx(400, false, &steps_land);
  const auto interp = fx(400, true, &steps_interp);
  double e_land = 0.0, e_interp = 0.0, diff = 0.0;
  for (std::size_t j = 0; j < ref.size(); ++j) {
    e_land = std::max(e_land, std::abs(land[j] - ref[j]));
    e_interp = std::max(e_interp, std::abs(interp[j] - ref[j]));
    diff = std::max(diff, std::abs(interp[j] - land[j]));
  }
  std::cout << "Fig. 7 on 400 cells, 1 s: landing " << steps_land << " steps, error " << e_land << " N; interpolated "
            << steps_interp << " steps, error " << e_interp << " N\n";
  EXPECT_LT(steps_interp, steps_land);
  // The error grows like the (longer) step squared, the splitting error; interpolation adds nothing visible.
  const double step_ratio = static_cast<double>(steps_land) / static_cast<double>(steps_interp);
  EXPECT_LT(e_interp, 1.5 * step_ratio * step_ratio * e_land);
  EXPECT_GT(e_land, 0.0);
}

// The SDIRK2 source path samples too (interpolating copies of the state).
TEST(LineDenseOutput, SdirkPathSamples) {
  const contact::ContactModel model = fig7_model();
  LineContactParams p = fig7_line(60);
  p.source_scheme = SourceScheme::sdirk2;
  p.dt_s = 0.01;
  LineContact landed(model, p), sampled(model, p);
  std::vector<double> times{0.0, 0.05, 0.1, 0.15, 0.2};
  std::vector<double> f_land, f_sample;
  for (const double t : times) {
    landed.advance_to(t);
    f_land.push_back(landed.total_force()[0]);
  }
  sampled.sample(times, [&](std::size_t, const LineContact& at) { f_sample.push_back(at.total_force()[0]); });
  for (std::size_t j = 0; j < times.size(); ++j) EXPECT_NEAR(f_sample[j], f_land[j], 1e-12 * std::abs(f_land.back()));
  EXPECT_LE((sampled.state() - landed.state()).cwiseAbs().maxCoeff(), 1e-13);
}

TEST(LineDenseOutput, RejectsTimesGoingBack) {
  const contact::ContactModel model = fig7_model();
  LineContact lc(model, fig7_line(10));
  lc.advance_to(0.1);
  auto expect_invalid = [&](const std::vector<double>& times, const std::string& message) {
    try {
      lc.sample(times, [](std::size_t, const LineContact&) {});
      FAIL() << "expected InvalidInput: " << message;
    } catch (const InvalidInput& e) {
      EXPECT_EQ(std::string(e.what()), message);
    }
  };
  expect_invalid({}, "output times: empty; at least one output time is needed");
  expect_invalid({0.05, 0.2},
                 "output times: times[0] = 0.05 s is before the current time; they must be finite, non-decreasing "
                 "and not before the current time 0.1 s");
  expect_invalid({0.2, 0.15},
                 "output times: times[1] = 0.15 s goes back; they must be finite, non-decreasing and not before the "
                 "current time 0.1 s");
  EXPECT_EQ(lc.time(), 0.1);  // nothing was advanced
}

// The public stepping calls check their arguments (a read-only review, 2026-12-06): step(-0.4) ran the time
// backwards (F = +1.5e8 N), step(1e300) left F = 0 (the field advected out), advance_to an earlier time set the time
// back without a step, reset(nan) was taken, cell_centre(-1) and run() with times going back or NaN answered.
TEST(LineContactArguments, AreCheckedWhereTheyEnter) {
  const contact::ContactModel model = fig7_model();
  LineContact lc(model, fig7_line(10));
  lc.advance_to(0.1);
  const auto message = [](auto&& f) { return ::bristle::test::message_of<InvalidInput>(f); };
  EXPECT_EQ(message([&] { lc.step(-0.4); }), "step: dt = -0.4 s: must be finite and > 0");
  EXPECT_EQ(message([&] { lc.step(std::nan("")); }), "step: dt = nan s: must be finite and > 0");
  const double limit = lc.stable_dt(0.1) / lc.params().cfl;
  EXPECT_EQ(message([&] { lc.step(1e300); }).substr(0, 23), "step: dt = 1e+300 s is ");
  EXPECT_EQ(message([&] { lc.step(limit); }), "(no error)");  // up to the Courant limit
  EXPECT_EQ(message([&] { lc.advance_to(0.05); }),
            fmt::format("advance_to: t_end = 0.05 s: must be finite and not before the current time {} s",
                        format_value(lc.time())));
  EXPECT_EQ(message([&] { lc.advance_to(INFINITY); }).substr(0, 35), "advance_to: t_end = inf s: must be ");
  EXPECT_EQ(message([&] { lc.reset(std::nan("")); }), "reset: t0 = nan s: must be finite");
  EXPECT_EQ(message([&] { (void)lc.cell_centre(10); }), "cell_centre: i = 10: must lie in [0, 9] (cells = 10)");
  EXPECT_EQ(message([&] { (void)lc.cell_centre(-1); }), "cell_centre: i = -1: must lie in [0, 9] (cells = 10)");
  LineContact fresh(model, fig7_line(10));
  EXPECT_EQ(message([&] { (void)run(fresh, {0.0, 0.5, 0.1}, {}); }),
            "output times: times[2] = 0.1 s goes back; they must be finite, non-decreasing and not before the current "
            "time 0 s");
  EXPECT_EQ(message([&] { (void)run(fresh, {0.0, std::nan("")}, {}); }),
            "output times: times[1] = nan s is not finite; they must be finite, non-decreasing and not before the "
            "current time 0 s");
  EXPECT_EQ(fresh.time(), 0.0);  // nothing was advanced
}

}  // namespace
}  // namespace bristle::transport
