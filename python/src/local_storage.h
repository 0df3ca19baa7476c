// bloomtable.decode_local_storage: one Chrome Local Storage entry
// (bloomtable/local_storage.h) as Python strings.

#ifndef BLOOMTABLE_PYTHON_SRC_LOCAL_STORAGE_H_
#define BLOOMTABLE_PYTHON_SRC_LOCAL_STORAGE_H_

#include <pybind11/pybind11.h>

namespace bloomtable {
namespace python {

void DefineLocalStorage(pybind11::module_& module);

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_LOCAL_STORAGE_H_
