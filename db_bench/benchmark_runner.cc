#include "db_bench/benchmark_runner.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "db_bench/latency_samples.h"
#include "db_bench/progress.h"
#include "db_bench/random.h"
#include "db_bench/scan_ranges.h"
#include "util/string_util.h"

namespace bloomtable {
namespace db_bench {
namespace {

using Clock = std::chrono::steady_clock;

// Time one operation in 16 alone: enough samples for a p99 over any run of
// a few thousand operations, while the clock reads (~20 ns each) add about
// 2.5 ns to the average operation.
constexpr uint64_t kSampleEvery = 16;
// Operations between progress updates: one atomic add per batch.
constexpr uint64_t kProgressBatch = 1024;

struct KindName {
  BenchmarkKind kind;
  const char* name;
};

constexpr KindName kKindNames[] = {
    {BenchmarkKind::kFillSeq, "fillseq"},
    {BenchmarkKind::kFillRandom, "fillrandom"},
    {BenchmarkKind::kReadRandom, "readrandom"},
    {BenchmarkKind::kReadMissing, "readmissing"},
    {BenchmarkKind::kReadNearMiss, "readnearmiss"},
    {BenchmarkKind::kReadUnrelated, "readunrelated"},
    {BenchmarkKind::kReadSeq, "readseq"},
    {BenchmarkKind::kSeekRandom, "seekrandom"},
    {BenchmarkKind::kScanMissing, "scanmissing"},
    {BenchmarkKind::kScanShort, "scanshort"},
    {BenchmarkKind::kStats, "stats"},
    {BenchmarkKind::kReadPinned, "readpinned"},
};

double Seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

int64_t Nanos(Clock::duration d) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
}

// The keys one thread looks up, generated before the clock starts: fixed
// stride, with the entry number each came from (for checking values).
struct ThreadKeys {
  size_t stride = 0;
  std::string bytes;
  std::vector<uint64_t> entries;

  std::string_view key(size_t i) const {
    return std::string_view(bytes.data() + i * stride, stride);
  }
};

// Scans: two keys per operation, the range's bounds, and in `entries` the
// number of keys the range holds.
ThreadKeys GenerateScanRanges(BenchmarkKind kind, const RunOptions& options,
                              int thread) {
  const KeyGenerator& keys = *options.keys;
  ThreadKeys out;
  const uint64_t n = options.reads;
  out.stride = keys.key_size();
  out.bytes.resize(2 * n * out.stride);
  out.entries.resize(n);
  Random64 random(
      DeriveSeed(options.seed, static_cast<uint64_t>(kind) * 1000003 + thread));
  const uint64_t length = std::max<uint64_t>(1, options.scan_length);
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t j = random.Uniform(keys.num());
    const ScanRange range =
        kind == BenchmarkKind::kScanMissing
            ? EmptyScanRange(keys, j, length, i % 2 == 0, random.Next())
            : ShortScanRange(keys, j, length);
    keys.KeyNumber(range.lower, out.bytes.data() + 2 * i * out.stride);
    keys.KeyNumber(range.upper, out.bytes.data() + (2 * i + 1) * out.stride);
    out.entries[i] = range.keys;
  }
  return out;
}

// The keys of pass `pass` over one thread's keys. Absent keys are drawn
// anew for every pass and, for the streams built on a present key, from
// entries drawn without replacement, so that a stream repeats an absent key
// (whose false positive's block would then come from the cache) only where
// the key space runs out.
ThreadKeys GenerateKeys(BenchmarkKind kind, const RunOptions& options,
                        int thread, uint64_t pass = 0) {
  const KeyGenerator& keys = *options.keys;
  ThreadKeys out;
  if (kind == BenchmarkKind::kReadSeq) return out;
  if (IsScan(kind)) return GenerateScanRanges(kind, options, thread);
  const uint64_t n = options.reads;
  out.stride = kind == BenchmarkKind::kReadMissing ? keys.missing_key_size()
                                                   : keys.key_size();
  out.bytes.resize(n * out.stride);
  out.entries.resize(n);
  Random64 random(DeriveSeed(
      options.seed,
      static_cast<uint64_t>(kind) * 1000003 + thread + (pass << 32)));
  const std::vector<uint64_t> distinct =
      kind == BenchmarkKind::kReadMissing ||
              kind == BenchmarkKind::kReadNearMiss
          ? keys.DistinctEntries(
                pass * n, n,
                DeriveSeed(options.seed,
                           static_cast<uint64_t>(kind) * 1000003 + thread))
          : std::vector<uint64_t>();
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t j =
        distinct.empty() ? random.Uniform(keys.num()) : distinct[i];
    char* dst = out.bytes.data() + i * out.stride;
    out.entries[i] = j;
    switch (kind) {
      case BenchmarkKind::kReadMissing:
        keys.MissingKey(j, random.Next(), dst);
        break;
      case BenchmarkKind::kReadNearMiss:
        keys.NearMissKey(j, dst);
        break;
      case BenchmarkKind::kReadUnrelated:
        keys.UnrelatedKey(&random, dst);
        break;
      default:
        keys.PresentKey(j, dst);
        break;
    }
  }
  return out;
}

