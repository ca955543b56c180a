#pragma once
// Independent work items on a few std::thread workers: the one parallel loop of the library (the 2-D
// patch's force-and-moment maps) and of the Python sweeps.
//
// Items are handed out one at a time from an atomic counter (dynamic scheduling: items may differ
// in cost by orders of magnitude); each item writes only its own result slot, so results do not
// depend on the number of workers or the order items are taken in. The first failing item (lowest
// index among those that failed) stops the others; its exception is rethrown, with " (describe(k))"
// appended to InvalidInput and SolverError messages so that the failing item is named.
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

namespace bristle {

/// The worker count for `threads` (0: every core), validated under `key`.
int resolve_threads(int threads, const std::string& key = "threads");

struct ParallelOptions {
  int threads = 0;  // workers (0: every core); never more than there are items
  /// Names item k in error messages (e.g. "point 12: v_x = 0.5 m/s"); none when empty.
  std::function<std::string(std::size_t k)> describe;
  /// If set, the calling thread does not take items but calls poll(items done) every poll_interval
  /// while the workers run (progress, Ctrl-C checks); an exception from poll stops the workers and is
  /// rethrown once they have finished their current items.
  std::function<void(std::size_t done)> poll;
  std::chrono::milliseconds poll_interval{100};
};

/// Runs fn(k, worker) for k in [0, n), worker in [0, workers). Returns the number of workers used.
std::size_t parallel_for(std::size_t n, const std::function<void(std::size_t k, std::size_t worker)>& fn,
                         const ParallelOptions& options = {});

}  // namespace bristle
