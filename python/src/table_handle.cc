#include "python/src/table_handle.h"

#include <pybind11/pybind11.h>

#include "python/src/errors.h"

namespace py = pybind11;

namespace bloomtable {
namespace python {

void ClosableHandle::WithoutInterpreter(const std::function<void()>& work) {
  py::gil_scoped_release release;
  work();
}

CallGuard::CallGuard(ClosableHandle* handle) : handle_(handle) {
  if (!handle_->Enter()) ThrowInvalidArgument(handle_->closed_message());
}

}  // namespace python
}  // namespace bloomtable
