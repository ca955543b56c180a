#pragma once
// The ChoiceParsers (schema_py.hpp) of bristle/transport's enums, shared by the classes that hold them:
// LineContactParams and PressureParams (transport.cpp), PatchTransientParams (patch.cpp).
#include "bristle/transport/line_contact.hpp"
#include "schema_py.hpp"

namespace bristle::python::schema_py {

template <>
struct ChoiceParser<transport::PressureKind>
    : ParseWith<transport::PressureKind, transport::pressure_kind_from_string> {};
template <>
struct ChoiceParser<transport::Limiter> : ParseWith<transport::Limiter, transport::limiter_from_string> {};
template <>
struct ChoiceParser<transport::SourceScheme>
    : ParseWith<transport::SourceScheme, transport::source_scheme_from_string> {};

}  // namespace bristle::python::schema_py
