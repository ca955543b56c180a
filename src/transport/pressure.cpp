#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "bristle/core/enum_names.hpp"
#include "bristle/core/error.hpp"
#include "bristle/transport/line_contact.hpp"

namespace bristle::transport {

namespace {
constexpr NameTable<PressureKind, 3> kPressureNames{{
    {PressureKind::uniform, "uniform"},
    {PressureKind::parabolic, "parabolic"},
    {PressureKind::table, "table"},
}};
constexpr NameTable<SourceScheme, 3> kSchemeNames{{
    {SourceScheme::automatic, "automatic"},
    {SourceScheme::sdirk2, "sdirk2"},
    {SourceScheme::exponential, "exponential"},
}};
constexpr NameTable<Limiter, 4> kLimiterNames{{
    {Limiter::none, "none"},
    {Limiter::minmod, "minmod"},
    {Limiter::van_leer, "van_leer"},
    {Limiter::mc, "mc"},
}};

}  // namespace

std::string_view to_string(PressureKind kind) { return name_of(kPressureNames, kind); }
PressureKind pressure_kind_from_string(std::string_view key, std::string_view name) {
  return parse_name(kPressureNames, key, name, "pressure distribution");
}
std::string_view to_string(Limiter kind) { return name_of(kLimiterNames, kind); }
Limiter limiter_from_string(std::string_view key, std::string_view name) {
  return parse_name(kLimiterNames, key, name, "slope limiter");
}

std::string_view to_string(SourceScheme kind) { return name_of(kSchemeNames, kind); }
SourceScheme source_scheme_from_string(std::string_view key, std::string_view name) {
  return parse_name(kSchemeNames, key, name, "source scheme");
}

bool source_is_affine(const contact::ContactModel& model) {
  const auto& law = model.law().params();
  return law.kind != laws::LawKind::bouc_wen && !law.G_inverse;
}

void PressureParams::validate(std::string_view prefix) const {
  if (kind != PressureKind::table) return;
  const std::string p(prefix);
  if (xi_m.size() < 2 || xi_m.size() != values.size())
    throw InvalidInput(fmt::format("{}.xi_m: {} positions and {} values; a pressure table needs at least 2 points "
                                   "and one value per position",
                                   p, xi_m.size(), values.size()));
  double area = 0.0;
  for (std::size_t i = 0; i < xi_m.size(); ++i) {
    require_finite(fmt::format("{}.xi_m[{}]", p, i), xi_m[i]);
    // Data, not a parameter: a subnormal tail (a Gaussian's) is a value, so only finite, >= 0 and <= 1e150.
    const std::string key = fmt::format("{}.values[{}]", p, i);
    require_finite(key, values[i]);
    if (!(values[i] >= 0.0)) throw InvalidInput(fmt::format("{} = {}: must be >= 0", key, format_value(values[i])));
    if (i > 0) {
      if (!(xi_m[i] > xi_m[i - 1]))
        throw InvalidInput(fmt::format("{}.xi_m[{}] = {}: positions must be strictly increasing (previous {})", p, i,
                                       format_value(xi_m[i]), format_value(xi_m[i - 1])));
      area += 0.5 * (values[i] + values[i - 1]) * (xi_m[i] - xi_m[i - 1]);
    }
  }
  if (!(area > 0.0)) throw InvalidInput(fmt::format("{}.values: the pressure table integrates to 0; it must be > 0", p));
}

Pressure::Pressure(const PressureParams& params, double L, double normal_load_N, std::string_view key)
    : params_(params), L_(L), normal_load_(normal_load_N) {
  params_.validate(key);
  if (params_.kind == PressureKind::table) {
    const auto& x = params_.xi_m;
    if (x.front() > 0.0 || x.back() < L)
      throw InvalidInput(fmt::format("{}.xi_m: the table covers [{}, {}] m; it must cover the contact [0, {}] m", key,
                                     format_value(x.front()), format_value(x.back()), format_value(L)));
    scale_ = 1.0;
    scale_ = normal_load_ / primitive(L);
  }
}

double Pressure::operator()(double xi) const {
  switch (params_.kind) {
    case PressureKind::uniform:
      return normal_load_ / L_;
    case PressureKind::parabolic:
      return 6.0 * normal_load_ * xi * (L_ - xi) / (L_ * L_ * L_);
    case PressureKind::table: {
      const auto& x = params_.xi_m;
      const auto& v = params_.values;
      if (xi <= x.front()) return scale_ * v.front();
      if (xi >= x.back()) return scale_ * v.back();
      const std::size_t i = static_cast<std::size_t>(std::upper_bound(x.begin(), x.end(), xi) - x.begin());
      const double w = (xi - x[i - 1]) / (x[i] - x[i - 1]);
      return scale_ * (v[i - 1] + w * (v[i] - v[i - 1]));
    }
  }
  return 0.0;
}

double Pressure::primitive(double xi) const {
  switch (params_.kind) {
    case PressureKind::uniform:
      return normal_load_ * xi / L_;
    case PressureKind::parabolic:
      return 6.0 * normal_load_ * (0.5 * L_ * xi * xi - xi * xi * xi / 3.0) / (L_ * L_ * L_);
    case PressureKind::table: {
      const auto& x = params_.xi_m;
      double sum = 0.0;
      for (std::size_t i = 1; i < x.size() && x[i - 1] < xi; ++i) {
        const double a = std::max(x[i - 1], 0.0), b = std::min(x[i], xi);
        if (b > a) sum += 0.5 * ((*this)(a) + (*this)(b)) * (b - a);  // p is linear on [a, b]
      }
      return sum;
    }
  }
  return 0.0;
}

double Pressure::mean(double a, double b) const { return (primitive(b) - primitive(a)) / (b - a); }

}  // namespace bristle::transport
