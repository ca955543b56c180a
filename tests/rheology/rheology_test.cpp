// Rheologies (paper 1, eqs. 8-11) and the viscoelastic contact pair (eqs. 12-19).
#include "bristle/rheology/contact_pair.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <functional>
#include <vector>

#include "bristle/core/error.hpp"

namespace bristle::rheology {
namespace {

// The branch limit is the rheology's own (validate), so that the library and Python have it as the reader does:
// a 3,000-branch GKV body from Python took 2 GB and 12 s to build a contact model.
TEST(Rheology, AtMost100BranchesPerBody) {
  EXPECT_NO_THROW(gkv(1e5, std::vector<double>(kMaxBranches, 1.0), std::vector<double>(kMaxBranches, 0.1))
                      .validate("body1"));
  try {
    gkv(1e5, std::vector<double>(101, 1.0), std::vector<double>(101, 0.1)).validate("body1");
    FAIL() << "101 branches accepted";
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(), "body1.branches has 101 entries: at most 100 branches (Limits in docs/scenarios.md)");
  }
}

TEST(Rheology, Eq58DampingsFollowK0) {
  // paper 1, eq. 58: c_i,2 = tau_i,2 k01 (1 - s)/s = tau_i,2 k02; Table 1: k01 = 240, s = 0.6, tau = 0.1, 0.3
  const double k02 = substrate_stiffness_from_s("pair.s", 0.6, 240.0);
  const RheologyParams p = gkv_eq58(k02, {0.1, 0.3});
  ASSERT_EQ(p.branch_count(), 2);
  for (int i = 0; i < 2; ++i) {
    const double tau = i == 0 ? 0.1 : 0.3;
    EXPECT_EQ(p.branches[i].c, ((tau * k02) * Mat2::Identity()).eval());
    EXPECT_NEAR(p.branches[i].k(0, 0), k02, 1e-12 * k02);  // K_i = C_i / tau_i = k02
    EXPECT_NEAR((p.branches[i].k.inverse() * p.branches[i].c)(0, 0), tau, 1e-15);  // tau = K^-1 C (eq. 9)
  }
  // the same body written with explicit dampings realises identically
  const RheologyParams explicit_c = gkv(k02, {0.1 * k02, 0.3 * k02}, {0.1, 0.3});
  EXPECT_EQ(realise(p).A, realise(explicit_c).A);
  EXPECT_EQ(realise(p).C, realise(explicit_c).C);
}

TEST(Rheology, ContactPairReappliesEq58WhenK0Changes) {
  RheologyParams body2 = gkv_eq58(100.0, {0.2});
  body2.k_elastic = 400.0 * Mat2::Identity();  // e.g. pair.s or body2.k0 set by key path: branches now stale
  const ContactPair pair(elastic(240.0), body2);
  EXPECT_EQ(pair.body2().branches[0].c, ((0.2 * 400.0) * Mat2::Identity()).eval());
  const ContactPair same(elastic(240.0), gkv_eq58(400.0, {0.2}));
  EXPECT_EQ(pair.S0(), same.S0());
  EXPECT_EQ(pair.Cbar(), same.Cbar());
}

TEST(Rheology, Eq58Messages) {
  RheologyParams p = elastic(100.0);
  p.eq58_tau = {0.1};
  try {
    apply_eq58(p, "body2");
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(), "body2.c = \"eq58\": applies to body2.type = \"gkv\" (body2.type is \"elastic\")");
  }
  try {
    (void)gkv_eq58(100.0, {0.1, -1.0});
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(), "body2.tau[1] = -1: must be > 0");
  }
  RheologyParams aniso = gkv_eq58(100.0, {0.1});
  aniso.k_elastic(1, 1) = 50.0;
  try {
    apply_eq58(aniso, "body1");
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_STREQ(e.what(), "body1.c = \"eq58\": needs an isotropic body1.k0 (a single number)");
  }
}

