#pragma once
// Derived quantities of bench runs: steady values, break-away force, stick-slip cycles.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "bristle/core/time_series.hpp"

namespace bristle::contact {

/// Peak of |column| with parabolic refinement around the largest sample; returns {time, value}.
std::pair<double, double> peak_abs(const TimeSeries& series, std::string_view column);

/// Break-away force: the friction |F_N| at its first local maximum in time (parabolic refinement),
/// the force at which a loaded contact breaks loose; {time, force}. {0, 0} if |F| never peaks.
std::pair<double, double> breakaway(const TimeSeries& series);

/// Stick-slip detected from sticking itself (issue 17): one implementation for the lumped benches
/// (stick_slip_cycle) and the structures against a belt (structures::run_stick_slip's limit cycle).
///
/// Samples (t, v_r) are added in time order. A stick phase is a run of at least two consecutive samples
/// with |v_r| <= tolerance lasting at least min_stick_s and 2 % of the longest stick phase (shorter ones are
/// chatter, whatever the sampling); its break-away is where |v_r| leaves the band
/// (linear interpolation between the last stuck sample and the next). A phase still stuck at the last
/// sample has no break-away. The motion is a stick-slip limit cycle (found) when, for the smallest number p
/// of break-aways per cycle (1..4), the last k periods b[j] - b[j - p] agree to within the resolution
/// max(1e-2 period / p, 2 sample spacings), k = min(max_cycles, the periods available) >= min(2, max_cycles):
/// period_s is then the fundamental period (the smallest period the motion repeats with to within the
/// resolution), cycles_used = k. The resolution is the same for every p (1 % of the mean time between
/// break-aways): cycles differing by less are one cycle of a settling motion (a lightly damped string's
/// Helmholtz cycles of 2 s vary by +-5 ms, in threes, decaying), not a subharmonic of p cycles. Motion
/// that never sticks (e.g. a spring-mass ringing about steady sliding) is not found and has no period.
class StickSlipDetector {
 public:
  /// tolerance_mps >= 0: |v_r| counted as stuck; min_stick_s >= 0: shortest stick phase counted.
  /// marker_mps > tolerance_mps (add(t, v_r) only): each break-away is timed where |v_r| next rises
  /// through marker_mps (linear interpolation), on the smooth rise of the slip, where sampled velocities
  /// interpolate far better than at the band's edge (LuGre on a 5 ms grid: periods agree to 1e-6 s
  /// instead of 3e-4 s); a slip that stays below it keeps the band-edge time. 0: the band edge.
  explicit StickSlipDetector(double tolerance_mps, double min_stick_s = 0.0, double marker_mps = 0.0);

  /// A sample: stuck when |v_r| <= tolerance; a break-away is interpolated to where |v_r| leaves the band.
  void add(double t_s, double v_r_mps);
  /// A sample whose stick state the caller decided with the same rule, at every step of a solver that knows
  /// the break-away time better (structures: where |F| reaches mu_s N inside the step); `breakaway_s`, used
  /// if this sample ends a stick phase, must lie in [previous t, t_s] (else the previous t is taken).
  void add(double t_s, bool stuck, double breakaway_s);

  struct Result {
    bool found = false;
    int cycles_used = 0;            // periods averaged (0 if not found)
    int breakaways_per_cycle = 0;   // p (0 if not found)
    double period_s = 0.0;          // fundamental period, mean over the cycles used (0 if not found)
    double period_spread_s = 0.0;   // largest deviation of a cycle used from the mean
    double t_start_s = 0.0, t_end_s = 0.0;  // the cycles used: from the first to the last break-away counted
  };
  Result result(int max_cycles) const;

  /// Break-away times (s), in order, of the stick phases that count: those lasting at least min_stick_s and
  /// 2 % of the longest phase seen (shorter ones are chatter: a landing in the band, resolved by the step or
  /// the samples and not by the motion).
  std::vector<double> breakaways() const;
  double tolerance_mps() const { return tolerance_; }

 private:
  double tolerance_, min_stick_s_, marker_;
  bool marker_pending_ = false;  // the last break-away waits for |v_r| to reach marker_
  struct Phase {
    double breakaway_s, stuck_s;  // its break-away and how long it stuck
  };
  std::vector<Phase> phases_;      // every stick phase of at least two samples and min_stick_s, in order
  double longest_stick_s_ = 0.0;
  bool have_last_ = false;
  void add_sample(double t_s, bool stuck, double breakaway_s);

  double t_last_ = 0.0;                 // last sample's time
  double a_last_ = 0.0;                 // and its |v_r| (add(t, v_r) only)
  long stuck_samples_ = 0;              // length of the current run of stuck samples
  double stuck_since_ = 0.0;            // time of its first sample
  double max_spacing_ = 0.0;            // largest sample spacing seen
};

struct StickSlipCycle {
  bool found = false;          // a stick-slip limit cycle was found (StickSlipDetector)
  int cycles = 0;              // complete cycles measured = cycles_used (0: no stick-slip found)
  int cycles_used = 0;         // the same, under the detector's name
  double period_s = 0.0;       // fundamental period, mean over the measured cycles (0 if not found)
  double peak_friction_N = 0.0;  // mean of the largest |F_N| in each measured cycle
  double peak_velocity_mps = 0.0;
};

/// Stick-slip limit cycle of a spring-driven run, by StickSlipDetector on the relative velocity (column
/// vr_mps, else v_mps: a mass on fixed ground) with tolerance 1e-3 max |v_r| over the run, break-aways
/// timed where |v_r| rises through half its maximum (the slip onset); period and peak
/// friction over the last (up to `max_cycles`) cycles, each cycle from one break-away to the next.
StickSlipCycle stick_slip_cycle(const TimeSeries& series, int max_cycles = 4);

/// The derived quantities reported for a bench run: final values of the main columns
/// ("final_F_N", ...), the peak friction "F_peak_N" and its time, the break-away force
/// "F_breakaway_N" (first local maximum of |F|) and its time, and for spring drives
/// "stick_slip_found" (1 or 0), "stick_slip_cycles" and "stick_slip_cycles_used" (cycles measured) and,
/// when a limit cycle was found, its period and peak friction and velocity.
std::map<std::string, double> derived_quantities(const TimeSeries& series, bool spring_drive);

}  // namespace bristle::contact
