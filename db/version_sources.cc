#include "db/version_sources.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/log_reader.h"
#include "bloomtable/write_batch.h"
#include "table/internal_key.h"

namespace bloomtable {

VersionSource::~VersionSource() = default;

namespace {

// Versions copied out of a data block or a log: their bytes in one buffer.
class VersionBuffer {
 public:
  void Clear() {
    bytes_.clear();
    entries_.clear();
  }
  void Add(std::string_view user_key, uint64_t sequence, bool deletion,
           std::string_view value, uint64_t offset) {
    entries_.push_back(Entry{bytes_.size(), user_key.size(), value.size(),
                             sequence, offset, deletion});
    bytes_.append(user_key);
    bytes_.append(value);
  }
  size_t size() const { return entries_.size(); }
  // Sets `*out` to entry `i`; its views stay valid until the next Add or
  // Clear.
  void Get(size_t i, SourceVersion* out) const {
    const Entry& e = entries_[i];
    out->user_key = std::string_view(bytes_.data() + e.begin, e.key_size);
    out->value =
        std::string_view(bytes_.data() + e.begin + e.key_size, e.value_size);
    out->sequence = e.sequence;
    out->deletion = e.deletion;
    out->offset = e.offset;
  }
  // Orders the entries by user key under `ucmp`, then newest first, keeping
  // the order of equal ones.
  void Sort(const Comparator* ucmp) {
    auto key = [this](const Entry& e) {
      return std::string_view(bytes_.data() + e.begin, e.key_size);
    };
    std::stable_sort(entries_.begin(), entries_.end(),
                     [&](const Entry& a, const Entry& b) {
                       const int c = ucmp->Compare(key(a), key(b));
                       if (c != 0) return c < 0;
                       return a.sequence > b.sequence;
                     });
  }

 private:
  struct Entry {
    size_t begin;
    size_t key_size;
    size_t value_size;
    uint64_t sequence;
    uint64_t offset;
    bool deletion;
  };
  std::string bytes_;
  std::vector<Entry> entries_;
};

bool BelowLowerBound(const SourceSettings& settings,
                     std::string_view user_key) {
  return settings.lower_bound.has_value() &&
         settings.user_comparator->Compare(user_key, *settings.lower_bound) < 0;
}

class LogViewSource final : public VersionSource {
 public:
  LogViewSource(const LogView* view, SourceSettings settings)
      : view_(view), settings_(std::move(settings)) {}

  bool StartKey(std::string_view*, uint64_t*) const override { return false; }
  void Start() override {
    const std::vector<LogView::Record>& records = view_->records();
    index_ = 0;
    if (settings_.lower_bound.has_value()) {
      const InternalKeyComparator icmp(settings_.user_comparator);
      std::string target;
      AppendInternalKey(&target, *settings_.lower_bound, kMaxSequenceNumber,
                        ValueType::kValue);
      index_ = std::lower_bound(
                   records.begin(), records.end(), target,
                   [&icmp](const LogView::Record& r, const std::string& t) {
                     return icmp.Compare(r.internal_key, t) < 0;
                   }) -
               records.begin();
    }
    Settle();
  }
  bool Valid() const override { return index_ < view_->records().size(); }
  const SourceVersion& version() const override { return version_; }
  void Next() override {
    ++index_;
    Settle();
  }
  absl::Status status() const override { return absl::OkStatus(); }

 private:
  // Moves to the first record from index_ on that is well formed, visible
  // and within the lower bound, and describes it in version_.
  void Settle() {
    const std::vector<LogView::Record>& records = view_->records();
    for (; index_ < records.size(); ++index_) {
      const LogView::Record& record = records[index_];
      ParsedInternalKey parsed;
      if (!ParseInternalKey(record.internal_key, &parsed)) continue;
      if (parsed.sequence > settings_.snapshot) continue;
      if (BelowLowerBound(settings_, parsed.user_key)) continue;
      version_.user_key = parsed.user_key;
      version_.sequence = parsed.sequence;
      version_.deletion = parsed.type == ValueType::kDeletion;
      version_.value = record.value;
      version_.file = &view_->sources()[record.source];
      version_.offset = record.offset;
      version_.recovered = record.recovered;
      return;
    }
  }

