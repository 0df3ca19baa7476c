#include "table/block_builder.h"

#include <algorithm>
#include <cassert>

#include "util/coding.h"
#include "util/string_util.h"

namespace bloomtable {

BlockBuilder::BlockBuilder(int restart_interval)
    : restart_interval_(std::max(restart_interval, 1)) {
  restarts_.push_back(0);  // the first entry is always a restart point
}

void BlockBuilder::Reset() {
  buffer_.clear();
  restarts_.clear();
  restarts_.push_back(0);
  entries_since_restart_ = 0;
  finished_ = false;
  last_key_.clear();
}

size_t BlockBuilder::CurrentSizeEstimate() const {
  return buffer_.size() + restarts_.size() * sizeof(uint32_t) +
         sizeof(uint32_t);
}

std::string_view BlockBuilder::Finish() {
  for (uint32_t restart : restarts_) PutFixed32(&buffer_, restart);
  PutFixed32(&buffer_, static_cast<uint32_t>(restarts_.size()));
  finished_ = true;
  return buffer_;
}

void BlockBuilder::Add(std::string_view key, std::string_view value) {
  assert(!finished_);
  size_t shared = 0;
  if (entries_since_restart_ < restart_interval_) {
    shared = CommonPrefixLength(last_key_, key);
  } else {
    restarts_.push_back(static_cast<uint32_t>(buffer_.size()));
    entries_since_restart_ = 0;
  }
  const size_t unshared = key.size() - shared;

  PutVarint32(&buffer_, static_cast<uint32_t>(shared));
  PutVarint32(&buffer_, static_cast<uint32_t>(unshared));
  PutVarint32(&buffer_, static_cast<uint32_t>(value.size()));
  buffer_.append(key.data() + shared, unshared);
  buffer_.append(value.data(), value.size());

  last_key_.resize(shared);
  last_key_.append(key.data() + shared, unshared);
  ++entries_since_restart_;
}

}  // namespace bloomtable
