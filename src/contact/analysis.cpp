#include "bristle/contact/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace bristle::contact {

namespace {
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

StickSlipCycle stick_slip_cycle(const TimeSeries& series, int max_cycles) {
  StickSlipCycle out;
  const auto& t = series.column("t_s");
  const auto& v = series.column("v_mps");
  const auto& f = series.column("F_N");
  const std::size_t n = t.size();
  if (n < 8) return out;
  // Measure after the first slip: find where v first exceeds half its maximum.
  double v_top = 0.0;
  for (std::size_t i = 0; i < n; ++i) v_top = std::max(v_top, v[i]);
  std::size_t start = 0;
  while (start < n && v[start] < 0.5 * v_top) ++start;
  if (start >= n) return out;
  double v_max = 0.0, v_min = 1e300;
  for (std::size_t i = start; i < n; ++i) {
    v_max = std::max(v_max, v[i]);
    v_min = std::min(v_min, v[i]);
  }
  // A limit cycle needs a clear velocity swing; steady sliding has none.
  if (!(v_max - v_min > 0.1 * std::max(std::abs(v_max), 1e-12))) return out;
  const double level = 0.5 * (v_max + v_min);
  std::vector<double> onsets;
  std::vector<std::size_t> onset_index;
  for (std::size_t i = start + 1; i < n; ++i)
    if (v[i - 1] < level && v[i] >= level) {
      const double w = (level - v[i - 1]) / (v[i] - v[i - 1]);
      onsets.push_back(t[i - 1] + w * (t[i] - t[i - 1]));
      onset_index.push_back(i);
    }
  if (onsets.size() < 2) return out;
  const int cycles = std::min<int>(max_cycles, static_cast<int>(onsets.size()) - 1);
  const std::size_t first = onsets.size() - 1 - static_cast<std::size_t>(cycles);
  out.cycles = cycles;
  out.period_s = (onsets.back() - onsets[first]) / cycles;
  double peak_sum = 0.0, vpeak_sum = 0.0;
  for (std::size_t c = first; c + 1 < onsets.size(); ++c) {
    // Window: one cycle between consecutive onsets; the friction peak precedes each onset.
    TimeSeries window({"t_s", "F_N", "v_mps"});
    const std::size_t lo = onset_index[c] > 0 ? onset_index[c] - 1 : 0;
    for (std::size_t i = lo; i <= onset_index[c + 1] && i < n; ++i) window.add_row({t[i], f[i], v[i]});
    peak_sum += peak_abs(window, "F_N").second;
    vpeak_sum += peak_abs(window, "v_mps").second;
  }
  out.peak_friction_N = peak_sum / cycles;
  out.peak_velocity_mps = vpeak_sum / cycles;
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
    d["stick_slip_cycles"] = c.cycles;
    if (c.cycles > 0) {
      d["stick_slip_period_s"] = c.period_s;
      d["stick_slip_peak_friction_N"] = c.peak_friction_N;
      d["stick_slip_peak_velocity_mps"] = c.peak_velocity_mps;
    }
  }
  return d;
}

}  // namespace bristle::contact
