// The compiled scalar kernel of the lumped benches (src/contact/bench_kernel.cpp, taken by contact::run with
// rodas4 for an elastic pair and a Dahl/LuGre/FrBD law along x): its right-hand side, switches and output
// rows equal the general machinery's (ContactModel x Bench, restricted to the x components) to rounding;
// its analytic Jacobian equals difference quotients of its right-hand side; whole runs agree with the general
// path; and it is not taken outside its domain.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "bristle/contact/bench.hpp"
#include "bristle/core/error.hpp"
#include "contact/bench_test_support.hpp"

namespace bristle::contact {
namespace {

using laws::LawKind;
using laws::LawParams;
using laws::StribeckParams;
namespace rh = bristle::rheology;

using test::grid;
using test::options;
using test::rodas4;
using test::spring;
LawParams lugre_1995() { return test::lugre_1995_law(); }

struct Case {
  std::string name;
  LawParams law;
  rh::RheologyParams body1, body2;
  BenchParams bench;
  double t_end;
};

std::vector<Case> cases() {
  std::vector<Case> all;
  all.push_back({"lugre 1995 stick-slip, elastic/rigid", lugre_1995(), rh::elastic(1e5), rh::rigid(), spring(0.1), 14.0});
  {
    LawParams l = lugre_1995();  // regularised norm, viscous Stribeck term, user Sigma0, exponent 1
    l.eps = 1e-8;
    l.M.axis1.mu_v = 0.2;
    l.M.axis1.delta_s = 1.0;
    l.sigma0 = 2e5 * Mat2::Identity();
    BenchParams b = spring(0.05);
    b.normal_load = Signal::constant_value(3.0);
    b.belt_x = Signal::constant_value(0.02);
    all.push_back({"lugre eps, mu_v, sigma0, belt, load 3 N, elastic/elastic", l, rh::elastic(1e5), rh::elastic(3e5), b,
                   6.0});
  }
  {
    LawParams l;
    l.kind = LawKind::frbd;
    l.M.axis1 = StribeckParams{0.8, 0.5, 5e-3, 1.5, 0.0};
    BenchParams b;
    b.drive = DriveKind::force;
    b.mass_kg = 0.5;
    b.input_x.kind = SignalKind::sine;
    b.input_x.amplitude = 2.0;
    b.input_x.omega = 3.0;
    all.push_back({"frbd, force drive (sine), delta 1.5", l, rh::elastic(5e4), rh::rigid(), b, 3.0});
  }
  {
    LawParams l;
    l.kind = LawKind::dahl;
    l.M.axis1 = StribeckParams{1.0, 1.0, 1e-3, 2.0, 0.0};
    BenchParams b;
    b.drive = DriveKind::velocity;
    b.input_x.kind = SignalKind::sine;
    b.input_x.offset = 1e-3;
    b.input_x.amplitude = 2e-3;
    b.input_x.omega = 5.0;
    all.push_back({"dahl, velocity drive (sine)", l, rh::elastic(1e5), rh::rigid(), b, 3.0});
  }
  return all;
}

/// |a - b| <= tol max(|a|, |b|, floor).
::testing::AssertionResult close(double a, double b, double tol, double floor) {
  if (std::abs(a - b) <= tol * std::max({std::abs(a), std::abs(b), floor})) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << a << " vs " << b << " (difference " << a - b << ")";
}

/// Kernel states along a general run (rows of the general path) and scattered around them at random.
std::vector<std::pair<double, VecX>> sample_states(const Bench& bench, const Case& c) {
  const BenchRun ref = run(bench, grid(0.0, c.t_end, 200), rodas4(1e-6), {}, {}, true, false);
  EXPECT_FALSE(ref.kernel);
  const std::vector<int> keep = bench.x_components();
  const int r = static_cast<int>(keep.size());
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<std::pair<double, VecX>> states;
  for (std::size_t row = 0; row < ref.series.rows(); row += 5) {
    const auto at = [&](const char* col) { return ref.series.column(col)[row]; };
    VecX s(r);
    int i = 0;
    s[i++] = at("x_m");
    if (bench.params().drive != DriveKind::velocity) s[i++] = at("v_mps");
    if (bench.params().drive == DriveKind::spring) s[i++] = at("x_m") + at("F_applied_N") / bench.params().spring_N_per_m;
    s[i++] = at("f_x");
    s[i++] = at("E_supplied_J");
    s[i++] = at("E_dissipated_J");
    states.emplace_back(at("t_s"), s);
    VecX perturbed = s;
    for (int j = 0; j < r; ++j) perturbed[j] += 0.3 * unit(rng) * std::max(std::abs(s[j]), 1e-4);
    states.emplace_back(at("t_s"), perturbed);
  }
  return states;
}

TEST(BenchKernel, FunctionsEqualTheGeneralMachinery) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const ContactModel model(c.law, c.body1, c.body2);
    const Bench bench(model, c.bench);
    const KernelFunctions kernel = kernel_functions(bench);
    const integrate::OdeSystem general = bench.x_system();
    const std::vector<int> keep = bench.x_components();
    const int r = general.size, n = bench.state_size();
    ASSERT_EQ(kernel.system.size, r);
    EXPECT_EQ(kernel.system.error_norm_count, general.error_norm_count);
    EXPECT_EQ(kernel.system.switch_count, general.switch_count);
    EXPECT_EQ(kernel.system.autonomous, general.autonomous);
    for (const auto& [t, s] : sample_states(bench, c)) {
      VecX dk(r), dg(r);
      kernel.system.rhs(t, s.data(), dk.data());
      general.rhs(t, s.data(), dg.data());
      for (int i = 0; i < r; ++i) ASSERT_TRUE(close(dk[i], dg[i], 1e-13, 1e-12 * dg.cwiseAbs().maxCoeff())) << "t = " << t << ", component " << i;
      std::vector<double> gk(static_cast<std::size_t>(kernel.system.switch_count)), gg(gk.size());
      kernel.system.switches(t, s.data(), gk.data());
      general.switches(t, s.data(), gg.data());
      for (int i = 0; i < kernel.system.switch_count; ++i) ASSERT_EQ(gk[i], gg[i]);
      // The row against Bench::outputs at the zero-padded full state.
      VecX full = VecX::Zero(n);
      for (int i = 0; i < r; ++i) full[keep[i]] = s[i];
      std::vector<double> row_k(Bench::kOutputColumns), row_g = bench.outputs(t, full.data());
      kernel.outputs(t, s.data(), row_k.data());
      const std::vector<std::string> names = bench.column_names();
      for (int col = 0; col < Bench::kOutputColumns; ++col)
        ASSERT_TRUE(close(row_k[col], row_g[col], 1e-13, 1e-300)) << names[col] << " at t = " << t;
    }
  }
}

