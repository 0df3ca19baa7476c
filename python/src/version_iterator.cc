#include "python/src/version_iterator.h"

#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "python/src/arrow_stream.h"
#include "python/src/batch_iterator.h"
#include "python/src/bytes_arg.h"
#include "python/src/errors.h"

namespace py = pybind11;

namespace bloomtable {
namespace python {
namespace {

// One version of one key, as VersionIterator yields it.
struct PyVersionRecord {
  py::bytes key;
  uint64_t sequence;
  std::string type;  // "put" or "del"
  py::bytes value;
  std::string file;
  uint64_t offset;
  std::string status;  // RecordStatusName: "live", ..., "recovered"
};

bool HasPrefix(const VersionRecord& record, std::string_view prefix) {
  return std::string_view(record.user_key).substr(0, prefix.size()) == prefix;
}

// A listing as Arrow batches, after its first `skip` records (those the
// Python iterator handed out already: the listing of an open database is the
// same every time). Holds a call on the handle while it fills a batch, and
// lets the handle's Close drop its stream.
class VersionArrowSource final : public ArrowBatchSource,
                                 public RegisteredIterator {
 public:
  VersionArrowSource(std::shared_ptr<DatabaseHandle> handle,
                     DatabaseReadOptions options, std::string key_prefix,
                     uint64_t skip)
      : handle_(std::move(handle)),
        options_(std::move(options)),
        key_prefix_(std::move(key_prefix)),
        skip_(skip) {
    fields_ = {{"key", ArrowType::kBinary},   {"sequence", ArrowType::kUInt64},
               {"type", ArrowType::kUtf8},    {"value", ArrowType::kBinary},
               {"status", ArrowType::kUtf8},  {"file", ArrowType::kUtf8},
               {"offset", ArrowType::kUInt64}};
    handle_->Register(this);
  }
  ~VersionArrowSource() override { handle_->Unregister(this); }

  void DropIterator() override {
    stream_.reset();
    dropped_ = true;
  }
  const std::vector<ArrowField>& fields() const override { return fields_; }

  absl::Status Fill(ArrowBatch* batch, bool* done) override {
    SourceCall call(handle_.get(), dropped_);
    if (!call.status().ok()) return call.status();
    if (stream_ == nullptr) {
      stream_ = handle_->database().NewVersionStream(options_);
      while (skip_ > 0) {
        if (!stream_->Next(&record_)) {
          *done = true;
          return stream_->status();
        }
        if (HasPrefix(record_, key_prefix_)) --skip_;
      }
    }
    if (has_pending_) {
      if (!Append(record_, batch)) return TooLarge();
      has_pending_ = false;
    }
    while (!batch->Full()) {
      if (!stream_->Next(&record_)) {
        *done = true;
        return stream_->status();
      }
      if (!HasPrefix(record_, key_prefix_)) continue;
      if (!Append(record_, batch)) {
        if (batch->rows() == 0) return TooLarge();
        has_pending_ = true;  // it starts the next batch
        return absl::OkStatus();
      }
    }
    return absl::OkStatus();
  }

 private:
  static absl::Status TooLarge() {
    return absl::ResourceExhaustedError(
        "a key or value of 2 GiB or more does not fit an Arrow binary column");
  }

  // Appends `r` as a row; false if it does not fit.
  static bool Append(const VersionRecord& r, ArrowBatch* batch) {
    const std::string_view type = r.deletion ? "del" : "put";
    const std::string_view status = RecordStatusName(r.status);
    if (!batch->Fits(0, r.user_key.size()) || !batch->Fits(2, type.size()) ||
        !batch->Fits(3, r.value.size()) || !batch->Fits(4, status.size()) ||
        !batch->Fits(5, r.file.size())) {
      return false;
    }
    batch->AppendBytes(0, r.user_key);
    batch->AppendUInt64(1, r.sequence);
    batch->AppendBytes(2, type);
    batch->AppendBytes(3, r.value);
    batch->AppendBytes(4, status);
    batch->AppendBytes(5, r.file);
    batch->AppendUInt64(6, r.offset);
    batch->EndRow();
    return true;
  }

  const std::shared_ptr<DatabaseHandle> handle_;
  const DatabaseReadOptions options_;
  const std::string key_prefix_;
  uint64_t skip_;
  std::vector<ArrowField> fields_;
  std::unique_ptr<VersionStream> stream_;
  bool dropped_ = false;
  VersionRecord record_;
  bool has_pending_ = false;  // record_ did not fit the last batch
};

}  // namespace

VersionIterator::VersionIterator(std::shared_ptr<DatabaseHandle> handle,
                                 DatabaseReadOptions options,
                                 std::string key_prefix)
    : handle_(std::move(handle)),
      options_(std::move(options)),
      key_prefix_(std::move(key_prefix)) {
  handle_->Register(this);
}

VersionIterator::~VersionIterator() { handle_->Unregister(this); }

py::object VersionIterator::Next() {
  BusyGuard busy(&busy_);
  if (handle_->closed()) ThrowInvalidArgument(handle_->closed_message());
  if (next_ == count_) Fill();
  const VersionRecord& r = records_[next_++];
  ++handed_out_;
  return py::cast(PyVersionRecord{ToBytes(r.user_key), r.sequence,
                                  r.deletion ? "del" : "put", ToBytes(r.value),
                                  r.file, r.offset,
                                  std::string(RecordStatusName(r.status))});
}

void VersionIterator::Fill() {
  count_ = 0;
  next_ = 0;
  if (exhausted_) {
    if (!pending_.ok()) {
      absl::Status status = std::move(pending_);
      pending_ = absl::OkStatus();
      ThrowStatus(status, handle_->path());
    }
    throw py::stop_iteration();
  }
  {
    CallGuard guard(handle_.get());
    py::gil_scoped_release release;
    if (!started_) {
      stream_ = handle_->database().NewVersionStream(options_);
      started_ = true;
    }
    size_t bytes = 0;
    while (count_ < kMaxBatch && bytes < kMaxBatchBytes) {
      if (records_.size() == count_) records_.emplace_back();
      VersionRecord& record = records_[count_];
      if (!stream_->Next(&record)) {
        exhausted_ = true;
        pending_ = stream_->status();
        break;
      }
      if (!HasPrefix(record, key_prefix_)) continue;
      bytes += record.user_key.size() + record.value.size() + 64;
      ++count_;
    }
  }
  if (exhausted_) {
    // The stream's blocks go now rather than at garbage collection.
    handle_->Unregister(this);
  }
  if (count_ == 0) Fill();  // ends or raises: exhausted_ is set
}

py::capsule VersionIterator::ArrowStream() {
  BusyGuard busy(&busy_);
  if (handle_->closed()) ThrowInvalidArgument(handle_->closed_message());
  return ExportArrowStream(std::make_unique<VersionArrowSource>(
      handle_, options_, key_prefix_, handed_out_));
}

void DefineVersions(py::module_& module) {
  py::class_<PyVersionRecord>(module, "VersionRecord",
                              "One version of one key, as "
                              "Database.versions() lists it.")
      .def_readonly("key", &PyVersionRecord::key, "The user key (bytes).")
      .def_readonly("sequence", &PyVersionRecord::sequence,
                    "Its sequence number.")
      .def_readonly("type", &PyVersionRecord::type,
                    "'put' (a value) or 'del' (a deletion marker).")
      .def_readonly("value", &PyVersionRecord::value,
                    "The value (bytes); b'' for a deletion.")
      .def_readonly("file", &PyVersionRecord::file,
                    "The file of the directory it came from.")
      .def_readonly("offset", &PyVersionRecord::offset,
                    "For a log, the offset of the record holding its batch; "
                    "for a table, the offset of its data block.")
      .def_readonly("status", &PyVersionRecord::status,
                    "'live' (what get returns), 'overwritten' (a newer value "
                    "exists), 'deleted' (a deletion marker that is newest, or "
                    "a value it deletes), 'leftover' (only in a file the "
                    "database's version does not list) or 'recovered' (with "
                    "salvage=True: a log record LevelDB's recovery skips, "
                    "read after damage).")
      .def("__repr__", [](const PyVersionRecord& self) {
        return absl::StrCat(
            "VersionRecord(key=", py::repr(self.key).cast<std::string>(),
            ", sequence=", self.sequence, ", type='", self.type,
            "', value=", py::repr(self.value).cast<std::string>(), ", file='",
            self.file, "', offset=", self.offset, ", status='", self.status,
            "')");
      });

  py::class_<VersionIterator, std::unique_ptr<VersionIterator>>(
      module, "VersionIterator", R"doc(
The versions Database.versions() lists, streamed: read in batches with the
GIL released, so that a listing of any size holds one batch in memory. One
thread at a time; raises InvalidArgumentError once its database is closed.

    for r in db.versions(prefix=b"user:"):
        print(r.key, r.sequence, r.type, r.status)
    table = pyarrow.table(db.versions())   # as Arrow columns
)doc")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &VersionIterator::Next)
      .def(
          "__arrow_c_stream__",
          [](VersionIterator& self, const py::object&) {
            return self.ArrowStream();
          },
          py::arg("requested_schema") = py::none(),
          "The rest of the listing (the records next() has not returned) as "
          "an Arrow stream (the Arrow PyCapsule interface): columns key "
          "(binary), sequence (uint64), type (string), value (binary), "
          "status (string), file (string), offset (uint64), in batches of at "
          "most 65,536 rows and less than 2 GiB per column, filled with the "
          "GIL released. The iterator does not move, and each call streams "
          "anew (DuckDB asks twice).");
}

}  // namespace python
}  // namespace bloomtable
