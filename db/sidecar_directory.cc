// BuildSidecarFilters and its kin (bloomtable/sidecar.h): which tables of a
// database need a sidecar, built on a few threads into the sidecar
// directory, and the sidecars whose tables are gone.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/database.h"
#include "bloomtable/db_files.h"
#include "bloomtable/db_version.h"
#include "bloomtable/durable_file.h"
#include "bloomtable/file.h"
#include "bloomtable/sidecar.h"
#include "db/sidecar_binding.h"
#include "db/sidecar_builder.h"
#include "db/sidecar_format.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

constexpr std::string_view kSidecarSuffix = ".sidecar";
constexpr std::string_view kBytewiseName = "leveldb.BytewiseComparator";

// One table to give a sidecar.
struct SidecarJob {
  std::string table_path;
  std::string sidecar_path;
  std::string table_name;  // for messages
  SidecarTableKind kind = SidecarTableKind::kDatabaseTable;
  uint64_t number = 0;
  uint64_t recorded_size = 0;  // 0: the file's own size
  std::string smallest;
  std::string largest;
};

absl::Status SidecarDirectoryError(const std::string& dir,
                                   const std::error_code& error) {
  return absl::Status(error == std::errc::permission_denied
                          ? absl::StatusCode::kPermissionDenied
                          : absl::StatusCode::kInternal,
                      absl::StrCat(dir, ": ", error.message()));
}

// Runs the jobs on `threads` threads; fills the summary.
class SidecarBuildRun {
 public:
  SidecarBuildRun(const SidecarBuildOptions& options, bool internal_keys,
                  bool bytewise, uint64_t tables_total)
      : options_(options),
        internal_keys_(internal_keys),
        bytewise_(bytewise),
        settings_(SidecarSettings(options.filters, bytewise)) {
    progress_.tables_total = tables_total;
  }

  void Run(const std::vector<SidecarJob>& jobs, SidecarBuildSummary* summary) {
    summary_ = summary;
    const size_t threads = std::min<size_t>(
        jobs.size(), static_cast<size_t>(std::max(options_.threads, 1)));
    std::atomic<size_t> next{0};
    const auto work = [&]() {
      for (size_t i = next.fetch_add(1); i < jobs.size();
           i = next.fetch_add(1)) {
        RunJob(jobs[i]);
      }
    };
    std::vector<std::thread> workers;
    for (size_t t = 1; t < threads; ++t) workers.emplace_back(work);
    work();
    for (std::thread& worker : workers) worker.join();
    std::sort(summary->failed.begin(), summary->failed.end());
  }

  // The error of the first job that failed (OK if none did).
  const absl::Status& first_failure() const { return first_failure_; }

 private:
  void RunJob(const SidecarJob& job) {
    absl::Status status = BuildOne(job);
    std::lock_guard<std::mutex> lock(mutex_);
    if (!status.ok()) {
      summary_->failed.push_back(
          absl::StrCat(job.table_name, ": ", status.message()));
      if (first_failure_.ok()) first_failure_ = status;
    }
    ++progress_.tables_done;
    Report();
  }

  // Called with mutex_ held.
  void Report() {
    if (options_.progress) options_.progress(progress_);
  }

  void AddKeys(uint64_t keys) {
    std::lock_guard<std::mutex> lock(mutex_);
    progress_.keys_done += keys;
    Report();
  }

