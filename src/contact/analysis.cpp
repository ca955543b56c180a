#include "bristle/contact/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "bristle/core/error.hpp"

namespace bristle::contact {

namespace {
/// Relative resolution of a stick-slip period: cycles whose lengths differ by less than this fraction of
/// the time between break-aways count as the same cycle (StickSlipDetector::result).
constexpr double kPeriodResolution = 1e-2;

/// Stick phases shorter than this fraction of the longest one are chatter, a landing in the band resolved
/// by the step or the samples and not by the motion (StickSlipDetector::breakaways). The 100-mode string at
/// D = 0.01 against a belt: phases of 1-5 steps of 1 ms before and after each 1.36 s stick (0.4 %) made 3
/// break-aways of a 4.0 s "cycle" out of the 2 s Helmholtz cycles.
constexpr double kChatterFraction = 0.02;

/// Vertex of the parabola through |y| at samples k-1, k, k+1 (k an interior local maximum).
std::pair<double, double> refine_peak(const std::vector<double>& t, const std::vector<double>& y, std::size_t k) {
  // Parabola through three samples (uniform or not) around the maximum of |y|.
  const double t0 = t[k - 1], t1 = t[k], t2 = t[k + 1];
  const double y0 = std::abs(y[k - 1]), y1 = std::abs(y[k]), y2 = std::abs(y[k + 1]);
  const double d0 = (y1 - y0) / (t1 - t0), d1 = (y2 - y1) / (t2 - t1);
  const double a = (d1 - d0) / (t2 - t0);
  if (!(a < 0.0)) return {t1, y1};
  const double b = d0 - a * (t0 + t1);
  const double tp = std::clamp(-b / (2.0 * a), t0, t2);
  const double yp = y1 + (tp - t1) * (d0 + a * (tp - t0));  // Newton form through (t0,y0),(t1,y1)
  return {tp, std::max(yp, y1)};
}
}  // namespace

std::pair<double, double> peak_abs(const TimeSeries& series, std::string_view column) {
  const auto& t = series.column("t_s");
  const auto& y = series.column(column);
  if (y.empty()) return {0.0, 0.0};
  std::size_t k = 0;
  for (std::size_t i = 1; i < y.size(); ++i)
    if (std::abs(y[i]) > std::abs(y[k])) k = i;
  if (k == 0 || k + 1 >= y.size()) return {t[k], std::abs(y[k])};
  return refine_peak(t, y, k);
}

std::pair<double, double> breakaway(const TimeSeries& series) {
  const auto& t = series.column("t_s");
  const auto& f = series.column("F_N");
  for (std::size_t k = 1; k + 1 < f.size(); ++k)
    if (std::abs(f[k]) >= std::abs(f[k - 1]) && std::abs(f[k]) > std::abs(f[k + 1]) && std::abs(f[k]) > 0.0)
      return refine_peak(t, f, k);
  return {0.0, 0.0};
}

StickSlipDetector::StickSlipDetector(double tolerance_mps, double min_stick_s, double marker_mps)
    : tolerance_(tolerance_mps), min_stick_s_(min_stick_s), marker_(marker_mps) {
  require_non_negative("stick-slip tolerance (m/s)", tolerance_mps);
  require_non_negative("stick-slip minimum stick duration (s)", min_stick_s);
  require_non_negative("stick-slip break-away marker (m/s)", marker_mps);
}

void StickSlipDetector::add(double t_s, double v_r_mps) {
  const double a = std::abs(v_r_mps);
  const bool stuck = a <= tolerance_;  // NaN: not stuck
  // Where |v_r| leaves the band, between the last sample (|v_r| = a_last_) and this one.
  const double w = a > a_last_ ? std::clamp((tolerance_ - a_last_) / (a - a_last_), 0.0, 1.0) : 0.0;
  const double t_prev = t_last_, a_prev = a_last_;
  const std::size_t before = phases_.size();
  add_sample(t_s, stuck, t_last_ + w * (t_s - t_last_));
  if (stuck) {
    marker_pending_ = false;  // the slip stayed below the marker: the band-edge time stands
  } else if (marker_ > tolerance_) {
    if (phases_.size() > before) marker_pending_ = true;
    if (marker_pending_ && a >= marker_) {
      const double wm = a > a_prev ? std::clamp((marker_ - a_prev) / (a - a_prev), 0.0, 1.0) : 1.0;
      phases_.back().breakaway_s = t_prev + wm * (t_s - t_prev);
      marker_pending_ = false;
    }
  }
  a_last_ = a;
}

void StickSlipDetector::add(double t_s, bool stuck, double breakaway_s) {
  add_sample(t_s, stuck, breakaway_s >= t_last_ && breakaway_s <= t_s ? breakaway_s : t_last_);
}

void StickSlipDetector::add_sample(double t_s, bool stuck, double breakaway_s) {
  if (have_last_) max_spacing_ = std::max(max_spacing_, t_s - t_last_);
  if (stuck) {
    if (stuck_samples_ == 0) stuck_since_ = t_s;
    ++stuck_samples_;
  } else {
    if (have_last_ && stuck_samples_ >= 2 && t_last_ - stuck_since_ >= min_stick_s_) {
      phases_.push_back({breakaway_s, t_last_ - stuck_since_});
      longest_stick_s_ = std::max(longest_stick_s_, t_last_ - stuck_since_);
    }
    stuck_samples_ = 0;
  }
  have_last_ = true;
  t_last_ = t_s;
}

std::vector<double> StickSlipDetector::breakaways() const {
  std::vector<double> b;
  for (const Phase& phase : phases_)
    if (phase.stuck_s >= kChatterFraction * longest_stick_s_) b.push_back(phase.breakaway_s);
  return b;
}

StickSlipDetector::Result StickSlipDetector::result(int max_cycles) const {
  Result out;
  const std::vector<double> b = breakaways();
  const long m = static_cast<long>(b.size()) - 1;  // intervals between break-aways
  const long min_cycles = std::max(1, std::min(2, max_cycles));
  const auto period = [&](long j, long p) {  // the j-th last period of p break-aways
    return b[static_cast<std::size_t>(m - j * p)] - b[static_cast<std::size_t>(m - j * p - p)];
  };
  for (long p = 1; p <= 4; ++p) {
    // As many cycles as allowed: fewer would let two periods that agree by chance pass for a cycle.
    const long k = std::min<long>(max_cycles, m / p);
    if (k < min_cycles) continue;
    double mean = 0.0;
    for (long j = 0; j < k; ++j) mean += period(j, p);
    mean /= static_cast<double>(k);
    double spread = 0.0;
    for (long j = 0; j < k; ++j) spread = std::max(spread, std::abs(period(j, p) - mean));
    // One resolution for every p (it scales with the time between break-aways, mean / p, not with the
    // candidate period): a tolerance growing with p let a 3-cycle grouping of a slowly settling motion
    // pass for its period (the lightly damped string: 1.995/2.005/2.000 s reported as 6.0 s).
    if (mean > 0.0 && spread <= std::max(kPeriodResolution * mean / static_cast<double>(p), 2.0 * max_spacing_)) {
      out.found = true;
      out.cycles_used = static_cast<int>(k);
      out.breakaways_per_cycle = static_cast<int>(p);
      out.period_s = mean;
      out.period_spread_s = spread;
      out.t_start_s = b[static_cast<std::size_t>(m - k * p)];
      out.t_end_s = b.back();
      return out;
    }
  }
  return out;
}

StickSlipCycle stick_slip_cycle(const TimeSeries& series, int max_cycles) {
  StickSlipCycle out;
  const auto& t = series.column("t_s");
  const auto& v = series.column(series.has("vr_mps") ? "vr_mps" : "v_mps");
  const auto& f = series.column("F_N");
  const auto& speed = series.column("v_mps");
  const std::size_t n = t.size();
  double v_scale = 0.0;
  for (const double x : v)
    if (std::isfinite(x)) v_scale = std::max(v_scale, std::abs(x));
  StickSlipDetector detector(1e-3 * v_scale, 0.0, 0.5 * v_scale);
  for (std::size_t i = 0; i < n; ++i) detector.add(t[i], v[i]);
  const StickSlipDetector::Result r = detector.result(max_cycles);
  if (!r.found) return out;
  out.found = true;
  out.cycles = out.cycles_used = r.cycles_used;
  out.period_s = r.period_s;
  // Per cycle: the friction peak about its break-away (a window of one period centred on it, so that the
  // peak is interior), the velocity peak over the slip that follows the previous break-away.
  const std::vector<double> b = detector.breakaways();
  const std::size_t last = b.size() - 1, p = static_cast<std::size_t>(r.breakaways_per_cycle);
  const auto window = [&](double lo, double hi, const std::vector<double>& y) {
    TimeSeries w({"t_s", "y"});
    for (auto i = static_cast<std::size_t>(std::lower_bound(t.begin(), t.end(), lo) - t.begin()); i < n && t[i] <= hi;
         ++i)
      w.add_row({t[i], y[i]});
    return peak_abs(w, "y").second;
  };
  double peak_sum = 0.0, vpeak_sum = 0.0;
  for (int c = 0; c < r.cycles_used; ++c) {
    const double hi = b[last - static_cast<std::size_t>(c) * p];
    peak_sum += window(hi - 0.5 * r.period_s, hi + 0.5 * r.period_s, f);
    vpeak_sum += window(hi - r.period_s, hi, speed);
  }
  out.peak_friction_N = peak_sum / r.cycles_used;
  out.peak_velocity_mps = vpeak_sum / r.cycles_used;
  return out;
}

std::map<std::string, double> derived_quantities(const TimeSeries& series, bool spring_drive) {
  std::map<std::string, double> d;
  if (series.rows() == 0) return d;
  for (const char* name : {"F_N", "Fy_N", "x_m", "v_mps", "vr_mps", "z_m", "W_J", "E_supplied_J"})
    if (series.has(name)) d[std::string("final_") + name] = series.column(name).back();
  const auto [tp, fp] = peak_abs(series, "F_N");
  d["F_peak_N"] = fp;
  d["t_F_peak_s"] = tp;
  const auto [tb, fb] = breakaway(series);
  if (fb > 0.0) {
    d["F_breakaway_N"] = fb;
    d["t_breakaway_s"] = tb;
  }
  if (spring_drive) {
    const StickSlipCycle c = stick_slip_cycle(series);
    d["stick_slip_found"] = c.found ? 1.0 : 0.0;
    d["stick_slip_cycles"] = c.cycles;
    d["stick_slip_cycles_used"] = c.cycles_used;
    if (c.cycles > 0) {
      d["stick_slip_period_s"] = c.period_s;
      d["stick_slip_peak_friction_N"] = c.peak_friction_N;
      d["stick_slip_peak_velocity_mps"] = c.peak_velocity_mps;
    }
  }
  return d;
}

}  // namespace bristle::contact
