#include "bristle/structures/modal_structure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "bristle/core/error.hpp"
#include "bristle/core/interrupt.hpp"

namespace bristle::structures {

namespace {

constexpr double kPi = std::numbers::pi;

std::string indexed(std::string_view prefix, std::string_view key, std::size_t i) {
  return fmt::format("{}.{}[{}]", prefix, key, i);
}
std::string dotted(std::string_view prefix, std::string_view key) { return fmt::format("{}.{}", prefix, key); }

void require_damping(const std::string& key, double d) {
  require_finite(key, d);
  if (!(d >= 0.0 && d < 1.0))
    throw InvalidInput(fmt::format("{} = {}: must lie in [0, 1) (every mode underdamped)", key, format_value(d)));
}

void require_contacts(std::string_view prefix, const std::vector<double>& chi, double length, bool include_end,
                      std::string_view what) {
  const std::string key = dotted(prefix, "contact_positions_m");
  if (chi.empty()) throw InvalidInput(fmt::format("{} = []: must list at least one contact point", key));
  for (std::size_t j = 0; j < chi.size(); ++j) {
    const std::string k = indexed(prefix, "contact_positions_m", j);
    require_finite(k, chi[j]);
    const bool inside = chi[j] > 0.0 && (include_end ? chi[j] <= length : chi[j] < length);
    if (!inside)
      throw InvalidInput(fmt::format("{} = {}: must lie in (0, {}{} (inside the {})", k, format_value(chi[j]),
                                     format_value(length), include_end ? "]" : ")", what));
  }
}

}  // namespace

std::string_view to_string(StructureKind kind) {
  switch (kind) {
    case StructureKind::generic: return "generic";
    case StructureKind::taut_string: return "taut_string";
    case StructureKind::cantilever: return "cantilever";
    case StructureKind::simply_supported_beam: return "simply_supported_beam";
  }
  return "?";
}

StructureKind structure_kind_from_string(std::string_view key, std::string_view name) {
  const std::vector<std::string> names{"generic", "taut_string", "cantilever", "simply_supported_beam"};
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<StructureKind>(i);
  const std::string near = nearest_word(name, names);
  throw InvalidInput(fmt::format("{} = \"{}\": unknown structure type (valid: {}){}", key, name,
                                 fmt::join(names, ", "),
                                 near.empty() ? "" : fmt::format("; did you mean \"{}\"?", near)));
}

void TautStringParams::validate(std::string_view prefix) const {
  require_positive(dotted(prefix, "density_kg_per_m"), density_kg_per_m);
  require_positive(dotted(prefix, "length_m"), length_m);
  require_positive(dotted(prefix, "wave_speed_m_per_s"), wave_speed_m_per_s);
  require_damping(dotted(prefix, "damping_ratio"), damping_ratio);
  require_contacts(prefix, contact_positions_m, length_m, false, "string");
}

void BeamParams::validate(std::string_view prefix, bool cantilever) const {
  require_positive(dotted(prefix, "bending_stiffness_N_m2"), bending_stiffness_N_m2);
  require_positive(dotted(prefix, "mass_per_length_kg_per_m"), mass_per_length_kg_per_m);
  require_positive(dotted(prefix, "length_m"), length_m);
  require_damping(dotted(prefix, "damping_ratio"), damping_ratio);
  require_contacts(prefix, contact_positions_m, length_m, cantilever, "beam");
}

double BeamParams::flexural_constant() const { return std::sqrt(bending_stiffness_N_m2 / mass_per_length_kg_per_m); }

void GenericModalParams::validate(std::string_view prefix) const {
  const std::size_t n = frequencies_rad_per_s.size();
  const std::string fkey = dotted(prefix, "frequencies_rad_per_s");
  if (n == 0) throw InvalidInput(fmt::format("{} = []: must list at least one mode", fkey));
  if (damping_ratios.size() != n)
    throw InvalidInput(fmt::format("{} has {} entries but {} has {}: one damping ratio per mode is needed",
                                   dotted(prefix, "damping_ratios"), damping_ratios.size(), fkey, n));
  if (mode_values.size() != n)
    throw InvalidInput(fmt::format("{} has {} rows but {} has {}: one row of contact-point values per mode is "
                                   "needed",
                                   dotted(prefix, "mode_values"), mode_values.size(), fkey, n));
  for (std::size_t k = 0; k < n; ++k) {
    require_positive(indexed(prefix, "frequencies_rad_per_s", k), frequencies_rad_per_s[k]);
    require_damping(indexed(prefix, "damping_ratios", k), damping_ratios[k]);
  }
  const std::size_t m = mode_values.front().size();
  if (m == 0) throw InvalidInput(fmt::format("{}[0] = []: must give one value per contact point", dotted(prefix, "mode_values")));
  for (std::size_t k = 0; k < n; ++k) {
    if (mode_values[k].size() != m)
      throw InvalidInput(fmt::format("{}[{}] has {} entries but {}[0] has {}: every mode needs a value at each "
                                     "of the same contact points",
                                     dotted(prefix, "mode_values"), k, mode_values[k].size(),
                                     dotted(prefix, "mode_values"), m));
    for (std::size_t j = 0; j < m; ++j)
      require_finite(fmt::format("{}.mode_values[{}][{}]", prefix, k, j), mode_values[k][j]);
  }
}

// ---------------------------------------------------------------------------------------------

double cantilever_root(long k) {
  if (k < 1) throw InvalidInput(fmt::format("cantilever mode number = {}: must be >= 1", k));
  const double kd = static_cast<double>(k);
  const double x0 = (kd - 0.5) * kPi;
  const double sign = (k % 2 == 1) ? 1.0 : -1.0;
  if (x0 > 40.0) {
    // sech x < 9e-18: the root is that of cos x to below an ulp of x (shift 2 e^{-x} / x < 1e-19
    // relative), so one Newton step on cos from the rounded (k - 1/2) pi gives it to full precision
    // (and avoids cosh overflowing for k > 226).
    return x0 + std::cos(x0) / std::sin(x0);
  }
  // g(x) = cos x + sech x: one root in ((k-1) pi, k pi); g((k-1) pi) and g(k pi) have opposite signs.
  auto g = [](double x) { return std::cos(x) + 1.0 / std::cosh(x); };
  auto dg = [](double x) { return -std::sin(x) - std::tanh(x) / std::cosh(x); };
  double lo = (kd - 1.0) * kPi, hi = kd * kPi;
  double glo = g(lo);
  double x = x0 + sign * 2.0 * std::exp(-x0);
  if (!(x > lo && x < hi)) x = x0;
  for (int it = 0; it < 100; ++it) {
    const double gx = g(x);
    if (gx == 0.0) return x;
    if ((gx > 0.0) == (glo > 0.0)) {
      lo = x;
      glo = gx;
    } else {
      hi = x;
    }
    double next = x - gx / dg(x);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::abs(next - x) <= 2.0 * std::numeric_limits<double>::epsilon() * std::abs(x)) return next;
    if (hi - lo <= 4.0 * std::numeric_limits<double>::epsilon() * std::abs(x)) return next;
    x = next;
  }
  return x;
}

