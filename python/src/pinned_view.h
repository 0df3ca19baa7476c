// What a memoryview from Table.get_pinned or Database.get_pinned exports:
// a PinnedValue, which keeps the value's block alive for as long as a view
// of it lives, also after its table or database is closed. The Python type
// (_PinnedValue, with the buffer protocol) is defined with the Table's
// (table.cc); PinnedMemoryView makes the memoryview.

#ifndef BLOOMTABLE_PYTHON_SRC_PINNED_VIEW_H_
#define BLOOMTABLE_PYTHON_SRC_PINNED_VIEW_H_

#include <pybind11/pybind11.h>

#include <memory>
#include <utility>

#include "bloomtable/pinned_value.h"

namespace bloomtable {
namespace python {

struct PyPinnedValue {
  PinnedValue value;
};

// A read-only memoryview of `pinned`'s value that owns `pinned`.
inline pybind11::object PinnedMemoryView(
    std::unique_ptr<PyPinnedValue> pinned) {
  return pybind11::memoryview(pybind11::cast(std::move(pinned)));
}

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_PINNED_VIEW_H_
