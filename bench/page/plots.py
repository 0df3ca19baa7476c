"""The two plots of BENCHMARKS.md, drawn with gnuplot: false positives
against stored bits per key (sweep.json), and p50/p99 per engine and
workload (main.json)."""

import subprocess

from page.common import ABSENT, configs, read_benchmarks, results_of, series
from page.sweep import sweep_points

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
           "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]


def terminal(path, width, height):
    """An SVG, or a PNG for a path ending in .png (for a quick look)."""
    kind = "pngcairo" if path.endswith(".png") else "svg dynamic"
    return [f"set terminal {kind} size {width},{height} font 'sans,11'",
            f"set output '{path}'", "set termoption noenhanced"]


def gnuplot(script):
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


def plot_fp(source, path):
    """FP against stored bits/key, one line per filter (the sweep's)."""
    named = {}
    for workload in ABSENT:
        for name, points in sweep_points(source, workload).items():
            named.setdefault(name, {})[workload] = [(b, r) for b, r in points
                                                    if r]
    rates = [r for w in named.values() for p in w.values() for _, r in p]
    low = min(rates, default=1e-4) / 3
    script = terminal(path, 1400, 560) + [
        f"set multiplot layout 1,{len(ABSENT)}", "set logscale y", "set format y '%g'",
        "set grid", f"set yrange [{low}:1]",
        "set xlabel 'filter bits per key as stored'",
        "set ylabel 'false-positive rate'", "set key below font ',9'"]
    for workload, keys in ABSENT.items():
        script.append(f"set title '{keys} absent keys ({workload})'")
        plots, data = ["2**(-x) dashtype 2 lc rgb '#555555' title "
                       "'floor 2^-b (b = stored bits/key)'"], []
        for i, (name, by_workload) in enumerate(sorted(named.items())):
            points = sorted(set(by_workload.get(workload, [])))
            if not points:
                continue
            plots.append(f"'-' with linespoints pt 7 lc rgb "
                         f"'{COLOURS[i % len(COLOURS)]}' title '{name}'")
            data.append("\n".join(f"{b} {r}" for b, r in points) + "\ne")
        script.append("plot [5:17] " + ", ".join(plots))
        script.extend(data)
    script.append("unset multiplot")
    gnuplot("\n".join(script) + "\n")


def plot_latency(main, path):
    """p50 (filled) and p99 (open) per engine, one colour per workload."""
    rows = list(configs(main, io="pread"))
    script = terminal(path, 1000, 160 + 34 * len(rows)) + [
        "set logscale x", "set grid x", "set format x '%g'",
        "set lmargin at screen 0.40", "set xlabel 'microseconds per lookup "
        "(pread; p50 filled, p99 open)'",
        f"set yrange [-0.7:{len(rows) - 0.3}] reverse", "set key below",
        "set ytics (" + ", ".join(f"'{c['level']} {series(c)}' {i}"
                                  for i, c in enumerate(rows)) + ")"]
    plots, data = [], []
    workloads = read_benchmarks(main)
    for n, workload in enumerate(workloads):
        offset = (n - (len(workloads) - 1) / 2) * 0.6 / len(workloads)
        p50 = [f"{(results_of(c, workload) or {}).get('p50_micros')} "
               f"{i + offset}" for i, c in enumerate(rows)
               if (results_of(c, workload) or {}).get("p50_micros")]
        p99 = [f"{(results_of(c, workload) or {}).get('p99_micros')} "
               f"{i + offset}" for i, c in enumerate(rows)
               if (results_of(c, workload) or {}).get("p99_micros")]
        colour = COLOURS[n % len(COLOURS)]
        plots.append(f"'-' with points pt 7 lc rgb '{colour}' "
                     f"title '{workload} p50'")
        plots.append(f"'-' with points pt 6 lc rgb '{colour}' "
                     f"title '{workload} p99'")
        data += ["\n".join(p50) + "\ne", "\n".join(p99) + "\ne"]
    script.append("plot " + ", ".join(plots))
    script.extend(data)
    gnuplot("\n".join(script) + "\n")
