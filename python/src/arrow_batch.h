// ArrowBatch builds one Arrow record batch (a struct array of columns) in
// memory the batch owns, then hands it to an ArrowArray (arrow_c_data.h),
// which owns it from then on: the consumer's release frees it, column by
// column. Columns are binary, UTF-8 strings or uint64, never null.
//
// A binary or string column's offsets are 32-bit, so a batch holds less
// than 2 GiB of bytes per column: Fits says whether more bytes would pass
// that, and the producer starts a new batch before it does. Full says when
// a batch is big enough to hand over (a row count, or a column's bytes
// passing a soft limit far below 2 GiB).
//
// Thread-compatible: one thread at a time; no Python object is touched, so
// a batch is built without the GIL.

#ifndef BLOOMTABLE_PYTHON_SRC_ARROW_BATCH_H_
#define BLOOMTABLE_PYTHON_SRC_ARROW_BATCH_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "python/src/arrow_buffer.h"
#include "python/src/arrow_c_data.h"

namespace bloomtable {
namespace python {

enum class ArrowType { kBinary, kUtf8, kUInt64 };

struct ArrowField {
  std::string name;
  ArrowType type;
};

// Fills `out` with a struct type of `fields` (owned by `out`).
void ExportArrowSchema(const std::vector<ArrowField>& fields, ArrowSchema* out);

class ArrowBatch {
 public:
  // The most bytes a binary or string column of one batch may hold: its
  // last offset must fit an int32.
  static constexpr size_t kMaxColumnBytes = 0x7fffffff;

  // `max_rows` rows at most; Full once a column holds `soft_bytes`.
  ArrowBatch(const std::vector<ArrowField>& fields, size_t max_rows,
             size_t soft_bytes);
  ~ArrowBatch();
  ArrowBatch(const ArrowBatch&) = delete;
  ArrowBatch& operator=(const ArrowBatch&) = delete;

  size_t rows() const { return rows_; }
  bool Full() const {
    if (rows_ >= max_rows_) return true;
    for (const Column& c : columns_) {
      if (c.size >= soft_bytes_) return true;
    }
    return false;
  }
  // Whether `bytes` more fit in binary or string column `column`.
  bool Fits(size_t column, size_t bytes) const {
    return columns_[column].size + bytes <= kMaxColumnBytes;
  }

  // One row: a value for every column, then EndRow. REQUIRES: Fits, and
  // rows() < max_rows.
  void AppendBytes(size_t column, std::string_view bytes) {
    Column& c = columns_[column];
    if (bytes.size() > c.bytes.capacity() - c.size) Grow(&c, bytes.size());
    if (!bytes.empty())
      std::memcpy(c.bytes.data() + c.size, bytes.data(), bytes.size());
    c.size += bytes.size();
    c.offsets[rows_ + 1] = static_cast<int32_t>(c.size);
  }
  void AppendUInt64(size_t column, uint64_t value) {
    columns_[column].values[rows_] = value;
  }
  void EndRow() { ++rows_; }

  // Moves the rows into `out` (a struct array owned by it) and leaves the
  // batch empty, its buffers sized for another batch like this one.
  void Export(ArrowArray* out);

 private:
  // What a column's bytes reserve in the first batch.
  static constexpr size_t kFirstBatchBytes = 1 << 20;

  // A column's buffers, handed to the exported array, which frees them:
  // offsets and values malloc'ed, bytes mapped (arrow_buffer.h: they grow
  // by remapping, never by copying, and the part the last batch filled is
  // backed by huge pages).
  struct Column {
    ArrowType type;
    int32_t* offsets = nullptr;  // binary and strings: max_rows + 1
    ArrowBytes bytes;            // binary and strings
    size_t size = 0;
    uint64_t* values = nullptr;  // uint64: max_rows
  };
  // Makes room for `more` bytes.
  void Grow(Column* c, size_t more) const;
  // Allocates the buffers of an empty batch.
  void Reset();

  std::vector<Column> columns_;
  const size_t max_rows_;
  const size_t soft_bytes_;
  size_t rows_ = 0;
  // The bytes per column of the last batch exported, to size the next.
  std::vector<size_t> last_bytes_;
};

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_ARROW_BATCH_H_
