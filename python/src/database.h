// bloomtable.Database, its iterator and VersionRecord: a read-only view of a
// LevelDB database directory (bloomtable::Database), from Python.
//
// A Database opens a directory without taking its LOCK or writing into it:
// get, ordered iteration over the newest version of each key (deletions
// hidden), and the listing of every version of every key with its status.
// Threads and closing follow bloomtable.Table (table_handle.h): open,
// iteration batches and the listing release the GIL, a single get does not;
// close waits for calls in progress, then invalidates iterators.

#ifndef BLOOMTABLE_PYTHON_SRC_DATABASE_H_
#define BLOOMTABLE_PYTHON_SRC_DATABASE_H_

#include <pybind11/pybind11.h>

namespace bloomtable {
namespace python {

void DefineDatabase(pybind11::module_& module);

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_DATABASE_H_
