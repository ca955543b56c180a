// contact/contact.hpp: Contact::step and ContactArray::step allocate nothing.
//
// The counting allocator: this file replaces malloc, calloc, realloc and free of the test executable by
// forwarders to glibc's (__libc_malloc, ...) that count calls while `counting` is set. operator new and
// Eigen's dynamic matrices both allocate through malloc, so every heap allocation is seen. Under
// AddressSanitizer (which owns malloc) the replacement is left out and the test skipped.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstddef>
#include <vector>

#include "bristle/contact/contact.hpp"
#include "contact/bench_test_support.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define BRISTLE_COUNTING_MALLOC 0
#else
#define BRISTLE_COUNTING_MALLOC 1
#endif

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
}  // namespace

#if BRISTLE_COUNTING_MALLOC
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t n, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void __libc_free(void* p);

void* malloc(std::size_t size) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}
void* calloc(std::size_t n, std::size_t size) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t size) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(p, size);
}
void free(void* p) { __libc_free(p); }
}
#endif

namespace bristle::contact {
namespace {

/// Allocations made by f().
template <class F>
long allocations_in(F&& f) {
  allocations = 0;
  counting = true;
  f();
  counting = false;
  return allocations.load();
}

TEST(ContactAllocation, CountingAllocatorSeesAllocations) {
#if !BRISTLE_COUNTING_MALLOC
  GTEST_SKIP() << "malloc belongs to AddressSanitizer";
#endif
  // The counter works: a vector and an Eigen dynamic vector are counted.
  EXPECT_GE(allocations_in([] {
              std::vector<double> v(100, 1.0);
              VecX x = VecX::Constant(50, 2.0);
              EXPECT_EQ(v[3] + x[7], 3.0);
            }),
            2);
}

TEST(ContactAllocation, StepAllocatesNothing) {
#if !BRISTLE_COUNTING_MALLOC
  GTEST_SKIP() << "malloc belongs to AddressSanitizer";
#endif
  const laws::LawParams lugre = test::lugre_1995_law();
  laws::LawParams bouc_wen;
  bouc_wen.kind = laws::LawKind::bouc_wen;
  bouc_wen.beta1 = 1e4;
  std::vector<Contact> contacts = {
      Contact::lugre(1.0, 1.5, 1e-3, 1e5, std::sqrt(1e5), 0.4),  // elastic pair: fixed-size stages
      Contact::dahl(1.0, 1e5),
      Contact(lugre, rheology::gkv(2e5, {20.0, 5.0}, {1e-3, 1e-2}), rheology::elastic(4e5), 2.0),  // dynamic
      Contact(bouc_wen, rheology::elastic(2.0), rheology::rigid(), 1.0),                            // Newton
  };
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    Contact& c = contacts[k];
    double sum = 0.0;
    const long n = allocations_in([&] {
      for (int i = 0; i < 1000; ++i) sum += c.step(1e-4, 1e-3 * std::sin(0.01 * i));
      for (int i = 0; i < 100; ++i) sum += c.step(1e-4, Vec2(1e-3, -2e-3))[1];
      sum += c.stored_energy_J() + c.supplied_energy_J() + c.dissipated_energy_J() + c.friction_force_N()[0];
    });
    EXPECT_EQ(n, 0) << "contact " << k;
    EXPECT_TRUE(std::isfinite(sum));
    EXPECT_NEAR(c.time_s(), 0.11, 1e-12);
    c.set_energy_tracking(false);  // the path without the energy quadratures
    EXPECT_EQ(allocations_in([&] {
                for (int i = 0; i < 100; ++i) sum += c.step(1e-4, 1e-3 * std::sin(0.01 * i));
              }),
              0)
        << "contact " << k << ", energy tracking off";
  }
  ContactArray array(contacts[0], 100);
  std::vector<double> v(100, 1e-3), F(100), v2(200, 5e-4), F2(200);
  EXPECT_EQ(allocations_in([&] {
              for (int i = 0; i < 10; ++i) array.step(1e-4, v.data(), F.data());
              for (int i = 0; i < 10; ++i) array.step_2d(1e-4, v2.data(), F2.data());
            }),
            0);
  EXPECT_LT(F[99], 0.0);
}

}  // namespace
}  // namespace bristle::contact
