// The LevelDB-written database directory that db_bench's two
// LevelDB-directory engines (bloomtable_db: bloomtable's read-only view;
// leveldb_dir: a leveldb::DB) read, so that both read the same files.
//
// The source directory is written once per data set by a real leveldb::DB:
// every entry of the fill is Put in the fill's order (LevelDB's own Bloom
// filter at EngineOptions::bloom_bits, the options' block size and
// compression), with no full compaction, so that LevelDB's background
// compactions leave the tables on several levels; then the DB is closed,
// which leaves the last writes in the live log (LevelDB does not flush its
// memtable on close). The memtable is sized from the data (an eighth of the
// raw bytes, between 64 KiB and LevelDB's default 4 MiB), so that small data
// sets have tables too. A leveldb::DB that opens such a copy goes on
// compacting it (level 0 past its trigger, then files that lookups probe in
// vain), so that the two engines soon read different layouts.
//
// With EngineOptions::leveldb_source_compacted the source is written to a
// layout that neither engine changes: the first 99% of the fill's entries,
// then CompactRange over every key (one level), then the last 1%, which
// stays in the live log.
//
// The source lives beside the engines' directories (in the parent of
// EngineOptions::dir), named by a fingerprint of the data set (every key and
// value in fill order, block size, compression, bits per key); each engine's
// fill copies it, byte for byte, into its own directory (and notes the
// source's path there); each later open (OpenExisting: another I/O path or
// cache size, --use_existing_db) copies it again, so that every
// configuration starts from what LevelDB wrote, not from what an earlier
// leveldb::DB compacted it into. A source being
// written is named "*.partial" and renamed when complete, so an interrupted
// fill is never taken for a complete one.

#ifndef BLOOMTABLE_DB_BENCH_LEVELDB_DIR_SOURCE_H_
#define BLOOMTABLE_DB_BENCH_LEVELDB_DIR_SOURCE_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "db_bench/engine.h"
#include "db_bench/progress.h"

namespace bloomtable {
namespace db_bench {

// LevelDB's write_buffer_size for the source of `input` (see above).
size_t SourceWriteBufferSize(const FillInput& input);

// The source directory's path for `input` written with `options`.
std::string LevelDBSourceDirectory(const EngineOptions& options,
                                   const FillInput& input);

// Writes the source directory of `input` if it does not exist yet, then
// replaces options.dir with a copy of it. Progress counts the entries
// written (all at once when the source already existed).
absl::Status FillFromLevelDBSource(const EngineOptions& options,
                                   const FillInput& input, Progress* progress);

// Copies again, into options.dir, the source its last fill copied (db_bench's
// own files there are kept). NotFound if options.dir was never filled from a
// source or the source is gone.
absl::Status RecopyLevelDBSource(const EngineOptions& options);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_LEVELDB_DIR_SOURCE_H_
