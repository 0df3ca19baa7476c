#include "python/src/arrow_stream.h"

#include <cerrno>
#include <new>
#include <string>
#include <utility>

namespace py = pybind11;

namespace bloomtable {
namespace python {
namespace {

constexpr char kCapsuleName[] = "arrow_array_stream";

struct StreamState {
  explicit StreamState(std::unique_ptr<ArrowBatchSource> s)
      : source(std::move(s)),
        batch(source->fields(), kArrowBatchRows, kArrowBatchBytes) {}
  std::unique_ptr<ArrowBatchSource> source;
  ArrowBatch batch;
  bool done = false;
  int error = 0;  // once a Fill failed: every later call reports it
  std::string last_error;
};

StreamState* StateOf(ArrowArrayStream* stream) {
  return static_cast<StreamState*>(stream->private_data);
}

int GetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  ExportArrowSchema(StateOf(stream)->source->fields(), out);
  return 0;
}

// Runs `fill` with the GIL released if this thread holds it.
absl::Status WithoutGil(StreamState* state, bool* done) {
  const bool held = PyGILState_Check() != 0;
  PyThreadState* saved = held ? PyEval_SaveThread() : nullptr;
  absl::Status status;
  try {
    status = state->source->Fill(&state->batch, done);
  } catch (const std::bad_alloc&) {
    // Thrown out of a C callback it would end the process: the consumer
    // gets ENOMEM instead.
    status = absl::ResourceExhaustedError("out of memory filling a batch");
  }
  if (held) PyEval_RestoreThread(saved);
  return status;
}

int GetNext(ArrowArrayStream* stream, ArrowArray* out) {
  StreamState* state = StateOf(stream);
  if (state->error != 0) return state->error;
  if (!state->done) {
    absl::Status status = WithoutGil(state, &state->done);
    if (!status.ok()) {
      state->last_error = std::string(status.message());
      state->done = true;
      state->error =
          absl::IsInvalidArgument(status) || absl::IsFailedPrecondition(status)
              ? EINVAL
          : absl::IsResourceExhausted(status) ? ENOMEM
                                              : EIO;
      return state->error;
    }
  }
  if (state->batch.rows() == 0) {
    out->release = nullptr;  // the end
    return 0;
  }
  state->batch.Export(out);
  return 0;
}

const char* GetLastError(ArrowArrayStream* stream) {
  StreamState* state = StateOf(stream);
  return state->last_error.empty() ? nullptr : state->last_error.c_str();
}

void Release(ArrowArrayStream* stream) {
  if (stream == nullptr || stream->release == nullptr) return;
  delete StateOf(stream);
  stream->release = nullptr;
}

void DestroyCapsule(PyObject* capsule) {
  auto* stream = static_cast<ArrowArrayStream*>(
      PyCapsule_GetPointer(capsule, kCapsuleName));
  if (stream == nullptr) {
    PyErr_Clear();
    return;
  }
  if (stream->release != nullptr) stream->release(stream);
  delete stream;
}

}  // namespace

py::capsule ExportArrowStream(std::unique_ptr<ArrowBatchSource> source) {
  auto* stream = new ArrowArrayStream;
  stream->get_schema = GetSchema;
  stream->get_next = GetNext;
  stream->get_last_error = GetLastError;
  stream->release = Release;
  stream->private_data = new StreamState(std::move(source));
  PyObject* capsule = PyCapsule_New(stream, kCapsuleName, DestroyCapsule);
  if (capsule == nullptr) {
    Release(stream);
    delete stream;
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::capsule>(capsule);
}

}  // namespace python
}  // namespace bloomtable
