#pragma once
// Derived quantities of bench runs: steady values, break-away force, stick-slip cycles.
#include <map>
#include <string>
#include <string_view>

#include "bristle/core/time_series.hpp"

namespace bristle::contact {

/// Peak of |column| with parabolic refinement around the largest sample; returns {time, value}.
std::pair<double, double> peak_abs(const TimeSeries& series, std::string_view column);

/// Break-away force: the friction |F_N| at its first local maximum in time (parabolic refinement),
/// the force at which a loaded contact breaks loose; {time, force}. {0, 0} if |F| never peaks.
std::pair<double, double> breakaway(const TimeSeries& series);

struct StickSlipCycle {
  int cycles = 0;              // complete cycles measured (0: no stick-slip found)
  double period_s = 0.0;       // mean period over the measured cycles
  double peak_friction_N = 0.0;  // mean of the largest |F_N| in each measured cycle
  double peak_velocity_mps = 0.0;
};

/// Stick-slip limit cycle of a spring-driven run: slip onsets are the upward crossings of v_mps
/// through the middle of its range (linear interpolation); the first onset (the break-away from rest)
/// starts the measurement, and period and peak friction are averaged over the last `max_cycles`
/// complete cycles after it.
StickSlipCycle stick_slip_cycle(const TimeSeries& series, int max_cycles = 4);

/// The derived quantities reported for a bench run: final values of the main columns
/// ("final_F_N", ...), the peak friction "F_peak_N" and its time, the break-away force
/// "F_breakaway_N" (first local maximum of |F|) and its time, and for spring drives the stick-slip
/// period and peak friction (when a limit cycle exists).
std::map<std::string, double> derived_quantities(const TimeSeries& series, bool spring_drive);

}  // namespace bristle::contact
