#pragma once
// Private to the contact module: the compiled 1-D kernel of the lumped benches.
//
// The commonest lumped problem -- a bench driven along x over an elastic pair (n1 = n2 = 0) with an
// isotropic Stribeck law of the eq. 2-3 family (Dahl, LuGre, FrBD) -- is a scalar ODE once the y
// components are known to stay zero (Bench::x_only). The kernel evaluates exactly the equations of
// ContactModel::source, FrictionLaw::h0/output and Bench::rhs for that case in scalar form, as a
// StaticSystem (integrate/rosenbrock.hpp) so that rodas4 or rodas5p inlines it, with
//   * the same state as Bench::x_system (x, v, x_p by drive; f; E_supplied, E_dissipated), the same
//     switches and the full system's error norm, so that the method takes the general path's steps;
//   * an analytic Jacobian (the general path forms difference quotients), with the derivative of the
//     Stribeck g taken from FrictionLaw::isotropic_g;
//   * the two energy integrals declared as quadratures (they enter no right-hand side), so the driver
//     factorises a 2x2 to 4x4 block instead of the full 4x4 to 6x6;
//   * the 21 output columns of Bench::outputs written straight into the series.
// Every coefficient comes from the general objects (K0bar, Sigma0, Sigma1, Sigma2 of the law and the
// pair; the pair's deformation and stored energy per unit force), and tests/contact/bench_kernel_test.cpp
// checks the right-hand side, Jacobian and rows against the general ones on random states, and whole runs
// against the general path. Why a kernel: docs/benchmarks.md (LuGre stick-slip against scipy).
#include <functional>
#include <vector>

#include "bristle/contact/bench.hpp"

namespace bristle::contact::detail {

/// True if run() may take the kernel: rodas4 or rodas5p without per-component tolerances, bench.x_only(state), a
/// Dahl, LuGre or FrBD law with isotropic Stribeck M (no user G^-1, delta_S = 0 or >= 1, so that the
/// Jacobian is finite at v_r = 0) and an elastic pair.
bool kernel_applies(const Bench& bench, const VecX& state, const integrate::Options& options);

/// Integrates the bench from the full initial `state` (kernel_applies must hold) through `output_times`
/// with rodas4 or rodas5p (options.method), recording the rows of Bench::outputs; run() with BenchRun::kernel = true.
BenchRun run_kernel(const Bench& bench, const VecX& state, const std::vector<double>& output_times,
                    const integrate::Options& options, const std::function<void(double)>& progress);

}  // namespace bristle::contact::detail