  absl::Status BuildOne(const SidecarJob& job) {
    absl::StatusOr<uint64_t> actual_size = GetFileSize(job.table_path);
    if (!actual_size.ok()) return actual_size.status();
    uint64_t size = *actual_size;
    if (job.kind == SidecarTableKind::kDatabaseTable) {
      if (size < job.recorded_size) {
        return absl::DataLossError(absl::StrCat(
            "table is shorter (", size, " bytes) than the MANIFEST records (",
            job.recorded_size, " bytes)"));
      }
      size = job.recorded_size;
    }
    absl::StatusOr<std::unique_ptr<RandomAccessFile>> file =
        OpenRandomAccessFile(job.table_path);
    if (!file.ok()) return file.status();
    // The binding and the keys come from one open file, so that a table
    // replaced meanwhile cannot lend its keys to the other's binding.
    absl::StatusOr<SidecarBinding> binding = ReadTableFileBinding(**file, size);
    if (!binding.ok()) return binding.status();
    binding->kind = job.kind;
    binding->file_number = job.number;
    binding->smallest = job.smallest;
    binding->largest = job.largest;

    // A missing sidecar is the common case: asked without making an error
    // (whose errno text, made on many threads at once, is what the
    // ThreadSanitizer sees racing inside Abseil's uninstrumented StrError).
    std::error_code ignored;
    absl::StatusOr<std::string> existing =
        std::filesystem::exists(job.sidecar_path, ignored)
            ? ReadFileToString(job.sidecar_path)
            : absl::NotFoundError(job.sidecar_path);
    if (existing.ok()) {
      absl::StatusOr<SidecarContents> contents = DecodeSidecar(*existing);
      if (contents.ok() && contents->binding == *binding &&
          contents->settings == settings_ &&
          contents->internal_keys == internal_keys_) {
        std::lock_guard<std::mutex> lock(mutex_);
        ++summary_->up_to_date;
        return absl::OkStatus();
      }
    }

    Options table_options;
    table_options.key_format =
        internal_keys_ ? KeyFormat::kLevelDBInternal : KeyFormat::kPlain;
    absl::StatusOr<std::unique_ptr<Table>> table =
        Table::Open(table_options, *std::move(file), size);
    if (!table.ok()) return table.status();
    uint64_t last_keys = 0;
    absl::StatusOr<SidecarContents> contents =
        BuildSidecarContents(**table, internal_keys_, options_.filters,
                             bytewise_, [&](uint64_t keys) {
                               AddKeys(keys - last_keys);
                               last_keys = keys;
                               return true;
                             });
    if (!contents.ok()) return contents.status();
    AddKeys(contents->keys - last_keys);
    contents->binding = *std::move(binding);
    contents->settings = settings_;
    const std::string bytes = EncodeSidecar(*contents);
    absl::Status status = WriteFileDurably(
        job.sidecar_path,
        [&bytes](WritableFile* out) { return out->Append(bytes); });
    if (!status.ok()) return status;
    std::lock_guard<std::mutex> lock(mutex_);
    ++summary_->built;
    summary_->entries += contents->entries;
    summary_->keys += contents->keys;
    summary_->bytes += bytes.size();
    return absl::OkStatus();
  }

  const SidecarBuildOptions& options_;
  const bool internal_keys_;
  const bool bytewise_;
  const std::string settings_;
  std::mutex mutex_;
  SidecarBuildSummary* summary_ = nullptr;
  SidecarBuildProgress progress_;
  absl::Status first_failure_;
};

// Whether `inner` is `outer` or lies inside it.
bool IsWithin(const std::string& inner, const std::string& outer) {
  std::error_code error;
  const std::filesystem::path a =
      std::filesystem::weakly_canonical(inner, error);
  if (error) return false;
  const std::filesystem::path b =
      std::filesystem::weakly_canonical(outer, error);
  if (error) return false;
  auto ai = a.begin();
  for (auto bi = b.begin(); bi != b.end(); ++bi, ++ai) {
    if (bi->empty()) continue;  // a trailing separator
    if (ai == a.end() || *ai != *bi) return false;
  }
  return true;
}