// The kernel's own stage solver (elimination along the Jacobian's sparsity) against a dense LU of
// c I - J on the leading block, over the sampled states and c from 1e-4 to 1e8 (step sizes 4e4 s to 4e-8 s).
TEST(BenchKernel, StageSolverEqualsTheDenseSolve) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const ContactModel model(c.law, c.body1, c.body2);
    const Bench bench(model, c.bench);
    const KernelFunctions kernel = kernel_functions(bench);
    const int n = kernel.system.size, lead = n - 2;  // the two energy quadratures last
    int checked = 0;
    for (const auto& [t, s] : sample_states(bench, c)) {
      Eigen::MatrixXd jac = Eigen::MatrixXd::Zero(n, n);
      kernel.system.jacobian(t, s.data(), jac.data());
      for (double cc : {1e-4, 1.0, 3e2, 1e5, 1e8}) {
        VecX r(n), k = VecX::Constant(n, 7.0);
        for (int i = 0; i < n; ++i) r[i] = unit(rng);
        kernel.solve_stage(cc, jac.data(), r.data(), k.data());
        const Eigen::MatrixXd a = cc * Eigen::MatrixXd::Identity(lead, lead) - jac.topLeftCorner(lead, lead);
        const VecX dense = a.fullPivLu().solve(r.head(lead));
        const double scale = dense.cwiseAbs().maxCoeff();
        for (int i = 0; i < lead; ++i)
          ASSERT_TRUE(close(k[i], dense[i], 1e-10, scale)) << "component " << i << ", c = " << cc << ", t = " << t;
        for (int i = lead; i < n; ++i) ASSERT_EQ(k[i], 7.0) << "quadrature entry " << i << " written";
        ++checked;
      }
    }
    EXPECT_GT(checked, 50);
  }
}