// What one thread did.
struct ThreadResult {
  uint64_t ops = 0;
  double seconds = 0;
  uint64_t found = 0;
  uint64_t not_found = 0;
  uint64_t wrong_values = 0;
  uint64_t errors = 0;
  uint64_t bytes = 0;
  std::string first_error;
  LatencySamples samples;
};

void RecordError(const absl::Status& status, ThreadResult* result) {
  if (result->errors++ == 0) result->first_error = status.ToString();
}

// Calls op(i) for i = 0, 1, ... n - 1, 0, ... until every key was asked at
// least once and `min_seconds` passed (the clock read once per
// kProgressBatch operations), timing one call in (sample_mask + 1) alone,
// then after(i) untimed; before each pass after the first, next_pass(pass)
// with the clock stopped. Sets the result's ops and seconds.
template <typename Op, typename After, typename NextPass>
void TimedLoop(uint64_t n, double min_seconds, uint64_t sample_mask,
               Progress* progress, ThreadResult* result, Op&& op, After&& after,
               NextPass&& next_pass) {
  const Clock::time_point start = Clock::now();
  Clock::duration stopped{0};
  uint64_t done = 0;
  for (uint64_t i = 0;; ++done, i = i + 1 == n ? 0 : i + 1) {
    if (done >= n && (min_seconds <= 0 || (done % kProgressBatch == 0 &&
                                           Seconds(Clock::now() - start -
                                                   stopped) >= min_seconds))) {
      break;
    }
    if (i == 0 && done > 0) {
      const Clock::time_point pause = Clock::now();
      next_pass(done / n);
      stopped += Clock::now() - pause;
    }
    const bool sampled = (done & sample_mask) == 0;
    const Clock::time_point op_start = sampled ? Clock::now() : start;
    op(i);
    if (sampled) result->samples.Add(Nanos(Clock::now() - op_start));
    after(i);
    if ((done + 1) % kProgressBatch == 0) progress->Add(kProgressBatch);
  }
  result->seconds = Seconds(Clock::now() - start - stopped);
  result->ops = done;
}

void NoNewPass(uint64_t) {}

// Whether a lookup's value is the one written. Values up to 4 KiB are
// compared whole; a larger one by its size and eight 64-byte windows spread
// over it, so that the check (inside the timed loop, though outside each
// sampled call) costs about the same for every value size and does not
// outweigh the lookup it follows.
bool SameValue(std::string_view got, std::string_view want) {
  constexpr size_t kWholeUpTo = 4096;
  constexpr size_t kWindow = 64;
  constexpr size_t kWindows = 8;
  if (want.size() <= kWholeUpTo || got.size() != want.size()) {
    return got == want;
  }
  const size_t step = (want.size() - kWindow) / (kWindows - 1);
  for (size_t w = 0; w < kWindows; ++w) {
    const size_t at = w * step;
    if (got.substr(at, kWindow) != want.substr(at, kWindow)) return false;
  }
  return true;
}

