// The Python exceptions of the bloomtable module and the one place that turns
// an absl::Status into one of them.
//
//   bloomtable.Error                  base of the library's own exceptions
//   bloomtable.CorruptionError        DataLoss: damaged bytes
//   bloomtable.UnsupportedError       Unimplemented: a valid file of a kind
//                                     this build does not read
//   bloomtable.ResourceLimitError     ResourceExhausted
//   bloomtable.InvalidArgumentError   InvalidArgument, FailedPrecondition,
//                                     OutOfRange: misuse; also a ValueError
//   OSError (its errno subclass)      a status carrying an errno
//                                     (FileErrorNumber), whatever its code
//
// KeyError is raised by Table.__getitem__ only, never from a status here.

#ifndef BLOOMTABLE_PYTHON_SRC_ERRORS_H_
#define BLOOMTABLE_PYTHON_SRC_ERRORS_H_

#include <pybind11/pybind11.h>

#include <string_view>

#include "absl/status/status.h"

namespace bloomtable {
namespace python {

// Creates the exception classes and adds them to `module`.
void DefineErrors(pybind11::module_& module);

// Raises the Python exception for `status` (which is not OK): sets the
// Python error and throws pybind11::error_already_set. `path`, if not
// empty, becomes OSError's filename.
[[noreturn]] void ThrowStatus(const absl::Status& status,
                              std::string_view path = {});

// Raises bloomtable.InvalidArgumentError with `message`.
[[noreturn]] void ThrowInvalidArgument(std::string_view message);

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_ERRORS_H_