double cantilever_mode_shape(double beta, double s) {
  // phi = (1 - sigma)/2 e^{beta s} + (1 + sigma)/2 e^{-beta s} - cos(beta s) + sigma sin(beta s), with
  // sigma and (1 - sigma) e^{beta s} rewritten with non-positive exponents only.
  const double e1 = std::exp(-beta), e2 = e1 * e1;
  const double den = 1.0 - e2 + 2.0 * std::sin(beta) * e1;  // 2 e^{-beta} (sinh beta + sin beta)
  const double sigma = (1.0 + e2 + 2.0 * std::cos(beta) * e1) / den;
  const double growing = (-e1 + std::sin(beta) - std::cos(beta)) / den * std::exp(beta * (s - 1.0));
  return growing + 0.5 * (1.0 + sigma) * std::exp(-beta * s) - std::cos(beta * s) + sigma * std::sin(beta * s);
}

// ---------------------------------------------------------------------------------------------

Structure Structure::continuum(StructureKind kind, const std::vector<double>& contact_positions_m) {
  Structure s;
  s.kind_ = kind;
  s.contact_positions_m_ = contact_positions_m;
  s.contact_count_ = static_cast<int>(contact_positions_m.size());
  return s;
}

Structure Structure::taut_string(const TautStringParams& params, std::string_view prefix) {
  params.validate(prefix);
  Structure s = continuum(StructureKind::taut_string, params.contact_positions_m);
  s.string_ = params;
  s.finish();
  return s;
}

Structure Structure::cantilever(const BeamParams& params, std::string_view prefix) {
  params.validate(prefix, true);
  Structure s = continuum(StructureKind::cantilever, params.contact_positions_m);
  s.beam_ = params;
  s.finish();
  return s;
}

Structure Structure::simply_supported_beam(const BeamParams& params, std::string_view prefix) {
  params.validate(prefix, false);
  Structure s = continuum(StructureKind::simply_supported_beam, params.contact_positions_m);
  s.beam_ = params;
  s.finish();
  return s;
}