void RunPointLookups(BenchmarkKind kind, const RunOptions& options,
                     const Engine& engine, ThreadKeys keys, int thread,
                     uint64_t sample_mask, Progress* progress,
                     ThreadResult* result) {
  const bool expect_present = !ReadsAbsentKeys(kind);
  const bool pinned = kind == BenchmarkKind::kReadPinned;
  const std::unique_ptr<EngineReader> reader = engine.NewReader();
  std::string value;
  std::string_view found_value;
  absl::Status status;
  TimedLoop(
      keys.entries.size(), options.min_seconds, sample_mask, progress, result,
      [&](uint64_t i) {
        if (pinned) {
          status = reader->GetPinned(keys.key(i), &found_value);
        } else {
          status = reader->Get(keys.key(i), &value);
          found_value = value;
        }
      },
      [&](uint64_t i) {
        if (status.ok()) {
          ++result->found;
          result->bytes += keys.stride + found_value.size();
          if (expect_present &&
              !SameValue(found_value, options.values->Value(keys.entries[i]))) {
            ++result->wrong_values;
          }
        } else if (absl::IsNotFound(status)) {
          ++result->not_found;
        } else {
          RecordError(status, result);
        }
      },
      [&](uint64_t pass) {
        if (!expect_present) keys = GenerateKeys(kind, options, thread, pass);
      });
}

// One bounded scan per range; a scan that yields other than the range's keys
// counts as a wrong answer (for scanmissing, every key found is one).
void RunScans(BenchmarkKind kind, const Engine& engine, const ThreadKeys& keys,
              double min_seconds, uint64_t sample_mask, Progress* progress,
              ThreadResult* result) {
  std::unique_ptr<EngineIterator> scan;
  uint64_t found = 0;
  TimedLoop(
      keys.entries.size(), min_seconds, sample_mask, progress, result,
      [&](uint64_t i) {
        scan = engine.NewScan(keys.key(2 * i), keys.key(2 * i + 1));
        for (found = 0; scan->Valid(); scan->Next(), ++found) {
          result->bytes += scan->key().size() + scan->value().size();
        }
      },
      [&](uint64_t i) {
        if (!scan->status().ok()) RecordError(scan->status(), result);
        result->found += found;
        if (found == 0) ++result->not_found;
        if (kind == BenchmarkKind::kScanShort && found != keys.entries[i]) {
          ++result->wrong_values;
        }
        scan.reset();
      },
      NoNewPass);
}

void RunSeeks(const Engine& engine, const ThreadKeys& keys, double min_seconds,
              uint64_t seek_nexts, uint64_t sample_mask, Progress* progress,
              ThreadResult* result) {
  std::unique_ptr<EngineIterator> iter = engine.NewIterator();
  bool found = false;
  TimedLoop(
      keys.entries.size(), min_seconds, sample_mask, progress, result,
      [&](uint64_t i) {
        iter->Seek(keys.key(i));
        found = iter->Valid() && iter->key() == keys.key(i);
        if (found) result->bytes += iter->key().size() + iter->value().size();
        for (uint64_t step = 0; step < seek_nexts && iter->Valid(); ++step) {
          iter->Next();
          if (iter->Valid()) {
            result->bytes += iter->key().size() + iter->value().size();
          }
        }
      },
      [&](uint64_t) { ++(found ? result->found : result->not_found); },
      NoNewPass);
  if (!iter->status().ok()) RecordError(iter->status(), result);
}

// Full scans in key order, each of up to `limit` entries from the first,
// through one iterator (SeekToFirst again for each pass after the first)
// until a pass ends with `min_seconds` passed; one pass without it.
void RunScan(const Engine& engine, uint64_t limit, double min_seconds,
             uint64_t sample_mask, Progress* progress, ThreadResult* result) {
  std::unique_ptr<EngineIterator> iter = engine.NewIterator();
  const Clock::time_point start = Clock::now();
  uint64_t i = 0;
  for (bool more = true; more;) {
    uint64_t in_pass = 0;
    for (iter->SeekToFirst(); in_pass < limit && iter->Valid(); ++in_pass) {
      result->bytes += iter->key().size() + iter->value().size();
      ++result->found;
      ++i;
      const bool sampled = (i & sample_mask) == 0;
      Clock::time_point op_start;
      if (sampled) op_start = Clock::now();
      iter->Next();
      if (sampled) result->samples.Add(Nanos(Clock::now() - op_start));
      if (i % kProgressBatch == 0) progress->Add(kProgressBatch);
    }
    more = in_pass > 0 && iter->status().ok() && min_seconds > 0 &&
           Seconds(Clock::now() - start) < min_seconds;
  }
  result->seconds = Seconds(Clock::now() - start);
  result->ops = i;
  if (!iter->status().ok()) RecordError(iter->status(), result);
}

}  // namespace

