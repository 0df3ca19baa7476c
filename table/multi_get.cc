// BatchedMultiGet: filters, index, cache, batched reads, then block
// searches, each step across the whole batch (multi_get.h).

#include "table/multi_get.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "table/internal_key.h"

namespace bloomtable {

BatchLookupTable::~BatchLookupTable() = default;

namespace {

// How many keys ahead of its probe a filter line is prefetched: enough to
// cover a memory access (about 80 ns) with the probes in between, few
// enough that the prefetches in flight stay within what a core tracks
// (10 to 20 outstanding cache-line misses).
constexpr size_t kPrefetchDistance = 8;

// Runs `prefetch(live[j])` kPrefetchDistance entries ahead of
// `probe(live[j])`, for every entry of `live`.
template <typename Prefetch, typename Probe>
void PrefetchedPass(const std::vector<size_t>& live, Prefetch prefetch,
                    Probe probe) {
  const size_t ahead = std::min(kPrefetchDistance, live.size());
  for (size_t j = 0; j < ahead; ++j) prefetch(live[j]);
  for (size_t j = 0; j < live.size(); ++j) {
    if (j + ahead < live.size()) prefetch(live[j + ahead]);
    probe(live[j]);
  }
}

// The restart entries of a data block prefetched before its searches: all
// of a 4 KiB block's (LevelDB's 16 entries per restart), the first of a
// larger one.
constexpr uint32_t kPrefetchedRestarts = 8;

// A distinct data block the batch needs, and what came of fetching it.
struct NeededBlock {
  BlockHandle handle;
  absl::StatusOr<std::shared_ptr<const Block>> block;
};

// Reads `missing` (indexes into `blocks`, in file order) with one MultiRead,
// adjacent blocks coalesced, and sets each one's block.
void ReadMissingBlocks(const BatchLookupTable& table,
                       const ReadOptions& read_options,
                       const std::vector<size_t>& missing,
                       std::vector<NeededBlock>* blocks) {
  // Groups of adjacent blocks: missing[group_starts[g], group_starts[g+1]).
  std::vector<size_t> group_starts;
  std::vector<ReadRequest> requests;
  uint64_t group_end = 0;
  size_t group_bytes = 0;
  for (size_t m = 0; m < missing.size(); ++m) {
    const BlockHandle& handle = (*blocks)[missing[m]].handle;
    const size_t bytes = static_cast<size_t>(handle.size()) + kBlockTrailerSize;
    if (m == 0 || handle.offset() != group_end ||
        group_bytes + bytes > kMaxCoalescedReadBytes) {
      group_starts.push_back(m);
      requests.emplace_back();
      requests.back().offset = handle.offset();
      group_bytes = 0;
    }
    group_bytes += bytes;
    requests.back().n = group_bytes;
    group_end = handle.offset() + bytes;
  }
  group_starts.push_back(missing.size());

  std::vector<std::unique_ptr<char[]>> buffers(requests.size());
  for (size_t g = 0; g < requests.size(); ++g) {
    buffers[g].reset(new char[requests[g].n]);
    requests[g].scratch = buffers[g].get();
  }
  const MultiReadPath path =
      table.data_file().MultiRead(requests.data(), requests.size());
  table.RecordMultiRead(path, requests.size());

  for (size_t g = 0; g < requests.size(); ++g) {
    const ReadRequest& request = requests[g];
    const size_t first = group_starts[g];
    const size_t last = group_starts[g + 1];
    if (!request.status.ok() && last - first > 1) {
      // One failed read of many blocks: read them one by one, so that only
      // the keys of an unreadable block fail.
      for (size_t m = first; m < last; ++m) {
        NeededBlock& needed = (*blocks)[missing[m]];
        needed.block = table.ReadDataBlockFromFile(read_options, needed.handle);
      }
      continue;
    }
    for (size_t m = first; m < last; ++m) {
      NeededBlock& needed = (*blocks)[missing[m]];
      const size_t begin =
          static_cast<size_t>(needed.handle.offset() - request.offset);
      const size_t want =
          static_cast<size_t>(needed.handle.size()) + kBlockTrailerSize;
      std::string_view bytes;
      if (begin < request.result.size()) {
        bytes = request.result.substr(begin, want);
      }
      needed.block = table.DataBlockFromRead(read_options, needed.handle,
                                             request.status, bytes);
    }
  }
}

}  // namespace

BatchSeekKeys::BatchSeekKeys(bool internal_keys,
                             const std::vector<std::string_view>& keys,
                             uint64_t tag) {
  views_.assign(keys.begin(), keys.end());
  if (!internal_keys) return;
  size_t total = 0;
  for (std::string_view key : keys) total += key.size() + kInternalKeyTagSize;
  buffer_.reset(new char[total]);
  char* out = buffer_.get();
  for (size_t i = 0; i < keys.size(); ++i) {
    std::copy(keys[i].begin(), keys[i].end(), out);
    for (size_t b = 0; b < kInternalKeyTagSize; ++b) {
      out[keys[i].size() + b] = static_cast<char>(tag >> (8 * b));
    }
    views_[i] = std::string_view(out, keys[i].size() + kInternalKeyTagSize);
    out += views_[i].size();
  }
}

void BatchedBlockLookups(
    const BatchLookupTable& table, const ReadOptions& read_options,
    const std::vector<std::string_view>& keys,
    const std::vector<std::string_view>& seek,
    absl::FunctionRef<void(size_t i, absl::Status status)> settled,
    absl::FunctionRef<
        void(size_t i, const BlockHandle& handle,
             const absl::StatusOr<std::shared_ptr<const Block>>& block)>
        in_block) {
  const std::vector<const BatchLookupTable*> tables(keys.size(), &table);
  BatchedBlockLookups(tables, read_options, keys, seek, settled, in_block);
}

void BatchedBlockLookups(
    const std::vector<const BatchLookupTable*>& tables,
    const ReadOptions& read_options, const std::vector<std::string_view>& keys,
    const std::vector<std::string_view>& seek,
    absl::FunctionRef<void(size_t i, absl::Status status)> settled,
    absl::FunctionRef<
        void(size_t i, const BlockHandle& handle,
             const absl::StatusOr<std::shared_ptr<const Block>>& block)>
        in_block,
    ReadWorkers* workers) {
  const size_t n = keys.size();

  // 1. The filter before the index.
  std::vector<size_t> live(n);
  for (size_t i = 0; i < n; ++i) live[i] = i;
  std::vector<size_t> passed;
  passed.reserve(n);
  PrefetchedPass(
      live, [&](size_t i) { tables[i]->PrefetchTableFilter(keys[i]); },
      [&](size_t i) {
        if (tables[i]->TableFilterMayMatch(keys[i])) {
          passed.push_back(i);
        } else {
          settled(i, absl::NotFoundError(""));
        }
      });

  // 2. The index, then the per-block filter.
  std::vector<BlockHandle> handles(n);
  live.clear();
  PrefetchedPass(
      passed, [&](size_t i) { tables[i]->PrefetchIndex(seek[i]); },
      [&](size_t i) {
        absl::Status status = tables[i]->SearchIndex(seek[i], &handles[i]);
        if (status.ok()) {
          live.push_back(i);
        } else {
          settled(i, std::move(status));
        }
      });
  passed.clear();
  PrefetchedPass(
      live,
      [&](size_t i) { tables[i]->PrefetchBlockFilter(handles[i].offset()); },
      [&](size_t i) {
        if (tables[i]->BlockFilterMayMatch(handles[i].offset(), keys[i])) {
          passed.push_back(i);
        } else {
          settled(i, absl::NotFoundError(""));
        }
      });

  // 3. The distinct blocks needed, table by table in file order, from the
  // cache.
  const auto same_table = [&](size_t a, size_t b) {
    return tables[a] == tables[b];
  };
  std::sort(passed.begin(), passed.end(), [&](size_t a, size_t b) {
    if (!same_table(a, b)) return std::less<>()(tables[a], tables[b]);
    const BlockHandle& x = handles[a];
    const BlockHandle& y = handles[b];
    return x.offset() != y.offset() ? x.offset() < y.offset()
                                    : x.size() < y.size();
  });
  std::vector<NeededBlock> blocks;
  std::vector<const BatchLookupTable*> block_tables;
  std::vector<size_t> block_of(n);  // for each key in `passed`
  for (size_t p = 0; p < passed.size(); ++p) {
    const size_t i = passed[p];
    if (blocks.empty() || !same_table(passed[p - 1], i) ||
        blocks.back().handle.offset() != handles[i].offset() ||
        blocks.back().handle.size() != handles[i].size()) {
      blocks.push_back(NeededBlock{handles[i], absl::UnknownError("")});
      block_tables.push_back(tables[i]);
    }
    block_of[i] = blocks.size() - 1;
  }
  // The missing blocks, grouped by table: missing[missing_starts[t],
  // missing_starts[t + 1]) are one table's.
  std::vector<size_t> missing;
  std::vector<size_t> missing_starts;
  for (size_t b = 0; b < blocks.size(); ++b) {
    const BatchLookupTable& table = *block_tables[b];
    NeededBlock& needed = blocks[b];
    std::shared_ptr<const Block> cached =
        table.CachedDataBlock(read_options, needed.handle);
    if (cached != nullptr) {
      needed.block = std::move(cached);
    } else if (!needed.handle.FitsWithin(table.readable_limit())) {
      // Damaged: the single read says how, without reading.
      needed.block = table.ReadDataBlockFromFile(read_options, needed.handle);
    } else {
      if (missing.empty() || block_tables[missing.back()] != &table) {
        missing_starts.push_back(missing.size());
      }
      missing.push_back(b);
    }
  }
  missing_starts.push_back(missing.size());

  // 4. The missing blocks, every table's before any is searched: each
  // table's a job (they write disjoint entries of `blocks`).
  const auto read_table = [&](size_t t) {
    const size_t first = missing_starts[t];
    const size_t last = missing_starts[t + 1];
    const BatchLookupTable& table = *block_tables[missing[first]];
    if (last - first == 1) {
      NeededBlock& needed = blocks[missing[first]];
      needed.block = table.ReadDataBlockFromFile(read_options, needed.handle);
      return;
    }
    const std::vector<size_t> table_missing(missing.begin() + first,
                                            missing.begin() + last);
    ReadMissingBlocks(table, read_options, table_missing, &blocks);
  };
  const size_t reading_tables = missing_starts.size() - 1;
  if (workers != nullptr) {
    workers->RunAll(reading_tables, read_table);
  } else {
    for (size_t t = 0; t < reading_tables; ++t) read_table(t);
  }

  // 5. Each key with its block. The blocks' memory first, in waves across
  // the batch so that the misses overlap: the Block objects, then where
  // each search starts (the restart array and the restart entries its
  // binary search compares).
  for (const NeededBlock& needed : blocks) {
    if (needed.block.ok()) __builtin_prefetch(needed.block->get());
  }
  for (const NeededBlock& needed : blocks) {
    if (!needed.block.ok()) continue;
    const Block& block = **needed.block;
    __builtin_prefetch(block.contents().data() + block.restart_array_offset());
  }
  for (const NeededBlock& needed : blocks) {
    if (!needed.block.ok()) continue;
    const Block& block = **needed.block;
    const char* const entries_end =
        block.contents().data() + block.restart_array_offset();
    for (uint32_t r = 0;
         r < std::min(block.num_restarts(), kPrefetchedRestarts); ++r) {
      // Unchecked offsets: a damaged one is not followed.
      const char* const entry = block.RestartEntryStart(r);
      if (entry < entries_end) __builtin_prefetch(entry);
    }
  }
  PrefetchedPass(
      passed,
      [&](size_t i) {
        const NeededBlock& needed = blocks[block_of[i]];
        if (needed.block.ok()) tables[i]->PrefetchScan(**needed.block, seek[i]);
      },
      [&](size_t i) {
        const NeededBlock& needed = blocks[block_of[i]];
        in_block(i, needed.handle, needed.block);
      });
}

std::vector<absl::StatusOr<std::string>> ResultsOf(
    std::vector<absl::Status> statuses, std::vector<std::string> values) {
  std::vector<absl::StatusOr<std::string>> results;
  results.reserve(statuses.size());
  for (size_t i = 0; i < statuses.size(); ++i) {
    if (statuses[i].ok()) {
      results.emplace_back(std::move(values[i]));
    } else {
      results.emplace_back(std::move(statuses[i]));
    }
  }
  return results;
}

void BatchedMultiGet(const BatchLookupTable& table,
                     const ReadOptions& read_options,
                     const std::vector<std::string_view>& keys,
                     BatchAnswers answers) {
  const BatchSeekKeys seek(table.internal_keys(), keys, kMaxValueTag);
  BatchedBlockLookups(
      table, read_options, keys, seek.views(),
      [&](size_t i, absl::Status status) {
        answers.Fail(i, std::move(status));
      },
      [&](size_t i, const BlockHandle& handle,
          const absl::StatusOr<std::shared_ptr<const Block>>& block) {
        if (!block.ok()) {
          answers.Fail(i, block.status());
          return;
        }
        std::string_view found;
        absl::Status status = table.FindInBlock(**block, handle, keys[i],
                                                seek.views()[i], &found);
        if (status.ok()) {
          answers.Pin(i, *block, found);
        } else {
          answers.Fail(i, std::move(status));
        }
      });
}

}  // namespace bloomtable
