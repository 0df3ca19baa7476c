// The bloomtable Python extension module, _bloomtable (re-exported by the
// bloomtable package's __init__.py).

#include <pybind11/pybind11.h>

#include "bloomtable/version.h"
#include "python/src/builder.h"
#include "python/src/database.h"
#include "python/src/errors.h"
#include "python/src/filters.h"
#include "python/src/local_storage.h"
#include "python/src/raw_iterator.h"
#include "python/src/sidecar_filters.h"
#include "python/src/table.h"
#include "python/src/version_iterator.h"

PYBIND11_MODULE(_bloomtable, module) {
  module.doc() =
      "bloomtable's C++ library: LevelDB-format table files, filters and "
      "database directories.";
  module.attr("__version__") = BLOOMTABLE_VERSION_STRING;
  bloomtable::python::DefineErrors(module);
  bloomtable::python::DefineFilters(module);
  bloomtable::python::DefineRawIterator(module);
  bloomtable::python::DefineTable(module);
  bloomtable::python::DefineBuilder(module);
  bloomtable::python::DefineVersions(module);
  bloomtable::python::DefineDatabase(module);
  bloomtable::python::DefineLocalStorage(module);
  bloomtable::python::DefineSidecarFilters(module);
}
