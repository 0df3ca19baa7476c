#include "python/src/arrow_batch.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>

namespace bloomtable {
namespace python {
namespace {

const char* FormatOf(ArrowType type) {
  switch (type) {
    case ArrowType::kBinary:
      return "z";
    case ArrowType::kUtf8:
      return "u";
    case ArrowType::kUInt64:
      return "L";
  }
  return "z";
}

// What an exported schema owns: its name and its children.
struct SchemaHolder {
  std::string name;
  std::vector<ArrowSchema> children;
  std::vector<ArrowSchema*> child_pointers;
};

void ReleaseSchema(ArrowSchema* schema) {
  if (schema == nullptr || schema->release == nullptr) return;
  for (int64_t i = 0; i < schema->n_children; ++i) {
    ArrowSchema* child = schema->children[i];
    if (child->release != nullptr) child->release(child);
  }
  delete static_cast<SchemaHolder*>(schema->private_data);
  schema->release = nullptr;
}

void FillSchema(ArrowSchema* out, const char* format, SchemaHolder* holder,
                int64_t flags) {
  out->format = format;
  out->name = holder->name.c_str();
  out->metadata = nullptr;
  out->flags = flags;
  out->n_children = static_cast<int64_t>(holder->child_pointers.size());
  out->children =
      holder->child_pointers.empty() ? nullptr : holder->child_pointers.data();
  out->dictionary = nullptr;
  out->release = ReleaseSchema;
  out->private_data = holder;
}

// What an exported column owns: its buffers and their pointers.
struct ColumnHolder {
  ~ColumnHolder() {
    std::free(offsets);
    std::free(values);
  }
  int32_t* offsets = nullptr;
  ArrowBytes bytes;
  uint64_t* values = nullptr;
  const void* buffers[3] = {nullptr, nullptr, nullptr};
};

void ReleaseColumn(ArrowArray* array) {
  if (array == nullptr || array->release == nullptr) return;
  delete static_cast<ColumnHolder*>(array->private_data);
  array->release = nullptr;
}

// What an exported batch owns: its children's structs (each child owns its
// own bytes, so that a consumer may keep a child after the batch).
struct BatchHolder {
  std::vector<ArrowArray> children;
  std::vector<ArrowArray*> child_pointers;
  const void* buffers[1] = {nullptr};
};

void ReleaseBatch(ArrowArray* array) {
  if (array == nullptr || array->release == nullptr) return;
  for (int64_t i = 0; i < array->n_children; ++i) {
    ArrowArray* child = array->children[i];
    if (child->release != nullptr) child->release(child);
  }
  delete static_cast<BatchHolder*>(array->private_data);
  array->release = nullptr;
}

// malloc, or std::bad_alloc (as operator new) when memory runs out.
void* Allocate(size_t bytes) {
  void* p = std::malloc(bytes == 0 ? 1 : bytes);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

void ExportArrowSchema(const std::vector<ArrowField>& fields,
                       ArrowSchema* out) {
  auto holder = std::make_unique<SchemaHolder>();
  holder->children.resize(fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    auto child = std::make_unique<SchemaHolder>();
    child->name = fields[i].name;
    FillSchema(&holder->children[i], FormatOf(fields[i].type), child.release(),
               /*flags=*/0);
    holder->child_pointers.push_back(&holder->children[i]);
  }
  FillSchema(out, "+s", holder.release(), /*flags=*/0);
}

ArrowBatch::ArrowBatch(const std::vector<ArrowField>& fields, size_t max_rows,
                       size_t soft_bytes)
    : max_rows_(max_rows),
      soft_bytes_(soft_bytes),
      last_bytes_(fields.size(), 0) {
  for (const ArrowField& field : fields) {
    columns_.emplace_back();
    columns_.back().type = field.type;
  }
  Reset();
}

ArrowBatch::~ArrowBatch() {
  for (Column& c : columns_) {
    std::free(c.offsets);
    std::free(c.values);
  }
}

void ArrowBatch::Grow(Column* c, size_t more) const {
  // The batch is expected to end as full as its rows so far foretell (one
  // row's bytes per row to come): huge pages up to there.
  const size_t filled = c->size + more;
  const size_t expected =
      std::min(soft_bytes_, filled / (rows_ + 1) * max_rows_);
  c->bytes.Grow(std::max(filled, 2 * c->bytes.capacity()), expected);
}

void ArrowBatch::Reset() {
  rows_ = 0;
  for (size_t i = 0; i < columns_.size(); ++i) {
    Column& c = columns_[i];
    c.size = 0;
    if (c.type == ArrowType::kUInt64) {
      c.values = static_cast<uint64_t*>(Allocate(max_rows_ * sizeof(uint64_t)));
      continue;
    }
    c.offsets =
        static_cast<int32_t*>(Allocate((max_rows_ + 1) * sizeof(int32_t)));
    c.offsets[0] = 0;
    // Room for a batch like the last one and a quarter more (the first:
    // 1 MiB), so that the bytes are rarely moved as they grow; as many
    // bytes as the last batch held are expected (huge pages). Pages mapped
    // but not written cost address space, not memory.
    const size_t last = last_bytes_[i];
    c.bytes = ArrowBytes(last == 0 ? kFirstBatchBytes : last + last / 4,
                         /*expected=*/last);
  }
}

void ArrowBatch::Export(ArrowArray* out) {
  auto batch = std::make_unique<BatchHolder>();
  batch->children.resize(columns_.size());
  for (size_t i = 0; i < columns_.size(); ++i) {
    Column& c = columns_[i];
    last_bytes_[i] = c.size;
    auto holder = std::make_unique<ColumnHolder>();
    ArrowArray& child = batch->children[i];
    child.length = static_cast<int64_t>(rows_);
    child.null_count = 0;
    child.offset = 0;
    child.n_children = 0;
    child.children = nullptr;
    child.dictionary = nullptr;
    if (c.type == ArrowType::kUInt64) {
      holder->values = std::exchange(c.values, nullptr);
      holder->buffers[1] = holder->values;
      child.n_buffers = 2;
    } else {
      holder->offsets = std::exchange(c.offsets, nullptr);
      holder->bytes = std::move(c.bytes);
      holder->buffers[1] = holder->offsets;
      holder->buffers[2] = holder->bytes.data();
      child.n_buffers = 3;
    }
    child.buffers = holder->buffers;
    child.release = ReleaseColumn;
    child.private_data = holder.release();
    batch->child_pointers.push_back(&child);
  }
  out->length = static_cast<int64_t>(rows_);
  out->null_count = 0;
  out->offset = 0;
  out->n_buffers = 1;
  out->n_children = static_cast<int64_t>(columns_.size());
  out->buffers = batch->buffers;
  out->children = batch->child_pointers.data();
  out->dictionary = nullptr;
  out->release = ReleaseBatch;
  out->private_data = batch.release();
  Reset();
}

}  // namespace python
}  // namespace bloomtable
