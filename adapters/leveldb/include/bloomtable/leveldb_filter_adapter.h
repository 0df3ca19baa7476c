// Presents a bloomtable FilterPolicy as a leveldb::FilterPolicy, so that a
// real leveldb::DB builds and uses bloomtable's filters in its own tables:
//
//   auto adapter = bloomtable::NewLevelDBFilterPolicyAdapter(
//       bloomtable::NewCacheLocalBloomFilterPolicy(10));
//   leveldb::Options options;
//   options.filter_policy = adapter->get();   // must outlive the DB
//
// LevelDB calls a filter policy once per 2 KiB of data-block offsets (its
// per-block filter layout), so only policies with SupportsPerBlock() can be
// adapted; whole-table-only policies (the Ribbon filter) are refused with
// InvalidArgument.
//
// The adapter is immutable and thread-safe, like the policy it wraps, which it
// keeps alive. Part of the separate library bloomtable::leveldb_adapter, the
// only library code that depends on LevelDB.

#ifndef BLOOMTABLE_ADAPTERS_LEVELDB_LEVELDB_FILTER_ADAPTER_H_
#define BLOOMTABLE_ADAPTERS_LEVELDB_LEVELDB_FILTER_ADAPTER_H_

#include <memory>

#include "absl/status/statusor.h"
#include "bloomtable/filter_policy.h"
#include "leveldb/filter_policy.h"

namespace bloomtable {

absl::StatusOr<std::unique_ptr<leveldb::FilterPolicy>>
NewLevelDBFilterPolicyAdapter(std::shared_ptr<const FilterPolicy> policy);

}  // namespace bloomtable

#endif  // BLOOMTABLE_ADAPTERS_LEVELDB_LEVELDB_FILTER_ADAPTER_H_
