"""The top of BENCHMARKS.md: the smoke-run banner, how timings were taken,
the set-up, and the summary of the like-for-like rows (main.json), whose
shape is checked first."""

from page.common import (ABSENT, ABSENT_NAMES, LEVELDB_TABLE, MET,
                         ROCKSDB_TABLE, TIE, WORKLOADS, ShapeError, best,
                         configs, decide_ratio, from_cache, pct,
                         peer_provenance,
                         results_of, runs_of, series, stored, table, us,
                         with_range)
from page.peers import peers_banner
from page.sweep import sweep_points


def require_shape(main, sweep):
    """The like-for-like rows and the equal-memory comparison must exist."""
    if main is not None:
        have = {(c.get("level"), c["engine"]) for c in configs(main)}
        for config in configs(main):
            for key in ("level", "io", "stored_bits_per_key"):
                if config.get(key) is None and config["filter"] != "none":
                    raise ShapeError(f"main.json: {series(config)} has no {key}")
        for needed in [("table", ("bloomtable",)), ("table", LEVELDB_TABLE),
                       ("table", ROCKSDB_TABLE), ("db", ("leveldb",)),
                       ("db", ("leveldb+bloomtable",)), ("db", ("rocksdb",))]:
            if not any((needed[0], e) in have for e in needed[1]):
                raise ShapeError(f"main.json: no {needed[0]}-level "
                                 f"{' or '.join(needed[1])} rows")
        # Every workload the run was asked for, in every row (a run from
        # before a workload existed shows it as not measured).
        asked = main.get("settings", {}).get("benchmarks", WORKLOADS)
        for config in configs(main):
            for workload in (w for w in WORKLOADS if w in asked):
                if results_of(config, workload) is None:
                    raise ShapeError(f"main.json: {series(config)} "
                                     f"{config['io']} has no {workload}")
    if sweep is not None:
        for name, points in sweep_points(sweep, "readmissing").items():
            if len(points) < 2:
                raise ShapeError(f"sweep.json: {name} has fewer than two "
                                 f"stored budgets")


def summary(main):
    if main is None:
        return "No committed run (bench/results/main.json)."
    header = ["level", "engine", "filter", "stored b/key"] + \
        [f"{w} µs" for w in WORKLOADS] + [f"FP % {ABSENT_NAMES}",
                                          "absent lookups from cached blocks %"]
    rows = []
    for config in configs(main, io="pread"):
        fps = [pct((results_of(config, w) or {}).get("false_positive_rate"))
               for w in ABSENT]
        cached = [pct(from_cache(results_of(config, w))) for w in ABSENT]
        rows.append([config["level"], config["engine"],
                     " ".join(series(config).split(" ")[1:]),
                     stored(config)] +
                    [with_range(results_of(config, w)) for w in WORKLOADS] +
                    [" / ".join(fps), " / ".join(cached)])
    text = [table(header, rows), ""]
    if peer_provenance(main)[0] is not True:
        text += ["Against the peers these are not results (see Peers): "
                 f"{peer_provenance(main)[1]}.", ""]
    # Who is ahead, said plainly, per level and workload: a lead inside the
    # runs' noise is a tie.
    for level in ("table", "db"):
        level_rows = list(configs(main, level=level, io="pread"))
        ours = [c for c in level_rows if "bloomtable" in c["engine"]]
        peers = [c for c in level_rows if "bloomtable" not in c["engine"]]
        for workload in WORKLOADS:
            mine, peer = best(ours, workload), best(peers, workload)
            if mine is None or peer is None:
                continue
            ratio = mine[1]["micros_per_op"] / peer[1]["micros_per_op"]
            decision = decide_ratio(runs_of(mine[1]), runs_of(peer[1]), 1)
            head = f"- {level} level, `{workload}`: "
            if decision == TIE:
                text.append(f"{head}a tie: {series(mine[0])} "
                            f"{with_range(mine[1])} µs and {series(peer[0])} "
                            f"{with_range(peer[1])} µs overlap.")
            elif decision == MET:
                text.append(f"{head}{series(mine[0])} is fastest, "
                            f"{us(mine[1]['micros_per_op'])} µs ({ratio:.2f}× "
                            f"the fastest peer, {series(peer[0])}).")
            else:
                text.append(f"{head}**{series(peer[0])} is ahead**, "
                            f"{us(peer[1]['micros_per_op'])} µs; the fastest "
                            f"with a bloomtable filter ({series(mine[0])}) "
                            f"takes {ratio:.2f}× as long.")
    return "\n".join(text)


def method(main):
    if main is None:
        return "No committed main run."
    settings = main["settings"]
    reject = settings.get("max_foreign_cpu", -1)
    return (f"A timing is the median of {settings.get('repeats', 1)} runs in "
            "one invocation, with the engines' order rotated between runs; "
            "the range in brackets is the fastest and slowest run. " +
            (f"A run during which other processes and CPU steal took more "
             f"than {reject:g} CPUs on average (`--max_foreign_cpu`) was "
             "rejected and retaken." if reject >= 0 else
             "No run was checked for load."))


def setup(main):
    if main is None:
        return "No committed main run."
    s = main["settings"]
    budget = ", ".join(f"{b:g}" for b in s.get("stored_bits", [])) or "-"
    return (f"{s['num']:,} keys of {s['key_size']} bytes, {s['value_size']}-"
            f"byte values ({s['compression_type']}, {s['block_size']}-byte "
            f"blocks), a block cache of {s['cache_size'] >> 20} MiB per "
            "engine, "
            f"every filter calibrated to store {budget} bits per key "
            f"(`--stored_bits`), files read with `pread`, at least "
            f"{s.get('min_seconds', 0):g} s per engine and workload")


def banner(named):
    return small_run_banner(named) + peers_banner(named)


def small_run_banner(named):
    small = []
    for name, report in named:
        if report is None or name in ("filter_bench.json",
                                      "filter_bench_cold.json",
                                      "profile.json"):
            continue
        if name == "compression.json":
            if report.get("runs", 0) < 3:
                small.append(name)
            continue
        if name == "python.json":
            # bench_python.py's own parameters: run_all.sh takes 3 runs at
            # 10^6 keys.
            parameters = report.get("parameters", {})
            if parameters.get("repeats", 1) < 3 or \
                    parameters.get("keys", 0) < 10 ** 6:
                small.append(name)
            continue
        if name in ("cold_io.json", "warm_io.json"):
            # run_all.sh takes 3 runs at 10^6 (cold) and 10^7 (warm) keys.
            least = 10 ** 6 if name == "cold_io.json" else 10 ** 7
            if report.get("runs", 0) < 3 or report.get("num", 0) < least:
                small.append(name)
            continue
        settings = report.get("settings", {})
        # The point-lookup and build runs are taken at 1M keys; the sweep,
        # scale and scan runs are sized on purpose (their sections say so).
        if (settings.get("repeats", 1) < 3 or settings.get(
                "max_foreign_cpu", -1) < 0 or
                (name in ("main.json", "build.json") and
                 settings.get("num", 0) < 1000000)):
            small.append(name)
    if not small:
        return ""
    return ("> **Smoke run, not a measurement.** "
            f"{', '.join(small)} came from a small run (fewer keys than "
            "run_all.sh takes, fewer than 3 runs or no load check): the tables "
            "below show "
            "the shape of the report, not figures to quote. "
            "`bench/run_all.sh` on an idle machine replaces them.\n")