Structure Structure::generic(const GenericModalParams& params, std::string_view prefix) {
  params.validate(prefix);
  Structure s;
  s.kind_ = StructureKind::generic;
  const long n = static_cast<long>(params.frequencies_rad_per_s.size());
  const long m = static_cast<long>(params.mode_values.front().size());
  auto table = std::make_shared<ModeTable>();
  table->omega = Eigen::Map<const VecX>(params.frequencies_rad_per_s.data(), n);
  table->damping = Eigen::Map<const VecX>(params.damping_ratios.data(), n);
  table->values.resize(n, m);
  for (long k = 0; k < n; ++k)
    for (long j = 0; j < m; ++j) table->values(k, j) = params.mode_values[k][j];
  s.table_ = std::move(table);
  s.contact_count_ = static_cast<int>(m);
  s.finish();
  return s;
}

Structure Structure::of_kind(StructureKind kind, TautStringParams string, BeamParams beam, GenericModalParams generic,
                             std::optional<double> damping, std::string_view prefix) {
  if (damping) {
    string.damping_ratio = beam.damping_ratio = *damping;
    generic.damping_ratios.assign(generic.damping_ratios.size(), *damping);
  }
  switch (kind) {
    case StructureKind::taut_string: return taut_string(string, prefix);
    case StructureKind::cantilever: return cantilever(beam, prefix);
    case StructureKind::simply_supported_beam: return simply_supported_beam(beam, prefix);
    case StructureKind::generic: break;
  }
  return Structure::generic(generic, prefix);
}

Structure Structure::truncated(const Structure& continuum, long n_modes) {
  if (n_modes < 1) throw InvalidInput(fmt::format("modes = {}: must be >= 1", n_modes));
  if (continuum.finite() && n_modes > continuum.mode_count())
    throw InvalidInput(fmt::format("modes = {}: the structure has only {} modes", n_modes, continuum.mode_count()));
  Structure s;
  s.kind_ = StructureKind::generic;
  s.table_ = std::make_shared<ModeTable>(continuum.modes(n_modes));
  s.contact_count_ = continuum.contact_count_;
  s.finish();
  return s;
}

long Structure::mode_count() const { return finite() ? table_->size() : kUnbounded; }

void Structure::sine_mode_values(long k, double length, double mass_per_length, double* values) const {
  // n_k(x) = sqrt(2/(rho l)) sin(k pi x / l) (string and simply supported beam), with the argument
  // reduced exactly in k: sin(pi r), r = (k x/l) mod 2.
  const double a = std::sqrt(2.0 / (mass_per_length * length));
  const double kd = static_cast<double>(k);
  for (int j = 0; j < contact_count_; ++j) {
    const double r = std::fmod(kd * (contact_positions_m_[static_cast<std::size_t>(j)] / length), 2.0);
    values[j] = a * std::sin(kPi * r);
  }
}

void Structure::mode(long k, double& omega, double& damping, double* values) const {
  switch (kind_) {
    case StructureKind::generic: {
      if (k < 1 || k > table_->size())
        throw InvalidInput(fmt::format("mode {} requested: the structure has modes 1..{}", k, table_->size()));
      omega = table_->omega[k - 1];
      damping = table_->damping[k - 1];
      for (int j = 0; j < contact_count_; ++j) values[j] = table_->values(k - 1, j);
      return;
    }
    case StructureKind::taut_string: {
      const double l = string_.length_m;
      const double kd = static_cast<double>(k);
      omega = kd * kPi * string_.wave_speed_m_per_s / l;
      damping = string_.damping_ratio;
      sine_mode_values(k, l, string_.density_kg_per_m, values);
      return;
    }
    case StructureKind::simply_supported_beam: {
      const double l = beam_.length_m;
      const double kd = static_cast<double>(k);
      const double kappa = kd * kPi / l;
      omega = beam_.flexural_constant() * kappa * kappa;
      damping = beam_.damping_ratio;
      sine_mode_values(k, l, beam_.mass_per_length_kg_per_m, values);
      return;
    }
    case StructureKind::cantilever: {
      const double l = beam_.length_m;
      const double beta = cantilever_root(k);
      omega = beam_.flexural_constant() * beta * beta / (l * l);
      damping = beam_.damping_ratio;
      const double a = 1.0 / std::sqrt(beam_.mass_per_length_kg_per_m * l);
      for (int j = 0; j < contact_count_; ++j) values[j] = a * cantilever_mode_shape(beta, contact_positions_m_[j] / l);
      return;
    }
  }
}

ModeTable Structure::modes(long count) const {
  if (count < 0) throw InvalidInput(fmt::format("modes = {}: must be >= 0", count));
  if (count > kMaxModes) throw InvalidInput(fmt::format("modes = {}: at most {} modes at once", count, kMaxModes));
  if (finite() && count > table_->size())
    throw InvalidInput(fmt::format("modes = {}: the structure has only {} modes", count, table_->size()));
  ModeTable t;
  if (finite() && count == table_->size()) return *table_;
  t.omega.resize(count);
  t.damping.resize(count);
  t.values.resize(count, contact_count_);
  std::vector<double> v(static_cast<std::size_t>(contact_count_));
  for (long k = 1; k <= count; ++k) {
    poll_interrupt();
    mode(k, t.omega[k - 1], t.damping[k - 1], v.data());
    for (int j = 0; j < contact_count_; ++j) t.values(k - 1, j) = v[static_cast<std::size_t>(j)];
  }
  return t;
}

