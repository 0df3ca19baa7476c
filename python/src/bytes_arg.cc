#include "python/src/bytes_arg.h"

#include <string>

namespace py = pybind11;

namespace bloomtable {
namespace python {

BytesArg::BytesArg(PyObject* object, const char* what) {
  if (PyBytes_Check(object)) {
    view_ = std::string_view(PyBytes_AS_STRING(object),
                             static_cast<size_t>(PyBytes_GET_SIZE(object)));
    return;
  }
  if (PyUnicode_Check(object)) {
    PyErr_Format(PyExc_TypeError,
                 "%s must be bytes (or a bytes-like object), not str: encode "
                 "it first, e.g. %s.encode()",
                 what, what);
    throw py::error_already_set();
  }
  if (PyObject_GetBuffer(object, &buffer_, PyBUF_C_CONTIGUOUS) != 0) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError,
                 "%s must be bytes or a contiguous bytes-like object, not %s",
                 what, Py_TYPE(object)->tp_name);
    throw py::error_already_set();
  }
  has_buffer_ = true;
  view_ = std::string_view(static_cast<const char*>(buffer_.buf),
                           static_cast<size_t>(buffer_.len));
}

std::string PathArg(const py::handle& path) {
  py::object fspath =
      py::reinterpret_steal<py::object>(PyOS_FSPath(path.ptr()));
  if (!fspath) throw py::error_already_set();
  if (PyUnicode_Check(fspath.ptr())) {
    fspath = py::reinterpret_steal<py::object>(
        PyUnicode_EncodeFSDefault(fspath.ptr()));
    if (!fspath) throw py::error_already_set();
  }
  std::string bytes(PyBytes_AS_STRING(fspath.ptr()),
                    static_cast<size_t>(PyBytes_GET_SIZE(fspath.ptr())));
  // As open() does: the C library would end the path at the NUL, so that
  // "a\0b" would open "a".
  if (bytes.find('\0') != std::string::npos) {
    PyErr_SetString(PyExc_ValueError, "embedded null byte");
    throw py::error_already_set();
  }
  return bytes;
}

BytesArg::~BytesArg() {
  if (has_buffer_) PyBuffer_Release(&buffer_);
}

}  // namespace python
}  // namespace bloomtable
