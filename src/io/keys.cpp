// Key tables generated from the parameter schema (io/keys.hpp).
#include "bristle/io/keys.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "bristle/core/error.hpp"
#include "bristle/io/directional_scenario.hpp"
#include "bristle/io/line_scenario.hpp"
#include "bristle/io/patch_scenario.hpp"
#include "bristle/io/scenario.hpp"
#include "bristle/io/structures_scenario.hpp"

namespace bristle::io {

namespace {

void require_schema_kind(std::string_view kind) {
  const std::vector<std::string> kinds = schema_kinds();
  if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end()) return;
  throw InvalidInput(fmt::format("kind = \"{}\": its keys are not on the parameter schema yet (kinds on the "
                                 "schema: {}); see docs/scenarios.md",
                                 kind, fmt::join(kinds, ", ")));
}

template <class Sc>
std::vector<schema::KeyRow> rows_of() {
  Sc sc;
  schema::KeyTable table;
  serialize(table, sc);
  return table.rows();
}

/// Every row of a kind, paths from the root (the signal table's rows are signal_rows()).
std::vector<schema::KeyRow> all_rows(std::string_view kind) {
  if (kind == "patch_steady_map") return rows_of<PatchMapScenario>();
  if (kind == "patch_transient") return rows_of<PatchTransientScenario>();
  if (kind == "structure_kernel") return rows_of<StructureKernelScenario>();
  if (kind == "structure_stick_slip") return rows_of<StructureStickSlipScenario>();
  if (kind == "line_steady") return rows_of<LineSteadyScenario>();
  if (kind == "line_transient") return rows_of<LineTransientScenario>();
  if (kind == "directional_coefficients") return rows_of<DirectionalCoefficientsScenario>();
  if (kind == "directional_loop") return rows_of<DirectionalLoopScenario>();
  if (kind == "directional_crawler") return rows_of<DirectionalCrawlerScenario>();
  return rows_of<LumpedScenario>();
}

std::vector<schema::KeyRow> signal_rows() {
  contact::Signal s;
  schema::KeyTable table;
  serialize(table, s);
  return table.rows();
}

std::string_view parent_of(std::string_view path) {
  const std::size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : path.substr(0, dot);
}

std::string cell(std::string_view text) {
  std::string out;
  for (char ch : text) {
    if (ch == '|') out += "\\|";
    else out += ch;
  }
  return out;
}

}  // namespace

std::vector<std::string> schema_kinds() {
  return {"lumped", "line_steady", "line_transient", "patch_steady_map", "patch_transient", "structure_kernel",
          "structure_stick_slip", "directional_coefficients", "directional_loop", "directional_crawler"};
}

std::vector<std::string> key_sections(std::string_view kind) {
  require_schema_kind(kind);
  std::vector<std::string> out{""};
  bool signals = false;
  for (const auto& row : all_rows(kind)) {
    if (row.table) out.push_back(row.path);
    signals = signals || row.field.type == schema::Type::signal;
  }
  if (signals) out.push_back("signal");
  return out;
}

std::vector<schema::KeyRow> key_rows(std::string_view kind, std::string_view section) {
  require_schema_kind(kind);
  std::vector<schema::KeyRow> out;
  if (section == "signal") return signal_rows();
  const std::vector<std::string> sections = key_sections(kind);
  if (std::find(sections.begin(), sections.end(), section) == sections.end()) {
    std::vector<std::string> named(sections.begin() + 1, sections.end());
    const std::string near = nearest_word(section, named);
    throw InvalidInput(fmt::format("section \"{}\": not a table of kind \"{}\" (tables: {}){}", section, kind,
                                   fmt::join(named, ", "), near.empty() ? "" : fmt::format("; did you mean \"{}\"?", near)));
  }
  for (auto row : all_rows(kind)) {
    if (parent_of(row.path) != section) continue;
    row.path = section.empty() ? row.path : row.path.substr(section.size() + 1);
    out.push_back(std::move(row));
  }
  return out;
}

std::string keys_markdown_section(std::string_view kind, std::string_view section) {
  std::string out = "| key | type | unit | default | range | meaning | used by |\n|---|---|---|---|---|---|---|\n";
  for (const auto& row : key_rows(kind, section)) {
    const schema::Field& f = row.field;
    const bool table = row.table || f.type == schema::Type::signal;
    std::string key = table && f.type == schema::Type::table ? fmt::format("`[{}{}]`", section.empty() ? "" : std::string(section) + ".", row.path)
                                                             : fmt::format("`{}`", row.path);
    std::string range = f.type == schema::Type::choice ? fmt::format("{}", f.choices) : f.range.text();
    std::string meaning(f.doc);
    if (!f.equation.empty()) meaning += fmt::format(" ({})", f.equation);
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", key, schema::to_string(f.type),
                       table && f.type == schema::Type::table ? "–" : cell(f.unit), cell(f.default_value),
                       range.empty() ? "–" : cell(range), cell(meaning), f.used_by.empty() ? "all" : cell(f.used_by));
  }
  return out;
}

std::string keys_markdown(std::string_view kind) {
  std::string out;
  for (const auto& section : key_sections(kind)) {
    if (!out.empty()) out += "\n";
    out += section.empty() ? std::string("### top level\n\n")
           : section == "signal" ? std::string("### signal tables (any signal, e.g. [bench.input])\n\n")
                                 : fmt::format("### [{}]\n\n", section);
    out += keys_markdown_section(kind, section);
  }
  return out;
}

Json keys_json(std::string_view kind) {
  Json out = Json::array();
  for (const auto& section : key_sections(kind)) {
    for (const auto& row : key_rows(kind, section)) {
      const schema::Field& f = row.field;
      Json j = Json::object();
      j["key"] = section.empty() ? row.path : section == "signal" ? "<signal>." + row.path : section + "." + row.path;
      j["section"] = section;
      j["type"] = schema::to_string(f.type);
      j["unit"] = f.unit;
      j["default"] = f.default_value;
      j["range"] = f.type == schema::Type::choice ? std::string(f.choices) : f.range.text();
      const double lo = f.range.min(), hi = f.range.max();
      j["min"] = std::isfinite(lo) ? Json(lo) : Json(nullptr);
      j["max"] = std::isfinite(hi) ? Json(hi) : Json(nullptr);
      j["doc"] = f.doc;
      j["equation"] = f.equation;
      j["choices"] = f.choices;
      j["used_by"] = f.used_by;
      j["log_scale"] = f.log_scale;
      j["numerics"] = f.numerics;
      out.push_back(std::move(j));
    }
  }
  return out;
}

}  // namespace bristle::io
