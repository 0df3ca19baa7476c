#!/usr/bin/env python3
"""A small mutation check of the readers' decisions.

Each mutant below is a one-line change to a decision the readers make, and
names the test that must fail on it. For each, this script changes the
source file in place, rebuilds only the named test's target in BUILD_DIR (an
already configured and built tree, e.g. build/release), runs the named test,
and restores the file. It fails when a mutant survives (its test passes),
when a mutant no longer applies (the text it changes is not found exactly
once: update the table), or when the tree does not build with the mutant.

The source is always restored: on success, failure, an exception, Ctrl-C or
SIGTERM (try/finally), and a copy of each original is kept in
BUILD_DIR/mutation_check/ while its mutant is applied, so that a run killed
outright (SIGKILL) is repaired by the next run before it starts. At the end
the named targets are rebuilt from the restored sources (ccache hits), so
the tree's binaries match the source again; other targets that link the
library relink at the next build.

Usage: tests/mutation_check.py BUILD_DIR [MUTANT_NAME...]
"""

import os
import shutil
import signal
import subprocess
import sys
import time

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (name, file, original text, mutated text, test target, gtest filter).
# The original text must occur exactly once in the file.
MUTANTS = [
    ("log-lookup-tag-inclusive", "db/log_view.cc",
     "        return ExtractTag(r.internal_key) > target_tag;\n",
     "        return ExtractTag(r.internal_key) >= target_tag;\n",
     "database_model_test", "DatabaseModelTest.EveryKeyAsLevelDBReadsIt"),
    ("log-full-keeps-chain", "db/log_reader.cc",
     '      DropChain(start, "partial record without end",\n'
     '                chain_payload_.empty() ? kSilent : kReported);\n'
     '      if (type == log::kFirstType) {\n',
     '      if (type == log::kFirstType) DropChain(start, "partial record without end",\n'
     '                chain_payload_.empty() ? kSilent : kReported);\n'
     '      if (type == log::kFirstType) {\n',
     "log_fragment_chain_test",
     "LogFragmentChain.FullFragmentDropsThePendingChain"),
    ("log-first-keeps-chain", "db/log_reader.cc",
     '      DropChain(start, "partial record without end",\n'
     '                chain_payload_.empty() ? kSilent : kReported);\n'
     '      if (type == log::kFirstType) {\n',
     '      if (type == log::kFullType) DropChain(start, "partial record without end",\n'
     '                chain_payload_.empty() ? kSilent : kReported);\n'
     '      if (type == log::kFirstType) {\n',
     "log_fragment_chain_test",
     "LogFragmentChain.FirstFragmentDropsThePendingChain"),
    ("log-last-without-first-joins", "db/log_reader.cc",
     "      if (!in_chain_) {\n"
     "        Emit(LogEntry::Kind::kDamage, start, fragment_end,\n",
     "      if (false) {\n"
     "        Emit(LogEntry::Kind::kDamage, start, fragment_end,\n",
     "log_fragment_chain_test",
     "LogFragmentChain.MiddleAndLastWithoutFirstAreNotJoined"),
    ("log-checksum-keeps-chain", "db/log_reader.cc",
     '      DropChain(pos_, "partial record without end", kReported);\n'
     '      DropBlock(block_end, "checksum mismatch", kReported);\n',
     '      DropBlock(block_end, "checksum mismatch", kReported);\n',
     "log_fragment_chain_test",
     "LogFragmentChain.ChainIsNotJoinedAcrossADamagedBlock"),
    # The streaming listing (VersionStreamMerge::StatusOf).
    ("all-versions-status-from-wrong-record", "db/all_versions.cc",
     "      const RecordStatus status =\n"
     "          deletion ? RecordStatus::kDeleted : RecordStatus::kOverwritten;\n",
     "      const RecordStatus status =\n"
     "          v.deletion ? RecordStatus::kDeleted : RecordStatus::kOverwritten;\n",
     "all_versions_model_test",
     "AllVersionsModelTest.EveryVersionHasTheModelsStatus"),
    ("all-versions-newest-marker-live", "db/all_versions.cc",
     "    return v.deletion ? RecordStatus::kDeleted : RecordStatus::kLive;\n",
     "    return RecordStatus::kLive;\n",
     "all_versions_model_test",
     "AllVersionsModelTest.EveryVersionHasTheModelsStatus"),
    # The gathered listing (AssignStatuses: unknown comparators, salvage).
    ("gathered-status-from-wrong-record", "db/all_versions.cc",
     "newer->deletion ? RecordStatus::kDeleted : RecordStatus::kOverwritten",
     "record.deletion ? RecordStatus::kDeleted : RecordStatus::kOverwritten",
     "version_stream_test",
     "VersionStreamComparatorTest.RegisteredAndUnknownComparators"),
    ("gathered-newest-marker-live", "db/all_versions.cc",
     "record.deletion ? RecordStatus::kDeleted : RecordStatus::kLive;",
     "RecordStatus::kLive;",
     "version_stream_test",
     "VersionStreamComparatorTest.RegisteredAndUnknownComparators"),
    ("level0-oldest-first", "db/database.cc",
     "return a.number > b.number;",
     "return a.number < b.number;",
     "level0_order_test",
     "Level0OrderTest.NewerTableWinsWhenItsRangeStartsLater"),
    ("get-version-seeks-deletion-type", "table/table.cc",
     "        options.key_format, user_key,\n"
     "        PackSequenceAndType(std::min(max_sequence, kMaxSequenceNumber),\n"
     "                            ValueType::kValue));\n",
     "        options.key_format, user_key,\n"
     "        PackSequenceAndType(std::min(max_sequence, kMaxSequenceNumber),\n"
     "                            ValueType::kDeletion));\n",
     "table_get_version_test",
     "TableGetVersion.ValueAndDeletionAtTheExactSequence"),
    ("multi-get-version-seeks-deletion-type", "table/table.cc",
     "      true, user_keys,\n"
     "      PackSequenceAndType(std::min(max_sequence, kMaxSequenceNumber),\n"
     "                          ValueType::kValue));\n",
     "      true, user_keys,\n"
     "      PackSequenceAndType(std::min(max_sequence, kMaxSequenceNumber),\n"
     "                          ValueType::kDeletion));\n",
     "table_get_version_test",
     "TableGetVersion.MultiGetVersionAnswersEachKeyAsGetVersion"),
    ("database-pinned-get-copies", "db/database.cc",
     "    *pinned = std::move(table_value);\n",
     "    pinned->CopyFrom(table_value.view());\n",
     "database_pinned_get_test",
     "CacheAndMmap/DatabasePinnedGetTest.EveryAnswerEqualsTheCopyingGet/*"),
    ("verified-read-takes-unverified-block", "table/table.cc",
     "    if (cached == nullptr && !read_options.verify_checksums) {\n",
     "    if (cached == nullptr && read_options.fill_cache) {\n",
     "block_cache_test",
     "GetMultiGetIterator/UnverifiedBlocksTest.ALaterVerifiedReadFindsTheDamage/*"),
    ("multi-get-pins-copies", "table/multi_get.h",
     "    (*pins)[i].PinTo(block, value);\n",
     "    (*pins)[i].CopyFrom(value.substr(0, block ? value.size() : 0));\n",
     "database_multi_get_test",
     "DatabaseMultiGet.PinnedValuesOutliveTheDatabaseAndKeysMayLieInThem"),
    ("bzip2-truncated-at-limit-not-damage", "util/bzip2_codec.cc",
     '          return Damaged("truncated");\n',
     '          return absl::OutOfRangeError("truncated");\n',
     "block_compression_test",
     "UncompressedLimit.AStreamCutExactlyAtTheLimitIsDamage"),
    ("close-does-not-wait", "python/src/call_gate.cc",
     "while (active_calls_ > 0) {",
     "while (active_calls_ < 0) {",
     "call_gate_test",
     "CallGate.CloseWaitsForTheCallInProgress"),
]


