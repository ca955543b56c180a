// Method names, option checks and the entry point integrate(), which validates every input and hands
// over to the adaptive (cvode_bdf.cpp, rosenbrock.cpp) or the fixed-step (fixed_step.cpp) driver.
#include "bristle/integrate/ode.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <string>
#include <utility>

#include "bristle/core/enum_names.hpp"
#include "bristle/core/error.hpp"
#include "drivers.hpp"

namespace bristle::integrate {

namespace {

constexpr NameTable<Method, 7> kMethodNames{{
    {Method::auto_, "auto"},
    {Method::cvode_bdf, "cvode_bdf"},
    {Method::rodas4, "rodas4"},
    {Method::rodas5p, "rodas5p"},
    {Method::sdirk2, "sdirk2"},
    {Method::implicit_euler, "implicit_euler"},
    {Method::rk4, "rk4"},
}};

/// Prefix under which integrate() reports option errors (the scenario table of the integrator).
constexpr std::string_view kOptionsPrefix = "integrator";

// The rule of Method::auto_ (docs/integrators.md, "auto", gives the measurements):
/// Systems up to this size take a Rosenbrock method: the fixed-size, allocation-free instantiations of the
/// driver (rosenbrock.cpp), which cover every lumped bench; one dense LU per step is cheap there. Larger
/// systems take cvode_bdf, which reuses its Jacobian and factorisation over many steps.
constexpr int kAutoRosenbrockMaxSize = 10;
/// At rtol below this, rodas5p (order 5) takes enough fewer steps to beat rodas4's cheaper ones.
constexpr double kAutoRodas5pBelowRtol = 1e-5;

std::string join_key(std::string_view prefix, std::string_view name) {
  return prefix.empty() ? std::string(name) : fmt::format("{}.{}", prefix, name);
}

void check_system(const OdeSystem& system) {
  if (system.size <= 0) throw InvalidInput(fmt::format("system.size = {}: must be > 0", system.size));
  if (!system.rhs) throw InvalidInput("system.rhs: not set; a right-hand side is required");
  if (system.error_norm_count < 0)
    throw InvalidInput(fmt::format("system.error_norm_count = {}: must be >= 0", system.error_norm_count));
  if (system.switch_count < 0)
    throw InvalidInput(fmt::format("system.switch_count = {}: must be >= 0", system.switch_count));
  if (system.switch_count > 0 && !system.switches)
    throw InvalidInput(fmt::format("system.switches: not set, but system.switch_count = {}", system.switch_count));
}

void check_times(double t0, const std::vector<double>& output_times) {
  require_finite("t0", t0);
  for (std::size_t i = 0; i < output_times.size(); ++i) {
    const double t = output_times[i];
    const bool ordered = i == 0 ? t >= t0 : t >= output_times[i - 1];
    if (std::isfinite(t) && ordered) continue;  // the key is formatted only for an error
    const std::string key = fmt::format("output_times[{}]", i);
    require_finite(key, t);
    if (i == 0)
      throw InvalidInput(fmt::format("{} = {}: must be >= t0 = {}", key, format_value(t), format_value(t0)));
    throw InvalidInput(fmt::format("{} = {}: must be >= output_times[{}] = {} (output times must be non-decreasing)",
                                   key, format_value(t), i - 1, format_value(output_times[i - 1])));
  }
}

}  // namespace

std::string_view to_string(Method kind) { return name_of(kMethodNames, kind); }

Method method_from_string(std::string_view key, std::string_view name) {
  return parse_name(kMethodNames, key, name, "method");
}

bool is_adaptive(Method method) {
  return method == Method::auto_ || method == Method::cvode_bdf || is_rosenbrock(method);
}

bool is_rosenbrock(Method method) { return method == Method::rodas4 || method == Method::rodas5p; }

void Options::validate(std::string_view prefix) const {
  const std::string rtol_key = join_key(prefix, "rtol");
  require_positive(rtol_key, rtol);
  if (!(rtol < 1.0)) throw InvalidInput(fmt::format("{} = {}: must be < 1", rtol_key, format_value(rtol)));
  require_positive(join_key(prefix, "atol"), atol);
  for (std::size_t i = 0; i < atol_per_component.size(); ++i)
    require_positive(join_key(prefix, fmt::format("atol_per_component[{}]", i)), atol_per_component[i]);
  const std::string dt_key = join_key(prefix, "dt_s");  // the schema's (TOML, Python) keys
  if (is_adaptive(method)) {
    require_non_negative(dt_key, dt_s);  // unused by adaptive methods, but a negative step is a mistake
  } else {
    require_finite(dt_key, dt_s);
    if (!(dt_s > 0.0))
      throw InvalidInput(fmt::format("{} = {}: must be > 0 ({} is a fixed-step method)", dt_key, format_value(dt_s),
                                     to_string(method)));
  }
  require_non_negative(join_key(prefix, "max_dt_s"), max_dt_s);
  require_non_negative(join_key(prefix, "initial_dt_s"), initial_dt_s);
  if (max_steps <= 0)
    throw InvalidInput(fmt::format("{} = {}: must be > 0", join_key(prefix, "max_steps"), max_steps));
}

Method resolve_method(const Options& options, int size) {
  if (options.method != Method::auto_) return options.method;
  if (size > kAutoRosenbrockMaxSize) return Method::cvode_bdf;
  return options.rtol < kAutoRodas5pBelowRtol ? Method::rodas5p : Method::rodas4;
}

VecX absolute_tolerances(const Options& options, int size) {
  if (options.atol_per_component.empty()) return VecX::Constant(size, options.atol);
  return Eigen::Map<const VecX>(options.atol_per_component.data(), size);
}

void validate_run(const Options& options, int size, const VecX& x, double t0, const std::vector<double>& output_times) {
  options.validate(kOptionsPrefix);
  if (x.size() != size)
    throw InvalidInput(fmt::format("initial state size = {}: must equal system.size = {}", x.size(), size));
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i])) require_finite(fmt::format("initial state x[{}]", i), x[i]);
  if (!options.atol_per_component.empty() && options.atol_per_component.size() != static_cast<std::size_t>(size))
    throw InvalidInput(fmt::format("{}.atol_per_component: has {} entries, must have one per state ({})",
                                   kOptionsPrefix, options.atol_per_component.size(), size));
  check_times(t0, output_times);
}

Stats integrate(const OdeSystem& system, VecX& x, double t0, const std::vector<double>& output_times,
                const Options& options, const Observer& observe) {
  check_system(system);
  validate_run(options, system.size, x, t0, output_times);
  Options resolved = options;
  resolved.method = resolve_method(options, system.size);
  Stats stats;
  if (output_times.empty()) {
    stats.method_used = resolved.method;
    return stats;
  }
  if (resolved.method == Method::cvode_bdf)
    stats = detail::integrate_cvode(system, x, t0, output_times, resolved, observe);
  else if (is_rosenbrock(resolved.method))
    stats = detail::integrate_rosenbrock(system, x, t0, output_times, resolved, observe);
  else
    stats = detail::integrate_fixed_step(system, x, t0, output_times, resolved, observe);
  // A driver may say which method ran (cvode_bdf takes a sliver of a span as one rodas4 step).
  if (stats.method_used == Method::auto_) stats.method_used = resolved.method;
  return stats;
}

}  // namespace bristle::integrate