double Structure::mode_product_bound() const {
  switch (kind_) {
    case StructureKind::generic: {
      double b = 0.0;
      for (long k = 0; k < table_->size(); ++k) {
        const double r = table_->values.row(k).cwiseAbs().maxCoeff();
        b = std::max(b, r * r);
      }
      return b;
    }
    case StructureKind::taut_string: return 2.0 / (string_.density_kg_per_m * string_.length_m);
    case StructureKind::simply_supported_beam: return 2.0 / (beam_.mass_per_length_kg_per_m * beam_.length_m);
    case StructureKind::cantilever: return 4.0 * (1.0 + 1e-12) / (beam_.mass_per_length_kg_per_m * beam_.length_m);
  }
  return 0.0;
}

double Structure::frequency_lower_bound(long k) const {
  const double kd = static_cast<double>(k);
  switch (kind_) {
    case StructureKind::generic: return table_->omega.minCoeff();
    case StructureKind::taut_string: return kd * kPi * string_.wave_speed_m_per_s / string_.length_m;
    case StructureKind::simply_supported_beam: {
      const double kappa = kd * kPi / beam_.length_m;
      return beam_.flexural_constant() * kappa * kappa;
    }
    case StructureKind::cantilever: {
      // beta_k = (k - 1/2) pi + (-1)^(k+1) 2 e^{-beta_k} (1 + ...): below (k - 1/2) pi by less than 0.02
      // for even k (beta_2 = 4.6941 vs 4.7124); beta_1 = 1.8751.
      const double beta = std::max(1.8, (kd - 0.5) * kPi - 0.02);
      const double kappa = beta / beam_.length_m;
      return beam_.flexural_constant() * kappa * kappa;
    }
  }
  return 0.0;
}

double Structure::min_damping_ratio() const {
  switch (kind_) {
    case StructureKind::generic: return table_->damping.minCoeff();
    case StructureKind::taut_string: return string_.damping_ratio;
    default: return beam_.damping_ratio;
  }
}

bool Structure::uniform_damping() const {
  if (!finite()) return true;
  return table_->damping.maxCoeff() == table_->damping.minCoeff();
}

void Structure::finish() {
  const int m = contact_count_;
  static_compliance_.resize(m, m);
  switch (kind_) {
    case StructureKind::generic: {
      const ModeTable& t = *table_;
      static_compliance_.setZero();
      for (long k = 0; k < t.size(); ++k) {
        const double w2 = t.omega[k] * t.omega[k];
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < m; ++j) static_compliance_(i, j) += t.values(k, i) * t.values(k, j) / w2;
      }
      return;
    }
    case StructureKind::taut_string: {
      // Green's function of T w'' = -delta(x - xi), w(0) = w(l) = 0: x (l - xi) / (T l) for x <= xi.
      const double l = string_.length_m, tension = string_.tension_N();
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) {
          const double x = std::min(contact_positions_m_[i], contact_positions_m_[j]);
          const double xi = std::max(contact_positions_m_[i], contact_positions_m_[j]);
          static_compliance_(i, j) = x * (l - xi) / (tension * l);
        }
      return;
    }
    case StructureKind::cantilever: {
      // Clamped at 0: deflection at x <= xi under a unit load at xi is x^2 (3 xi - x) / (6 EI).
      const double ei = beam_.bending_stiffness_N_m2;
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) {
          const double x = std::min(contact_positions_m_[i], contact_positions_m_[j]);
          const double xi = std::max(contact_positions_m_[i], contact_positions_m_[j]);
          static_compliance_(i, j) = x * x * (3.0 * xi - x) / (6.0 * ei);
        }
      return;
    }
    case StructureKind::simply_supported_beam: {
      // Pinned at both ends, x <= xi: x (l - xi) (2 l xi - xi^2 - x^2) / (6 EI l).
      const double ei = beam_.bending_stiffness_N_m2, l = beam_.length_m;
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) {
          const double x = std::min(contact_positions_m_[i], contact_positions_m_[j]);
          const double xi = std::max(contact_positions_m_[i], contact_positions_m_[j]);
          static_compliance_(i, j) = x * (l - xi) * (2.0 * l * xi - xi * xi - x * x) / (6.0 * ei * l);
        }
      return;
    }
  }
}

}  // namespace bristle::structures
