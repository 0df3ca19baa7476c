#include "python/src/errors.h"

#include <string>

#include "bloomtable/file.h"
#include "util/file_errors.h"

namespace py = pybind11;

namespace bloomtable {
namespace python {
namespace {

// The classes live as long as the interpreter holds the module; they are
// created once, at import, and only read afterwards.
struct ErrorClasses {
  PyObject* error = nullptr;
  PyObject* corruption = nullptr;
  PyObject* unsupported = nullptr;
  PyObject* resource_limit = nullptr;
  PyObject* invalid_argument = nullptr;
};

ErrorClasses& Classes() {
  static ErrorClasses classes;
  return classes;
}

PyObject* NewClass(py::module_& module, const char* name, PyObject* bases,
                   const char* doc) {
  const std::string qualified = std::string("bloomtable.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases,
                                             /*dict=*/nullptr);
  if (type == nullptr) throw py::error_already_set();
  module.add_object(name, py::reinterpret_borrow<py::object>(type));
  return type;
}

}  // namespace

void DefineErrors(py::module_& module) {
  ErrorClasses& classes = Classes();
  classes.error = NewClass(
      module, "Error", PyExc_Exception,
      "Base class of bloomtable's own exceptions. File-system errors are "
      "OSError (with errno); a missing key in t[key] is KeyError.");
  classes.corruption = NewClass(
      module, "CorruptionError", classes.error,
      "The file's bytes are damaged: a checksum, a magic number, a "
      "malformed block, a truncated file. The message names the file and, "
      "where known, the offset.");
  classes.unsupported = NewClass(
      module, "UnsupportedError", classes.error,
      "A valid file of a kind this build does not read (a RocksDB "
      "block-based table, a compression type some writer uses that is not "
      "implemented).");
  classes.resource_limit = NewClass(
      module, "ResourceLimitError", classes.error,
      "A resource limit was reached (ResourceExhausted): a compressed "
      "block holds more than a block may (64 MiB, the C++ library's "
      "Options::max_uncompressed_block_size), or a decompressor could not "
      "get its memory.");
  py::tuple bases =
      py::make_tuple(py::reinterpret_borrow<py::object>(classes.error),
                     py::reinterpret_borrow<py::object>(PyExc_ValueError));
  classes.invalid_argument = NewClass(
      module, "InvalidArgumentError", bases.ptr(),
      "Misuse: keys out of order, a bad option, a closed table. Also a "
      "ValueError.");
  // For the tests: raises what a status of `code` (absl::StatusCode's
  // number) with `message` raises, or, with an errno, what the file layer's
  // error for `path` raises.
  module.def(
      "_raise_for_status",
      [](int code, const std::string& message, int error_number,
         const std::string& path) {
        if (error_number != 0) {
          ThrowStatus(FileError(path, message, error_number), path);
        }
        ThrowStatus(absl::Status(static_cast<absl::StatusCode>(code), message),
                    path);
      },
      py::arg("code"), py::arg("message"), py::arg("errno") = 0,
      py::arg("path") = "",
      "For tests: raises the exception that a C++ status maps to.");
}

void ThrowStatus(const absl::Status& status, std::string_view path) {
  const ErrorClasses& classes = Classes();
  const std::string message(status.message());
  const int error_number = FileErrorNumber(status);
  if (error_number != 0) {
    // OSError(errno, strerror, filename) picks its subclass from errno
    // (FileNotFoundError for ENOENT, ...) and prints the filename itself,
    // so the message loses its leading "<path>: ".
    py::object args;
    if (path.empty()) {
      args = py::make_tuple(error_number, message);
    } else {
      std::string_view text = message;
      const std::string prefix = std::string(path) + ": ";
      if (text.substr(0, prefix.size()) == prefix) {
        text.remove_prefix(prefix.size());
      }
      py::object filename =
          py::reinterpret_steal<py::object>(PyUnicode_DecodeFSDefaultAndSize(
              path.data(), static_cast<Py_ssize_t>(path.size())));
      if (!filename) throw py::error_already_set();
      args = py::make_tuple(error_number, std::string(text), filename);
    }
    PyErr_SetObject(PyExc_OSError, args.ptr());
    throw py::error_already_set();
  }
  PyObject* type = classes.error;
  switch (status.code()) {
    case absl::StatusCode::kDataLoss:
      type = classes.corruption;
      break;
    case absl::StatusCode::kUnimplemented:
      type = classes.unsupported;
      break;
    case absl::StatusCode::kResourceExhausted:
      type = classes.resource_limit;
      break;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
      type = classes.invalid_argument;
      break;
    default:
      break;
  }
  PyErr_SetString(type, message.c_str());
  throw py::error_already_set();
}

void ThrowInvalidArgument(std::string_view message) {
  PyErr_SetString(Classes().invalid_argument, std::string(message).c_str());
  throw py::error_already_set();
}

}  // namespace python
}  // namespace bloomtable
