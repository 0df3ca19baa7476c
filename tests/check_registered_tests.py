#!/usr/bin/env python3
"""Checks that a build tree registers every test its sources define.

A CMake cache with an optional part switched off (the Python package, the
benchmarks, the peers, the tool) still builds and passes, with fewer tests:
this check compares the tests a tree registers (`ctest --show-only=json-v1`)
with the list the sources define, by name, and fails on any missing one.

The sources define, by part:
  unit     one GoogleTest program per tests/*_test.cc (but the tool's), and
           the tests that tests/CMakeLists.txt adds by name
  tool     one program per tests/tool_*_test.cc and tests/compat/tool_*_test.cc
  compat   one program per tests/compat/*_test.cc (but the tool's)
  bench    one program per db_bench/*_test.cc, the tests that
           db_bench/CMakeLists.txt adds by name, and every test class of
           bench/report_test.py named by one of them
  python   the tests python/CMakeLists.txt adds by name, the pytest suite
           ignoring none of python/tests/test_*.py
A program counts when at least one of its tests is registered and it was
built (gtest_discover_tests registers NAME_NOT_BUILT for one that was not).

Usage:
  tests/check_registered_tests.py BUILD_DIR [--parts unit,tool,...]
  tests/check_registered_tests.py BUILD_DIR --threads-of REFERENCE_DIR
The second form checks a ThreadSanitizer tree: every program labelled
`threads` in REFERENCE_DIR (a tree with every part) that is in part unit must
be registered, with that label, in BUILD_DIR.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PARTS = ("unit", "tool", "compat", "bench", "python")


def source_names(pattern):
    return {os.path.basename(path)[: -len(".cc")]
            for path in glob.glob(os.path.join(SOURCE_DIR, pattern))}


def added_tests(cmake_file):
    with open(os.path.join(SOURCE_DIR, cmake_file), encoding="utf-8") as f:
        return set(re.findall(r"add_test\(NAME\s+(\w+)", f.read()))


def expected(parts):
    """(programs, named tests) that `parts` define."""
    programs, named = set(), set()
    tools = source_names("tests/tool_*_test.cc") | source_names(
        "tests/compat/tool_*_test.cc")
    if "unit" in parts:
        programs |= source_names("tests/*_test.cc") - tools
        named |= added_tests("tests/CMakeLists.txt")
    if "tool" in parts:
        programs |= tools
    if "compat" in parts:
        programs |= source_names("tests/compat/*_test.cc") - tools
    if "bench" in parts:
        programs |= source_names("db_bench/*_test.cc")
        named |= added_tests("db_bench/CMakeLists.txt")
    if "python" in parts:
        named |= added_tests("python/CMakeLists.txt")
    return programs, named


def registered(build_dir):
    """name -> (program, args, labels) of every test `build_dir` registers."""
    out = subprocess.run(
        ["ctest", "--test-dir", build_dir, "--show-only=json-v1"],
        check=True, capture_output=True, text=True).stdout
    tests = {}
    for test in json.loads(out)["tests"]:
        command = test.get("command", [])
        labels = []
        for prop in test.get("properties", []):
            if prop["name"] == "LABELS":
                labels = prop["value"]
        program = os.path.basename(command[0]) if command else ""
        tests[test["name"]] = (program, command[1:], labels)
    return tests


def check_parts(build_dir, parts):
    tests = registered(build_dir)
    programs, named = expected(parts)
    problems = []
    built = {program for name, (program, _, _) in tests.items()
             if not name.endswith("_NOT_BUILT")}
    not_built = {name[: -len("_NOT_BUILT")] for name in tests
                 if name.endswith("_NOT_BUILT")}
    for program in sorted(not_built):
        problems.append(f"test program {program}: registered, not built")
    for program in sorted(programs - built - not_built):
        problems.append(f"test program {program}: defined by its source, not "
                        "registered")
    for name in sorted(named - set(tests)):
        problems.append(f"test {name}: added by a CMakeLists.txt, not "
                        "registered")
    if "bench" in parts:
        with open(os.path.join(SOURCE_DIR, "bench/report_test.py"),
                  encoding="utf-8") as f:
            classes = set(re.findall(r"^class (\w+)\(unittest\.TestCase\)",
                                     f.read(), re.M))
        run = set()
        for program, args, _ in tests.values():
            if any(arg.endswith("report_test.py") for arg in args):
                run |= set(args)
        for name in sorted(classes - run):
            problems.append(f"bench/report_test.py's {name}: no registered "
                            "test runs it")
    if "python" in parts and "python_tests" in tests:
        _, args, _ = tests["python_tests"]
        ignored = [arg for arg in args if arg.startswith("--ignore")]
        if ignored:
            problems.append(f"python_tests ignores {' '.join(ignored)}")
    return problems, len(programs), len(named), len(tests)


def check_threads(build_dir, reference_dir):
    unit, _ = expected({"unit"})
    want = {program for program, _, labels in registered(reference_dir).values()
            if "threads" in labels and program in unit}
    have = {program for name, (program, _, labels)
            in registered(build_dir).items()
            if "threads" in labels and not name.endswith("_NOT_BUILT")}
    problems = [f"threaded test program {program}: labelled threads in "
                f"{reference_dir}, not registered with that label here"
                for program in sorted(want - have)]
    if not want:
        problems.append(f"{reference_dir} labels no test program threads")
    return problems, len(want)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build_dir")
    parser.add_argument("--parts", default=",".join(PARTS))
    parser.add_argument("--threads-of", metavar="REFERENCE_DIR")
    args = parser.parse_args()
    if args.threads_of:
        problems, count = check_threads(args.build_dir, args.threads_of)
        summary = f"{count} threaded test programs"
    else:
        parts = set(args.parts.split(","))
        if not parts <= set(PARTS):
            parser.error(f"unknown parts {sorted(parts - set(PARTS))}")
        problems, programs, named, total = check_parts(args.build_dir, parts)
        summary = (f"{programs} test programs and {named} named tests of "
                   f"parts {','.join(sorted(parts))} ({total} tests)")
    if problems:
        print(f"{args.build_dir}: the registered tests fall short of what the "
              "sources define:\n  " + "\n  ".join(problems))
        return 1
    print(f"{args.build_dir}: registers all {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
