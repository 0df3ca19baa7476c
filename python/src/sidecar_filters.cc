#include "python/src/sidecar_filters.h"

#include <pybind11/stl.h>

#include <filesystem>
#include <optional>
#include <string>
#include <system_error>

#include "bloomtable/sidecar.h"
#include "python/src/bytes_arg.h"
#include "python/src/errors.h"
#include "python/src/filters.h"

namespace py = pybind11;

namespace bloomtable {
namespace python {
namespace {

py::dict BuildFilters(const py::object& path_arg, const py::object& into_arg,
                      const py::object& filter,
                      std::optional<double> bits_per_key,
                      std::optional<double> fp_rate, int threads, bool prune,
                      const py::object& prefix_extractor,
                      double range_filter_bits_per_key,
                      uint64_t max_range_length, bool internal_keys) {
  const std::string path = PathArg(path_arg);
  const std::string into = PathArg(into_arg);
  if (threads < 1) ThrowInvalidArgument("threads must be at least 1");
  if (!(range_filter_bits_per_key == 0 ||
        (range_filter_bits_per_key >= 4 && range_filter_bits_per_key <= 40))) {
    ThrowInvalidArgument(
        "range_filter_bits_per_key must be 0 (none) or in [4, 40]");
  }
  if (max_range_length < 1) {
    ThrowInvalidArgument("max_range_length must be at least 1");
  }
  SidecarBuildOptions options;
  options.threads = threads;
  options.prune = prune;
  options.filters.filter_policy =
      FilterPolicyFromArg(filter, bits_per_key.value_or(10), fp_rate).policy;
  if (options.filters.filter_policy == nullptr) {
    ThrowInvalidArgument("a sidecar needs a filter");
  }
  if (!prefix_extractor.is_none()) {
    options.filters.prefix_extractor =
        prefix_extractor.cast<PyPrefixExtractor>().extractor;
  }
  options.filters.range_filter_bits_per_key = range_filter_bits_per_key;
  options.filters.range_filter_max_range_length = max_range_length;
  std::error_code error;
  const bool directory = std::filesystem::is_directory(path, error);
  if (directory && internal_keys) {
    ThrowInvalidArgument(
        "internal_keys is for table files (a database's tables always hold "
        "internal keys)");
  }
  if (!directory && prune) {
    ThrowInvalidArgument("prune is for database directories");
  }
  absl::StatusOr<SidecarBuildSummary> summary;
  {
    py::gil_scoped_release release;
    summary = directory ? BuildSidecarFilters(path, into, options)
                        : BuildTableFileSidecarFilter(path, internal_keys, into,
                                                      options);
  }
  if (!summary.ok()) ThrowStatus(summary.status(), path);
  py::dict result;
  result["tables"] = summary->tables;
  result["built"] = summary->built;
  result["up_to_date"] = summary->up_to_date;
  result["failed"] = summary->failed;
  result["entries"] = summary->entries;
  result["keys"] = summary->keys;
  result["bytes"] = summary->bytes;
  result["seconds"] = summary->seconds;
  result["orphaned"] = summary->orphaned;
  result["pruned"] = summary->pruned;
  return result;
}

}  // namespace

void DefineSidecarFilters(py::module_& module) {
  module.def("build_filters", &BuildFilters, py::arg("path"), py::kw_only(),
             py::arg("into"), py::arg("filter") = "ribbon",
             py::arg("bits_per_key") = py::none(),
             py::arg("fp_rate") = py::none(), py::arg("threads") = 1,
             py::arg("prune") = false, py::arg("prefix_extractor") = py::none(),
             py::arg("range_filter_bits_per_key") = 0.0,
             py::arg("max_range_length") = 64, py::arg("internal_keys") = false,
             R"doc(
Builds sidecar filters into the directory `into` (created if missing, never
inside the database, which is not written): for a LevelDB database directory
`path`, one filter file per table that has none bound to it and built with
these settings; for a table file, its one. Database.open(path,
filters_dir=into) then asks them before each table. The GIL is released
meanwhile.

    summary = bloomtable.build_filters("app/leveldb", into="app/filters")
    summary["built"], summary["keys"], summary["bytes"]
    with bloomtable.Database.open("app/leveldb",
                                  filters_dir="app/filters") as db:
        db.get(b"key")

filter: the policy, as for Filter.build: "ribbon" (default: whole-table
    Ribbon), "cache_local_bloom", "bloom", or a FilterPolicy; bits_per_key
    (default 10) or fp_rate sizes it.
threads: tables built at once (default 1).
prune: remove the filters of tables the database no longer lists (without
    it they are listed under "orphaned").
prefix_extractor: also a prefix filter (a PrefixExtractor); bounded
    iteration within one prefix skips tables that hold none.
range_filter_bits_per_key: also a range filter of this many bits per key
    (0: none; else 4 to 40), for range length max_range_length.
internal_keys: for a table file: it is a database's .ldb file.

Returns a dict: tables, built, up_to_date, failed (tables that could not be
read: "name: reason"), entries, keys, bytes, seconds, orphaned, pruned.
Raises as Database.open for a directory that is not a database, and
InvalidArgumentError for `into` inside it.
)doc");
}

}  // namespace python
}  // namespace bloomtable