  const LogView* const view_;
  const SourceSettings settings_;
  size_t index_ = 0;
  SourceVersion version_;
};

class TableSource final : public VersionSource {
 public:
  // A live table (`file` set) or a leftover one (`file` null, `name`).
  TableSource(TableSet* tables, const DatabaseTableFile* file, std::string name,
              SourceSettings settings)
      : tables_(tables),
        file_(file),
        name_(std::move(name)),
        settings_(std::move(settings)) {
    read_options_.fill_cache = false;
  }

  bool StartKey(std::string_view* user_key, uint64_t* sequence) const override {
    ParsedInternalKey smallest;
    if (file_ == nullptr || !ParseInternalKey(file_->smallest, &smallest)) {
      return false;
    }
    *user_key = smallest.user_key;
    *sequence = smallest.sequence;
    return true;
  }

  void Start() override {
    if (file_ != nullptr) {
      // A table wholly below the lower bound is never opened.
      ParsedInternalKey largest;
      if (ParseInternalKey(file_->largest, &largest) &&
          BelowLowerBound(settings_, largest.user_key)) {
        return;
      }
      absl::StatusOr<std::shared_ptr<const Table>> table =
          tables_->Open(*file_);
      if (!table.ok()) {
        status_ = table.status();
        return;
      }
      table_ = *std::move(table);
    } else {
      absl::StatusOr<std::shared_ptr<const Table>> table =
          tables_->OpenUnlisted(name_);
      // Not a table: LevelDB leaves the unfinished output of a compaction
      // behind when it closes during one, and that file is in no version.
      if (!table.ok()) return;
      table_ = *std::move(table);
    }
    blocks_ = table_->IndexEntries();
    block_ = 0;
    if (settings_.lower_bound.has_value()) {
      // The first block whose separator is at or after the newest possible
      // version of the bound.
      const InternalKeyComparator icmp(settings_.user_comparator);
      std::string target;
      AppendInternalKey(&target, *settings_.lower_bound, kMaxSequenceNumber,
                        ValueType::kValue);
      block_ = std::lower_bound(
                   blocks_.begin(), blocks_.end(), target,
                   [&icmp](const TableBlockInfo& b, const std::string& t) {
                     return icmp.Compare(b.separator, t) < 0;
                   }) -
               blocks_.begin();
    }
    LoadBlocks();
  }

  bool Valid() const override { return entry_ < buffer_.size(); }
  const SourceVersion& version() const override { return version_; }
  void Next() override {
    ++entry_;
    if (entry_ == buffer_.size()) LoadBlocks();
    if (entry_ < buffer_.size()) buffer_.Get(entry_, &version_);
  }
  absl::Status status() const override { return status_; }

 private:
  const std::string& name() const {
    return file_ != nullptr ? file_->name : name_;
  }

  // Reads blocks from block_ on until one holds a version to list, or the
  // table ends (then lets it go) or fails.
  void LoadBlocks() {
    buffer_.Clear();
    entry_ = 0;
    while (buffer_.size() == 0 && status_.ok() && table_ != nullptr &&
           block_ < blocks_.size()) {
      const TableBlockInfo& block = blocks_[block_++];
      status_ = table_->ForEachEntryInBlock(
          read_options_, block,
          [this, &block](std::string_view key, std::string_view value) {
            ParsedInternalKey parsed;
            if (!ParseInternalKey(key, &parsed)) {
              malformed_ = absl::DataLossError(absl::StrCat(
                  name(),
                  ": malformed internal key in the data block at offset ",
                  block.offset));
              return false;
            }
            if (parsed.sequence > settings_.snapshot) return true;
            if (BelowLowerBound(settings_, parsed.user_key)) return true;
            const bool deletion = parsed.type == ValueType::kDeletion;
            buffer_.Add(parsed.user_key, parsed.sequence, deletion,
                        deletion ? std::string_view() : value, block.offset);
            return true;
          });
      if (status_.ok()) status_ = malformed_;
    }
    if (!status_.ok() || block_ == blocks_.size()) {
      // What the buffer holds is still listed; the table is not needed.
      table_.reset();
      blocks_.clear();
      blocks_.shrink_to_fit();
      block_ = 0;
    }
    if (buffer_.size() > 0) {
      buffer_.Get(0, &version_);
      version_.file = &name();
    }
  }

