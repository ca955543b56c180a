#pragma once
// Pickling of plain result structs by their fields (issue 18): the state is the tuple of the fields in the
// given order (each cast by pybind11: numbers, numpy arrays, lists, and bound classes that pickle
// themselves), rebuilt into a default-constructed struct. A tuple of another length is an InvalidInput
// naming the class. (patch.cpp has its own copy for SteadyPatch and PatchSnapshot, from before this header.)
#include <string>

#include "common.hpp"

namespace bristle {
struct TimeSeries;
namespace structures {
struct KernelSamples;
struct ModeTable;
}  // namespace structures
}  // namespace bristle

namespace bristle::python {

/// The invariants of a rebuilt struct that its methods rely on, checked before it is returned (InvalidInput naming the
/// class): a tampered TimeSeries state with fewer columns than names, or columns of unequal lengths, was read past
/// its end (SIGSEGV in ts["F_N"] and to_array()). Nothing to check for the other structs.
void check_unpickled(const char* name, const TimeSeries& t);
void check_unpickled(const char* name, const structures::KernelSamples& k);
void check_unpickled(const char* name, const structures::ModeTable& m);
template <class T>
void check_unpickled(const char*, const T&) {}

/// As pickle_fields, and a state of only the first `oldest` fields (pickled before the others were added) loads with
/// the others at their defaults.
template <class Class, class T, class... Fields>
void pickle_fields_since(Class& cls, const char* name, std::size_t oldest, Fields T::*... fields) {
  constexpr std::size_t n = sizeof...(Fields);
  cls.def(py::pickle([fields...](const T& t) { return py::make_tuple(t.*fields...); },
                     [name, oldest, fields...](const py::tuple& state) {
                       if (state.size() != n && state.size() != oldest)
                         throw InvalidInput(std::string(name) + ": pickled state of " + std::to_string(state.size()) +
                                            " values; expected " + std::to_string(n) +
                                            (oldest == n ? "" : " (or " + std::to_string(oldest) + ")"));
                       T t;
                       std::size_t i = 0;
                       ((i < state.size() ? (void)(t.*fields = state[i].template cast<Fields>()) : (void)0, ++i), ...);
                       check_unpickled(name, t);
                       return t;
                     }));
}

template <class Class, class T, class... Fields>
void pickle_fields(Class& cls, const char* name, Fields T::*... fields) {
  pickle_fields_since(cls, name, sizeof...(Fields), fields...);
}

}  // namespace bristle::python
