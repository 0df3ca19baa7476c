#!/usr/bin/env python3
"""Writes BENCHMARKS.md and its two plots from committed benchmark JSON.

    bench/report.py [--results DIR] [--output FILE] [--plots DIR]

Reads every JSON that bench/run_all.sh writes into DIR (default:
bench/results beside this script; its header lists them), fills the
{{...}} sections of BENCHMARKS.template.md into FILE (default: BENCHMARKS.md
at the repository root), one module of bench/page/ per section, and draws
fp_vs_bits.svg and latency.svg into the plots directory (default: bench/)
with gnuplot. Every figure comes from those files: a section whose file is
missing says so, and a goal whose data is missing reads "not measured",
never "met". A main.json without the like-for-like rows, or a sweep.json
with fewer than two budgets per filter, is an error (exit 1).

No goal reads "met" unless every JSON comes from one commit without
uncommitted changes (a banner says where they do not); a cross-engine goal
reads "not a result" unless every peer of its JSON is recorded as a release
build (NDEBUG on); JSON older than those records
named its table-level rows leveldb_table and rocksdb_table, which timed the
public iterators: they are shown under today's names for what they called.
"""

import argparse
import os
import sys

from page import (cold_io, common, database, details, filters, goals, peers,
                  pinned, plots, profiles, python_section, runs, scale, scans,
                  summary, sweep)

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default=os.path.join(HERE, "results"))
    parser.add_argument("--output",
                        default=os.path.join(HERE, "..", "BENCHMARKS.md"))
    parser.add_argument("--plots", default=HERE)
    parser.add_argument("--plot_format", default="svg", choices=["svg", "png"])
    args = parser.parse_args()

    def load(name):
        return common.load(args.results, name)

    named = [(name, load(name)) for name in
             ("main.json", "build.json", "sweep.json", "filter_bench.json",
              "filter_bench_cold.json", "profile.json")]
    main_run, build, sweep_run, filter_bench, cold, profile = (
        r for _, r in named)
    scale_runs = scale.load_scale(args.results)
    compression = load("compression.json")
    named += [(f"scale_{num}.json", report) for num, report in scale_runs]
    named.append(("compression.json", compression))
    python = load("python.json")
    named.append(("python.json", python))
    scan_text, scan_reports = scans.scan_section(args.results)
    named += scan_reports
    db_run = load("db.json")
    if db_run is not None:
        named.append(("db.json", db_run))
    db_compacted = load("db_compacted.json")
    if db_compacted is not None:
        named.append(("db_compacted.json", db_compacted))
    db_unverified = {name: load(name) for name in
                     ("db_unverified.json", "db_compacted_unverified.json")}
    named += [(name, run) for name, run in db_unverified.items()
              if run is not None]
    pinned_run = load("pinned.json")
    if pinned_run is not None:
        named.append(("pinned.json", pinned_run))
    cold_io_run = load("cold_io.json")
    warm_io_run = load("warm_io.json")
    named += [("cold_io.json", cold_io_run), ("warm_io.json", warm_io_run)]
    try:
        summary.require_shape(main_run, sweep_run)
    except common.ShapeError as error:
        print(f"report.py: {error}", file=sys.stderr)
        return 1
    refusal, mixed = runs.commit_check(named)
    common.REFUSAL["reason"] = refusal
    plots_rel = os.path.relpath(os.path.abspath(args.plots),
                                os.path.dirname(os.path.abspath(args.output)))
    sections = {
        "banner": summary.banner(named) + mixed,
        "method": summary.method(main_run),
        "setup": summary.setup(main_run),
        "summary": summary.summary(main_run),
        "goals": goals.goals(main_run, sweep_run, filter_bench, scale_runs,
                             cold, profile, cold_io_run, warm_io_run,
                             pinned_run),
        "tested": goals.tested_not_benchmarked(),
        "peers": peers.peers_section(named),
        "table_level": details.detail(main_run, "table"),
        "db_level": details.detail(main_run, "db"),
        "build": details.build_table(build),
        "equal_memory": sweep.equal_memory(sweep_run),
        "memory": details.memory_table(main_run),
        "filter_bench": filters.filter_bench_table(filter_bench),
        "filter_bench_cold": filters.filter_bench_table(cold),
        "profiles": profiles.profile_section(profile, main_run),
        "scale": scale.scale_table(scale_runs),
        "compression": details.compression_table(compression),
        "python": python_section.python_section(python, profile),
        "scans": scan_text,
        "db_readonly": database.db_section(
            db_run, profile, db_compacted,
            db_unverified["db_unverified.json"],
            db_unverified["db_compacted_unverified.json"]),
        "cold_io": cold_io.cold_io_section(cold_io_run, warm_io_run,
                                           profile),
        "pinned": pinned.pinned_section(pinned_run, profile),
        "provenance": runs.provenance(named),
        "plots": plots_rel,
    }
    with open(os.path.join(HERE, "BENCHMARKS.template.md")) as f:
        text = f.read()
    for key, value in sections.items():
        text = text.replace("{{" + key + "}}", value)
    with open(args.output, "w") as f:
        f.write(text)
    if sweep_run is not None or main_run is not None:
        plots.plot_fp(sweep_run if sweep_run is not None else main_run,
                      os.path.join(args.plots, "fp_vs_bits." +
                                   args.plot_format))
    if main_run is not None:
        plots.plot_latency(main_run, os.path.join(
            args.plots, "latency." + args.plot_format))
    return 0


if __name__ == "__main__":
    sys.exit(main())
