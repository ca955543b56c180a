#pragma once
// The key tables of the scenario kinds, generated from the parameter schema (core/schema.hpp): what
// `bristle keys KIND` prints and what the key tables of docs/scenarios.md are (a test checks that the
// committed docs equal the generated tables).
#include <string>
#include <string_view>
#include <vector>

#include "bristle/core/schema.hpp"
#include "bristle/io/json.hpp"

namespace bristle::io {

/// The kinds whose keys come from the schema (lumped, patch_steady_map, patch_transient, structure_kernel,
/// structure_stick_slip); the other kinds are not on the schema yet.
std::vector<std::string> schema_kinds();

/// The sections of a kind's key table, in order: "" (the top level), "law", "law.axis1", ..., "signal"
/// (the keys of a signal table, shared by every signal). Throws InvalidInput for a kind not on the schema.
std::vector<std::string> key_sections(std::string_view kind);

/// The rows of one section (keys relative to the section, e.g. "mu_s" in "law").
std::vector<schema::KeyRow> key_rows(std::string_view kind, std::string_view section);

/// One section as a markdown table: | key | type | unit | default | range | meaning | used by |.
std::string keys_markdown_section(std::string_view kind, std::string_view section);
/// Every section, each under a "### [section]" heading.
std::string keys_markdown(std::string_view kind);
/// Every key as a JSON array of {key (the full dotted path; signal keys as "<signal>.value"), section, type,
/// unit, default, range, min, max, doc, equation, choices, used_by, log_scale}.
Json keys_json(std::string_view kind);

}  // namespace bristle::io
