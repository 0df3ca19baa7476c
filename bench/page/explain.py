"""What a run's own counters and profiles say about a goal that is not met:
figures computed from the JSON of the same run (and from profile.json only
where it was taken at that run's commit), never a cause written in."""

from page.common import ABSENT, from_cache, pct, table
from page.profiles import category_shares, largest_gaps, side_by_side


def counters_text(name, result, present=None):
    """'name: FP 0.96%, 0.0102 reads/lookup, ...' for one result; with the
    same row's present-key result, what its false positives cost: each
    lets a lookup go on as a present key's does."""
    if result is None:
        return ""
    parts = []
    fp = result.get("false_positive_rate")
    if fp is not None:
        parts.append(f"FP {pct(fp)}%")
    parts.append(f"{result.get('reads_per_op', 0):.4f} file reads/lookup")
    cached = from_cache(result) if fp is not None else None
    if cached is not None:
        parts.append(f"{pct(cached)}% of lookups from cached blocks")
    else:
        hits = result.get("block_cache_hit_rate")
        if hits is not None:
            parts.append(f"{100 * hits:.0f}% of its blocks from the cache")
    if fp and present and result.get("micros_per_op"):
        cost = fp * present["micros_per_op"]
        parts.append(f"FP × a present-key lookup ≈ {cost:.3f} µs "
                     f"({100 * cost / result['micros_per_op']:.0f}% of it)")
    return f"{name}: " + ", ".join(parts)


def same_commit(a, b):
    """True when both JSON name one commit and neither had uncommitted
    changes."""
    return bool(a and b and a.get("commit") and
                a.get("commit") == b.get("commit") and
                not a.get("dirty") and not b.get("dirty"))


def short(commit):
    return (commit or "unknown")[:7]


def not_of_commit(profile, run, what):
    """Why profile.json's profiles of `what` are not shown beside `run`."""
    return (f"profile.json ({short(profile.get('commit'))}) is not of this "
            f"run's commit ({short(run.get('commit'))}): its profiles of "
            f"{what} are not shown.")


def profiles_block(profile, run, found, what, intro, header, row, label):
    """A section's "where the time goes" lines for the profiles `found`:
    `intro`, a table of `header` with one `row(p)` each, their shares side
    by side (columns named `label(p)`) and their commands; one line saying
    why not where profile.json is not of `run`'s commit; none without
    profiles."""
    if not found:
        return []
    if not same_commit(profile, run):
        return [not_of_commit(profile, run, what)]
    return [intro, "", table(header, [row(p) for p in found]), "",
            side_by_side(found, label), "",
            "Commands: " + "; ".join(f"`{p['command']}`" for p in found) +
            "."]


def restart_of(profile):
    """A table-level profile's index restart interval: recorded, or read
    from its command (profiles taken before they recorded it)."""
    if profile.get("index_block_restart_interval"):
        return profile["index_block_restart_interval"]
    flag = "--index_block_restart_interval="
    for word in profile.get("command", "").split():
        if word.startswith(flag):
            return int(word[len(flag):])
    return None


def table_profile(profile, config, workload):
    """profile.json's table-level profile of `config`'s engine, filter,
    layout and I/O path on `workload` (absent keys: readmissing), or
    None."""
    wanted = "readmissing" if workload in ABSENT else workload
    engine = config.get("engine", "bloomtable")
    return next((p for p in (profile or {}).get("profiles", [])
                 if p.get("level", "table") == "table" and
                 p.get("engine", "bloomtable") == engine and
                 p.get("io", "pread") == config.get("io", "pread") and
                 p.get("filter") == config.get("filter") and
                 p.get("filter_layout") == config.get("filter_layout") and
                 p.get("workload") == wanted and
                 (engine != "bloomtable" or restart_of(p) in (None, config.get(
                     "index_block_restart_interval")))), None)


def profile_text(profile, run, config, workload, top=4):
    """The largest shares of `config`'s table-level profile on `workload`
    (table_profile), where profile.json was taken at `run`'s commit; else
    why it is not used."""
    found = table_profile(profile, config, workload)
    if found is None:
        return ""
    if not same_commit(profile, run):
        return (f"profile.json ({short(profile.get('commit'))}) is not of "
                f"this run's commit ({short(run.get('commit'))}): not used")
    shares = sorted(((c, v) for c, v in category_shares(found).items()
                     if not c.startswith("other")), key=lambda cv: -cv[1])
    micros = found.get("micros_per_op_under_perf")
    return (f"profile *{found['name']}*" +
            (f" ({micros:.3f} µs/op under perf)" if micros is not None
             else "") + ": " +
            ", ".join(f"{c} {v:.0f}%" for c, v in shares[:top]))


def gaps_text(profile, run, config, peer, workload):
    """Where the table-level profiles of a goal's two sides differ most in
    time per operation, where both were taken at `run`'s commit."""
    mine = table_profile(profile, config, workload)
    theirs = table_profile(profile, peer, workload)
    if mine is None or theirs is None or not same_commit(profile, run):
        return ""
    gaps = largest_gaps(mine, theirs)
    return f"the largest differences in µs per op: {gaps}" if gaps else ""
