#include "python/src/builder.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/durable_file.h"
#include "bloomtable/options.h"
#include "bloomtable/table_builder.h"
#include "python/src/build_options.h"
#include "python/src/bytes_arg.h"
#include "python/src/errors.h"

namespace py = pybind11;

namespace bloomtable {
namespace python {
namespace {

// Entries handed to the C++ builder per release of the GIL.
constexpr size_t kBatchEntries = 4096;

using Entry = std::pair<std::string, std::string>;

// A copy of the (key, value) pair `item`.
Entry EntryOf(const py::handle& item) {
  if (!py::isinstance<py::sequence>(item) || py::len(item) != 2) {
    throw py::type_error("items must be (key, value) pairs");
  }
  py::sequence pair = py::reinterpret_borrow<py::sequence>(item);
  return Entry(std::string(BytesArg(pair[0], "key").view()),
               std::string(BytesArg(pair[1], "value").view()));
}

// A table being written to a temporary file. Single-threaded: a second
// thread calling in while one is inside raises InvalidArgumentError.
class PyTableBuilder {
 public:
  PyTableBuilder(std::string path, const Options& options)
      : path_(std::move(path)), options_(options) {
    absl::StatusOr<std::unique_ptr<DurableFile>> file;
    {
      py::gil_scoped_release release;
      file = DurableFile::Create(path_);
    }
    if (!file.ok()) ThrowStatus(file.status(), path_);
    file_ = *std::move(file);
    builder_ = std::make_unique<TableBuilder>(options_, file_->file());
  }

  ~PyTableBuilder() {
    if (builder_ != nullptr) builder_->Abandon();
  }

  void Add(const py::object& key, const py::object& value) {
    Busy busy(this);
    CheckOpen();
    BytesArg key_arg(key, "key");
    BytesArg value_arg(value, "value");
    const absl::Status status = builder_->Add(key_arg.view(), value_arg.view());
    if (!status.ok()) ThrowStatus(status, path_);
  }

  // Adds many entries with the GIL released; the entries are copies.
  void AddEntries(const std::vector<Entry>& entries) {
    Busy busy(this);
    CheckOpen();
    absl::Status status;
    {
      py::gil_scoped_release release;
      for (size_t i = 0; i < entries.size() && status.ok(); ++i) {
        status = builder_->Add(entries[i].first, entries[i].second);
      }
    }
    if (!status.ok()) ThrowStatus(status, path_);
  }

  uint64_t Finish() {
    Busy busy(this);
    CheckOpen();
    absl::Status status;
    uint64_t size = 0;
    {
      py::gil_scoped_release release;
      status = builder_->Finish();
      size = builder_->FileSize();
      entries_after_finish_ = builder_->NumEntries();
      if (!status.ok()) builder_->Abandon();
      builder_.reset();
      if (status.ok()) {
        status = file_->Commit();
      } else {
        file_->Abandon();
      }
      file_.reset();
    }
    if (!status.ok()) ThrowStatus(status, path_);
    return size;
  }

  void Abandon() {
    Busy busy(this);
    if (builder_ == nullptr) return;
    builder_->Abandon();
    builder_.reset();
    file_->Abandon();
    file_.reset();
  }

  bool finished() const { return builder_ == nullptr; }
  const std::string& path() const { return path_; }

  uint64_t NumEntries() const {
    return builder_ == nullptr ? entries_after_finish_ : builder_->NumEntries();
  }

 private:
  struct Busy {
    explicit Busy(PyTableBuilder* builder) : builder(builder) {
      if (builder->busy_.exchange(true)) {
        ThrowInvalidArgument("builder is in use by another thread");
      }
    }
    ~Busy() { builder->busy_.store(false); }
    PyTableBuilder* builder;
  };

  void CheckOpen() const {
    if (builder_ == nullptr) {
      ThrowInvalidArgument("builder is finished or abandoned");
    }
  }