TEST(BenchKernel, JacobianEqualsDifferenceQuotients) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const ContactModel model(c.law, c.body1, c.body2);
    const Bench bench(model, c.bench);
    const KernelFunctions kernel = kernel_functions(bench);
    const int r = kernel.system.size;
    int checked = 0;
    for (const auto& [t, s] : sample_states(bench, c)) {
      MatX jac(r, r);
      kernel.system.jacobian(t, s.data(), jac.data());
      // Central differences, with a step small against the distance to the kink at v_r = 0.
      std::vector<double> g(static_cast<std::size_t>(kernel.system.switch_count));
      kernel.system.switches(t, s.data(), g.data());
      const double vr = g[0];
      for (int j = 0; j < r; ++j) {
        const double scale = std::max(std::abs(s[j]), 1e-3);  // m, m/s, normalised force, J
        double step = 1e-6 * scale;
        const bool velocity_column = bench.params().drive != DriveKind::velocity && j == 1;
        if (velocity_column) {
          if (std::abs(vr) < 1e-6) continue;  // too close to the kink for a clean central difference
          step = std::min(step, 1e-3 * std::abs(vr));
        }
        VecX plus = s, minus = s, fp(r), fm(r);
        plus[j] += step;
        minus[j] -= step;
        kernel.system.rhs(t, plus.data(), fp.data());
        kernel.system.rhs(t, minus.data(), fm.data());
        const VecX column = (fp - fm) / (plus[j] - minus[j]);
        const double col_scale = std::max(column.cwiseAbs().maxCoeff(), jac.col(j).cwiseAbs().maxCoeff());
        // Floor: rounding of the quotient, relative to the entries of the column and of the row (an entry
        // can be a cancellation residue of larger terms, e.g. d(f')/dv near steady sliding).
        for (int i = 0; i < r; ++i) {
          const double floor = 1e-9 * std::max(col_scale, jac.row(i).cwiseAbs().maxCoeff()) + 1e-12;
          ASSERT_LE(std::abs(jac(i, j) - column[i]), 2e-5 * std::max(std::abs(jac(i, j)), std::abs(column[i])) + floor)
              << "J(" << i << ", " << j << ") = " << jac(i, j) << " vs " << column[i] << " at t = " << t
              << ", v_r = " << vr;
        }
        ++checked;
      }
    }
    EXPECT_GT(checked, 100);
  }
}

