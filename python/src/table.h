// bloomtable.Table, its iterator and bloomtable.BlockCache.
//
// A Table is an open table file: lookups, multi_get, iteration in key order
// (forward or reverse, with half-open bounds or a prefix), the range filter,
// statistics. Many Python threads may use one Table at once: open,
// multi_get and iteration (in batches) release the GIL; a single get does
// not (its work is shorter than releasing and taking the GIL back). Closing
// is safe at any time (table_handle.h: close waits for calls in progress,
// then invalidates iterators).

#ifndef BLOOMTABLE_PYTHON_SRC_TABLE_H_
#define BLOOMTABLE_PYTHON_SRC_TABLE_H_

#include <pybind11/pybind11.h>

namespace bloomtable {
namespace python {

void DefineTable(pybind11::module_& module);

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_TABLE_H_
