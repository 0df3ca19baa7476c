// Writing tables from Python: bloomtable.TableBuilder (add, finish, abandon)
// and bloomtable.build_table (one call). Both write durably: a temporary
// file beside the path, synced, then renamed over it (DurableFile); until
// finish returns, the path holds what it held before, and an abandoned or
// failed build leaves nothing behind.

#ifndef BLOOMTABLE_PYTHON_SRC_BUILDER_H_
#define BLOOMTABLE_PYTHON_SRC_BUILDER_H_

#include <pybind11/pybind11.h>

namespace bloomtable {
namespace python {

void DefineBuilder(pybind11::module_& module);

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_BUILDER_H_
