"""The detail tables: every point-lookup row of main.json by level, the bulk
builds (build.json), memory per key, and decompression speed
(compression.json)."""

from page.common import (ABSENT, configs, from_cache, pct, read_benchmarks,
                         results_of, series, stored, table, us, with_range)


def detail(report, level):
    if report is None:
        return "No committed run."
    header = ["benchmark", "engine", "filter", "layout", "io", "bits_per_key",
              "stored b/key", "micros/op (range)", "p50", "p99", "reads/op",
              "FP %", "cache hit %", "absent from cache %"]
    rows = []
    for workload in read_benchmarks(report):
        for config in configs(report, level=level):
            result = results_of(config, workload)
            if result is None:
                continue
            hit = result.get("block_cache_hit_rate")
            rows.append([workload, config["engine"], config["filter"],
                         config.get("filter_layout") or "-", config["io"],
                         f"{config['bloom_bits']:g}", stored(config),
                         with_range(result), us(result.get("p50_micros")),
                         us(result.get("p99_micros")),
                         f"{result.get('reads_per_op', 0):.4f}",
                         pct(result.get("false_positive_rate")),
                         "-" if hit is None else f"{100 * hit:.1f}",
                         pct(from_cache(result) if workload in ABSENT
                             else None)])
    return table(header, rows)


def build_table(build):
    if build is None:
        return "No committed run (bench/results/build.json)."
    rows = []
    for config in configs(build):
        for result in config.get("results", []):
            if not result["benchmark"].startswith("fill"):
                continue
            rows.append([config["engine"], config["filter"],
                         config.get("filter_layout") or "-", stored(config),
                         with_range(result),
                         with_range(result, "mb_per_second", digits=1)])
    return table(["engine", "filter", "layout", "stored b/key",
                  "µs/key (range)", "MB/s (range)"], rows)


def bytes_per_key(memory, key):
    value = memory.get(key)
    return "-" if value is None else f"{value:.3f}"


def memory_table(main):
    if main is None:
        return "No committed run."
    rows = []
    for config in configs(main, io="pread"):
        memory = config.get("memory") or {}
        rows.append([config["level"], series(config), stored(config),
                     bytes_per_key(memory, "filter_bytes_per_key"),
                     bytes_per_key(memory, "index_bytes_per_key"),
                     bytes_per_key(memory, "engine_bytes_per_key") + (
                         f" ({memory['engine_bytes_name']})"
                         if memory.get("engine_bytes_name") else "")])
    return table(["level", "engine and filter", "stored b/key",
                  "filter B/key", "index B/key", "engine's own B/key"], rows)


def compression_table(report):
    if report is None:
        return "No committed run (bench/results/compression.json)."
    rows = []
    snappy = None
    for result in report.get("results", []):
        if result["codec"] == "snappy":
            snappy = result["decompress_mb_per_s"]["median"]
    for result in report.get("results", []):
        speed = result["decompress_mb_per_s"]
        rows.append([result["codec"], result["numbering"], str(result["type"]),
                     f"{result['ratio']:.2f}",
                     f"{speed['median']:.0f} ({speed['min']:.0f}–"
                     f"{speed['max']:.0f})",
                     "-" if not snappy else f"{speed['median'] / snappy:.2f}"])
    return table(["codec", "numbering", "type", "raw / stored",
                  "decompress MB/s (range)", "× snappy"], rows)
