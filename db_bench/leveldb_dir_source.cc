#include "db_bench/leveldb_dir_source.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "db_bench/directory.h"
#include "db_bench/peer_iterator.h"
#include "leveldb/db.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"
#include "util/xxhash64.h"

namespace bloomtable {
namespace db_bench {
namespace {

constexpr size_t kMinWriteBuffer = 64 << 10;
// LevelDB's default write_buffer_size.
constexpr size_t kMaxWriteBuffer = 4 << 20;
// Changes whenever the way the source is written changes, so that an old
// source is not reused.
constexpr char kSourceFormat[] = "leveldb_dir_source v2";
// A compacted source leaves 1 key in this many in its live log.
constexpr size_t kCompactedLogShare = 100;

absl::Status FromFilesystemError(const std::string& what,
                                 const std::error_code& error) {
  return absl::InternalError(absl::StrCat(what, ": ", error.message()));
}

// Writes the source into `dir` (which must not exist) with a leveldb::DB.
absl::Status WriteSource(const std::string& dir, const EngineOptions& options,
                         const FillInput& input, Progress* progress) {
  std::unique_ptr<const leveldb::FilterPolicy> filter;
  if (options.bloom_bits > 0) {
    filter.reset(leveldb::NewBloomFilterPolicy(
        static_cast<int>(std::lround(options.bloom_bits))));
  }
  leveldb::Options db_options;
  db_options.create_if_missing = true;
  db_options.error_if_exists = true;
  db_options.block_size = options.block_size;
  db_options.compression =
      options.snappy ? leveldb::kSnappyCompression : leveldb::kNoCompression;
  db_options.filter_policy = filter.get();
  db_options.write_buffer_size = SourceWriteBufferSize(input);
  leveldb::DB* raw = nullptr;
  leveldb::Status status = leveldb::DB::Open(db_options, dir, &raw);
  if (!status.ok()) return FromPeerStatus(status);
  std::unique_ptr<leveldb::DB> db(raw);
  std::string key(input.keys->key_size(), '0');
  const leveldb::WriteOptions write_options;
  constexpr uint64_t kProgressBatch = 1000;
  uint64_t unreported = 0;
  // Compacted: the keys before this position are compacted into one level
  // before the rest is written.
  const size_t compact_at =
      options.leveldb_source_compacted
          ? input.order.size() - input.order.size() / kCompactedLogShare
          : input.order.size() + 1;
  for (size_t position = 0; position < input.order.size(); ++position) {
    if (position == compact_at) {
      progress->SetPhase("compacting");
      db->CompactRange(nullptr, nullptr);
      progress->SetPhase("filling");
    }
    const uint64_t j = input.order[position];
    input.keys->PresentKey(j, key.data());
    const std::string_view value = input.values->Value(j);
    status =
        db->Put(write_options, key, leveldb::Slice(value.data(), value.size()));
    if (!status.ok()) return FromPeerStatus(status);
    if (++unreported == kProgressBatch) {
      progress->Add(unreported);
      unreported = 0;
    }
  }
  progress->Add(unreported);
  progress->SetPhase("closing");
  // Waits for a running compaction; the memtable stays in the log.
  db.reset();
  return absl::OkStatus();
}

// Names in an engine's directory that are db_bench's own, kept when the
// copy is replaced (the driver's db_bench_meta.json, the source marker).
constexpr char kOwnPrefix[] = "db_bench_";
constexpr char kSourceMarker[] = "db_bench_leveldb_source";

// Makes `to` (created if missing) hold a copy of the regular files of
// `from`: its other files are removed, except db_bench's own.
absl::Status ReplaceWithCopy(const std::string& from, const std::string& to) {
  absl::Status status = CreateDirectories(to);
  if (!status.ok()) return status;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(to, error)) {
    if (entry.path().filename().string().rfind(kOwnPrefix, 0) == 0) continue;
    std::filesystem::remove_all(entry.path(), error);
    if (error) {
      return FromFilesystemError(
          absl::StrCat("removing ", entry.path().string()), error);
    }
  }
  if (error) return FromFilesystemError(absl::StrCat("listing ", to), error);
  for (const auto& entry : std::filesystem::directory_iterator(from, error)) {
    if (!entry.is_regular_file()) continue;
    std::filesystem::copy_file(
        entry.path(), std::filesystem::path(to) / entry.path().filename(),
        error);
    if (error) {
      return FromFilesystemError(
          absl::StrCat("copying ", entry.path().string(), " to ", to), error);
    }
  }
  if (error) return FromFilesystemError(absl::StrCat("listing ", from), error);
  return absl::OkStatus();
}

}  // namespace

size_t SourceWriteBufferSize(const FillInput& input) {
  const uint64_t raw_bytes = input.order.size() * (input.keys->key_size() +
                                                   input.values->value_size());
  return static_cast<size_t>(
      std::clamp<uint64_t>(raw_bytes / 8, kMinWriteBuffer, kMaxWriteBuffer));
}

std::string LevelDBSourceDirectory(const EngineOptions& options,
                                   const FillInput& input) {
  uint64_t hash = XXH3Hash64(
      absl::StrFormat("%s block_size=%d snappy=%d bloom_bits=%g compacted=%d",
                      kSourceFormat, options.block_size, options.snappy,
                      options.bloom_bits, options.leveldb_source_compacted),
      0);
  std::string key(input.keys->key_size(), '0');
  for (uint64_t j : input.order) {
    input.keys->PresentKey(j, key.data());
    hash = XXH3Hash64(key, hash);
    hash = XXH3Hash64(input.values->Value(j), hash);
  }
  const std::filesystem::path parent =
      std::filesystem::path(options.dir).parent_path();
  return (parent / absl::StrFormat("leveldb_dir_source-%016x", hash)).string();
}

absl::Status FillFromLevelDBSource(const EngineOptions& options,
                                   const FillInput& input, Progress* progress) {
  const std::string source = LevelDBSourceDirectory(options, input);
  std::error_code error;
  if (std::filesystem::is_directory(source, error)) {
    progress->Add(input.order.size());
  } else {
    const std::string partial = source + ".partial";
    absl::Status status = RemoveDirectory(partial);
    if (!status.ok()) return status;
    status = WriteSource(partial, options, input, progress);
    if (!status.ok()) return status;
    std::filesystem::rename(partial, source, error);
    if (error) {
      return FromFilesystemError(absl::StrCat("renaming ", partial), error);
    }
  }
  progress->SetPhase("copying");
  absl::Status status = RecreateDirectory(options.dir);
  if (status.ok()) status = ReplaceWithCopy(source, options.dir);
  if (!status.ok()) return status;
  std::ofstream marker(std::filesystem::path(options.dir) / kSourceMarker);
  marker << source << "\n";
  marker.close();
  if (!marker) {
    return absl::InternalError(
        absl::StrCat("could not write ", options.dir, "/", kSourceMarker));
  }
  return absl::OkStatus();
}

absl::Status RecopyLevelDBSource(const EngineOptions& options) {
  const std::filesystem::path marker_path =
      std::filesystem::path(options.dir) / kSourceMarker;
  std::ifstream marker(marker_path);
  std::string source;
  if (!marker || !std::getline(marker, source) || source.empty()) {
    return absl::NotFoundError(absl::StrCat(
        marker_path.string(), " is missing: fill this store first"));
  }
  std::error_code error;
  if (!std::filesystem::is_directory(source, error)) {
    return absl::NotFoundError(absl::StrCat(
        "the LevelDB source directory ", source,
        " is gone: fill this store again (run without --use_existing_db)"));
  }
  return ReplaceWithCopy(source, options.dir);
}

}  // namespace db_bench
}  // namespace bloomtable