// Whole runs: the kernel (analytic Jacobian, quadratures) and the general path (difference quotients) are
// different discretisations of the same ODE: at a tight tolerance they agree far below the tolerance of a
// loose run, and at any tolerance they need about as many steps; with either Rosenbrock method (one driver).
TEST(BenchKernel, RunsAgreeWithTheGeneralPath) {
  for (const integrate::Method method : {integrate::Method::rodas4, integrate::Method::rodas5p})
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name + " " + std::string(integrate::to_string(method)));
    const ContactModel model(c.law, c.body1, c.body2);
    const Bench bench(model, c.bench);
    const std::vector<double> times = grid(0.0, c.t_end, 600);
    for (double rtol : {1e-5, 1e-10}) {
      const BenchRun kernel = run(bench, times, options(method, rtol, rtol * 1e-4));
      const BenchRun general = run(bench, times, options(method, rtol, rtol * 1e-4), {}, {}, true, false);
      EXPECT_EQ(kernel.stats.method_used, method);
      EXPECT_EQ(general.stats.method_used, method);
      ASSERT_TRUE(kernel.kernel);
      ASSERT_TRUE(kernel.x_only);
      ASSERT_FALSE(general.kernel);
      ASSERT_TRUE(general.x_only);
      EXPECT_LT(std::abs(kernel.stats.steps - general.stats.steps), 0.15 * general.stats.steps + 5)
          << kernel.stats.steps << " vs " << general.stats.steps << " steps at rtol " << rtol;
      const double tol = rtol == 1e-10 ? 1e-7 : 3e-3;
      // Every column, the y ones (exactly zero on both paths: the kernel leaves them as allocated) included.
      for (const std::string& col : bench.column_names()) {
        const std::vector<double>& a = kernel.series.column(col);
        const std::vector<double>& b = general.series.column(col);
        double scale = 1e-300, diff = 0.0;
        for (std::size_t i = 0; i < b.size(); ++i) {
          scale = std::max(scale, std::abs(b[i]));
          diff = std::max(diff, std::abs(a[i] - b[i]));
        }
        EXPECT_LE(diff, tol * scale) << col << " at rtol " << rtol;
      }
      EXPECT_EQ(kernel.series.rows(), times.size());
    }
  }
}

TEST(BenchKernel, NotTakenOutsideItsDomain) {
  const std::vector<double> times = grid(0.0, 2.0, 100);
  auto takes_kernel = [&](const LawParams& law, const rh::RheologyParams& body1, const integrate::Options& o) {
    const ContactModel model(law, body1, rh::rigid());
    const Bench bench(model, spring(0.1));
    const BenchRun r = run(bench, times, o);
    EXPECT_EQ(r.x_only, integrate::is_rosenbrock(r.stats.method_used) && o.atol_per_component.empty());
    return r.kernel;
  };
  EXPECT_TRUE(takes_kernel(lugre_1995(), rh::elastic(1e5), rodas4(1e-5)));
  EXPECT_TRUE(takes_kernel(lugre_1995(), rh::elastic(1e5), options(integrate::Method::rodas5p, 1e-7, 1e-11)));
  EXPECT_TRUE(takes_kernel(lugre_1995(), rh::elastic(1e5), integrate::Options{}));  // auto: a Rosenbrock method
  // A viscoelastic body, Bouc-Wen, 0 < delta_s < 1 (infinite slope of mu at v = 0): the general x path.
  EXPECT_FALSE(takes_kernel(lugre_1995(), rh::gkv(1e5, {50.0}, {1e-3}), rodas4(1e-5)));
  LawParams bouc_wen;
  bouc_wen.kind = LawKind::bouc_wen;
  bouc_wen.beta1 = 1e8;
  bouc_wen.gamma = 1e7;
  EXPECT_FALSE(takes_kernel(bouc_wen, rh::elastic(1e5), rodas4(1e-5)));
  LawParams sharp = lugre_1995();
  sharp.M.axis1.delta_s = 0.5;
  EXPECT_FALSE(takes_kernel(sharp, rh::elastic(1e5), rodas4(1e-5)));
  // Per-component tolerances and cvode_bdf: the full system.
  integrate::Options per_component = rodas4(1e-5);
  per_component.atol_per_component.assign(10, 1e-9);
  EXPECT_FALSE(takes_kernel(lugre_1995(), rh::elastic(1e5), per_component));
  integrate::Options bdf = rodas4(1e-5);
  bdf.method = integrate::Method::cvode_bdf;
  EXPECT_FALSE(takes_kernel(lugre_1995(), rh::elastic(1e5), bdf));
  // kernel_functions refuses what the kernel does not cover.
  const ContactModel gkv(lugre_1995(), rh::gkv(1e5, {50.0}, {1e-3}), rh::rigid());
  EXPECT_THROW(kernel_functions(Bench(gkv, spring(0.1))), InvalidInput);
  const ContactModel bw(bouc_wen, rh::elastic(1e5), rh::rigid());
  EXPECT_THROW(kernel_functions(Bench(bw, spring(0.1))), InvalidInput);
}

}  // namespace
}  // namespace bristle::contact
