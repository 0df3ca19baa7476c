// Test helper: whether this kernel and process may set up an io_uring (an old
// kernel, a seccomp filter or io_uring_disabled forbid it), which decides
// the path batched reads must take: io_uring where it may, else the pread
// fallback. Test-only code.
//
// A host without io_uring would pass the tests having run only the fallback.
// With BLOOMTABLE_REQUIRE_IO_URING=1 in the environment (.ci/run sets it
// where its own probe of the kernel, independent of liburing and of this
// library, found io_uring allowed), a host where the ring cannot be set up
// fails the calling test instead, so the io_uring path is known to have run.

#ifndef BLOOMTABLE_TESTS_IO_URING_PROBE_H_
#define BLOOMTABLE_TESTS_IO_URING_PROBE_H_

#include <liburing.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "gtest/gtest.h"

namespace bloomtable {

inline bool IoUringWorksHere() {
  io_uring ring;
  const int error = io_uring_queue_init(4, &ring, 0);
  if (error == 0) {
    io_uring_queue_exit(&ring);
    return true;
  }
  const char* required = std::getenv("BLOOMTABLE_REQUIRE_IO_URING");
  if (required != nullptr && std::string(required) == "1") {
    ADD_FAILURE() << "BLOOMTABLE_REQUIRE_IO_URING=1, but io_uring_queue_init "
                     "failed: "
                  << std::strerror(-error);
  }
  return false;
}

}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_IO_URING_PROBE_H_
