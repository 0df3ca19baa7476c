// bloomtable.build_filters: sidecar filters (bloomtable/sidecar.h) for a
// LevelDB database directory or a table file, from Python. Database.open
// reads them with filters_dir=...

#ifndef BLOOMTABLE_PYTHON_SRC_SIDECAR_FILTERS_H_
#define BLOOMTABLE_PYTHON_SRC_SIDECAR_FILTERS_H_

#include <pybind11/pybind11.h>

namespace bloomtable {
namespace python {

void DefineSidecarFilters(pybind11::module_& module);

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_SIDECAR_FILTERS_H_
