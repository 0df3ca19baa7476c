#include "python/src/fast_call.h"

#include <cstring>

namespace py = pybind11;

namespace bloomtable {
namespace python {

bool ParseFastArgs(const char* function, const char* const* names, int count,
                   int positional, int required, PyObject* const* args,
                   Py_ssize_t nargs, PyObject* kwnames, PyObject** values) {
  for (int i = 0; i < count; ++i) values[i] = nullptr;
  if (nargs > positional) {
    PyErr_Format(PyExc_TypeError,
                 "%s() takes at most %d positional arguments (%zd given)",
                 function, positional, nargs);
    return false;
  }
  for (Py_ssize_t i = 0; i < nargs; ++i) values[i] = args[i];
  const Py_ssize_t keywords =
      kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
  for (Py_ssize_t k = 0; k < keywords; ++k) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, k);
    const char* text = PyUnicode_AsUTF8(name);
    if (text == nullptr) return false;
    int found = -1;
    for (int i = 0; i < count; ++i) {
      if (std::strcmp(text, names[i]) == 0) {
        found = i;
        break;
      }
    }
    if (found < 0) {
      PyErr_Format(PyExc_TypeError,
                   "%s() got an unexpected keyword argument '%s'", function,
                   text);
      return false;
    }
    if (values[found] != nullptr) {
      PyErr_Format(PyExc_TypeError,
                   "%s() got multiple values for argument '%s'", function,
                   text);
      return false;
    }
    values[found] = args[nargs + k];
  }
  for (int i = 0; i < required; ++i) {
    if (values[i] == nullptr) {
      PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'",
                   function, names[i]);
      return false;
    }
  }
  return true;
}

bool SequenceArg(const char* function, PyObject* object,
                 std::optional<uint64_t>* sequence) {
  sequence->reset();
  if (object == nullptr || object == Py_None) return true;
  // An int, or an object standing for one (__index__: numpy's integers).
  if (PyLong_Check(object) || PyIndex_Check(object)) {
    py::object number =
        py::reinterpret_steal<py::object>(PyNumber_Index(object));
    if (number) {
      const unsigned long long value = PyLong_AsUnsignedLongLong(number.ptr());
      if (!(value == static_cast<unsigned long long>(-1) && PyErr_Occurred())) {
        *sequence = static_cast<uint64_t>(value);
        return true;
      }
    }
    PyErr_Clear();
  }
  PyErr_Format(PyExc_TypeError,
               "%s(): sequence must be None or an int from 0 to 2**64 - 1, "
               "not %R",
               function, object);
  return false;
}

void AddFastMethod(const py::handle& cls, const PyMethodDef* def) {
  py::object method = py::reinterpret_steal<py::object>(
      PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(cls.ptr()),
                        const_cast<PyMethodDef*>(def)));
  if (!method) throw py::error_already_set();
  py::setattr(cls, def->ml_name, method);
}

}  // namespace python
}  // namespace bloomtable
