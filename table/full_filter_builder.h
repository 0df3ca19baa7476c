// FullFilterBuilder collects every key of a table for its whole-table
// filter ("fullfilter.<name>", one filter over all keys), built at Finish.
//
// A key equal to the one added just before it is not added again: in
// LevelDB-internal tables, the versions of one user key are adjacent, and a
// whole-table filter sized for distinct keys spends its bits better. (The
// per-block layout keeps LevelDB's one-key-per-entry rule for byte
// compatibility.) Call order: (AddKey)* Finish. Single-threaded.

#ifndef BLOOMTABLE_TABLE_FULL_FILTER_BUILDER_H_
#define BLOOMTABLE_TABLE_FULL_FILTER_BUILDER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "bloomtable/filter_policy.h"

namespace bloomtable {

class FullFilterBuilder {
 public:
  // `policy` must outlive the builder.
  explicit FullFilterBuilder(const FilterPolicy* policy) : policy_(policy) {}
  FullFilterBuilder(const FullFilterBuilder&) = delete;
  FullFilterBuilder& operator=(const FullFilterBuilder&) = delete;

  void AddKey(std::string_view key);
  // Appends the filter over all keys added (possibly none) to *dst.
  void Finish(std::string* dst);

 private:
  std::string_view LastKey() const;

  const FilterPolicy* const policy_;
  std::string keys_;                // concatenated
  std::vector<size_t> key_starts_;  // where each key begins in keys_
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_FULL_FILTER_BUILDER_H_
