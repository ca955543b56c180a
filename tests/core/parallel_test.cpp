// bristle::parallel_for: every item once, results independent of the worker count, the lowest
// failing item reported by name, a poll that reports progress and can stop the loop, bad thread counts.
#include "bristle/core/parallel.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bristle/core/error.hpp"
#include "support/test_support.hpp"

namespace bristle {
namespace {

TEST(ParallelFor, EveryItemOnceWhateverTheWorkerCount) {
  const std::size_t n = 1000;
  std::vector<double> serial(n);
  for (std::size_t k = 0; k < n; ++k) serial[k] = std::sin(0.1 * static_cast<double>(k)) * std::exp(-1e-3 * k);
  for (int threads : {1, 2, 3, 8}) {
    std::vector<double> out(n, -1.0);
    std::vector<std::atomic<int>> visits(n);
    ParallelOptions o;
    o.threads = threads;
    const std::size_t workers = parallel_for(
        n,
        [&](std::size_t k, std::size_t worker) {
          ASSERT_LT(worker, static_cast<std::size_t>(threads));
          out[k] = std::sin(0.1 * static_cast<double>(k)) * std::exp(-1e-3 * k);
          visits[k].fetch_add(1);
        },
        o);
    EXPECT_EQ(workers, static_cast<std::size_t>(threads));
    EXPECT_EQ(out, serial) << threads << " threads";
    for (std::size_t k = 0; k < n; ++k) ASSERT_EQ(visits[k].load(), 1) << k;
  }
  ParallelOptions o;
  o.threads = 8;
  EXPECT_EQ(parallel_for(3, [](std::size_t, std::size_t) {}, o), 3u);  // never more workers than items
  EXPECT_EQ(parallel_for(0, [](std::size_t, std::size_t) { FAIL(); }, o), 0u);
}

TEST(ParallelFor, TheLowestFailingItemIsReportedByName) {
  for (int threads : {1, 2, 4}) {
    ParallelOptions o;
    o.threads = threads;
    o.describe = [](std::size_t k) { return "point " + std::to_string(k); };
    const std::string message = test::message_of<InvalidInput>([&] {
      parallel_for(
          200,
          [](std::size_t k, std::size_t) {
            if (k == 37 || k == 150) throw InvalidInput("v = nan: must be finite");
          },
          o);
    });
    // With several workers item 150 may fail first, but 37 is always taken and fails too.
    EXPECT_EQ(message, "v = nan: must be finite (point 37)") << threads;
  }
  ParallelOptions o;
  o.threads = 2;
  o.describe = [](std::size_t k) { return "point " + std::to_string(k); };
  EXPECT_EQ(test::message_of<SolverError>([&] {
              parallel_for(10, [](std::size_t k, std::size_t) { if (k == 4) throw SolverError("no convergence"); }, o);
            }),
            "no convergence (point 4)");
  // Other exceptions pass unchanged.
  EXPECT_THROW(parallel_for(10, [](std::size_t, std::size_t) { throw std::runtime_error("x"); }, o),
               std::runtime_error);
}

TEST(ParallelFor, PollReportsProgressAndCanStopTheLoop) {
  ParallelOptions o;
  o.threads = 2;
  o.poll_interval = std::chrono::milliseconds(1);
  std::vector<std::size_t> seen;
  o.poll = [&](std::size_t done) { seen.push_back(done); };
  std::vector<int> out(50, 0);
  parallel_for(
      50,
      [&](std::size_t k, std::size_t) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        out[k] = 1;
      },
      o);
  EXPECT_EQ(out, std::vector<int>(50, 1));
  ASSERT_FALSE(seen.empty());
  for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_GE(seen[i], seen[i - 1]);
  // A poll that throws (Ctrl-C in Python) stops the workers; its exception wins.
  std::atomic<std::size_t> taken{0};
  o.poll = [](std::size_t) { throw std::runtime_error("interrupted"); };
  try {
    parallel_for(
        100000,
        [&](std::size_t, std::size_t) {
          taken.fetch_add(1);
          std::this_thread::sleep_for(std::chrono::microseconds(200));
        },
        o);
    FAIL() << "the poll's exception was not rethrown";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "interrupted");
  }
  EXPECT_LT(taken.load(), 100000u);
}

TEST(ParallelFor, BadThreadCount) {
  EXPECT_EQ(test::message_of([] { resolve_threads(-2); }), "threads = -2: must be >= 0 (0: every core)");
  EXPECT_EQ(test::message_of([] { resolve_threads(-1, "patch.threads"); }),
            "patch.threads = -1: must be >= 0 (0: every core)");
  EXPECT_GE(resolve_threads(0), 1);
  EXPECT_EQ(resolve_threads(3), 3);
}

}  // namespace
}  // namespace bristle