  TableSet* const tables_;
  const DatabaseTableFile* const file_;
  const std::string name_;
  const SourceSettings settings_;
  ReadOptions read_options_;
  std::shared_ptr<const Table> table_;
  std::vector<TableBlockInfo> blocks_;
  size_t block_ = 0;
  VersionBuffer buffer_;
  size_t entry_ = 0;
  SourceVersion version_;
  absl::Status status_;
  absl::Status malformed_;
};

class LeftoverLogSource final : public VersionSource {
 public:
  LeftoverLogSource(std::string dir, std::string name, SourceSettings settings)
      : dir_(std::move(dir)),
        name_(std::move(name)),
        settings_(std::move(settings)) {}

  bool StartKey(std::string_view*, uint64_t*) const override { return false; }
  void Start() override {
    status_ = ForEachLogVersion(
        absl::StrCat(dir_, "/", name_),
        [this](uint64_t sequence, std::string_view key, bool deletion,
               std::string_view value, uint64_t offset) {
          if (sequence > settings_.snapshot ||
              BelowLowerBound(settings_, key)) {
            return;
          }
          buffer_.Add(key, sequence, deletion, value, offset);
        });
    buffer_.Sort(settings_.user_comparator);
    Describe();
  }
  bool Valid() const override { return entry_ < buffer_.size(); }
  const SourceVersion& version() const override { return version_; }
  void Next() override {
    ++entry_;
    Describe();
  }
  absl::Status status() const override { return status_; }

 private:
  void Describe() {
    if (entry_ < buffer_.size()) {
      buffer_.Get(entry_, &version_);
      version_.file = &name_;
    }
  }

  const std::string dir_;
  const std::string name_;
  const SourceSettings settings_;
  VersionBuffer buffer_;
  size_t entry_ = 0;
  SourceVersion version_;
  absl::Status status_;
};

// Hands a write batch's operations to ForEachLogVersion's `add`.
class LogVersionHandler final : public WriteBatchHandler {
 public:
  using Add = std::function<void(uint64_t, std::string_view, bool,
                                 std::string_view, uint64_t)>;
  LogVersionHandler(const Add& add, uint64_t offset)
      : add_(add), offset_(offset) {}
  void Put(uint64_t sequence, std::string_view key,
           std::string_view value) override {
    add_(sequence, key, false, value, offset_);
  }
  void Delete(uint64_t sequence, std::string_view key) override {
    add_(sequence, key, true, {}, offset_);
  }

 private:
  const Add& add_;
  const uint64_t offset_;
};

}  // namespace

absl::Status ForEachLogVersion(
    const std::string& path,
    const std::function<void(uint64_t sequence, std::string_view user_key,
                             bool deletion, std::string_view value,
                             uint64_t offset)>& add) {
  absl::StatusOr<OpenedLogFile> log = OpenLogFile(path);
  if (!log.ok()) return log.status();
  LogReader reader(log->file.get(), log->size);
  LogEntry entry;
  while (reader.NextRecord(&entry)) {
    LogVersionHandler handler(add, entry.offset);
    // A record that is not a whole write batch gives nothing.
    (void)IterateWriteBatch(entry.payload, &handler);
  }
  return reader.status();
}

std::unique_ptr<VersionSource> NewLogViewSource(
    const LogView* view, const SourceSettings& settings) {
  return std::make_unique<LogViewSource>(view, settings);
}

std::unique_ptr<VersionSource> NewLiveTableSource(
    TableSet* tables, const DatabaseTableFile* file,
    const SourceSettings& settings) {
  return std::make_unique<TableSource>(tables, file, std::string(), settings);
}

std::unique_ptr<VersionSource> NewLeftoverTableSource(
    TableSet* tables, std::string name, const SourceSettings& settings) {
  return std::make_unique<TableSource>(tables, nullptr, std::move(name),
                                       settings);
}

std::unique_ptr<VersionSource> NewLeftoverLogSource(
    std::string dir, std::string name, const SourceSettings& settings) {
  return std::make_unique<LeftoverLogSource>(std::move(dir), std::move(name),
                                             settings);
}

}  // namespace bloomtable