TEST(Rheology, TruncatedBranchesAndOneRelaxationTime) {
  // The model orders of paper 1, §5 (Figs. 5, 6, 8): the first n branches; n = 0 is elastic with K0 (GKV) or K_inf
  // (GM: K0 = K_inf without branches).
  RheologyParams g = gkv(240.0, {100.0, 50.0}, {0.1, 0.2});
  truncate_branches(g, 1, "body1");
  ASSERT_EQ(g.branch_count(), 1);
  EXPECT_EQ(g.branches[0].c, (100.0 * Mat2::Identity()).eval());
  truncate_branches(g, 0, "body1");
  EXPECT_EQ(g.kind, RheologyKind::elastic);
  EXPECT_EQ(g.k_elastic, (240.0 * Mat2::Identity()).eval());
  RheologyParams m = gm(100.0, {18.0, 21.6}, {0.3, 0.3});
  truncate_branches(m, 0, "body2");
  EXPECT_EQ(m.kind, RheologyKind::elastic);
  EXPECT_EQ(m.k_elastic, (100.0 * Mat2::Identity()).eval());
  RheologyParams e = gkv_eq58(360.0, {0.1, 0.3});
  truncate_branches(e, 1, "body2");
  EXPECT_EQ(e.eq58_tau, (std::vector<double>{0.1}));
  EXPECT_THROW(truncate_branches(e, 2, "body2"), InvalidInput);
  EXPECT_THROW(truncate_branches(m, 1, "body2"), InvalidInput);  // elastic now
  // One relaxation time: GKV keeps C_i (K_i = C_i / tau), GM keeps K_i (C_i = K_i tau), eq. 58 its rule (C_i = tau k0);
  // each as the body written with that tau.
  RheologyParams a = gkv(240.0, {100.0, 50.0}, {0.1, 0.2});
  set_relaxation_times(a, 0.4, "body1");
  const RheologyParams a_written = gkv(240.0, {100.0, 50.0}, {0.4, 0.4});
  RheologyParams b = gm(100.0, {18.0, 21.6}, {0.3, 0.1});
  set_relaxation_times(b, 0.6, "body2");
  const RheologyParams b_written = gm(100.0, {18.0, 21.6}, {0.6, 0.6});
  RheologyParams c = gkv_eq58(360.0, {0.1, 0.3});
  set_relaxation_times(c, 0.2, "body2");
  const RheologyParams c_written = gkv_eq58(360.0, {0.2, 0.2});
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(a.branches[i].k, a_written.branches[i].k);
    EXPECT_EQ(b.branches[i].c, b_written.branches[i].c);
    EXPECT_EQ(c.branches[i].c, c_written.branches[i].c);
  }
  EXPECT_EQ(c.eq58_tau, c_written.eq58_tau);
  RheologyParams el = elastic(100.0);
  EXPECT_THROW(set_relaxation_times(el, 0.2, "body2"), InvalidInput);
  EXPECT_THROW(set_relaxation_times(a, 0.0, "body1"), InvalidInput);
}

TEST(Rheology, GkvRealisationMatchesEq8) {
  const RheologyParams p = gkv(240.0, {100.0, 50.0}, {0.1, 0.2});
  const Realisation r = realise(p);
  ASSERT_EQ(r.n, 2);
  EXPECT_NEAR(r.A(0, 0), -1.0 / 0.1, 1e-12);  // -tau_1^-1
  EXPECT_NEAR(r.A(2, 2), -1.0 / 0.2, 1e-12);
  EXPECT_NEAR(r.B(0, 0), 1.0 / 100.0, 1e-15);  // C_1^-1
  EXPECT_NEAR(r.C(0, 2), -240.0, 1e-12);       // -K0
  // Static compliance: springs in series, 1/k0 + sum 1/k_i with k_i = c_i / tau_i.
  EXPECT_NEAR(r.static_compliance()(0, 0), 1.0 / 240.0 + 0.1 / 100.0 + 0.2 / 50.0, 1e-15);
}

TEST(Rheology, GmStaticStiffnessIsKinf) {
  const Realisation r = realise(gm(100.0, {50.0, 30.0}, {0.1, 1.0}));
  EXPECT_NEAR(r.K0(0, 0), 180.0, 1e-12);  // K0 = K_inf + sum K_i
  EXPECT_NEAR(r.static_compliance()(1, 1), 1.0 / 100.0, 1e-14);
}

TEST(Rheology, GmEquivalentOfGkvHasTheSameTransferFunction) {
  const double k0 = 240.0;
  const std::vector<double> c{72.0, 78.0, 5.0}, tau{0.1, 0.3, 0.01};
  const Realisation a = realise(gkv(k0, c, tau));
  const Realisation b = realise(gm_equivalent_of_gkv(k0, c, tau));
  ASSERT_EQ(b.n, 3);
  for (double w : {0.0, 0.1, 1.0, 10.0, 100.0, 1e4}) {
    const std::complex<double> s(0.0, w);
    const auto ja = compliance(a, s), jb = compliance(b, s);
    EXPECT_LT(std::abs(ja(0, 0) - jb(0, 0)), 1e-11 * std::abs(ja(0, 0))) << "omega " << w;
  }
  // One branch: the closed-form standard-linear-solid conversion.
  const RheologyParams one = gm_equivalent_of_gkv(k0, {72.0}, {0.1});
  const double k1 = 720.0;
  EXPECT_NEAR(one.k_elastic(0, 0), k0 * k1 / (k0 + k1), 1e-10);
  EXPECT_NEAR(one.branches[0].k(0, 0), k0 * k0 / (k0 + k1), 1e-10);
  EXPECT_NEAR(one.branches[0].c(0, 0) / one.branches[0].k(0, 0), 72.0 / (k0 + k1), 1e-14);
}

TEST(Rheology, StoredEnergyGkv) {
  const Realisation r = realise(gkv(200.0, {10.0}, {0.5}));
  const double zeta[2] = {1e-3, -2e-3};
  const Vec2 f(0.4, 0.1);
  const double k1 = 20.0;
  EXPECT_NEAR(r.stored_energy(f, zeta), 0.5 * f.squaredNorm() / 200.0 + 0.5 * k1 * (1e-6 + 4e-6), 1e-15);
}

