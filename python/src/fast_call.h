// Calls that bypass pybind11's dispatcher, for the Python calls whose own
// work is about a microsecond (Database.get, an iterator's step): pybind11
// matches every call's arguments against each overload through generic
// casters, which costs a good part of such a call. Here a method is a plain
// CPython METH_FASTCALL | METH_KEYWORDS function, with a small parser for
// its arguments, and an iterator's __next__ also fills the type's
// tp_iternext slot, so that a `for` loop calls it without a method lookup.
//
// These functions hold the GIL throughout; none keeps state.

#ifndef BLOOMTABLE_PYTHON_SRC_FAST_CALL_H_
#define BLOOMTABLE_PYTHON_SRC_FAST_CALL_H_

#include <pybind11/pybind11.h>

#include <cstdint>
#include <exception>
#include <new>
#include <optional>

namespace bloomtable {
namespace python {

// Runs `body` (which returns a new reference, or nullptr with a Python
// error set) and turns a C++ exception it throws into the Python error
// pybind11 would raise for it: an error already set (ThrowStatus) as is,
// pybind11's builtin exceptions (StopIteration, ...) as theirs, bad_alloc as
// MemoryError, any other as RuntimeError.
template <typename Body>
PyObject* CatchingErrors(Body&& body) noexcept {
  try {
    return body();
  } catch (pybind11::error_already_set& e) {
    e.restore();
  } catch (const pybind11::builtin_exception& e) {
    e.set_error();
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

// The arguments of a METH_FASTCALL | METH_KEYWORDS call, matched to the
// parameter names `names` (`positional` of them may be given by position,
// all by keyword) into `values` (nullptr: not given; borrowed). False, with
// a TypeError set, for too many positional arguments, an unknown keyword,
// an argument given twice, or a missing one among the first `required`.
// `function` names the method in the messages ("get").
bool ParseFastArgs(const char* function, const char* const* names, int count,
                   int positional, int required, PyObject* const* args,
                   Py_ssize_t nargs, PyObject* kwnames, PyObject** values);

// An optional sequence number argument: None or a missing one gives
// nullopt, a non-negative int its value. False, with a TypeError set, for
// anything else (as pybind11's conversion of std::optional<uint64_t>).
bool SequenceArg(const char* function, PyObject* object,
                 std::optional<uint64_t>* sequence);

// Sets attribute `name` of the pybind11 class `cls` to a method described
// by `def` (which must outlive the class: a static constant).
void AddFastMethod(const pybind11::handle& cls, const PyMethodDef* def);

// The C++ object of a pybind11 instance `self` of class T (or of a Python
// subclass of it) without pybind11's type lookup: its value pointer when
// the instance has the simple layout (a class with one C++ base) and is
// constructed; else the ordinary cast, which raises for anything else.
template <typename T>
T& FastSelf(PyObject* self) {
  auto* instance = reinterpret_cast<pybind11::detail::instance*>(self);
  if (instance->simple_layout && instance->simple_holder_constructed &&
      instance->simple_value_holder[0] != nullptr) {
    return *static_cast<T*>(instance->simple_value_holder[0]);
  }
  return pybind11::handle(self).cast<T&>();
}

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_FAST_CALL_H_
