#include "python/src/iterator_args.h"

#include <utility>

#include "python/src/bytes_arg.h"

namespace py = pybind11;

namespace bloomtable {
namespace python {
namespace {

std::optional<std::string> OptionalBytes(const py::object& object,
                                         const char* what) {
  if (object.is_none()) return std::nullopt;
  return std::string(BytesArg(object, what).view());
}

// The keys that begin with `prefix`, intersected with `range`.
void Narrow(const std::string& prefix, KeyRange* range) {
  if (!range->lower.has_value() || *range->lower < prefix) {
    range->lower = prefix;
  }
  std::optional<std::string> high = PrefixSuccessor(prefix);
  if (high.has_value() &&
      (!range->upper.has_value() || *high < *range->upper)) {
    range->upper = std::move(high);
  }
}

}  // namespace

std::optional<std::string> PrefixSuccessor(std::string_view prefix) {
  std::string successor(prefix);
  while (!successor.empty()) {
    unsigned char& last = reinterpret_cast<unsigned char&>(successor.back());
    if (last != 0xff) {
      ++last;
      return successor;
    }
    successor.pop_back();
  }
  return std::nullopt;
}

KeyRange HalfOpenRange(const py::object& start, const py::object& stop,
                       const py::object& prefix) {
  KeyRange range;
  range.lower = OptionalBytes(start, "start");
  range.upper = OptionalBytes(stop, "stop");
  std::optional<std::string> p = OptionalBytes(prefix, "prefix");
  if (p.has_value()) Narrow(*p, &range);
  return range;
}

KeyRange PlyvelRange(std::string_view db_prefix, const py::object& start,
                     const py::object& stop, bool include_start,
                     bool include_stop, const py::object& prefix) {
  std::optional<std::string> first = OptionalBytes(start, "start");
  std::optional<std::string> last = OptionalBytes(stop, "stop");
  std::optional<std::string> p = OptionalBytes(prefix, "prefix");
  KeyRange range;
  if (p.has_value()) {
    if (first.has_value() || last.has_value()) {
      throw py::type_error(
          "'prefix' cannot be used together with 'start' or 'stop'");
    }
    Narrow(std::string(db_prefix) + *p, &range);
    return range;
  }
  // A key just after k in bytewise order: k followed by a zero byte.
  if (first.has_value()) {
    range.lower = std::string(db_prefix) + *first;
    if (!include_start) range.lower->push_back('\0');
  }
  if (last.has_value()) {
    range.upper = std::string(db_prefix) + *last;
    if (include_stop) range.upper->push_back('\0');
  }
  if (!db_prefix.empty()) Narrow(std::string(db_prefix), &range);
  return range;
}

py::list RangesBetween(const std::vector<std::string>& cuts) {
  py::list ranges;
  py::object start = py::none();
  for (const std::string& cut : cuts) {
    py::object stop = ToBytes(cut);
    ranges.append(py::make_tuple(start, stop));
    start = stop;
  }
  ranges.append(py::make_tuple(start, py::none()));
  return ranges;
}

}  // namespace python
}  // namespace bloomtable
