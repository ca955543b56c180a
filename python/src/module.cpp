// The compiled module bristle._bristle: one export_<area>() per binding file, gathered here. The
// pure-Python package bristle (python/bristle/__init__.py) re-exports it.
#include "common.hpp"

namespace bristle::python {
void export_patch(py::module_& m);  // patch.cpp (paper 1, §4: the two-dimensional contact patch)
void export_contact_stepper(py::module_& m);  // contact_stepper.cpp (Contact, ContactArray: stepped in one's loop)
void export_fit(py::module_& m);  // fit.cpp (bristle.fit: identification, issue 16)
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
}
