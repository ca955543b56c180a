// The compiled module bristle._bristle: one export_<area>() per binding file, gathered here. The
// pure-Python package bristle (python/bristle/__init__.py) re-exports it.
#include <chrono>

#include "bristle/core/interrupt.hpp"
#include "common.hpp"

namespace bristle::python {
void export_patch(py::module_& m);  // patch.cpp (paper 1, §4: the two-dimensional contact patch)
void export_contact_stepper(py::module_& m);  // contact_stepper.cpp (Contact, ContactArray: stepped in one's loop)
void export_fit(py::module_& m);  // fit.cpp (bristle.fit: identification, issue 16)

namespace {
unsigned long main_thread_ident = 0;  // threading.main_thread().ident: signals are handled there only

/// The library's interrupt check (core/interrupt.hpp): Ctrl-C (SIGINT, or any Python signal handler that
/// raises) in a loop that takes no progress callback (LineContact.advance_to, check_eq84, truncated_kernel,
/// ...) raises KeyboardInterrupt, as the progress relays do. Other threads (the workers of parallel_for)
/// return at once.
void interrupt_check() {
  if (PyThread_get_thread_ident() != main_thread_ident) return;
  // At most every 20 ms: taking the GIL can wait for another Python thread's switch interval (5 ms), which at
  // every 1,024 steps of ~1 us would stall the computation.
  static auto last = std::chrono::steady_clock::now();
  const auto now = std::chrono::steady_clock::now();
  if (now - last < std::chrono::milliseconds(20)) return;
  last = now;
  py::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}
}  // namespace
}  // namespace bristle::python

PYBIND11_MODULE(_bristle, m) {
  namespace bp = bristle::python;
  m.doc() = "bristle: dynamic friction models, from a single bristle to a rolling tyre (compiled core).";
  m.attr("__version__") = BRISTLE_VERSION;
  bp::export_core(m);
  bp::export_laws(m);
  bp::export_rheology(m);
  bp::export_integrate(m);
  bp::export_contact(m);
  bp::export_contact_stepper(m);
  bp::export_transport(m);
  bp::export_directional(m);
  bp::export_structures(m);
  bp::export_patch(m);
  bp::export_io(m);
  bp::export_sweeps(m);
  bp::export_fit(m);
  bp::main_thread_ident = pybind11::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  bristle::set_interrupt_check(&bp::interrupt_check);
}
