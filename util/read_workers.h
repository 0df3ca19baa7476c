// ReadWorkers: a few threads that run independent blocking jobs (the reads
// of different files) beside the calling thread, so that their waits on the
// device overlap. RunAll(count, job) runs job(0), ..., job(count - 1), the
// calling thread taking jobs too, and returns when all are done; with no
// threads it runs them on the calling thread, one after another.
//
// The threads are started by the first RunAll that has more than one job,
// and stopped and joined by the destructor (which must not run while a
// RunAll does). Thread-safety: RunAll may be called from many threads at
// once; each call waits only for its own jobs.

#ifndef BLOOMTABLE_UTIL_READ_WORKERS_H_
#define BLOOMTABLE_UTIL_READ_WORKERS_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/functional/function_ref.h"

namespace bloomtable {

class ReadWorkers {
 public:
  explicit ReadWorkers(size_t threads);
  ReadWorkers(const ReadWorkers&) = delete;
  ReadWorkers& operator=(const ReadWorkers&) = delete;
  ~ReadWorkers();

  void RunAll(size_t count, absl::FunctionRef<void(size_t)> job);

 private:
  // One RunAll's jobs; lives on the caller's stack, and is touched by a
  // worker only between taking a job and reporting it done.
  struct Batch {
    absl::FunctionRef<void(size_t)> job;
    size_t count;
    size_t next = 0;       // the next job to take (under mutex_)
    size_t remaining = 0;  // jobs not yet done (under mutex_)
  };

  // Under mutex_: the next job of the oldest batch that has one, dropping
  // exhausted batches from the queue; false if there is none.
  bool TakeJob(Batch** batch, size_t* job);
  void WorkerLoop();

  const size_t threads_;
  std::mutex mutex_;
  std::condition_variable work_;  // a job was queued, or stopping
  std::condition_variable done_;  // a batch's last job finished
  std::deque<Batch*> queue_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_READ_WORKERS_H_
