#include "db_bench/leveldb_dir_source.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "db_bench/directory.h"
#include "db_bench/leveldb_env.h"
#include "db_bench/peer_iterator.h"
#include "leveldb/db.h"
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
constexpr char kSourceFormat[] = "leveldb_dir_source v3";

absl::Status FromFilesystemError(const std::string& what,
                                 const std::error_code& error) {
  return absl::InternalError(absl::StrCat(what, ": ", error.message()));
}

// The options the source is written with: LevelDB's own Bloom filter at
// the source's bits per key, whatever filter the engine reading it has.
EngineOptions SourceWriterOptions(const EngineOptions& options) {
  EngineOptions writer = options;
  writer.bloom_bits = options.leveldb_source_bloom_bits;
  writer.leveldb_adapted_policy = nullptr;
  return writer;
}

// Writes the source into `dir` (which must not exist) with a leveldb::DB.
absl::Status WriteSource(const std::string& dir, const EngineOptions& options,
                         const FillInput& input, Progress* progress) {
  LevelDBSetup setup(SourceWriterOptions(options));
  absl::Status status = setup.status();
  if (!status.ok()) return status;
  leveldb::Options db_options = setup.Options();
  db_options.create_if_missing = true;
  db_options.error_if_exists = true;
  db_options.write_buffer_size = SourceWriteBufferSize(input);
  leveldb::DB* raw = nullptr;
  leveldb::Status opened = leveldb::DB::Open(db_options, dir, &raw);
  if (!opened.ok()) return FromPeerStatus(opened);
  std::unique_ptr<leveldb::DB> db(raw);
  const leveldb::WriteOptions write_options;
  status =
      PutEntries(input, input.order, progress,
                 [&](std::string_view key, std::string_view value) {
                   return FromPeerStatus(db->Put(
                       write_options, leveldb::Slice(key.data(), key.size()),
                       leveldb::Slice(value.data(), value.size())));
                 });
  if (!status.ok()) return status;
  if (options.leveldb_source_compacted) {
    // Flushes the memtable (the live log is then empty), then compacts
    // every level into the next: one level.
    progress->SetPhase("compacting");
    db->CompactRange(nullptr, nullptr);
  }
  progress->SetPhase("closing");
  // Waits for a running compaction; as written, the memtable stays in the
  // log.
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

// Whether `to` holds the regular files of `from` under the same names and
// sizes, and no other files but db_bench's own.
bool HoldsSameFiles(const std::string& from, const std::string& to) {
  std::error_code error;
  size_t matched = 0;
  for (const auto& entry : std::filesystem::directory_iterator(from, error)) {
    if (!entry.is_regular_file()) continue;
    const std::filesystem::path copy =
        std::filesystem::path(to) / entry.path().filename();
    std::error_code size_error;
    if (std::filesystem::file_size(copy, size_error) != entry.file_size() ||
        size_error) {
      return false;
    }
    ++matched;
  }
  if (error) return false;
  size_t present = 0;
  for (const auto& entry : std::filesystem::directory_iterator(to, error)) {
    if (entry.path().filename().string().rfind(kOwnPrefix, 0) != 0) ++present;
  }
  return !error && present == matched;
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
      absl::StrFormat("%s block_size=%d snappy=%d bloom_bits=%d compacted=%d",
                      kSourceFormat, options.block_size, options.snappy,
                      options.leveldb_source_bloom_bits,
                      options.leveldb_source_compacted),
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

absl::Status RecopyLevelDBSource(const EngineOptions& options,
                                 bool unless_unchanged) {
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
  if (unless_unchanged && HoldsSameFiles(source, options.dir)) {
    return absl::OkStatus();
  }
  return ReplaceWithCopy(source, options.dir);
}

}  // namespace db_bench
}  // namespace bloomtable