  const std::string path_;
  const Options options_;
  std::unique_ptr<DurableFile> file_;
  std::unique_ptr<TableBuilder> builder_;
  uint64_t entries_after_finish_ = 0;
  std::atomic<bool> busy_{false};
};

// Adds `items` (pairs) to `builder` in batches, the GIL released for each.
void AddInBatches(PyTableBuilder* builder, const py::iterable& items) {
  std::vector<Entry> batch;
  for (py::handle item : items) {
    batch.push_back(EntryOf(item));
    if (batch.size() == kBatchEntries) {
      builder->AddEntries(batch);
      batch.clear();
    }
  }
  builder->AddEntries(batch);
}

// Sorts the pairs by key (bytewise) first; InvalidArgumentError naming a
// key that repeats.
void AddSorted(PyTableBuilder* builder, const py::iterable& items) {
  std::vector<Entry> entries;
  for (py::handle item : items) entries.push_back(EntryOf(item));
  {
    py::gil_scoped_release release;
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.first < b.first; });
  }
  for (size_t i = 1; i < entries.size(); ++i) {
    if (entries[i].first == entries[i - 1].first) {
      ThrowInvalidArgument(absl::StrCat(
          "duplicate key ", std::string(py::repr(ToBytes(entries[i].first)))));
    }
  }
  builder->AddEntries(entries);
}

}  // namespace

void DefineBuilder(py::module_& module) {
  py::class_<PyTableBuilder>(module, "TableBuilder",
                             (std::string(R"doc(
Writes a table file, one entry at a time, keys in strictly increasing
bytewise order:

    with bloomtable.TableBuilder("out.ldb", filter="ribbon",
                                 filter_layout="whole_table") as b:
        b.add(b"alice", b"1")
        b.add(b"bob", b"2")
    # leaving the block finishes the table (abandons it on an exception)

The table is written to a temporary file beside `path`; finish() syncs it
and renames it over `path`, so `path` holds either what it held before or
the whole new table. abandon() (or a failed build) removes the temporary
file. A key out of order is InvalidArgumentError (the builder then only
abandons). One thread at a time.
)doc") + kBuildOptionsDoc)
                                 .c_str())
      .def(py::init([](const py::object& path, const py::kwargs& kwargs) {
             return std::make_unique<PyTableBuilder>(
                 PathArg(path), BuildOptionsFromKwargs(kwargs));
           }),
           py::arg("path"))
      .def("add", &PyTableBuilder::Add, py::arg("key"), py::arg("value"),
           "Appends an entry; `key` must follow the previous key.")
      .def("finish", &PyTableBuilder::Finish,
           "Writes the rest of the table, syncs it and renames it to `path` "
           "(the GIL is released meanwhile). Returns the file's size.")
      .def("abandon", &PyTableBuilder::Abandon,
           "Drops the table: nothing is left at `path` but what was there.")
      .def_property_readonly("num_entries", &PyTableBuilder::NumEntries,
                             "Entries added so far.")
      .def_property_readonly("finished", &PyTableBuilder::finished,
                             "Whether finish() or abandon() was called.")
      .def_property_readonly("path", &PyTableBuilder::path,
                             "The path the table is written to.")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PyTableBuilder& self, const py::object& type,
                          const py::object&, const py::object&) {
        if (self.finished()) return false;
        if (type.is_none()) {
          self.Finish();
        } else {
          self.Abandon();
        }
        return false;
      });

  module.def(
      "build_table",
      [](const py::object& path, const py::object& items, bool sort,
         const py::kwargs& kwargs) {
        PyTableBuilder builder(PathArg(path), BuildOptionsFromKwargs(kwargs));
        py::iterable pairs = py::isinstance<py::dict>(items)
                                 ? py::iterable(items.attr("items")())
                                 : py::iterable(items);
        try {
          if (sort) {
            AddSorted(&builder, pairs);
          } else {
            AddInBatches(&builder, pairs);
          }
        } catch (...) {
          builder.Abandon();
          throw;
        }
        return builder.Finish();
      },
      py::arg("path"), py::arg("items"), py::kw_only(), py::arg("sort") = false,
      (std::string(R"doc(
Writes a table at `path` from `items` in one call and returns its size.

`items`: (key, value) pairs (or a dict), keys and values bytes-like. With
sort=False (default) the keys must be in strictly increasing bytewise order
(InvalidArgumentError otherwise); sort=True sorts them (a repeated key is
InvalidArgumentError naming it). The file is written durably (temporary
file, sync, rename; on any error nothing is left at `path` and an existing
file is kept). Entries go to the writer in batches with the GIL released.
)doc") +
       kBuildOptionsDoc)
          .c_str());
}

}  // namespace python
}  // namespace bloomtable
