#pragma once
// Progress of a long solve, reported to the caller (the CLI's progress line, Python's progress= and its
// Ctrl-C check). Every solver that takes a Progress calls it through a ProgressThrottle: with the fraction
// of the run done, 0 < fraction <= 1, non-decreasing, at most once per 0.5 % of the run, and exactly 1
// at the end. The callback may throw to stop the run (the exception propagates out of the solver).
#include <functional>
#include <utility>

namespace bristle {

/// Called with the fraction of a run done (0 < fraction <= 1); may throw to stop the run.
using Progress = std::function<void(double fraction)>;

/// Calls a Progress at most once per `step` of the run's fraction and always at its end (fraction >= 1,
/// reported as exactly 1): a solver may call it at every output or step, the caller's callback (which may
/// read a clock, format text or take Python's GIL) runs a few hundred times per run at most.
class ProgressThrottle {
 public:
  explicit ProgressThrottle(Progress progress, double step = 0.005) : progress_(std::move(progress)), step_(step) {}
  explicit operator bool() const { return static_cast<bool>(progress_); }
  void operator()(double fraction) {
    if (!progress_) return;
    if (fraction >= 1.0) {
      if (!ended_) progress_(1.0);
      ended_ = true;
      return;
    }
    if (!(fraction > 0.0) || fraction < next_) return;
    next_ = fraction + step_;
    progress_(fraction);
  }

 private:
  Progress progress_;  // a copy: a temporary callback cannot dangle
  double step_;
  double next_ = 0.0;
  bool ended_ = false;
};

}  // namespace bristle