const char* BenchmarkName(BenchmarkKind kind) {
  for (const KindName& entry : kKindNames) {
    if (entry.kind == kind) return entry.name;
  }
  return "?";
}

bool IsFill(BenchmarkKind kind) {
  return kind == BenchmarkKind::kFillSeq || kind == BenchmarkKind::kFillRandom;
}

bool IsRead(BenchmarkKind kind) {
  return !IsFill(kind) && kind != BenchmarkKind::kStats;
}

bool ReadsAbsentKeys(BenchmarkKind kind) {
  return kind == BenchmarkKind::kReadMissing ||
         kind == BenchmarkKind::kReadNearMiss ||
         kind == BenchmarkKind::kReadUnrelated ||
         kind == BenchmarkKind::kScanMissing;
}

bool IsScan(BenchmarkKind kind) {
  return kind == BenchmarkKind::kScanMissing ||
         kind == BenchmarkKind::kScanShort;
}

absl::StatusOr<std::vector<BenchmarkKind>> ParseBenchmarks(
    std::string_view list) {
  std::vector<BenchmarkKind> kinds;
  for (absl::string_view name :
       absl::StrSplit(ToAbsl(list), ',', absl::SkipWhitespace())) {
    bool known = false;
    for (const KindName& entry : kKindNames) {
      if (absl::string_view(entry.name) == name) {
        kinds.push_back(entry.kind);
        known = true;
        break;
      }
    }
    if (!known) {
      std::string names;
      for (const KindName& entry : kKindNames) {
        absl::StrAppend(&names, names.empty() ? "" : ", ", entry.name);
      }
      return absl::InvalidArgumentError(absl::StrCat(
          "--benchmarks: unknown benchmark '", name, "' (known: ", names, ")"));
    }
  }
  if (kinds.empty()) {
    return absl::InvalidArgumentError("--benchmarks is empty");
  }
  return kinds;
}

absl::StatusOr<BenchmarkResult> RunFill(BenchmarkKind kind,
                                        const RunOptions& options,
                                        Engine* engine) {
  const uint64_t num = options.keys->num();
  std::vector<uint64_t> order(num);
  for (uint64_t j = 0; j < num; ++j) order[j] = j;
  if (kind == BenchmarkKind::kFillRandom) {
    // Fisher-Yates with our own generator: the same order on every machine.
    Random64 random(DeriveSeed(options.seed, static_cast<uint64_t>(kind)));
    for (uint64_t i = num - 1; i > 0; --i) {
      std::swap(order[i], order[random.Uniform(i + 1)]);
    }
  }
  BenchmarkResult result;
  result.kind = kind;
  Progress progress(absl::StrCat(options.label, " ", BenchmarkName(kind)), num);
  const Clock::time_point start = Clock::now();
  absl::Status status =
      engine->Fill(FillInput{options.keys, options.values, order}, &progress);
  result.wall_seconds = Seconds(Clock::now() - start);
  if (!status.ok()) return status;
  result.ops = num;
  result.micros_per_op = result.wall_seconds * 1e6 / num;
  result.ops_per_second = num / result.wall_seconds;
  result.p50_micros = result.p99_micros =
      std::numeric_limits<double>::quiet_NaN();
  result.bytes =
      num * (options.keys->key_size() + options.values->value_size());
  result.mb_per_second = result.bytes / 1048576.0 / result.wall_seconds;
  return result;
}

