#pragma once
// A user's interrupt of a long computation that takes no Progress (core/progress.hpp): the step loops of
// LineContact::advance_to and sample, PatchTransient::advance_to, the grid of patch::check_eq84, the
// boundary of patch::classify_edges and the mode sums of structures::truncated_kernel.
//
// The program that embeds the library installs one check for the whole process (the Python module
// installs one that raises KeyboardInterrupt on Ctrl-C, as its progress relays do); the loops call
// poll_interrupt() once per step or sample, which calls the check once every kPollsPerCheck polls of the
// calling thread (a counter, no clock: a poll is a thread-local increment and a relaxed atomic load). The
// check stops the computation by throwing; the exception propagates out of the library call, which leaves
// its object at the step reached (as an exception from a Progress callback does). No check is installed
// by default, and the CLI installs none (its SIGINT handler ends the process, io/output.hpp).
#include <atomic>

namespace bristle {

/// Throws to stop the computation in progress; returns to let it go on.
using InterruptCheck = void (*)();

/// Installs `check` for every thread of the process (nullptr: none); returns the check it replaces.
InterruptCheck set_interrupt_check(InterruptCheck check) noexcept;

/// The check runs once per this many polls of a thread: ~1 ms of the cheapest loop (a check of eq. 84 at one
/// point, ~50 ns), well under 1 ms of a line-contact step of a few cells.
inline constexpr unsigned kPollsPerCheck = 1024;

namespace detail {
extern std::atomic<InterruptCheck> interrupt_check;
}

/// Called by a long loop once per step or sample: every kPollsPerCheck-th call on a thread runs the
/// installed check (which may throw).
inline void poll_interrupt() {
  thread_local unsigned polls = 0;
  if (++polls % kPollsPerCheck != 0) return;
  if (const InterruptCheck check = detail::interrupt_check.load(std::memory_order_relaxed)) check();
}

}  // namespace bristle
