// Database::MultiGet: Get for a batch of keys, in rounds. Each key walks
// the tables Get would ask, in Get's order; in each round every key still
// looking asks its next table, and all of the round's keys are looked up
// together across their tables (BatchedBlockLookups, table/multi_get.h):
// filters and index searches first, then every table's missing data blocks
// (one read per distinct block, a table's blocks with one MultiRead), then
// the searches in the blocks.

#include "table/multi_get.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/database.h"
#include "db/database_rep.h"
#include "table/internal_key.h"
#include "util/comparison_errors.h"

namespace bloomtable {

std::vector<absl::StatusOr<std::string>> Database::MultiGet(
    const DatabaseReadOptions& read_options,
    const std::vector<std::string_view>& user_keys) const {
  std::vector<absl::Status> statuses;
  std::vector<std::string> values;
  MultiGetInto(read_options, user_keys, &statuses, &values, nullptr);
  return ResultsOf(std::move(statuses), std::move(values));
}

std::vector<absl::Status> Database::MultiGet(
    const DatabaseReadOptions& read_options,
    const std::vector<std::string_view>& user_keys,
    std::vector<PinnedValue>* values) const {
  // Gathered apart and handed over at the end: a key may lie in what one
  // of `*values` holds until then.
  std::vector<PinnedValue> pins(user_keys.size());
  std::vector<absl::Status> statuses;
  MultiGetInto(read_options, user_keys, &statuses, nullptr, &pins);
  *values = std::move(pins);
  return statuses;
}

void Database::MultiGetInto(const DatabaseReadOptions& read_options,
                            const std::vector<std::string_view>& user_keys,
                            std::vector<absl::Status>* statuses,
                            std::vector<std::string>* values,
                            std::vector<PinnedValue>* pinned) const {
  const Rep& r = *rep_;
  const size_t n = user_keys.size();
  statuses->assign(n, absl::OkStatus());
  if (pinned == nullptr) values->assign(n, std::string());
  if (r.user_comparator == nullptr) {
    statuses->assign(n, r.NotOrdered());
    return;
  }
  if (r.user_comparator == BytewiseComparator()) {
    MultiGetOrdered(read_options, user_keys, statuses, values, pinned);
    return;
  }
  // A key the comparator cannot order is the caller's mistake, answered as
  // Get answers it; the others are looked up together.
  const auto get_alone = [&](size_t i) {
    (*statuses)[i] = GetInto(read_options, user_keys[i],
                             pinned == nullptr ? &(*values)[i] : nullptr,
                             pinned == nullptr ? nullptr : &(*pinned)[i]);
  };
  std::vector<size_t> valid;
  std::vector<std::string_view> valid_keys;
  for (size_t i = 0; i < n; ++i) {
    ComparisonErrorScope key_errors;
    r.user_comparator->Compare(user_keys[i], user_keys[i]);
    if (key_errors.failed()) {
      get_alone(i);
    } else {
      valid.push_back(i);
      valid_keys.push_back(user_keys[i]);
    }
  }
  bool comparison_failed;
  std::vector<absl::Status> found_statuses(valid.size());
  std::vector<std::string> found_values(pinned == nullptr ? valid.size() : 0);
  std::vector<PinnedValue> found_pins(pinned == nullptr ? 0 : valid.size());
  {
    ComparisonErrorScope comparison_errors;
    MultiGetOrdered(read_options, valid_keys, &found_statuses, &found_values,
                    pinned == nullptr ? nullptr : &found_pins);
    comparison_failed = comparison_errors.failed();
  }
  for (size_t v = 0; v < valid.size(); ++v) {
    const size_t i = valid[v];
    // A key of the database that the comparator could not order cannot be
    // blamed on one key of the batch: each then answers alone, as Get does.
    if (comparison_failed) {
      get_alone(i);
      continue;
    }
    (*statuses)[i] = std::move(found_statuses[v]);
    if (pinned == nullptr) {
      (*values)[i] = std::move(found_values[v]);
    } else {
      (*pinned)[i] = std::move(found_pins[v]);
    }
  }
}

void Database::MultiGetOrdered(const DatabaseReadOptions& read_options,
                               const std::vector<std::string_view>& user_keys,
                               std::vector<absl::Status>* statuses,
                               std::vector<std::string>* values,
                               std::vector<PinnedValue>* pinned) const {
  const Rep& r = *rep_;
  const size_t n = user_keys.size();
  BatchAnswers answers{statuses, values, pinned};
  const uint64_t snapshot = r.Snapshot(read_options);
  const uint64_t tag = PackSequenceAndType(snapshot, ValueType::kValue);

  // The log view first; then each key's tables, in the order Get asks them.
  std::vector<Rep::Candidates> candidates(n);
  std::vector<size_t> next(n, 0);  // each key's next table to ask
  std::vector<size_t> pending;
  for (size_t i = 0; i < n; ++i) {
    if (const LogView::Record* record =
            r.log_view.Lookup(user_keys[i], snapshot)) {
      ParsedInternalKey parsed;
      ParseInternalKey(record->internal_key, &parsed);
      if (parsed.type == ValueType::kDeletion) {
        answers.Fail(i, KeyNotFound());
      } else {
        answers.Copy(i, record->value);
      }
    } else if (r.tables_in_memory) {
      answers.Fail(i, KeyNotFound());
    } else {
      r.FindCandidates(user_keys[i], tag, &candidates[i]);
      pending.push_back(i);
    }
  }

  const SidecarSet* const sidecars = r.sidecars.get();
  SidecarSet::LookupCounts sidecar_counts(sidecars);
  std::vector<SidecarKey> sidecar_keys;
  if (sidecars != nullptr) {
    sidecar_keys.resize(n);
    for (size_t i : pending) {
      sidecar_keys[i] = SidecarKey(user_keys[i]);
      for (size_t c = 0; c < candidates[i].size(); ++c) {
        sidecars->Prefetch(candidates[i][c].level, candidates[i][c].index,
                           sidecar_keys[i]);
      }
    }
  }
  ReadOptions table_read;
  table_read.verify_checksums = read_options.verify_checksums;
  table_read.fill_cache = read_options.fill_cache;
  // Every key's seek key (the user key with the snapshot's tag), made once
  // for all rounds.
  const BatchSeekKeys seek(true, user_keys, tag);

  // Rounds: each pending key moves to the next table its sidecar filter
  // does not rule out; all keys of a round, whatever their tables, are
  // looked up together (BatchedBlockLookups across tables), so that the
  // round's missing blocks are read before any key is searched.
  std::vector<size_t> asking;
  // The round's keys, in `asking` order: each key's table and its lookup.
  std::vector<const BatchLookupTable*> round_tables;
  std::vector<const DatabaseTableFile*> round_files;
  std::vector<std::string_view> round_keys;
  std::vector<std::string_view> round_seek;
  std::vector<std::shared_ptr<const Table>> held_tables;
  while (!pending.empty()) {
    asking.clear();
    for (size_t i : pending) {
      const Rep::Candidates& tables = candidates[i];
      while (next[i] < tables.size() && sidecars != nullptr &&
             !sidecars->KeyMayMatch(tables[next[i]].level,
                                    tables[next[i]].index, sidecar_keys[i],
                                    &sidecar_counts)) {
        ++next[i];
      }
      if (next[i] == tables.size()) {
        answers.Fail(i, KeyNotFound());
      } else {
        asking.push_back(i);
      }
    }
    const auto table_of = [&](size_t i) {
      const Rep::Candidates::Table& table = candidates[i][next[i]];
      return (uint64_t{table.level} << 32) | table.index;
    };
    // Grouped by table, so that each table is opened once per round.
    std::sort(asking.begin(), asking.end(), [&](size_t a, size_t b) {
      return table_of(a) != table_of(b) ? table_of(a) < table_of(b) : a < b;
    });
    pending.clear();
    round_tables.clear();
    round_files.clear();
    round_keys.clear();
    round_seek.clear();
    held_tables.clear();
    size_t kept = 0;  // asking[0, kept): the keys looked up this round
    for (size_t begin = 0; begin < asking.size();) {
      size_t end = begin + 1;
      while (end < asking.size() &&
             table_of(asking[end]) == table_of(asking[begin])) {
        ++end;
      }
      const Rep::Candidates::Table& at =
          candidates[asking[begin]][next[asking[begin]]];
      const DatabaseTableFile& file = r.levels[at.level][at.index];
      std::shared_ptr<const Table> held;
      const Table* table = nullptr;
      const absl::Status open_status =
          r.tables.OpenForLookup(file, &held, &table);
      if (!open_status.ok()) {
        for (size_t a = begin; a < end; ++a)
          answers.Fail(asking[a], open_status);
        begin = end;
        continue;
      }
      if (held != nullptr) held_tables.push_back(std::move(held));
      const BatchLookupTable& steps = BatchLookupOf(*table);
      for (size_t a = begin; a < end; ++a) {
        asking[kept++] = asking[a];
        round_tables.push_back(&steps);
        round_files.push_back(&file);
        round_keys.push_back(user_keys[asking[a]]);
        round_seek.push_back(seek.views()[asking[a]]);
      }
      begin = end;
    }
    // A key the table does not hold goes on to its next table.
    const auto not_here = [&](size_t i) {
      ++next[i];
      pending.push_back(i);
    };
    BatchedBlockLookups(
        round_tables, table_read, round_keys, round_seek,
        [&](size_t j, absl::Status status) {
          if (absl::IsNotFound(status)) {
            not_here(asking[j]);
          } else {
            answers.Fail(asking[j],
                         Rep::TableLookupError(*round_files[j], status));
          }
        },
        [&](size_t j, const BlockHandle& handle,
            const absl::StatusOr<std::shared_ptr<const Block>>& block) {
          const size_t i = asking[j];
          if (!block.ok()) {
            answers.Fail(
                i, Rep::TableLookupError(*round_files[j], block.status()));
            return;
          }
          KeyVersion version;
          std::string_view found;
          const absl::Status status = round_tables[j]->FindVersionInBlock(
              **block, handle, round_keys[j], round_seek[j], &version, &found);
          if (status.ok()) {
            if (version.deleted) {
              answers.Fail(i, KeyNotFound());
            } else {
              answers.Pin(i, *block, found);
            }
          } else if (absl::IsNotFound(status)) {
            not_here(i);
          } else {
            answers.Fail(i, Rep::TableLookupError(*round_files[j], status));
          }
        },
        &r.read_workers);
  }
}

}  // namespace bloomtable
