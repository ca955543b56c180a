// INTERIM key-path access (see include/bristle/io/key_path.hpp): one table of the keys identification needs.
#include "bristle/io/key_path.hpp"

#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <limits>

#include "bristle/core/error.hpp"
#include "bristle/io/json.hpp"
#include "scenario_internal.hpp"

namespace bristle::io {

using laws::LawKind;
using rheology::RheologyKind;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool isotropic(const Mat2& m) { return m(0, 1) == 0.0 && m(1, 0) == 0.0 && m(0, 0) == m(1, 1); }

struct KeyEntry {
  KeyInfo info;
  bool lower_open;  // min excluded
  std::function<bool(const LumpedScenario&)> applies;
  std::function<double(const LumpedScenario&)> get;
  std::function<void(LumpedScenario&, double)> set;
};

bool stribeck_law(const LumpedScenario& sc) {
  return (sc.law.kind == LawKind::lugre || sc.law.kind == LawKind::frbd) && !sc.law.M.anisotropic;
}
bool dahl_law(const LumpedScenario& sc) { return sc.law.kind == LawKind::dahl && !sc.law.M.anisotropic; }
bool lugre_law(const LumpedScenario& sc) { return sc.law.kind == LawKind::lugre; }
bool bouc_wen_law(const LumpedScenario& sc) { return sc.law.kind == LawKind::bouc_wen; }

KeyEntry stribeck(const char* name, double laws::StribeckParams::*field, const char* unit, const char* doc,
                  const char* def, const char* range, double min, double max, bool open, bool log) {
  return {{std::string("law.") + name, unit, doc, "paper 1, eq. 53", def, range, min, max, log}, open, stribeck_law,
          [field](const LumpedScenario& sc) { return sc.law.M.axis1.*field; },
          [field](LumpedScenario& sc, double v) {
            sc.law.M.axis1.*field = v;
            sc.law.M.axis2.*field = v;
          }};
}

KeyEntry lugre_matrix(const char* name, Mat2 laws::LawParams::*field, const char* doc) {
  return {{std::string("law.") + name, "s/m", doc, "Canudas de Wit et al. 1995 (docs/models.md)", "0", ">= 0", 0.0,
           kInf, true},
          false,
          [field](const LumpedScenario& sc) { return lugre_law(sc) && isotropic(sc.law.*field); },
          [field](const LumpedScenario& sc) { return (sc.law.*field)(0, 0); },
          [field](LumpedScenario& sc, double v) { sc.law.*field = v * Mat2::Identity(); }};
}

KeyEntry bouc_wen(const char* name, double laws::LawParams::*field, const char* unit, const char* doc,
                  const char* def, const char* range, double min, bool open) {
  return {{std::string("law.") + name, unit, doc, "paper 1, eqs. 4-6", def, range, min, kInf, false}, open,
          bouc_wen_law, [field](const LumpedScenario& sc) { return sc.law.*field; },
          [field](LumpedScenario& sc, double v) { sc.law.*field = v; }};
}

KeyEntry body_k0(const char* body, rheology::RheologyParams LumpedScenario::*field) {
  return {{std::string(body) + ".k0", "1/m", "elastic stiffness K0 of the body (normalised by F_z)",
           "paper 1, eq. 8", "-", "> 0", 0.0, kInf, true},
          true,
          [field](const LumpedScenario& sc) {
            const auto& b = sc.*field;
            return b.kind == RheologyKind::elastic && isotropic(b.k_elastic) && !sc.pair_s;
          },
          [field](const LumpedScenario& sc) { return (sc.*field).k_elastic(0, 0); },
          [field](LumpedScenario& sc, double v) { (sc.*field).k_elastic = v * Mat2::Identity(); }};
}

const std::vector<KeyEntry>& entries() {
  using SP = laws::StribeckParams;
  using LP = laws::LawParams;
  static const std::vector<KeyEntry> table = {
      stribeck("mu_s", &SP::mu_s, "-", "static friction coefficient", "1", "> 0", 0.0, kInf, true, false),
      stribeck("mu_d", &SP::mu_d, "-", "dynamic friction coefficient", "1", "> 0", 0.0, kInf, true, false),
      stribeck("v_s", &SP::v_s, "m/s", "Stribeck velocity", "1", "> 0", 0.0, kInf, true, true),
      stribeck("delta_s", &SP::delta_s, "-", "Stribeck exponent", "2", ">= 0", 0.0, kInf, false, false),
      stribeck("mu_v", &SP::mu_v, "s/m", "viscous coefficient of mu(v)", "0", ">= 0", 0.0, kInf, false, false),
      {{"law.mu", "-", "Dahl: the constant friction coefficient (mu_s = mu_d)", "paper 1, eq. 2", "1", "> 0", 0.0,
        kInf, false},
       true, dahl_law, [](const LumpedScenario& sc) { return sc.law.M.axis1.mu_s; },
       [](LumpedScenario& sc, double v) {
         for (laws::StribeckParams* p : {&sc.law.M.axis1, &sc.law.M.axis2}) p->mu_s = p->mu_d = v;
       }},
      {{"law.sigma0", "1/m", "Dahl/LuGre micro-stiffness Sigma0 (default: the pair's static stiffness)",
        "paper 1, eq. 2", "K_static", "> 0", 0.0, kInf, true},
       true,
       [](const LumpedScenario& sc) {
         return (sc.law.kind == LawKind::dahl || sc.law.kind == LawKind::lugre) && sc.law.sigma0 &&
                isotropic(*sc.law.sigma0);
       },
       [](const LumpedScenario& sc) { return (*sc.law.sigma0)(0, 0); },
       [](LumpedScenario& sc, double v) { sc.law.sigma0 = v * Mat2::Identity(); }},
      lugre_matrix("sigma1", &LP::sigma1, "LuGre micro-damping (normalised by F_z)"),
      lugre_matrix("sigma2", &LP::sigma2, "LuGre viscous coefficient (normalised by F_z)"),
      {{"law.eps", "m^2/s^2", "norm regularisation", "paper 1, eq. 2", "0", ">= 0", 0.0, kInf, false}, false,
       [](const LumpedScenario& sc) { return sc.law.kind != LawKind::frictionless; },
       [](const LumpedScenario& sc) { return sc.law.eps; }, [](LumpedScenario& sc, double v) { sc.law.eps = v; }},
      bouc_wen("A", &LP::A, "-", "Bouc-Wen gain", "1", "> 0", 0.0, true),
      bouc_wen("beta1", &LP::beta1, "1/m^2", "Bouc-Wen shape", "1", "> 0", 0.0, true),
      bouc_wen("beta2", &LP::beta2, "1/m^2", "Bouc-Wen shape", "0", ">= 0", 0.0, false),
      {{"law.gamma", "1/m^2", "Bouc-Wen shape", "paper 1, eq. 6", "0", "finite", -kInf, kInf, false}, false,
       bouc_wen_law, [](const LumpedScenario& sc) { return sc.law.gamma; },
       [](LumpedScenario& sc, double v) { sc.law.gamma = v; }},
      body_k0("body1", &LumpedScenario::body1),
      body_k0("body2", &LumpedScenario::body2),
      {{"bench.mass_kg", "kg", "mass", "-", "1", "> 0", 0.0, kInf, true}, true,
       [](const LumpedScenario& sc) { return sc.bench.drive != contact::DriveKind::velocity; },
       [](const LumpedScenario& sc) { return sc.bench.mass_kg; },
       [](LumpedScenario& sc, double v) { sc.bench.mass_kg = v; }},
      {{"bench.spring_N_per_m", "N/m", "drive spring stiffness", "-", "1", "> 0", 0.0, kInf, true}, true,
       [](const LumpedScenario& sc) { return sc.bench.drive == contact::DriveKind::spring; },
       [](const LumpedScenario& sc) { return sc.bench.spring_N_per_m; },
       [](LumpedScenario& sc, double v) { sc.bench.spring_N_per_m = v; }},
      {{"bench.normal_load_N", "N", "constant normal load F_z", "-", "1", "> 0", 0.0, kInf, false}, true,
       [](const LumpedScenario& sc) { return sc.bench.normal_load.kind == contact::SignalKind::constant; },
       [](const LumpedScenario& sc) { return sc.bench.normal_load.value; },
       [](LumpedScenario& sc, double v) { sc.bench.normal_load = contact::Signal::constant_value(v); }},
  };
  return table;
}

std::vector<std::string> applicable_keys(const LumpedScenario& sc) {
  std::vector<std::string> keys;
  for (const KeyEntry& e : entries())
    if (e.applies(sc)) keys.push_back(e.info.key);
  return keys;
}

const KeyEntry& find(const LumpedScenario& sc, std::string_view key_path) {
  for (const KeyEntry& e : entries()) {
    if (e.info.key != key_path) continue;
    if (!e.applies(sc))
      throw InvalidInput(fmt::format("key path {}: not a numeric parameter of this scenario (law.type = \"{}\", "
                                     "body1.type = \"{}\"); numeric keys: {}",
                                     json_quote(key_path), laws::to_string(sc.law.kind),
                                     rheology::to_string(sc.body1.kind), fmt::join(applicable_keys(sc), ", ")));
    return e;
  }
  const std::vector<std::string> keys = applicable_keys(sc);
  for (const char* text_key : {"name", "description", "kind", "law.type", "body1.type", "body2.type", "bench.drive",
                               "integrator.method", "output.plot_x", "output.title"})
    if (key_path == text_key)
      throw InvalidInput(fmt::format("key path {}: not a numeric key (its value is a name); numeric keys: {}",
                                     json_quote(key_path), fmt::join(keys, ", ")));
  throw InvalidInput(fmt::format("key path {}: unknown numeric key{} (numeric keys: {})", json_quote(key_path),
                                 detail::suggestion(key_path, keys), fmt::join(keys, ", ")));
}

}  // namespace

double get_number(const LumpedScenario& sc, std::string_view key_path) { return find(sc, key_path).get(sc); }

void set_number(LumpedScenario& sc, std::string_view key_path, double value) {
  const KeyEntry& e = find(sc, key_path);
  const bool below = e.lower_open ? !(value > e.info.min) : !(value >= e.info.min);
  if (!std::isfinite(value) || below || value > e.info.max)
    throw InvalidInput(fmt::format("{} = {}: must be {}", e.info.key, format_value(value), e.info.range));
  LumpedScenario changed = sc;
  e.set(changed, value);
  changed.validate();
  sc = std::move(changed);
}

std::vector<std::string> numeric_keys(const LumpedScenario& sc) { return applicable_keys(sc); }

KeyInfo key_info(const LumpedScenario& sc, std::string_view key_path) { return find(sc, key_path).info; }

}  // namespace bristle::io
