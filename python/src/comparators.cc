#include "python/src/comparators.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "python/src/errors.h"
#include "util/string_util.h"

namespace py = pybind11;

namespace bloomtable {
namespace python {
namespace {

class CallableComparator final : public Comparator {
 public:
  CallableComparator(py::object function, std::string name)
      : function_(std::move(function)), name_(std::move(name)) {}

  ~CallableComparator() override {
    py::gil_scoped_acquire gil;
    function_ = py::object();
  }

  int Compare(std::string_view a, std::string_view b) const override {
    py::gil_scoped_acquire gil;
    std::string failure;
    try {
      py::object result = function_(py::bytes(a.data(), a.size()),
                                    py::bytes(b.data(), b.size()));
      if (PyLong_Check(result.ptr())) {
        py::int_ zero(0);
        const int below =
            PyObject_RichCompareBool(result.ptr(), zero.ptr(), Py_LT);
        const int above =
            PyObject_RichCompareBool(result.ptr(), zero.ptr(), Py_GT);
        if (below >= 0 && above >= 0) return below ? -1 : (above ? 1 : 0);
        PyErr_Clear();
      }
      failure = absl::StrCat("the comparator returned ",
                             std::string(py::repr(result)), ", not an int");
    } catch (py::error_already_set& error) {
      failure = absl::StrCat("the comparator raised ", error.what());
    }
    ReportComparisonError(a, failure);
    return BytewiseCompare(a, b);
  }

  std::string_view Name() const override { return name_; }
  void FindShortestSeparator(std::string*, std::string_view) const override {}
  void FindShortSuccessor(std::string*) const override {}

 private:
  py::object function_;
  const std::string name_;
};

}  // namespace

std::shared_ptr<const Comparator> ComparatorArg(const py::object& arg,
                                                const py::object& name) {
  if (arg.is_none()) {
    if (!name.is_none()) {
      ThrowInvalidArgument("comparator_name needs a comparator callable");
    }
    return nullptr;
  }
  if (py::isinstance<py::str>(arg)) {
    const std::string wanted = arg.cast<std::string>();
    const Comparator* builtin = BuiltinComparator(wanted);
    if (builtin == nullptr) {
      ThrowInvalidArgument(absl::StrCat(
          "comparator '", wanted,
          "' is not built in (leveldb.BytewiseComparator, idb_cmp1); pass a "
          "callable and comparator_name for another"));
    }
    // Static: nothing to free.
    return std::shared_ptr<const Comparator>(builtin, [](const Comparator*) {});
  }
  if (!PyCallable_Check(arg.ptr())) {
    ThrowInvalidArgument(
        "comparator must be None, a built-in comparator's name or a callable");
  }
  if (!py::isinstance<py::str>(name)) {
    ThrowInvalidArgument(
        "a callable comparator needs comparator_name (str): the name the "
        "database's MANIFEST gives");
  }
  return std::make_shared<CallableComparator>(arg, name.cast<std::string>());
}

}  // namespace python
}  // namespace bloomtable