absl::Status MakeSidecarDirectory(const std::string& sidecar_dir) {
  std::error_code error;
  std::filesystem::create_directories(sidecar_dir, error);
  if (error) return SidecarDirectoryError(sidecar_dir, error);
  return absl::OkStatus();
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace

std::string SidecarFileName(std::string_view table_file_name) {
  return absl::StrCat(ToAbsl(table_file_name), ToAbsl(kSidecarSuffix));
}

absl::StatusOr<SidecarBuildSummary> BuildSidecarFilters(
    const std::string& db_dir, const std::string& sidecar_dir,
    const SidecarBuildOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  if (IsWithin(sidecar_dir, db_dir)) {
    return absl::InvalidArgumentError(
        absl::StrCat(sidecar_dir,
                     ": sidecar filters are kept outside the "
                     "database directory, which is never "
                     "written; name another directory"));
  }
  absl::StatusOr<DatabaseVersion> version = ReadVersion(db_dir);
  if (!version.ok()) return version.status();
  absl::Status status = MakeSidecarDirectory(sidecar_dir);
  if (!status.ok()) return status;
  const DbVersion& live = version->manifest.version;
  const bool bytewise =
      live.comparator.empty() || live.comparator == kBytewiseName;

  std::vector<SidecarJob> jobs;
  for (int level = 0; level < kNumLevels; ++level) {
    for (const TableFileInfo& info : live.files[level]) {
      auto name = version->table_files.find(info.number);
      SidecarJob job;
      job.table_name = name != version->table_files.end()
                           ? name->second
                           : TableFileName(info.number);
      job.table_path = absl::StrCat(db_dir, "/", job.table_name);
      job.sidecar_path =
          absl::StrCat(sidecar_dir, "/", SidecarFileName(job.table_name));
      job.number = info.number;
      job.recorded_size = info.size;
      job.smallest = info.smallest;
      job.largest = info.largest;
      jobs.push_back(std::move(job));
    }
  }
  // Largest tables first, so that on several threads no thread is left
  // with a large table once the others have run out of work.
  std::stable_sort(jobs.begin(), jobs.end(),
                   [](const SidecarJob& a, const SidecarJob& b) {
                     return a.recorded_size > b.recorded_size;
                   });
  SidecarBuildSummary summary;
  summary.tables = jobs.size();
  SidecarBuildRun run(options, /*internal_keys=*/true, bytewise, jobs.size());
  run.Run(jobs, &summary);

  absl::StatusOr<std::vector<std::string>> orphaned =
      ListOrphanedSidecars(db_dir, sidecar_dir, options.prune);
  if (!orphaned.ok()) return orphaned.status();
  if (options.prune) {
    summary.pruned = *std::move(orphaned);
  } else {
    summary.orphaned = *std::move(orphaned);
  }
  summary.seconds = SecondsSince(start);
  return summary;
}

absl::StatusOr<SidecarBuildSummary> BuildTableFileSidecarFilter(
    const std::string& table_path, bool internal_keys,
    const std::string& sidecar_dir, const SidecarBuildOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  absl::Status status = MakeSidecarDirectory(sidecar_dir);
  if (!status.ok()) return status;
  SidecarJob job;
  job.kind = SidecarTableKind::kTableFile;
  job.table_path = table_path;
  job.table_name = std::filesystem::path(table_path).filename().string();
  job.sidecar_path =
      absl::StrCat(sidecar_dir, "/", SidecarFileName(job.table_name));
  SidecarBuildSummary summary;
  summary.tables = 1;
  SidecarBuildRun run(options, internal_keys, /*bytewise=*/true, 1);
  run.Run({job}, &summary);
  if (!run.first_failure().ok()) return run.first_failure();
  summary.seconds = SecondsSince(start);
  return summary;
}

absl::StatusOr<std::vector<std::string>> ListOrphanedSidecars(
    const std::string& db_dir, const std::string& sidecar_dir, bool prune) {
  absl::StatusOr<DatabaseVersion> version = ReadVersion(db_dir);
  if (!version.ok()) return version.status();
  std::set<uint64_t> live;
  for (const std::vector<TableFileInfo>& files :
       version->manifest.version.files) {
    for (const TableFileInfo& info : files) live.insert(info.number);
  }
  std::vector<std::string> orphaned;
  std::error_code error;
  if (!std::filesystem::exists(sidecar_dir, error)) return orphaned;
  for (const auto& entry :
       std::filesystem::directory_iterator(sidecar_dir, error)) {
    const std::string name = entry.path().filename().string();
    if (name.size() <= kSidecarSuffix.size() ||
        name.compare(name.size() - kSidecarSuffix.size(), kSidecarSuffix.size(),
                     kSidecarSuffix) != 0) {
      continue;
    }
    const std::optional<DbFileName> table = ParseDbFileName(
        std::string_view(name).substr(0, name.size() - kSidecarSuffix.size()));
    if (!table.has_value() || table->type != DbFileType::kTable ||
        live.count(table->number) != 0) {
      continue;
    }
    orphaned.push_back(name);
  }
  if (error) return SidecarDirectoryError(sidecar_dir, error);
  std::sort(orphaned.begin(), orphaned.end());
  if (prune) {
    for (const std::string& name : orphaned) {
      std::filesystem::remove(std::filesystem::path(sidecar_dir) / name, error);
      if (error) return SidecarDirectoryError(sidecar_dir, error);
    }
  }
  return orphaned;
}

}  // namespace bloomtable
