// The Arrow PyCapsule interface's stream: __arrow_c_stream__ of a table, a
// database, their iterators and the version listing returns the capsule
// ExportArrowStream makes, over an ArrowBatchSource that fills record
// batches. pyarrow.table(x), polars.DataFrame(x) and DuckDB's scans of x
// take it; no Arrow library is linked.
//
// The consumer pulls batches, possibly from a thread of its own and without
// the GIL (DuckDB does): a batch is filled with the GIL released if the
// calling thread holds it, and a source touches no Python object. Errors
// reach the consumer as the stream's error (an errno value and a message:
// pyarrow raises OSError or ArrowInvalid with it), not as bloomtable's
// exceptions.

#ifndef BLOOMTABLE_PYTHON_SRC_ARROW_STREAM_H_
#define BLOOMTABLE_PYTHON_SRC_ARROW_STREAM_H_

#include <pybind11/pybind11.h>

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "python/src/arrow_batch.h"
#include "python/src/table_handle.h"

namespace bloomtable {
namespace python {

// Rows per batch at most, and the bytes of one column past which a batch
// is handed over: large enough that the per-batch costs vanish, small
// enough that a batch being filled is a small part of a whole export.
inline constexpr size_t kArrowBatchRows = 64 * 1024;
inline constexpr size_t kArrowBatchBytes = 64 << 20;

class ArrowBatchSource {
 public:
  virtual ~ArrowBatchSource() = default;
  virtual const std::vector<ArrowField>& fields() const = 0;
  // Appends rows to `batch` until it is Full() or the source has no more
  // (then sets *done). Called without the GIL, one thread at a time.
  virtual absl::Status Fill(ArrowBatch* batch, bool* done) = 0;
};

// A source's call on the handle it reads, for one Fill: entered for the
// scope (so that a close waits for it), with an error instead when the
// handle is closed or its Close dropped what the source reads (`dropped`).
// Raises nothing: a source runs without the GIL.
class SourceCall {
 public:
  SourceCall(ClosableHandle* handle, bool dropped)
      : handle_(handle), entered_(handle->Enter()) {
    if (!entered_ || dropped) {
      status_ = absl::InvalidArgumentError(handle->closed_message());
    }
  }
  ~SourceCall() {
    if (entered_) handle_->Leave();
  }
  SourceCall(const SourceCall&) = delete;
  SourceCall& operator=(const SourceCall&) = delete;

  const absl::Status& status() const { return status_; }

 private:
  ClosableHandle* const handle_;
  const bool entered_;
  absl::Status status_;
};

// A PyCapsule named "arrow_array_stream" that owns a stream over `source`.
pybind11::capsule ExportArrowStream(std::unique_ptr<ArrowBatchSource> source);

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_ARROW_STREAM_H_
