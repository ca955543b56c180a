#pragma once
// A user's interrupt of a long computation that takes no Progress (core/progress.hpp): the step loops of
// LineContact::advance_to and sample, PatchTransient::advance_to and the Rosenbrock and CVODE integrators, the
// grid of patch::check_eq84, the boundary of patch::classify_edges, Structure::modes and the kernels' mode sums.
//
// The program that embeds the library installs one check for the whole process (the Python module
// installs one that raises KeyboardInterrupt on Ctrl-C, as its progress relays do); the loops call
// poll_interrupt(work) once per step or sample, which calls the check once kPollsPerCheck units of work have
// accumulated on the calling thread (a counter, no clock: a poll is a thread-local addition). The
// check stops the computation by throwing; the exception propagates out of the library call, which leaves
// its object at the step reached (as an exception from a Progress callback does). No check is installed
// by default, and the CLI installs none (its SIGINT handler ends the process, io/output.hpp).
#include <atomic>

namespace bristle {

/// Throws to stop the computation in progress; returns to let it go on.
using InterruptCheck = void (*)();

/// Installs `check` for every thread of the process (nullptr: none); returns the check it replaces.
InterruptCheck set_interrupt_check(InterruptCheck check) noexcept;

/// The check runs once per this many units of work polled on a thread (a poll is one unit, or the work it
/// stands for: a line-contact step polls its cells, so that a step of 10^6 cells checks at once; one unit per
/// step took a minute to react there).
inline constexpr unsigned kPollsPerCheck = 1024;

namespace detail {
extern std::atomic<InterruptCheck> interrupt_check;
}

/// Called by a long loop once per step or sample with the work it stands for (cells of a step, rows of a
/// grid; 1 by default): once kPollsPerCheck units have accumulated on a thread, runs the installed check
/// (which may throw).
inline void poll_interrupt(unsigned long work = 1) {
  thread_local unsigned long polls = 0;
  polls += work;
  if (polls < kPollsPerCheck) return;
  polls = 0;
  if (const InterruptCheck check = detail::interrupt_check.load(std::memory_order_relaxed)) check();
}

}  // namespace bristle
