// The parallel loop of include/bristle/core/parallel.hpp.
#include "bristle/core/parallel.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "bristle/core/error.hpp"

namespace bristle {

int resolve_threads(int threads, const std::string& key) {
  if (threads < 0) throw InvalidInput(fmt::format("{} = {}: must be >= 0 (0: every core)", key, threads));
  if (threads == 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return threads;
}

std::size_t parallel_for(std::size_t n, const std::function<void(std::size_t, std::size_t)>& fn,
                         const ParallelOptions& options) {
  if (n == 0) return 0;
  const std::size_t workers = std::min<std::size_t>(static_cast<std::size_t>(resolve_threads(options.threads)), n);
  std::atomic<std::size_t> next{0}, done{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::condition_variable finished;
  std::size_t running = 0;  // pool threads still working (guarded by mutex)
  std::exception_ptr error, poll_error;
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
      done.fetch_add(1, std::memory_order_relaxed);
    }
  };
  // With a poll the calling thread only polls; without, it is worker 0.
  const std::size_t first_pool_worker = options.poll ? 0 : 1;
  if (workers == 1 && !options.poll) {
    work(0);
  } else {
    std::vector<std::thread> pool;
    pool.reserve(workers - first_pool_worker);
    running = workers - first_pool_worker;
    auto pool_work = [&](std::size_t worker) {
      work(worker);
      const std::lock_guard<std::mutex> lock(mutex);
      --running;
      finished.notify_all();
    };
    try {
      for (std::size_t w = first_pool_worker; w < workers; ++w) pool.emplace_back(pool_work, w);
    } catch (...) {  // could not start a thread: stop the others, then report
      stop.store(true);
      for (auto& t : pool) t.join();
      throw;
    }
    if (options.poll) {
      std::unique_lock<std::mutex> lock(mutex);
      while (running > 0) {
        finished.wait_for(lock, options.poll_interval);
        if (running == 0) break;
        if (poll_error) continue;  // stopped: wait for the workers' current items, poll no more
        lock.unlock();
        try {
          options.poll(done.load());
        } catch (...) {
          poll_error = std::current_exception();
          stop.store(true);
        }
        lock.lock();
      }
    } else {
      work(0);
    }
    for (auto& t : pool) t.join();
  }
  if (poll_error) std::rethrow_exception(poll_error);
  if (error) {
    if (!options.describe) std::rethrow_exception(error);
    try {
      std::rethrow_exception(error);
    } catch (const InvalidInput& e) {
      throw InvalidInput(std::string(e.what()) + " (" + options.describe(error_index) + ")");
    } catch (const SolverError& e) {
      throw SolverError(std::string(e.what()) + " (" + options.describe(error_index) + ")");
    }
  }
  return workers;
}

}  // namespace bristle
