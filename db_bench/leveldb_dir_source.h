// The LevelDB-written database directory that db_bench's two
// LevelDB-directory engines (bloomtable_db and leveldb_dir) read, so that
// both read the same files.
//
// A real leveldb::DB writes it once per data set: every entry Put in the
// fill's order (LevelDB's own Bloom filter at EngineOptions::
// leveldb_source_bloom_bits, whatever filter the reading engine has), with
// LevelDB's default options otherwise, without a full compaction, so that
// its background compactions leave tables on several levels, then closed,
// which leaves the last writes in the live log. The memtable is an eighth of
// the raw bytes (64 KiB to LevelDB's default 4 MiB: the default from 32 MB
// of data on), so that small data sets have tables too. With
// EngineOptions::leveldb_source_compacted: every entry, then CompactRange
// over every key, which leaves one level of tables and an empty live log.
//
// The source lives beside the engines' directories, named by a fingerprint
// of the data set; each fill and each later open copies it, byte for byte,
// into the engine's directory, so that every configuration starts from what
// LevelDB wrote. A source being written is named "*.partial" until complete.

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
// own files there are kept). With `unless_unchanged`, a copy that holds the
// source's files under the same names and sizes, and no others, is kept as
// it is (for readers that never write into their copy: a table or log
// file, once written, is never rewritten in place). NotFound if options.dir
// was never filled from a source or the source is gone.
absl::Status RecopyLevelDBSource(const EngineOptions& options,
                                 bool unless_unchanged = false);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_LEVELDB_DIR_SOURCE_H_
