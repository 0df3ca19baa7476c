// LogView holds the records of a database's live logs (the writes not yet in
// any table), sorted as a table's entries are: by user key, then newest
// first. It is what LevelDB's memtable holds after recovery, built once and
// immutable afterwards: Lookup and NewIterator may be called from many
// threads at once. Each record remembers where it came from (the log's file
// name and the offset of its batch record), for the all-versions listing.

#ifndef BLOOMTABLE_DB_LOG_VIEW_H_
#define BLOOMTABLE_DB_LOG_VIEW_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bloomtable/comparator.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/iterator.h"
#include "table/internal_key.h"

namespace bloomtable {

class LogView {
 public:
  struct Record {
    std::string internal_key;  // user key + (sequence, type) tag
    std::string value;         // empty for a deletion
    uint32_t source = 0;       // index into sources()
    uint64_t offset = 0;       // offset of the log record that held it
    bool recovered = false;    // read only by salvage (LogEntry::recovered)
  };

  // `user_comparator` orders the records; it must outlive the view. Null
  // leaves the records in the order they were added (a database whose
  // comparator is unknown): Lookup and NewIterator then must not be called.
  explicit LogView(const Comparator* user_comparator);

  LogView(const LogView&) = delete;
  LogView& operator=(const LogView&) = delete;

  // Building (before Finish): a source file and its records.
  uint32_t AddSource(std::string file_name);
  void Add(std::string_view user_key, uint64_t sequence, ValueType type,
           std::string_view value, uint32_t source, uint64_t offset,
           bool recovered = false);
  // Sorts the records (stable: equal keys keep the order they were added)
  // and, under the bytewise comparator (where equal keys are equal bytes),
  // builds a Bloom filter of their user keys, so that Lookup of a key the
  // logs do not hold rarely searches the records.
  void Finish();

  // The newest record of `user_key` with sequence <= max_sequence, or null.
  const Record* Lookup(std::string_view user_key, uint64_t max_sequence) const;

  // Iterates over internal keys. The view must outlive the iterator.
  std::unique_ptr<Iterator> NewIterator() const;

  const std::vector<Record>& records() const { return records_; }
  const std::vector<std::string>& sources() const { return sources_; }
  // The largest sequence number of any record (0 if none).
  uint64_t max_sequence() const { return max_sequence_; }
  uint64_t min_sequence() const { return min_sequence_; }

 private:
  class Iter;

  const Comparator* const user_comparator_;
  const InternalKeyComparator internal_comparator_;
  std::vector<Record> records_;
  std::vector<std::string> sources_;
  uint64_t max_sequence_ = 0;
  uint64_t min_sequence_ = 0;
  // The user keys' filter (null if not built); the reader refers to
  // key_filter_.
  std::shared_ptr<const FilterPolicy> key_filter_policy_;
  std::string key_filter_;
  std::unique_ptr<FilterReader> key_filter_reader_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_LOG_VIEW_H_