TEST(ContactPair, ElasticPairFromS) {
  const double k01 = 240.0, s = 0.4;
  const double k02 = substrate_stiffness_from_s("pair.s", s, k01);
  const ContactPair pair(elastic(k01), elastic(k02));
  EXPECT_NEAR(pair.S2()(0, 0), s, 1e-14);        // s = s2 = k01/(k01 + k02), errata §5
  EXPECT_NEAR(pair.S1()(0, 0), 1.0 - s, 1e-14);  // s1 = 1 - s
  EXPECT_NEAR(pair.K0bar()(0, 0), (1.0 - s) * k01, 1e-12);  // k0bar = (1 - s) k01
  EXPECT_LT((pair.S1() + pair.S2() - Mat2::Identity()).norm(), 1e-15);
}

TEST(ContactPair, RigidSubstrateIsLumpedLimit) {
  const ContactPair pair(gkv(1e5, {10.0}, {0.01}), rigid());
  EXPECT_LT((pair.S1() - Mat2::Identity()).norm(), 1e-15);
  EXPECT_LT(pair.S2().norm(), 1e-15);
  EXPECT_NEAR(pair.K0bar()(0, 0), 1e5, 1e-9);
}

TEST(ContactPair, DeformationsSplitAsEq18) {
  // z1 = S0 zeta + S1 z, z2 = S0 zeta - S2 z (eq. 18) for GKV bodies.
  const ContactPair pair(gkv(240.0, {100.0, 50.0}, {0.1, 0.1}), gkv(160.0, {30.0}, {0.1}));
  const double zeta[6] = {1e-3, 2e-3, -1e-3, 5e-4, 3e-4, -2e-4};
  const Vec2 f(0.3, -0.2);
  const Vec2 z = pair.relative_deformation(f, zeta);
  const Vec2 z1 = pair.body1().deformation(f, zeta);
  const Vec2 z2 = pair.body2().deformation(-f, zeta + 4);
  Eigen::Map<const VecX> zv(zeta, 6);
  const Vec2 s0zeta = pair.S0() * zv;
  EXPECT_LT((z1 - (s0zeta + pair.S1() * z)).norm(), 1e-15);
  EXPECT_LT((z2 - (s0zeta - pair.S2() * z)).norm(), 1e-15);
  // f = K0bar z + Cbar zeta (eq. 15)
  EXPECT_LT((pair.K0bar() * z + pair.Cbar() * zv - f).norm(), 1e-13);
}

void expect_invalid(const std::function<void()>& fn, const std::string& message) {
  try {
    fn();
    FAIL() << "expected InvalidInput: " << message;
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(ContactPair, RejectsBadInput) {
  expect_invalid([] { elastic(0.0); }, "k0 = 0: must be > 0");
  expect_invalid([] { gkv(100.0, {-1.0}, {0.1}); }, "c[0] = -1: must be > 0");
  expect_invalid([] { gkv(100.0, {1.0}, {0.0}); }, "tau[0] = 0: must be > 0");
  expect_invalid([] { gkv(100.0, {1.0, 2.0}, {0.1}); }, "tau: 1 values for 2 damping values c; one tau per branch");
  expect_invalid([] { substrate_stiffness_from_s("pair.s", 1.0, 240.0); }, "pair.s = 1: must lie in (0, 1)");
  expect_invalid([] { substrate_stiffness_from_s("pair.s", 0.0, 240.0); }, "pair.s = 0: must lie in (0, 1)");
  expect_invalid([] { ContactPair(rigid(), rigid()); },
                 "body1.type = \"rigid\": at least one body must deform (body2 is rigid too)");
  RheologyParams nonsym = elastic(100.0);
  nonsym.k_elastic(0, 1) = 5.0;
  expect_invalid([&] { ContactPair(nonsym, rigid()); }, "body1.k0 = [[100, 5], [0, 100]]: must be symmetric");
  RheologyParams indefinite = elastic(100.0);
  indefinite.k_elastic << 1.0, 2.0, 2.0, 1.0;
  expect_invalid([&] { ContactPair(rigid(), indefinite); }, "body2.k0 = [[1, 2], [2, 1]]: must be positive definite");
  RheologyParams nan_branch = gkv(100.0, {1.0}, {0.1});
  nan_branch.branches[0].c(1, 1) = std::nan("");
  expect_invalid([&] { ContactPair(nan_branch, rigid()); },
                 "body1.branches[0].c = [[1, 0], [0, nan]]: must be finite");
  RheologyParams aniso1 = elastic(100.0), aniso2 = elastic(50.0);
  aniso1.k_elastic << 100.0, 10.0, 10.0, 80.0;
  aniso2.k_elastic << 50.0, 0.0, 0.0, 30.0;
  expect_invalid([&] { ContactPair(aniso1, aniso2); },
                 "body2.k0 = [[50, 0], [0, 30]]: the elastic stiffnesses of the two bodies must share principal axes "
                 "(commute with body1.k0 = [[100, 10], [10, 80]]), paper 1 eqs. 19 and 41");
}

}  // namespace
}  // namespace bristle::rheology
