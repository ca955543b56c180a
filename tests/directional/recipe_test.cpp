// Profile::recipe() and Loading::recipe(): how a profile or loading was made, enough to make it again (the
// Python module pickles them by it). Rebuilt from its recipe, each evaluates bit-identically.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "bristle/directional/energy.hpp"
#include "bristle/directional/profile.hpp"

namespace {

using namespace bristle::directional;

constexpr double kTwoPi = 2.0 * std::numbers::pi;

Profile rebuild(const Profile& p) {
  const Profile::Recipe& r = p.recipe();
  if (r.params) return Profile(*r.params);
  if (r.mirror_of) return rebuild(*r.mirror_of).mirrored();
  return Profile::custom(r.w, r.dw, r.d2w, "profile", r.harmonics);
}

Loading rebuild(const Loading& l) {
  const Loading::Recipe& r = l.recipe();
  const auto& x = r.numbers;
  if (r.kind == "piecewise_linear") return Loading::piecewise_linear(r.t, r.value);
  if (r.kind == "ramp") return Loading::ramp(x.at(0), x.at(1));
  if (r.kind == "sine") return Loading::sine(x.at(0), x.at(1), x.at(2), x.at(3));
  if (r.kind == "triangle") return Loading::triangle(x.at(0), x.at(1), x.at(2), x.at(3));
  if (r.kind == "custom") return Loading::custom(r.value_fn, r.rate_fn, x.at(0));
  EXPECT_EQ(r.kind, "affine");
  return rebuild(*r.base).affine(x.at(0), x.at(1));
}

TEST(ProfileRecipe, RebuildsEveryKindOfProfileExactly) {
  ProfileParams ratchet;
  ratchet.kind = ProfileKind::ratchet;
  ratchet.amplitude = 0.08;
  ratchet.asymmetry = 0.2;
  const Profile from_params(ratchet);
  ASSERT_TRUE(from_params.recipe().params.has_value());
  EXPECT_EQ(from_params.recipe().params->asymmetry, 0.2);
  EXPECT_FALSE(from_params.recipe().mirror_of);

  const Profile custom = Profile::custom([](double x) { return 0.05 * std::sin(kTwoPi * x); },
                                         [](double x) { return 0.05 * kTwoPi * std::cos(kTwoPi * x); },
                                         [](double x) { return -0.05 * kTwoPi * kTwoPi * std::sin(kTwoPi * x); },
                                         "profile", 4);
  EXPECT_FALSE(custom.recipe().params.has_value());
  EXPECT_TRUE(custom.recipe().w && custom.recipe().dw && custom.recipe().d2w);
  EXPECT_EQ(custom.recipe().harmonics, 4);

  const Profile mirrored = from_params.mirrored().mirrored();
  ASSERT_TRUE(mirrored.recipe().mirror_of);
  EXPECT_EQ(mirrored.recipe().mirror_of->description(), from_params.mirrored().description());

  for (const Profile& p : {from_params, custom, mirrored, custom.mirrored()}) {
    const Profile q = rebuild(p);
    EXPECT_EQ(q.description(), p.description());
    EXPECT_EQ(q.omega_plus(), p.omega_plus());
    for (int i = 0; i <= 16; ++i) {
      const double x = i / 16.0 - 0.3;
      EXPECT_EQ(q.w(x), p.w(x)) << p.description() << " at " << x;
      EXPECT_EQ(q.dw(x), p.dw(x)) << p.description() << " at " << x;
    }
  }
}

TEST(LoadingRecipe, NamesTheFactoryAndItsArguments) {
  EXPECT_EQ(Loading::ramp(0.5, 2.0).recipe().kind, "ramp");
  EXPECT_EQ(Loading::ramp(0.5, 2.0).recipe().numbers, (std::vector<double>{0.5, 2.0}));
  EXPECT_EQ(Loading::sine(1.0, 0.5, 4.0, 0.3).recipe().numbers, (std::vector<double>{1.0, 0.5, 4.0, 0.3}));
  EXPECT_EQ(Loading::triangle(0.0, 0.8, 2.0, 1.0).recipe().kind, "triangle");
  const Loading table = Loading::piecewise_linear({0.0, 1.0, 2.0}, {0.0, 1.0, 0.5});
  EXPECT_EQ(table.recipe().t, (std::vector<double>{0.0, 1.0, 2.0}));
  EXPECT_EQ(table.recipe().value, (std::vector<double>{0.0, 1.0, 0.5}));
  const Loading shifted = table.affine(3.0, -1.0);
  EXPECT_EQ(shifted.recipe().kind, "affine");
  ASSERT_TRUE(shifted.recipe().base);
  EXPECT_EQ(shifted.recipe().base->recipe().kind, "piecewise_linear");

  const Loading custom = Loading::custom([](double t) { return 1.0 + std::sin(t); }, [](double t) { return std::cos(t); },
                                         0.01);
  for (const Loading& l : {Loading::ramp(0.5, 2.0), Loading::sine(1.0, 0.5, 4.0, 0.3),
                           Loading::triangle(0.0, 0.8, 2.0, 1.0), table, shifted.affine(0.5, 0.1), custom}) {
    const Loading m = rebuild(l);
    for (int i = 0; i <= 20; ++i) {
      const double t = -0.5 + 0.17 * i;
      EXPECT_EQ(m.value(t), l.value(t)) << l.recipe().kind << " at " << t;
      EXPECT_EQ(m.rate(t), l.rate(t)) << l.recipe().kind << " at " << t;
    }
    EXPECT_EQ(m.kinks(), l.kinks());
    EXPECT_EQ(m.turning_points(0.0, 3.0), l.turning_points(0.0, 3.0));
  }
}

}  // namespace
