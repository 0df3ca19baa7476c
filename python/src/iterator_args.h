// The key ranges of Python-level iterators, from their arguments: the
// mapping-style `items(start, stop, prefix=)` (half-open; a prefix narrows
// the range) and plyvel's `iterator(start=, stop=, include_start=,
// include_stop=, prefix=)`, on a database or on a prefixed view of one. A
// range is a pair of C++ iterator bounds, [lower, upper), in the bytewise
// order (the only order Python reaches).

#ifndef BLOOMTABLE_PYTHON_SRC_ITERATOR_ARGS_H_
#define BLOOMTABLE_PYTHON_SRC_ITERATOR_ARGS_H_

#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bloomtable {
namespace python {

struct KeyRange {
  std::optional<std::string> lower;  // inclusive; none: from the first key
  std::optional<std::string> upper;  // exclusive; none: to the last key
};

// The smallest key greater than every key that starts with `prefix`, or
// nullopt if there is none (the prefix is empty or all 0xff bytes).
std::optional<std::string> PrefixSuccessor(std::string_view prefix);

// [start, stop), narrowed to the keys that begin with `prefix` if it is
// given. Each argument is None or bytes-like (TypeError otherwise, naming
// it).
KeyRange HalfOpenRange(const pybind11::object& start,
                       const pybind11::object& stop,
                       const pybind11::object& prefix);

// plyvel's range: start (included if include_start) to stop (included if
// include_stop), or the keys beginning with `prefix` (then start and stop
// must be None: TypeError). `db_prefix` (a prefixed database's, possibly
// empty) is put before each key given and confines the range to the keys
// that begin with it.
KeyRange PlyvelRange(std::string_view db_prefix, const pybind11::object& start,
                     const pybind11::object& stop, bool include_start,
                     bool include_stop, const pybind11::object& prefix);

// The ranges (start, stop) that split keys `cuts` make, as Python tuples:
// (None, c1), (c1, c2), ..., (cn, None); [(None, None)] for no cuts.
pybind11::list RangesBetween(const std::vector<std::string>& cuts);

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_ITERATOR_ARGS_H_
