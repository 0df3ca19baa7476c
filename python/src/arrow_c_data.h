// The Arrow C data and C stream interfaces: the plain structs through which
// pyarrow, Polars, DuckDB and pandas take columns from a producer without
// linking any Arrow library (Apache Arrow's "C Data Interface" and "C Stream
// Interface" specifications define their layout; the guard macros are the
// ones the specification names, so that a translation unit that also sees
// another definition of them compiles).
//
// A producer fills the structs and sets `release`; the consumer calls
// `release` once it is done, and the producer frees what `private_data`
// owns. A stream hands out one ArrowSchema, then ArrowArrays (record
// batches: struct arrays with one child per column) until an array whose
// `release` is null marks the end. Its callbacks return 0 or an errno value,
// with get_last_error's message describing the error.

#ifndef BLOOMTABLE_PYTHON_SRC_ARROW_C_DATA_H_
#define BLOOMTABLE_PYTHON_SRC_ARROW_C_DATA_H_

#include <cstdint>

extern "C" {

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

// A type: `format` is a short string ("z" binary, "u" UTF-8 string, "L"
// uint64, "+s" struct, ...), `name` the field's name.
struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};

// Values: `length` of them, their buffers as the type's layout says (a
// binary array: validity, int32 offsets, bytes; uint64: validity, values;
// a null validity buffer when null_count is 0).
struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);
  void (*release)(struct ArrowArrayStream*);
  void* private_data;
};

#endif  // ARROW_C_STREAM_INTERFACE

}  // extern "C"

#endif  // BLOOMTABLE_PYTHON_SRC_ARROW_C_DATA_H_
