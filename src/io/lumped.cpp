// kind = "lumped": the TOML schema of a bench run (docs/scenarios.md), its validation, its JSON echo
// and its runner.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <ctime>
#include <limits>
#include <map>
#include <system_error>

#include "bristle/contact/analysis.hpp"
#include "bristle/contact/bench.hpp"
#include "bristle/contact/contact_model.hpp"
#include "bristle/core/error.hpp"
#include "bristle/io/key_path.hpp"
#include "bristle/io/scenario.hpp"
#include "bristle/rheology/contact_pair.hpp"
#include "csv_table.hpp"
#include "scenario_internal.hpp"
#include "schema_json.hpp"
#include "schema_reader.hpp"
#include "study.hpp"

namespace bristle::io {

namespace {

/// CPU time consumed by the calling thread (s).
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

using detail::MatrixForm;
using detail::MatrixRule;
using detail::MatrixValue;
using detail::Section;
using laws::LawKind;
using rheology::RheologyKind;
using Keys = std::vector<std::string>;


std::string q(std::string_view s) { return json_quote(s); }

[[noreturn]] void cannot_combine(const std::string& key, const std::string& other, std::string_view advice) {
  throw InvalidInput(fmt::format("key \"{}\" cannot be combined with {}; {}", key, other, advice));
}

// ---------------------------------------------------------------------------------------------
// The readers: each table walked by its struct's serialize() (schema_reader.hpp); the hooks below are what
// the schema does not state (TOML forms that differ from the storage, combinations, message texts).

using detail::ReaderHooks;
using detail::SchemaReader;

const Keys kAllStribeckKeys = {"mu", "mu_s", "mu_d", "v_s", "delta_s", "mu_v"};

/// Dahl's constant coefficient, [law] or an axis table: mu sets mu_s = mu_d; mu_s and mu_d must agree.
void read_dahl_mu(const Section& s, laws::StribeckParams& p) {
  if (s.has("mu")) {
    for (const char* k : {"mu_s", "mu_d"})
      if (s.has(k)) cannot_combine(s.key(k), s.key("mu"), "give either mu or mu_s and mu_d");
    const double mu = *s.number("mu");
    require_positive(s.key("mu"), mu);
    p.mu_s = p.mu_d = mu;
    return;
  }
  const auto mu_s = s.number("mu_s"), mu_d = s.number("mu_d");
  if (mu_s && mu_d && *mu_s != *mu_d)
    throw InvalidInput(fmt::format("{} = {}: the Dahl law has a constant friction coefficient, mu_s must equal "
                                   "mu_d = {} (use \"lugre\" for a Stribeck curve)",
                                   s.key("mu_s"), format_value(*mu_s), format_value(*mu_d)));
  p.mu_s = p.mu_d = mu_s ? *mu_s : mu_d.value_or(1.0);
}

laws::LawParams parse_law(const Section& root) {
  const Section law_table = root.table("law");
  laws::LawParams p;
  ReaderHooks h;
  // Anisotropic friction is the TOML form with [law.axis1] and [law.axis2] (selected by their presence).
  h.before[law_table.path()] = [&](const Section& law) {
    if (p.kind != LawKind::dahl && p.kind != LawKind::lugre && p.kind != LawKind::frbd) return;
    const bool axis1 = law.has("axis1"), axis2 = law.has("axis2");
    if (axis1 || axis2) {
      if (!axis1) law.missing("axis1", "the Stribeck law along the first principal axis, with law.axis2");
      if (!axis2) law.missing("axis2", "the Stribeck law along the second principal axis, with law.axis1");
      for (const auto& k : kAllStribeckKeys)
        if (law.has(k)) cannot_combine(law.key(k), "[law.axis1] and [law.axis2]", "give it in each axis table");
      p.M.anisotropic = true;
    } else if (law.has("angle_rad")) {
      throw InvalidInput("key \"law.angle_rad\" applies only with [law.axis1] and [law.axis2] (anisotropic "
                         "friction)");
    }
  };
  bool anisotropic = false;
  h.forms[law_table.path()] = {2, [&](int form) {
                      if (form == 0) anisotropic = p.M.anisotropic;
                      p.M.anisotropic = form < 0 ? anisotropic : form == 1;
                    }};
  h.declared["mu"] = [&](const Section& s) {
    read_dahl_mu(s, s.path() == law_table.key("axis2") ? p.M.axis2 : p.M.axis1);
  };
  h.declared["sigma0"] = [&](const Section& s) {
    if (const auto s0 = s.matrix("sigma0", MatrixRule::spd)) p.sigma0 = s0->m;
  };
  SchemaReader(law_table, h).read(p);
  if (!p.M.anisotropic) p.M.axis2 = p.M.axis1;
  return p;
}

/// `product` = a b^-1 (branch stiffness from damping and tau, or damping from stiffness and tau when
/// b = tau^-1); must be SPD.
Mat2 checked_product(const Mat2& product, const std::string& tau_key, const MatrixValue& tau,
                     const std::string& other_key) {
  if (!is_spd(product))  // core/error.hpp: require_spd's rule
    throw InvalidInput(fmt::format("{} = {}: the branch matrix it gives with {} is not symmetric positive definite "
                                   "(tau must share principal axes with {})",
                                   tau_key, format_matrix(tau.m), other_key, other_key));
  return 0.5 * (product + product.transpose());
}

using detail::Body;  // shared with the line kinds (scenario_internal.hpp)

/// A matrix value as the file wrote it: a number (k I) or a 2x2 matrix.
std::string written(const MatrixValue& v) {
  return v.form == MatrixForm::scalar ? format_value(v.m(0, 0)) : format_matrix(v.m);
}

/// The branches of a gkv (c + tau | k) or gm (k + tau | c) body: paper 1, eqs. 8-10 with tau = K^-1 C.
void read_branches(const Section& b, Body& body) {
  const bool gkv = body.params.kind == RheologyKind::gkv;
  const std::string main = gkv ? "c" : "k";
  const std::string alt = gkv ? "k" : "c";
  if (const toml::node* c = b.node("c"); gkv && c && c->is_string() && *b.string("c") == "eq58") {
    // paper 1, eq. 58: C_i = tau_i k0, set by rheology::apply_eq58 once k0 is known (read_pair)
    const std::string where = fmt::format("{} = \"eq58\"", b.key("c"));
    if (b.has("k")) cannot_combine(b.key("k"), where, fmt::format("eq. 58 gives the dampings from {}", b.key("tau")));
    if (!b.has("tau"))
      throw InvalidInput(fmt::format("missing key \"{}\" (required: branch relaxation times tau_i (s), one per branch; "
                                     "{} gives c from them)",
                                     b.key("tau"), where));
    const auto taus = b.matrices("tau", MatrixRule::spd);
    for (std::size_t i = 0; i < taus->size(); ++i) {
      if ((*taus)[i].form != MatrixForm::scalar)
        throw InvalidInput(fmt::format("{}[{}] = {}: {} needs scalar relaxation times", b.key("tau"), i,
                                       format_matrix((*taus)[i].m), where));
      body.params.eq58_tau.push_back((*taus)[i].m(0, 0));
      body.tau.push_back((*taus)[i].m(0, 0));
      body.params.branches.emplace_back();  // placeholders until k0 is known
    }
    return;
  }
  const auto first = b.matrices(main, MatrixRule::spd);
  if (!first)
    b.missing(main, gkv ? "branch dampings C_i (s/m), one entry per branch"
                        : "branch stiffnesses K_i (1/m), one entry per branch");
  if (first->empty())
    throw InvalidInput(fmt::format("{} = []: needs at least one branch (use type = \"elastic\" for none)",
                                   b.key(main)));
  if (b.has("tau") && b.has(alt))
    cannot_combine(b.key(alt), b.key("tau"), fmt::format("give either tau or {} for the branches", alt));
  const bool by_tau = !b.has(alt);
  const std::string second_key = by_tau ? "tau" : alt;
  if (!b.has(second_key))
    b.missing("tau", fmt::format("branch relaxation times tau_i (s), one per entry of {} (or give {})", b.key(main),
                                 b.key(alt)));
  const auto second = b.matrices(second_key, MatrixRule::spd);
  if (second->size() != first->size())
    throw InvalidInput(fmt::format("{} has {} {} but {} has {}; give one per branch", b.key(second_key),
                                   second->size(), second->size() == 1 ? "entry" : "entries", b.key(main),
                                   first->size()));
  for (std::size_t i = 0; i < first->size(); ++i) {
    const MatrixValue& m1 = (*first)[i];
    const MatrixValue& m2 = (*second)[i];
    const std::string k1 = fmt::format("{}[{}]", b.key(main), i);
    const std::string k2 = fmt::format("{}[{}]", b.key(second_key), i);
    rheology::Branch branch;
    if (gkv) {
      branch.c = m1.m;
      // tau = K^-1 C  ->  K = C tau^-1
      branch.k = by_tau ? (m2.form == MatrixForm::scalar ? Mat2(m1.m / m2.m(0, 0))
                                                         : checked_product(m1.m * m2.m.inverse(), k2, m2, k1))
                        : m2.m;
    } else {
      branch.k = m1.m;
      // tau = K^-1 C  ->  C = K tau
      branch.c = by_tau ? (m2.form == MatrixForm::scalar ? Mat2(m1.m * m2.m(0, 0))
                                                         : checked_product(m1.m * m2.m, k2, m2, k1))
                        : m2.m;
    }
    // Blamed on tau, which the user wrote: tau = 1e-200 was "body1.branches[0].k = 1e+202: magnitude above 1e+150".
    if (const Mat2& derived = gkv ? branch.k : branch.c; by_tau && !(derived.cwiseAbs().maxCoeff() <= kMaxMagnitude))
      throw InvalidInput(fmt::format("{} = {}: gives with {} = {} the branch {} {} = {}, above {}", k2, written(m2), k1,
                                     written(m1), gkv ? "stiffness" : "damping", gkv ? "k = c / tau" : "c = k tau",
                                     written({derived, m1.form == MatrixForm::scalar ? m2.form : m1.form}),
                                     format_value(kMaxMagnitude)));
    body.params.branches.push_back(branch);
    if (by_tau) body.tau.push_back(m2.form == MatrixForm::scalar ? m2.m(0, 0) : std::nan(""));
  }
}

Body parse_body(const Section& root, const std::string& name, bool required) {
  Body body;
  const Section b = root.table(name);
  if (!b.present()) {
    if (required) b.missing("type", "rheology of the upper body: rigid, elastic, gkv or gm");
    return body;
  }
  body.present = true;
  std::map<std::string, MatrixValue, std::less<>> matrices;
  ReaderHooks h;
  h.matrices = &matrices;
  h.before[b.path()] = [&](const Section& s) {
    if (!s.has("type")) s.missing("type", fmt::format("rheology of {}: rigid, elastic, gkv or gm", name));
    body.params.branches.clear();
  };
  h.required["k_inf"] = [] { return std::string("equilibrium stiffness K_inf, 1/m"); };
  h.declared["c"] = [&](const Section& s) { read_branches(s, body); };
  SchemaReader(b, h).read(body.params);
  const auto k0 = matrices.find(b.key(body.params.kind == RheologyKind::gm ? "k_inf" : "k0"));
  if (k0 != matrices.end()) body.k0 = k0->second;
  return body;
}

void apply_pair(const Section& root, Body& body1, Body& body2, std::optional<double>& pair_s) {
  const Section pair = root.table("pair");
  pair.check_keys({"s"});
  if (pair.present()) {
    const double s = pair.required_number("s", "stiffness ratio s = k01/(k01 + k02), in (0, 1)");
    rheology::substrate_stiffness_from_s("pair.s", s, 1.0);  // range check first
    const std::string where = fmt::format("pair.s = {}", format_value(s));
    const RheologyKind k1 = body1.params.kind;
    if (k1 != RheologyKind::elastic && k1 != RheologyKind::gkv)
      throw InvalidInput(fmt::format("{}: needs body1.type = \"elastic\" or \"gkv\" with a scalar body1.k0 (body1.type "
                                     "is \"{}\")",
                                     where, rheology::to_string(k1)));
    if (!body1.k0 || body1.k0->form != MatrixForm::scalar)
      throw InvalidInput(fmt::format("{}: needs an isotropic body1.k0 (a single number), not {}", where,
                                     format_matrix(body1.params.k_elastic)));
    if (body2.present) {
      const RheologyKind k2 = body2.params.kind;
      if (k2 != RheologyKind::elastic && k2 != RheologyKind::gkv)
        throw InvalidInput(fmt::format("{}: sets body2.k0, but body2.type = \"{}\" has none (use \"elastic\" or "
                                       "\"gkv\")",
                                       where, rheology::to_string(k2)));
      if (body2.k0)
        throw InvalidInput(fmt::format("{}: body2.k0 is given too; give either pair.s or body2.k0", where));
    } else {
      body2.params = rheology::elastic(1.0);
      body2.present = true;
    }
    const double k02 = rheology::substrate_stiffness_from_s("pair.s", s, body1.k0->m(0, 0));
    body2.params.k_elastic = k02 * Mat2::Identity();
    body2.k0 = MatrixValue{body2.params.k_elastic, MatrixForm::scalar};
    pair_s = s;
  } else {
    const RheologyKind k2 = body2.params.kind;
    if ((k2 == RheologyKind::elastic || k2 == RheologyKind::gkv) && !body2.k0)
      root.table("body2").missing("k0", "elastic stiffness K0 of the substrate, 1/m (or give pair.s)");
    if ((body1.params.kind == RheologyKind::elastic || body1.params.kind == RheologyKind::gkv) && !body1.k0)
      root.table("body1").missing("k0", "elastic stiffness K0 of the upper body, 1/m");
  }
  // c = "eq58": the dampings from the k0 now known (the rule itself is the rheology's)
  rheology::apply_eq58(body1.params, "body1");
  rheology::apply_eq58(body2.params, "body2");
}

// ---------------------------------------------------------------------------------------------
// [bench] and signals

}  // namespace

/// The hooks of signal tables: a table signal's times and values, inline or from a CSV file. `signals`
/// maps each signal's key path to its storage (shared with the patch kinds: scenario_internal.hpp).
void detail::add_signal_hooks(ReaderHooks& h, const std::map<std::string, contact::Signal*, std::less<>>& signals,
                              const ScenarioSource& source, std::vector<TableFile>& files) {
  // by each signal's path: a "times" of another table is not a signal's
  for (const auto& [path, signal] : signals)
    h.declared[path + ".times"] = [&sig = *signal, &source, &files](const Section& s) {
      if (s.has("file")) {
        for (const char* k : {"times", "values"})
          if (s.has(k)) cannot_combine(s.key(k), s.key("file"), "give the table inline or as a file");
        TableFile tf;
        tf.key = s.path();
        tf.file = *s.string("file");
        const std::filesystem::path given(tf.file);
        tf.path = given.is_absolute() ? given : source.directory / given;
        const detail::CsvTable table =
            detail::read_csv_table(s.path(), tf.file, tf.path, s.string("time_column"), s.string("value_column"));
        tf.time_column = table.time_column;
        tf.value_column = table.value_column;
        sig.times = table.times;
        sig.values = table.values;
        files.push_back(tf);
        return;
      }
      for (const char* k : {"time_column", "value_column"})
        if (s.has(k))
          throw InvalidInput(fmt::format("key \"{}\" applies only with {} (a CSV file)", s.key(k), s.key("file")));
      const auto times = s.numbers("times");
      if (!times) s.missing("times", "the table's times (s), strictly increasing (or give file)");
      const auto values = s.numbers("values");
      if (!values) s.missing("values", "the table's values, one per time");
      sig.times = *times;
      sig.values = *values;
    };
}

namespace {

contact::Signal parse_signal(const Section& parent, const std::string& name, const ScenarioSource& source,
                             std::vector<TableFile>& files) {
  if (!parent.has(name)) parent.missing(name, "a number (a constant) or a signal table with a type");
  contact::Signal sig;
  const std::map<std::string, contact::Signal*, std::less<>> signals = {{parent.key(name), &sig}};
  ReaderHooks h;
  add_signal_hooks(h, signals, source, files);
  SchemaReader(parent, h).read_table({.key = name, .type = schema::Type::signal}, [&](auto& a) { serialize(a, sig); });
  return sig;
}

std::string input_description(contact::DriveKind drive) {
  switch (drive) {
    case contact::DriveKind::velocity: return "the drive input: relative velocity v_r(t), m/s";
    case contact::DriveKind::force: return "the drive input: external force F_ext(t), N";
    case contact::DriveKind::spring: return "the drive input: velocity v_p(t) of the spring's pulled end, m/s";
  }
  return "the drive input";
}

contact::BenchParams parse_bench(const Section& root, const ScenarioSource& source, std::vector<TableFile>& files) {
  const Section bench = root.table("bench");
  contact::BenchParams p;
  const std::map<std::string, contact::Signal*, std::less<>> signals = {
      {bench.key("input"), &p.input_x}, {bench.key("input_y"), &p.input_y},        {bench.key("belt"), &p.belt_x},
      {bench.key("belt_y"), &p.belt_y}, {bench.key("normal_load"), &p.normal_load}};
  ReaderHooks h;
  add_signal_hooks(h, signals, source, files);
  h.required[bench.key("input")] = [&] { return input_description(p.drive); };
  h.before[bench.path()] = [](const Section& b) {
    if (b.has("normal_load_N") && b.has("normal_load"))
      cannot_combine("bench.normal_load_N", "[bench.normal_load]", "give a constant load or a signal table");
    if (const toml::node* n = b.node("normal_load"); n && !n->is_table())
      b.wrong_type("normal_load", "a signal table (give a constant load as bench.normal_load_N)");
  };
  h.declared["normal_load_N"] = [&](const Section& b) {
    if (const auto fz = b.number("normal_load_N")) {
      require_positive(b.key("normal_load_N"), *fz);
      p.normal_load = contact::Signal::constant_value(*fz);
    }
  };
  SchemaReader(bench, h).read(p);
  return p;
}

// ---------------------------------------------------------------------------------------------
// [time], [integrator], [initial], [output]

TimeGrid parse_time(const Section& root, LumpedInputForm& form) {
  const Section t = root.table("time");
  TimeGrid g;
  SchemaReader(t, ReaderHooks{}).read(g);
  detail::require_time_span(g);
  if (t.has("output_dt_s") && t.has("outputs"))
    cannot_combine("time.outputs", "time.output_dt_s", "give one of them");
  form.time_output_dt_given = t.has("output_dt_s");
  form.time_outputs = 0;
  if (const auto n = t.integer("outputs")) {
    if (*n < 2) throw InvalidInput(fmt::format("time.outputs = {}: must be >= 2 (both ends are output)", *n));
    if (static_cast<std::size_t>(*n) > detail::kMaxOutputTimes)
      throw InvalidInput(fmt::format("time.outputs = {}: at most {} output times are allowed (Limits in docs/scenarios.md)", *n, detail::kMaxOutputTimes));
    form.time_outputs = *n;
  }
  detail::derive_output_dt(form, g);
  return g;
}

integrate::Options parse_integrator(const Section& root) {
  integrate::Options o;
  ReaderHooks h;
  h.required["dt_s"] = [&] {
    return fmt::format("the fixed step of method \"{}\", s", integrate::to_string(o.method));
  };
  SchemaReader(root.table("integrator"), h).read(o);
  return o;
}

InitialCondition parse_initial(const Section& root) {
  const Section table = root.table("initial");
  InitialCondition init;
  ReaderHooks h;
  h.before[table.path()] = [&](const Section& s) {
    if (s.has("f") && init.steady) cannot_combine("initial.f", "initial.steady = true", "give one of them");
  };
  SchemaReader(table, h).read(init);
  return init;
}

OutputOptions parse_output(const Section& root, contact::DriveKind drive, const std::string& name) {
  const Section s = root.table("output");
  OutputOptions o;
  ReaderHooks h;
  h.declared["plot_y"] = [&](const Section& out) {
    if (const auto ys = out.strings("plot_y", true)) {
      if (ys->empty()) throw InvalidInput("output.plot_y = []: must name at least one column");
      o.plot_y = *ys;
      return;
    }
    switch (drive) {
      case contact::DriveKind::velocity: o.plot_y = {"F_N"}; break;
      case contact::DriveKind::force: o.plot_y = {"x_m", "F_N"}; break;
      case contact::DriveKind::spring: o.plot_y = {"x_m", "v_mps", "F_N"}; break;
    }
  };
  SchemaReader(s, h).read(o);
  if (!s.has("title")) o.title = name;
  return o;
}

// ---------------------------------------------------------------------------------------------
// One case

/// [law.textbook]: textbook LuGre or Dahl parameters in N (LumpedScenario::textbook), mapped to law, body1 and
/// body2 by contact::textbook_model under the constant bench.normal_load_N (the mapping of Contact::lugre).
void read_textbook(const Section& root, LumpedScenario& sc) {
  const Section law = root.table("law");
  const Section t = law.table("textbook");
  if (!t.present()) law.wrong_type("textbook", "a table of textbook parameters ([law.textbook])");
  for (const std::string& k : law.keys())
    if (k != "type" && k != "textbook")
      cannot_combine(law.key(k), "[law.textbook]", "give the law either in textbook units or normalised");
  for (const char* table : {"body1", "body2", "pair"})
    if (root.has(table))
      cannot_combine(table, "[law.textbook]",
                     "the textbook form sets body1 elastic with k0 = sigma0_N_per_m / F_z and body2 rigid");
  const std::string type = law.required_string("type", "the friction law: lugre or dahl with [law.textbook]");
  LawKind kind = LawKind::lugre;
  detail::choice_from_string(law.key("type"), type, kind);
  if (kind != LawKind::lugre && kind != LawKind::dahl)
    throw InvalidInput(fmt::format("law.type = {}: [law.textbook] is for lugre or dahl", q(type)));
  // The keys of the law at hand, read by TextbookParams' serialize() (the context names the law's type).
  contact::TextbookParams p;
  const ReaderHooks none;
  SchemaReader(t, none, fmt::format("law.type = {}", q(type))).run([&](auto& a) {
    serialize(a, p, kind == LawKind::lugre);
  });
  if (sc.bench.normal_load.kind != contact::SignalKind::constant)
    throw InvalidInput("[law.textbook]: needs a constant load bench.normal_load_N (the textbook forces are per "
                       "newton of it), not a [bench.normal_load] signal");
  const contact::TextbookModel m = contact::textbook_model(kind, p, sc.bench.normal_load.value, "law.textbook.");
  sc.law = m.law;
  sc.body1 = m.body1;
  sc.body2 = m.body2;
  sc.textbook = p;
}

LumpedScenario parse_case(const toml::table& table, std::string_view default_name, const ScenarioSource& source) {
  const Section root(&table, "");
  LumpedScenario sc;
  sc.source = source;
  // The root's own keys; its tables are read one by one below (the readers shared with the other kinds).
  ReaderHooks h;
  h.skip = {"law", "body1", "body2", "pair", "bench", "time", "integrator", "initial", "sweep", "output"};
  detail::add_kind_hook(h, "lumped");
  SchemaReader(root, h).read(sc);
  if (!root.has("name")) sc.name = std::string(default_name);
  detail::validate_name(root.has("name") ? "name" : "name (the file stem)", sc.name);
  const bool textbook = root.table("law").has("textbook");
  if (!textbook) {
    sc.law = parse_law(root);
    Body body1 = parse_body(root, "body1", true);
    Body body2 = parse_body(root, "body2", false);
    apply_pair(root, body1, body2, sc.pair_s);
    sc.body1 = body1.params;
    sc.body2 = body2.params;
    sc.input_form.body_tau[0] = body1.tau;
    sc.input_form.body_tau[1] = body2.tau;
  }
  sc.bench = parse_bench(root, source, sc.table_files);
  if (textbook) read_textbook(root, sc);
  sc.time = parse_time(root, sc.input_form);
  sc.integrator = parse_integrator(root);
  sc.initial = parse_initial(root);
  sc.output = parse_output(root, sc.bench.drive, sc.name);
  return sc;
}


// ---------------------------------------------------------------------------------------------
// JSON echo of the parameters as used: each table from its serialize() walk (schema_json.hpp); the hooks
// write what the walk cannot (values derived at run time, the TOML form of declared fields).

using detail::JsonWriter;

Json law_json(const laws::LawParams& p, const Mat2& sigma0_used) {
  JsonWriter::Hooks h;
  h["sigma0"] = [&](Json& j) {
    if (p.kind != LawKind::dahl && p.kind != LawKind::lugre) return;
    j["sigma0"] = detail::matrix_json(sigma0_used);
    j["sigma0_default"] = !p.sigma0.has_value();  // true: the pair's static stiffness K_static
  };
  return JsonWriter::write(p, h, "law");
}

Json body_json(const rheology::RheologyParams& p) {
  // The branches as K_i, C_i and tau_i = K_i^-1 C_i (paper 1, eq. 9), whichever form the TOML gave.
  const auto branches = [&](const char* key, const auto& of) {
    return [&p, key, of](Json& j) {
      if (p.branches.empty()) return;
      Json list = Json::array();
      for (const auto& b : p.branches) list.push_back(detail::matrix_json(of(b)));
      j[key] = std::move(list);
    };
  };
  JsonWriter::Hooks h;
  h["c"] = branches("c", [](const rheology::Branch& b) { return b.c; });
  h["k"] = branches("k", [](const rheology::Branch& b) { return b.k; });
  h["tau"] = branches("tau", [](const rheology::Branch& b) { return Mat2(b.k.inverse() * b.c); });
  return JsonWriter::write(p, h, "body");
}

Json signal_json(const contact::Signal& s, const std::string& key, const std::vector<TableFile>& files) {
  JsonWriter::Hooks h;
  h["t_end"] = [&](Json& j) {
    if (s.kind != contact::SignalKind::ramp) return;
    if (std::isfinite(s.t_end)) j["t_end"] = s.t_end;
    else j["t_end"] = "inf";
  };
  h["times"] = [&](Json& j) {
    if (s.kind != contact::SignalKind::table) return;
    for (const auto& f : files)
      if (f.key == key) {
        j["file"] = f.file;
        j["path"] = f.path.string();
        j["time_column"] = f.time_column;
        j["value_column"] = f.value_column;
      }
    j["times"] = Json(s.times);
    j["values"] = Json(s.values);
  };
  return JsonWriter::write(s, h, key);
}

Json parameters_json(const LumpedScenario& sc, const contact::ContactModel& model) {
  Json j = Json::object();
  j["law"] = law_json(sc.law, model.law().sigma0());
  if (sc.textbook)  // the form given, beside the normalised parameters it was mapped to
    j["law"]["textbook"] = JsonWriter::run({}, "law.textbook", [&](auto& a) {
      serialize(a, *sc.textbook, sc.law.kind == LawKind::lugre);
    });
  j["body1"] = body_json(sc.body1);
  j["body2"] = body_json(sc.body2);
  if (sc.pair_s) j["pair"]["s"] = *sc.pair_s;
  const contact::BenchParams& bench = sc.bench;
  JsonWriter::Hooks h;
  const bool constant_load = bench.normal_load.kind == contact::SignalKind::constant;
  h["normal_load_N"] = [&](Json& b) {
    if (constant_load) b["normal_load_N"] = bench.normal_load.value;
  };
  const auto signal = [&](const char* key, const contact::Signal& s, bool always) {
    h[fmt::format("bench.{}", key)] = [&s, &sc, key, always, constant_load](Json& b) {
      if (always || !constant_load) b[key] = signal_json(s, fmt::format("bench.{}", key), sc.table_files);
    };
  };
  signal("normal_load", bench.normal_load, false);
  signal("input", bench.input_x, true);
  signal("input_y", bench.input_y, true);
  const bool mass = bench.drive != contact::DriveKind::velocity;
  if (mass) {
    signal("belt", bench.belt_x, true);
    signal("belt_y", bench.belt_y, true);
  }
  j["bench"] = JsonWriter::write(bench, h, "bench");
  JsonWriter::Hooks time_hooks;
  time_hooks["outputs"] = [&](Json& t) { t["outputs"] = sc.time.times().size(); };
  j["time"] = JsonWriter::write(sc.time, time_hooks, "time");
  j["integrator"] = JsonWriter::write(sc.integrator, {}, "integrator");
  JsonWriter::Hooks initial_hooks;
  initial_hooks["f"] = [&](Json& init) {  // the contact state used (the steady state with steady = true)
    const VecX u0 = sc.initial_contact_state(model);
    init["f"] = detail::vec_json(Vec2(u0[0], u0[1]));
  };
  j["initial"] = JsonWriter::write(sc.initial, initial_hooks, "initial");
  JsonWriter::Hooks output_hooks;
  output_hooks["plot_y"] = [&](Json& out) { out["plot_y"] = Json(sc.output.plot_y); };
  j["output"] = JsonWriter::write(sc.output, output_hooks, "output");
  return j;
}

std::string describe_signal(const contact::Signal& s) {
  switch (s.kind) {
    case contact::SignalKind::constant: return fmt::format("constant {}", format_value(s.value));
    case contact::SignalKind::step:
      return fmt::format("step {} -> {} at {} s", format_value(s.before), format_value(s.after), format_value(s.t0));
    case contact::SignalKind::ramp:
      return fmt::format("ramp from {} at {} s, rate {}/s", format_value(s.start), format_value(s.t0),
                         format_value(s.rate));
    case contact::SignalKind::sine:
      return fmt::format("sine {} + {} sin({} t + {})", format_value(s.offset), format_value(s.amplitude),
                         format_value(s.omega), format_value(s.phase));
    case contact::SignalKind::table:
      return fmt::format("table of {} points, t = {} .. {} s", s.times.size(), format_value(s.times.front()),
                         format_value(s.times.back()));
  }
  return "";
}

/// Advice when the absolute tolerance cannot resolve sticking: on a mass bench whose Stribeck curve falls
/// from mu_s to mu_d over v_s, the velocity while sticking stays far below v_s, and an absolute tolerance on
/// it above 1e-3 v_s lets an adaptive method step over the stick phases (examples/lugre_stick_slip.toml at
/// rtol 1e-3 with rodas4: period 8.37 s at atol = 1e-5 = 1e-2 v_s, 6.3634 s at 1e-6; converged 6.3627 s;
/// no limit cycle at all at 1e-4). Empty if none applies.
std::string velocity_tolerance_warning(const LumpedScenario& sc, const contact::Bench& bench) {
  if (!integrate::is_adaptive(sc.integrator.method) || sc.bench.drive == contact::DriveKind::velocity) return {};
  const laws::LawParams& law = sc.law;
  const bool stribeck = (law.kind == laws::LawKind::lugre || law.kind == laws::LawKind::frbd) && !law.G_inverse;
  if (!stribeck) return {};
  const laws::FrictionCoefficient& m = law.M;
  double v_s = std::numeric_limits<double>::infinity();
  if (m.axis1.mu_s != m.axis1.mu_d) v_s = m.axis1.v_s;
  if (m.anisotropic && m.axis2.mu_s != m.axis2.mu_d) v_s = std::min(v_s, m.axis2.v_s);
  if (!std::isfinite(v_s)) return {};  // no Stribeck drop: nothing to resolve
  const VecX atol = integrate::absolute_tolerances(sc.integrator, bench.state_size());
  const double atol_v = std::max(atol[2], atol[3]);  // the velocity components (force and spring drives)
  if (!(atol_v > 1e-3 * v_s)) return {};
  return fmt::format(
      "integrator.atol = {} (m/s on the velocity) is not small against the Stribeck velocity v_s = {} m/s: while "
      "sticking the velocity stays far below v_s, and with this tolerance the steps may skip the stick phases "
      "(wrong stick-slip periods, or none); atol <= 1e-3 v_s = {} is advised",
      format_value(atol_v), format_value(v_s), format_value(1e-3 * v_s));
}

}  // namespace

// ---------------------------------------------------------------------------------------------

namespace detail {

// The readers and JSON writers above, shared with the other kinds (scenario_internal.hpp).
laws::LawParams read_law(const Section& root) { return parse_law(root); }
Body read_body(const Section& root, const std::string& name, bool required) {
  return parse_body(root, name, required);
}
void read_pair(const Section& root, Body& body1, Body& body2, std::optional<double>& pair_s) {
  apply_pair(root, body1, body2, pair_s);
}
contact::Signal read_signal(const Section& parent, const std::string& name, const ScenarioSource& source,
                            std::vector<TableFile>& files) {
  return parse_signal(parent, name, source, files);
}
TimeGrid read_time(const Section& root, LumpedInputForm& form) { return parse_time(root, form); }

void require_time_span(const TimeGrid& g) {
  if (!(g.t_end_s > g.t_start_s))
    throw InvalidInput(fmt::format("time.t_end_s = {}: must be > time.t_start_s = {}", format_value(g.t_end_s),
                                   format_value(g.t_start_s)));
}

void derive_output_dt(const LumpedInputForm& form, TimeGrid& g) {
  require_time_span(g);
  const double span = g.t_end_s - g.t_start_s;
  if (form.time_outputs > 0) {
    g.output_dt_s = span / static_cast<double>(form.time_outputs - 1);
  } else if (form.time_output_dt_given) {
    const double count = std::ceil(span / g.output_dt_s) + 1.0;
    if (count > static_cast<double>(kMaxOutputTimes))
      throw InvalidInput(fmt::format("time.output_dt_s = {}: gives {} output times; at most {} are allowed (Limits in docs/scenarios.md)",
                                     format_value(g.output_dt_s), format_value(count), kMaxOutputTimes));
  } else {
    g.output_dt_s = span / 1000.0;
  }
}
Json law_to_json(const laws::LawParams& p, const Mat2& sigma0_used) { return law_json(p, sigma0_used); }
Json body_to_json(const rheology::RheologyParams& p) { return body_json(p); }
Json signal_to_json(const contact::Signal& s, const std::string& key, const std::vector<TableFile>& files) {
  return signal_json(s, key, files);
}
std::string signal_summary(const contact::Signal& s) { return describe_signal(s); }

std::vector<LumpedScenario> parse_lumped(const toml::table& root, std::string_view name,
                                         const ScenarioSource& source) {
  const std::optional<SweepSpec> spec = read_sweep(root);
  if (!spec) {
    LumpedScenario sc = parse_case(root, name, source);
    sc.validate();
    return {std::move(sc)};
  }
  // [sweep]: the file is parsed once; each case is a copy with the value set by key path (io::set_number: the
  // reader's checks and derivations), then the whole-scenario checks; an error names the case.
  check_swept_key(root, spec->sweep.parameter);
  LumpedScenario base = parse_case(root, name, source);
  base.sweep = spec->sweep;
  return sweep_cases(base, [](const LumpedScenario& c) { c.validate(); });
}

}  // namespace detail

void detail::check_run_span(const LumpedScenario& sc) {
  sc.time.validate();
  // A sine signal's periods over the run: each needs steps of its own (a swept omega of 2^62 rad/s ran into
  // the step budget after minutes).
  contact::require_sine_periods(sc.bench, sc.time.t_end_s - sc.time.t_start_s, "time.t_start_s .. time.t_end_s",
                                " (Limits in docs/scenarios.md)");
  sc.integrator.validate("integrator");
}

void LumpedScenario::validate() const {
  detail::check_run_span(*this);
  const contact::ContactModel model(law, body1, body2);
  const contact::Bench bench_object(model, bench);
  const std::vector<std::string> columns = bench_object.column_names();
  detail::check_plot_columns(output, columns);
  if (sweep && std::find(columns.begin(), columns.end(), sweep->column) != columns.end())
    throw InvalidInput(fmt::format("sweep.column = {}: clashes with an output column of the same name; give "
                                   "sweep.column another name",
                                   q(sweep->column)));
  if (initial.steady) {
    const VecX u0 = initial_contact_state(model);
    if (!u0.allFinite())
      throw InvalidInput(fmt::format("initial.steady = true: the law has no finite steady state at the initial "
                                     "relative velocity (law.eps = {}); give law.eps > 0, a non-zero initial "
                                     "velocity or initial.f instead",
                                     format_value(law.eps)));
  }
}

VecX LumpedScenario::initial_contact_state(const contact::ContactModel& model) const {
  VecX u = VecX::Zero(model.state_size());
  if (!initial.steady) {
    u[0] = initial.f[0];
    u[1] = initial.f[1];
    return u;
  }
  const double t0 = time.t_start_s;
  Vec2 v_r;
  if (bench.drive == contact::DriveKind::velocity)
    v_r = Vec2(bench.input_x(t0), bench.input_y(t0));
  else
    v_r = bench.v0 - Vec2(bench.belt_x(t0), bench.belt_y(t0));
  return model.steady_state(v_r);
}

LumpedStudy::LumpedStudy(std::vector<LumpedScenario> cases) : cases_(std::move(cases)) {
  if (cases_.empty()) throw InvalidInput("a scenario needs at least one case");
  detail::count_swept_rows(cases_, [](const LumpedScenario& c) { return detail::output_times_bound(c.time); });
}

std::string LumpedStudy::summary() const {
  const LumpedScenario& sc = cases_.front();
  std::string s;
  s += fmt::format("scenario   {} (kind = \"lumped\", {})\n", sc.name, sc.source.display_name());
  if (!sc.description.empty()) s += fmt::format("description {}\n", sc.description);
  s += fmt::format("law        {}{}\n", laws::to_string(sc.law.kind), sc.law.M.anisotropic ? " (anisotropic)" : "");
  const auto body = [](const rheology::RheologyParams& b) {
    if (b.kind == RheologyKind::rigid) return std::string("rigid");
    return fmt::format("{}, {} = {}, {} branch(es)", rheology::to_string(b.kind),
                       b.kind == RheologyKind::gm ? "k_inf" : "k0", format_matrix(b.k_elastic), b.branches.size());
  };
  s += fmt::format("body1      {}\n", body(sc.body1));
  s += fmt::format("body2      {}{}\n", body(sc.body2),
                   sc.pair_s ? fmt::format(" (from pair.s = {})", format_value(*sc.pair_s)) : "");
  s += fmt::format("bench      drive = {}, input: {}\n", contact::to_string(sc.bench.drive),
                   describe_signal(sc.bench.input_x));
  s += fmt::format("time       {} .. {} s, {} output times (every {} s)\n", format_value(sc.time.t_start_s),
                   format_value(sc.time.t_end_s), sc.time.times().size(), format_value(sc.time.output_dt_s));
  s += fmt::format("integrator {}{}\n", integrate::to_string(sc.integrator.method),
                   integrate::is_adaptive(sc.integrator.method)
                       ? fmt::format(" (rtol = {}, atol = {})", format_value(sc.integrator.rtol),
                                     format_value(sc.integrator.atol))
                       : fmt::format(" (dt_s = {})", format_value(sc.integrator.dt_s)));
  s += detail::sweep_summary(sc.sweep, cases_.size());
  s += fmt::format("plot       {} against {}\n", fmt::join(sc.output.plot_y, ", "), sc.output.plot_x);
  return s;
}

RunResult LumpedStudy::run(const ProgressCallback& progress) const {
  // The generic study (study.hpp) with the lumped cases: the sweep's column and values, each labelled
  // "<column> = <value>" in the progress (the plot's legend comes from the sweep column, as before).
  // Every case of the study (a LumpedStudy may be built of any cases, swept or not).
  const LumpedScenario& first = cases_.front();
  detail::StudyCases cases;
  if (first.sweep) cases.column = first.sweep->column;
  cases.values.clear();
  cases.labels.clear();
  for (const LumpedScenario& sc : cases_) {
    cases.values.push_back(sc.sweep_value);
    cases.labels.push_back(sc.sweep && sc.sweep_value
                               ? fmt::format("{} = {}", sc.sweep->column, format_value(*sc.sweep_value))
                               : std::string());
  }
  struct Solved {
    contact::BenchRun run;
    double cpu_seconds;
    contact::ContactModel model;  // the case's (describe's steady force)
  };
  Json parameters;
  std::vector<std::string> columns, warnings;
  const auto solve = [&](std::size_t i, const std::function<void(double)>& on_progress) {
    const LumpedScenario& sc = cases_[i];
    const contact::ContactModel model(sc.law, sc.body1, sc.body2);
    const contact::Bench bench(model, sc.bench);
    if (i == 0) {
      parameters = parameters_json(sc, model);
      // What integrator.method (auto by default) stands for on this bench.
      parameters["integrator"]["method_used"] =
          integrate::to_string(integrate::resolve_method(sc.integrator, bench.state_size()));
      columns = bench.column_names();
    }
    if (const std::string w = velocity_tolerance_warning(sc, bench);
        !w.empty() && std::find(warnings.begin(), warnings.end(), w) == warnings.end())
      warnings.push_back(w);
    const VecX u0 = sc.initial_contact_state(model);
    const double cpu_start = thread_cpu_seconds();
    contact::BenchRun run = contact::run(bench, sc.time.times(), sc.integrator, u0, on_progress);
    return Solved{std::move(run), thread_cpu_seconds() - cpu_start, model};
  };
  double solve_cpu_seconds = 0.0;
  const auto describe = [&](std::size_t i, Solved& solved, Json& c) {
    const LumpedScenario& sc = cases_[i];
    const contact::BenchRun& run = solved.run;
    if (sc.sweep_value) c[sc.sweep->column] = *sc.sweep_value;
    c["solve_cpu_seconds"] = solved.cpu_seconds;  // CPU time of the solving thread: robust on a loaded machine
    solve_cpu_seconds += solved.cpu_seconds;
    c["derived"] = Json(contact::derived_quantities(run.series, sc.bench.drive == contact::DriveKind::spring));
    Json final_values = Json::object();
    for (std::size_t k = 0; k < run.series.names.size(); ++k)
      final_values[run.series.names[k]] = run.series.columns[k].back();
    c["final"] = final_values;
    if (sc.law.kind != LawKind::frictionless) {
      // Analytic steady friction at the final relative velocity and load (null where it does not exist).
      const contact::ContactModel& model = solved.model;
      const double t_end = run.series.column("t_s").back();
      const Vec2 v_r(run.series.column("vr_mps").back(), run.series.column("vr_y_mps").back());
      const Vec2 f = sc.bench.normal_load(t_end) * model.steady_force(v_r);
      Json steady = Json::object();
      steady["vr_mps"] = v_r[0];
      steady["vr_y_mps"] = v_r[1];
      steady["F_N"] = f[0];
      steady["Fy_N"] = f[1];
      c["steady_at_final_velocity"] = steady;
    }
    Json stats = Json::object();
    stats["steps"] = run.stats.steps;
    stats["rhs_evaluations"] = run.stats.rhs_evaluations;
    stats["jacobian_evaluations"] = run.stats.jacobian_evaluations;
    stats["error_test_failures"] = run.stats.error_test_failures;
    stats["nonlinear_failures"] = run.stats.nonlinear_failures;
    stats["restarts"] = run.stats.restarts;
    stats["smallest_step_s"] = run.stats.smallest_step;
    stats["largest_step_s"] = run.stats.largest_step;
    // Which implementation integrated (contact::run): the compiled 1-D kernel, the general 1-D x subsystem
    // or the full 2-D system.
    stats["path"] = run.kernel ? "kernel" : run.x_only ? "x_only" : "full";
    stats["method_used"] = integrate::to_string(run.stats.method_used);  // integrator.method resolved (auto)
    c["integrator_stats"] = stats;
    return std::move(solved.run.series);
  };
  detail::StudyRun study = detail::run_study("lumped", first, cases, solve, describe, progress);
  RunResult& result = study.result;
  result.warnings = warnings;
  Json& r = result.report;
  r["solve_cpu_seconds"] = solve_cpu_seconds;
  r["parameters"] = parameters;
  if (first.sweep) {
    detail::report_sweep(r, first.sweep);
    r["sweep"]["note"] = "parameters are those of the first case; the swept key takes each case's value";
  } else {
    r["sweep"] = nullptr;
  }
  r["columns"] = Json(columns);
  r["cases"] = study.entries;
  r["warnings"] = Json(result.warnings);
  return std::move(study.result);
}

}  // namespace bristle::io
