// A PrefixExtractor maps a key to its prefix, the part that scans share
// (RocksDB's SliceTransform, with the same meaning). With
// Options::prefix_extractor set, a table's filter also holds the prefix of
// every key in the extractor's domain, so that a scan confined to one prefix
// (ReadOptions::prefix_same_as_start, or bounds inside one prefix) can skip a
// table that holds no key with that prefix, without reading a data block.
//
// The extractor's Name() is stored in the table with the filter: a reader
// whose extractor has another name never uses the prefixes. A name therefore
// names one mapping forever.
//
// Implementations are immutable and thread-safe.

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_PREFIX_EXTRACTOR_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_PREFIX_EXTRACTOR_H_

#include <cstddef>
#include <memory>
#include <string_view>

namespace bloomtable {

class PrefixExtractor {
 public:
  PrefixExtractor() = default;
  PrefixExtractor(const PrefixExtractor&) = delete;
  PrefixExtractor& operator=(const PrefixExtractor&) = delete;
  virtual ~PrefixExtractor();

  // Stored in the table; identifies the mapping.
  virtual std::string_view Name() const = 0;

  // Whether `key` has a prefix. Keys outside the domain are not in the
  // prefix part of a filter, and a scan from such a key never asks it.
  virtual bool InDomain(std::string_view key) const = 0;

  // The prefix of `key`: a prefix of it (the first bytes), pointing into it.
  // REQUIRES: InDomain(key).
  virtual std::string_view Transform(std::string_view key) const = 0;

  // True only if every key that starts with `prefix` (`prefix` itself
  // included) is in the domain and transforms to `prefix`. A scan whose
  // bounds both lie in [prefix, the next prefix) uses the prefix filter only
  // when this holds. REQUIRES: prefix == Transform(k) for some k. The
  // default, false, is always safe.
  virtual bool SameResultWhenAppended(std::string_view prefix) const;
};

// The first `length` bytes; keys shorter than `length` are outside the
// domain. Name "bloomtable.FixedPrefix.<length>".
std::shared_ptr<const PrefixExtractor> NewFixedPrefixExtractor(size_t length);

// The first `length` bytes, or the whole key if it is shorter; every key is
// in the domain. Name "bloomtable.CappedPrefix.<length>".
std::shared_ptr<const PrefixExtractor> NewCappedPrefixExtractor(size_t length);

// Up to and including the `count`-th occurrence of `delimiter`, for keys
// like "user:<id>:<field>" whose ids vary in length (delimiter ':', count 2
// gives "user:<id>:"). Keys with fewer occurrences are outside the domain.
// A count of 0 is taken as 1. Name "bloomtable.DelimitedPrefix.<hex byte>.
// <count>", e.g. "bloomtable.DelimitedPrefix.3a.2".
std::shared_ptr<const PrefixExtractor> NewDelimitedPrefixExtractor(
    char delimiter, size_t count);

// The built-in extractor whose Name() is `name` (one of the three above), or
// null if `name` names none of them. Lets a tool read any table's prefix
// filter by the name the table stores.
std::shared_ptr<const PrefixExtractor> NewPrefixExtractorFromName(
    std::string_view name);

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_PREFIX_EXTRACTOR_H_
