#pragma once
// Private: runs fn(k, worker), k in [0, n), worker in [0, workers), on a few std::thread workers
// (the library-side counterpart of the Python sweeps' parallel_for in python/src/sweeps.cpp, without
// the GIL and progress handling). Items are handed out one at a time from an atomic counter; each
// writes only its own result slot, so results do not depend on the number of workers or the order
// items are taken in. The first failing item (lowest index among those that failed) stops the
// others; its exception is rethrown with `describe(k)` appended to InvalidInput and SolverError
// messages.
#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bristle/core/error.hpp"

namespace bristle::patch::detail {

inline int resolve_threads(int threads) {
  if (threads < 0)
    throw InvalidInput("threads = " + std::to_string(threads) + ": must be >= 0 (0: every core)");
  if (threads == 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return threads;
}

/// Returns the number of workers used (min(threads, n), threads = 0: every core).
inline std::size_t parallel_for(std::size_t n, int threads, const std::function<void(std::size_t, std::size_t)>& fn,
                         const std::function<std::string(std::size_t)>& describe) {
  if (n == 0) return 0;
  const std::size_t workers = std::min<std::size_t>(static_cast<std::size_t>(resolve_threads(threads)), n);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::exception_ptr error;
  std::size_t error_index = n;
  auto work = [&](std::size_t worker) {
    while (!stop.load(std::memory_order_relaxed)) {
      const std::size_t k = next.fetch_add(1, std::memory_order_relaxed);
      if (k >= n) break;
      try {
        fn(k, worker);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(mutex);
        if (k < error_index) {
          error = std::current_exception();
          error_index = k;
        }
        stop.store(true);
      }
    }
  };
  if (workers == 1) {
    work(0);
  } else {
    std::vector<std::thread> pool;
    pool.reserve(workers - 1);
    try {
      for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(work, w);
    } catch (...) {  // could not start a thread: stop the others, then report
      stop.store(true);
      for (auto& t : pool) t.join();
      throw;
    }
    work(0);  // the calling thread is one of the workers
    for (auto& t : pool) t.join();
  }
  if (error) {
    try {
      std::rethrow_exception(error);
    } catch (const InvalidInput& e) {
      throw InvalidInput(std::string(e.what()) + " (" + describe(error_index) + ")");
    } catch (const SolverError& e) {
      throw SolverError(std::string(e.what()) + " (" + describe(error_index) + ")");
    }
  }
  return workers;
}

}  // namespace bristle::patch::detail