class Interrupted(Exception):
    pass


def on_signal(signum, _frame):
    raise Interrupted(f"signal {signum}")


def backup_path(build_dir, relative):
    return os.path.join(build_dir, "mutation_check", relative + ".orig")


def repair_leftovers(build_dir):
    """Restores any original a killed run left in BUILD_DIR/mutation_check."""
    root = os.path.join(build_dir, "mutation_check")
    if not os.path.isdir(root):
        return
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            if not name.endswith(".orig"):
                continue
            saved = os.path.join(dirpath, name)
            relative = os.path.relpath(saved, root)[: -len(".orig")]
            print(f"mutation_check: restoring {relative} left mutated by an "
                  "earlier run")
            restore(saved, os.path.join(SOURCE_DIR, relative))


def restore(saved, path):
    """Puts the original back with a new modification time, so that the
    build recompiles it (ccache answers) instead of keeping the mutant's
    object, which is newer than the original's old time."""
    shutil.copyfile(saved, path)
    os.utime(path)
    os.remove(saved)


def build(build_dir, targets, log):
    return subprocess.run(
        ["cmake", "--build", build_dir, "--target", *targets],
        stdout=log, stderr=subprocess.STDOUT).returncode == 0


def run_mutant(build_dir, mutant, log):
    """'killed', 'survived', or a reason it could not be judged."""
    name, relative, original, mutated, target, test_filter = mutant
    path = os.path.join(SOURCE_DIR, relative)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    count = text.count(original)
    if count != 1:
        return f"does not apply: its text occurs {count} times in {relative}"
    saved = backup_path(build_dir, relative)
    os.makedirs(os.path.dirname(saved), exist_ok=True)
    shutil.copy2(path, saved)
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace(original, mutated))
        if not build(build_dir, [target], log):
            return "did not build (see the log)"
        binary = os.path.join(build_dir, "tests", target)
        result = subprocess.run(
            [binary, f"--gtest_filter={test_filter}"],
            stdout=log, stderr=subprocess.STDOUT, timeout=600)
        return "survived" if result.returncode == 0 else "killed"
    finally:
        restore(saved, path)


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    build_dir = os.path.abspath(argv[1])
    wanted = set(argv[2:])
    mutants = [m for m in MUTANTS if not wanted or m[0] in wanted]
    if wanted - {m[0] for m in MUTANTS}:
        print(f"unknown mutants: {sorted(wanted - {m[0] for m in MUTANTS})}",
              file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    repair_leftovers(build_dir)
    log_path = os.path.join(build_dir, "mutation_check.log")
    targets = sorted({m[4] for m in mutants})
    failures = []
    with open(log_path, "w", encoding="utf-8") as log:
        # The named tests must pass on the source as it is.
        if not build(build_dir, targets, log):
            print(f"mutation_check: the targets do not build (see {log_path})")
            return 1
        for target in targets:
            filters = ":".join(m[5] for m in mutants if m[4] == target)
            binary = os.path.join(build_dir, "tests", target)
            if subprocess.run([binary, f"--gtest_filter={filters}"],
                              stdout=log, stderr=subprocess.STDOUT).returncode:
                print(f"mutation_check: {target} fails without a mutant "
                      f"(see {log_path})")
                return 1
        try:
            for mutant in mutants:
                start = time.monotonic()
                print(f"--- mutant {mutant[0]}: {mutant[1]}", file=log,
                      flush=True)
                outcome = run_mutant(build_dir, mutant, log)
                seconds = time.monotonic() - start
                print(f"{mutant[0]:40} {outcome:10} by {mutant[5]} "
                      f"({seconds:.0f}s)", flush=True)
                if outcome != "killed":
                    failures.append(f"{mutant[0]} ({mutant[1]}): {outcome}")
        except (KeyboardInterrupt, Interrupted) as error:
            failures.append(f"interrupted ({error})")
        finally:
            # Sources are restored (run_mutant's finally); rebuild from them.
            if not build(build_dir, targets, log):
                failures.append("the restored sources do not build")
    if failures:
        print("mutation_check: FAILED:\n  " + "\n  ".join(failures) +
              f"\n(build and test output: {log_path})")
        return 1
    print(f"mutation_check: all {len(mutants)} mutants killed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
