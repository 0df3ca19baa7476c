// The prefix filter block: one whole-table filter (of any FilterPolicy) over
// the table's keys and their prefixes, with the name of the PrefixExtractor
// that made the prefixes (docs/FORMAT.md, "Prefix filter block"):
//
//   [filter bytes: policy.CreateFilter(entries)]
//   [extractor name: N bytes]
//   fixed32 N
//   uint8   flags    bit 0: the whole keys are in the filter; others zero
//   uint8   version  1
//
// The entries are, for each distinct key in order: the key itself (when
// whole keys are kept), then its prefix if the key is in the extractor's
// domain and the prefix differs from the last prefix added.
//
// Its metaindex key is "prefixfilter.<policy name>", never "filter.<name>":
// LevelDB and the LevelDB adapter look up "filter.<name>" and would take the
// prefixes for keys of a per-block filter; under its own key they ignore it.
//
// Builder: (AddKey)* Finish, single-threaded. Reader: immutable after
// Parse, safe for concurrent queries; it points into the block bytes, which
// must outlive it, and uses the policy and extractor, which must too.

#ifndef BLOOMTABLE_TABLE_PREFIX_FILTER_BLOCK_H_
#define BLOOMTABLE_TABLE_PREFIX_FILTER_BLOCK_H_

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/prefix_extractor.h"
#include "table/full_filter_builder.h"

namespace bloomtable {

inline constexpr std::string_view kPrefixFilterMetaPrefix = "prefixfilter.";

// The smallest string greater than every string that starts with `prefix`
// (bytewise): `prefix` without its trailing 0xff bytes, last byte plus one.
// Empty when `prefix` is empty or all 0xff: no string is greater than all of
// them.
std::string PrefixSuccessor(std::string_view prefix);

// A prefix filter block split into its parts (pointing into the block).
struct PrefixFilterParts {
  std::string_view filter;
  std::string_view extractor_name;
  bool whole_keys = false;
};

// Checks the block's trailer: DataLoss if it or the name length does not
// fit, Unimplemented for an unknown version or flag.
absl::StatusOr<PrefixFilterParts> ParsePrefixFilterBlock(
    std::string_view block);

class PrefixFilterBuilder {
 public:
  // `policy` and `extractor` must outlive the builder.
  PrefixFilterBuilder(const FilterPolicy* policy,
                      const PrefixExtractor* extractor, bool whole_keys);
  PrefixFilterBuilder(const PrefixFilterBuilder&) = delete;
  PrefixFilterBuilder& operator=(const PrefixFilterBuilder&) = delete;
  ~PrefixFilterBuilder();

  // Keys in increasing order; a key equal to the previous one is skipped.
  void AddKey(std::string_view key);
  // Appends the whole block to *dst.
  void Finish(std::string* dst);

 private:
  const PrefixExtractor* const extractor_;
  const bool whole_keys_;
  FullFilterBuilder entries_;
  std::string last_key_;
  std::string last_prefix_;
  bool has_key_ = false;
  bool has_prefix_ = false;
};

class PrefixFilterReader {
 public:
  // Checks the block's structure (ParsePrefixFilterBlock) and parses the
  // filter with `policy`. `extractor` is the reader's own (may be null): the
  // prefixes are used only if its name is the one the block stores.
  static absl::StatusOr<std::unique_ptr<PrefixFilterReader>> Parse(
      const FilterPolicy* policy, const PrefixExtractor* extractor,
      std::string_view block);

  PrefixFilterReader(const PrefixFilterReader&) = delete;
  PrefixFilterReader& operator=(const PrefixFilterReader&) = delete;

  std::string_view extractor_name() const { return extractor_name_; }
  bool whole_keys() const { return whole_keys_; }
  // The reader's extractor, if it made the stored prefixes; else null.
  const PrefixExtractor* extractor() const { return extractor_; }

  // Whether KeyMayMatch can ever say "absent".
  bool CanAnswerKeys() const { return whole_keys_ || extractor_ != nullptr; }
  // False only if no key equal to `key` was added: asks for the key, or
  // without whole keys for its prefix.
  bool KeyMayMatch(std::string_view key) const;
  // False only if no added key had `prefix` as its prefix.
  // REQUIRES: extractor() != nullptr.
  bool PrefixMayMatch(std::string_view prefix) const {
    return filter_->KeyMayMatch(prefix);
  }

 private:
  PrefixFilterReader(std::unique_ptr<FilterReader> filter,
                     std::string_view extractor_name, bool whole_keys,
                     const PrefixExtractor* extractor);

  const std::unique_ptr<FilterReader> filter_;
  const std::string_view extractor_name_;
  const bool whole_keys_;
  const PrefixExtractor* const extractor_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_PREFIX_FILTER_BLOCK_H_
