// bristle/c_api.h from C++: the same code as bristle::contact::Contact, handles from several threads,
// state round trip. (tests/c_api/c_program.c checks it from a C program.)
#include "bristle/c_api.h"

#include <gtest/gtest.h>

#include <cmath>
#include <thread>
#include <vector>

#include "bristle/contact/contact.hpp"

namespace {

TEST(CApi, StepsBitwiseAsTheCppContact) {
  bristle_contact h = 0;
  ASSERT_EQ(bristle_contact_create_lugre(1.0, 1.5, 1e-3, 1e5, std::sqrt(1e5), 0.4, 2.0, &h), BRISTLE_OK);
  bristle::contact::Contact c = bristle::contact::Contact::lugre(1.0, 1.5, 1e-3, 1e5, std::sqrt(1e5), 0.4);
  for (int i = 0; i < 500; ++i) {
    const double v = 2e-3 * std::sin(0.02 * i);
    double F = 0.0;
    ASSERT_EQ(bristle_contact_step(h, 1e-3, v, &F), BRISTLE_OK);
    EXPECT_EQ(F, c.step(1e-3, v));
  }
  double u[2];
  ASSERT_EQ(bristle_contact_get_state(h, u, 2), BRISTLE_OK);
  EXPECT_EQ(u[0], c.state()[0]);
  const double u_new[2] = {0.25, -0.5};
  ASSERT_EQ(bristle_contact_set_state(h, u_new, 2), BRISTLE_OK);
  ASSERT_EQ(bristle_contact_get_state(h, u, 2), BRISTLE_OK);
  EXPECT_EQ(u[0], 0.25);
  EXPECT_EQ(u[1], -0.5);
  const double u_bad[2] = {0.0, NAN};
  EXPECT_EQ(bristle_contact_set_state(h, u_bad, 2), BRISTLE_INVALID_INPUT);
  EXPECT_STREQ(bristle_last_error(), "state[1] = nan: must be finite");
  EXPECT_EQ(bristle_contact_destroy(h), BRISTLE_OK);
  EXPECT_EQ(bristle_contact_get_state(h, u, 2), BRISTLE_INVALID_HANDLE);
  EXPECT_EQ(bristle_contact_create_dahl(1.0, 1e5, nullptr), BRISTLE_NULL_POINTER);
  EXPECT_STREQ(bristle_last_error(), "bristle_contact_create_dahl: out must not be NULL");
}

TEST(CApi, EnergyTrackingOffStepsBitwiseAsTheCppContactWithoutEnergies) {
  bristle_contact h = 0;
  ASSERT_EQ(bristle_contact_create_lugre(1.0, 1.5, 1e-3, 1e5, std::sqrt(1e5), 0.4, 2.0, &h), BRISTLE_OK);
  bristle::contact::Contact c = bristle::contact::Contact::lugre(1.0, 1.5, 1e-3, 1e5, std::sqrt(1e5), 0.4);
  ASSERT_EQ(bristle_contact_set_energy_tracking(h, 0), BRISTLE_OK);
  c.set_energy_tracking(false);
  int on = 1;
  ASSERT_EQ(bristle_contact_energy_tracking(h, &on), BRISTLE_OK);
  EXPECT_EQ(on, 0);
  for (int i = 0; i < 200; ++i) {
    const double v = 2e-3 * std::sin(0.02 * i);
    double F = 0.0;
    ASSERT_EQ(bristle_contact_step(h, 1e-3, v, &F), BRISTLE_OK);
    EXPECT_EQ(F, c.step(1e-3, v));
  }
  double supplied = 0.0, dissipated = 0.0;
  ASSERT_EQ(bristle_contact_energies(h, nullptr, nullptr, &supplied, &dissipated), BRISTLE_OK);
  EXPECT_TRUE(std::isnan(supplied));
  EXPECT_TRUE(std::isnan(dissipated));
  EXPECT_EQ(bristle_contact_set_energy_tracking(h, 7), BRISTLE_OK);  // any nonzero is on
  ASSERT_EQ(bristle_contact_energy_tracking(h, &on), BRISTLE_OK);
  EXPECT_EQ(on, 1);
  EXPECT_EQ(bristle_contact_energy_tracking(h, nullptr), BRISTLE_NULL_POINTER);
  EXPECT_STREQ(bristle_last_error(), "bristle_contact_energy_tracking: on must not be NULL");
  EXPECT_EQ(bristle_contact_destroy(h), BRISTLE_OK);
  EXPECT_EQ(bristle_contact_set_energy_tracking(h, 1), BRISTLE_INVALID_HANDLE);
}

TEST(CApi, HandlesOnSeveralThreadsAndDestroyedHandlesFromAnother) {
  constexpr int kThreads = 4;
  std::vector<bristle_contact> handles(kThreads);
  for (auto& h : handles) ASSERT_EQ(bristle_contact_create_dahl(2.0, 1e4, &h), BRISTLE_OK);
  std::vector<double> forces(kThreads);
  std::vector<std::thread> threads;
  for (int k = 0; k < kThreads; ++k)
    threads.emplace_back([&, k] {
      for (int i = 0; i < 2000; ++i) bristle_contact_step(handles[k], 1e-3, 1e-2, &forces[k]);
    });
  for (auto& t : threads) t.join();
  for (double F : forces) EXPECT_NEAR(F, -2.0, 1e-12);
  // A thread that steps a handle while another destroys it gets OK or INVALID_HANDLE, never a crash.
  std::thread stepper([&] {
    double F = 0.0;
    for (int i = 0; i < 20000; ++i) {
      const int status = bristle_contact_step(handles[0], 1e-4, 1e-3, &F);
      if (status != BRISTLE_OK) {
        EXPECT_EQ(status, BRISTLE_INVALID_HANDLE);
        break;
      }
    }
  });
  EXPECT_EQ(bristle_contact_destroy(handles[0]), BRISTLE_OK);
  stepper.join();
  for (int k = 1; k < kThreads; ++k) EXPECT_EQ(bristle_contact_destroy(handles[k]), BRISTLE_OK);
}

}  // namespace