absl::StatusOr<BenchmarkResult> RunRead(BenchmarkKind kind,
                                        const RunOptions& options,
                                        Engine* engine) {
  if (kind == BenchmarkKind::kReadPinned && !engine->HasPinnedGet()) {
    return absl::UnimplementedError(
        absl::StrCat(engine->name(), " has no zero-copy Get"));
  }
  const int threads = std::max(1, options.threads);
  std::vector<ThreadKeys> keys;
  keys.reserve(threads);
  for (int t = 0; t < threads; ++t) {
    keys.push_back(GenerateKeys(kind, options, t));
  }
  if (options.warm_up && kind != BenchmarkKind::kReadSeq &&
      kind != BenchmarkKind::kSeekRandom && !IsScan(kind)) {
    const std::unique_ptr<EngineReader> reader = engine->NewReader();
    std::string value;
    for (const ThreadKeys& thread_keys : keys) {
      for (size_t i = 0; i < thread_keys.entries.size(); ++i) {
        reader->Get(thread_keys.key(i), &value).IgnoreError();
      }
    }
  }
  const uint64_t sample_mask = kSampleEvery - 1;
  std::vector<ThreadResult> results(threads);
  for (ThreadResult& result : results) {
    result.samples.Reserve(options.reads / (sample_mask + 1) + 1);
  }

  Progress progress(absl::StrCat(options.label, " ", BenchmarkName(kind)),
                    options.reads * threads);
  const EngineCounters before = engine->Counters();
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      switch (kind) {
        case BenchmarkKind::kReadSeq:
          RunScan(*engine, options.reads, options.min_seconds, sample_mask,
                  &progress, &results[t]);
          break;
        case BenchmarkKind::kSeekRandom:
          RunSeeks(*engine, keys[t], options.min_seconds, options.seek_nexts,
                   sample_mask, &progress, &results[t]);
          break;
        case BenchmarkKind::kScanMissing:
        case BenchmarkKind::kScanShort:
          RunScans(kind, *engine, keys[t], options.min_seconds, sample_mask,
                   &progress, &results[t]);
          break;
        default:
          RunPointLookups(kind, options, *engine, std::move(keys[t]), t,
                          sample_mask, &progress, &results[t]);
          break;
      }
    });
    // A name profilers can find the lookups by (bench/profile.py).
    pthread_setname_np(workers.back().native_handle(), kReaderThreadName);
  }
  while (ready.load() < threads) std::this_thread::yield();
  const Clock::time_point start = Clock::now();
  go.store(true, std::memory_order_release);
  for (std::thread& worker : workers) worker.join();

  BenchmarkResult result;
  result.kind = kind;
  result.threads = threads;
  result.wall_seconds = Seconds(Clock::now() - start);
  result.counters = engine->Counters() - before;
  LatencySamples samples;
  double thread_seconds = 0;
  for (ThreadResult& thread : results) {
    result.ops += thread.ops;
    result.found += thread.found;
    result.not_found += thread.not_found;
    result.wrong_values += thread.wrong_values;
    result.bytes += thread.bytes;
    if (thread.errors > 0 && result.errors == 0) {
      result.first_error = thread.first_error;
    }
    result.errors += thread.errors;
    thread_seconds += thread.seconds;
    samples.Merge(thread.samples);
  }
  if (result.ops > 0) {
    result.micros_per_op = thread_seconds * 1e6 / result.ops;
  }
  if (result.wall_seconds > 0) {
    result.ops_per_second = result.ops / result.wall_seconds;
    result.mb_per_second = result.bytes / 1048576.0 / result.wall_seconds;
  }
  result.p50_micros = samples.PercentileMicros(50);
  result.p99_micros = samples.PercentileMicros(99);
  return result;
}

RunFigures BenchmarkResult::Figures() const {
  RunFigures figures;
  figures.micros_per_op = micros_per_op;
  figures.p50_micros = p50_micros;
  figures.p99_micros = p99_micros;
  figures.ops_per_second = ops_per_second;
  figures.mb_per_second = mb_per_second;
  figures.wall_seconds = wall_seconds;
  return figures;
}

std::optional<double> FalsePositiveRate(const BenchmarkResult& result) {
  const EngineCounters& counters = result.counters;
  if (!counters.has_filter_counters) return std::nullopt;
  const uint64_t true_positives =
      counters.filter_true_positives.value_or(result.found);
  if (counters.filter_checks <= true_positives) return std::nullopt;
  const uint64_t absent_queries = counters.filter_checks - true_positives;
  const uint64_t maybes = counters.filter_checks - counters.filter_negatives;
  const uint64_t false_positives =
      maybes > true_positives ? maybes - true_positives : 0;
  return static_cast<double>(false_positives) / absent_queries;
}

}  // namespace db_bench
}  // namespace bloomtable
