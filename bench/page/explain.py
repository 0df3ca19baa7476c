"""What a run's own counters and profiles say about a goal that is not met:
figures computed from the JSON of the same run (and from profile.json only
where it was taken at that run's commit), never a cause written in."""

from page.common import ABSENT, from_cache, pct
from page.profiles import category_shares


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


def profile_text(profile, run, config, workload, top=4):
    """The largest shares of the table-level profile of `config`'s filter
    and layout on `workload` (absent keys: readmissing), where profile.json
    was taken at `run`'s commit; else why it is not used."""
    if profile is None:
        return ""
    wanted = "readmissing" if workload in ABSENT else workload
    found = next((p for p in profile.get("profiles", [])
                  if p.get("level", "table") == "table" and
                  p.get("filter") == config.get("filter") and
                  p.get("filter_layout") == config.get("filter_layout") and
                  p.get("workload") == wanted and
                  restart_of(p) in (None, config.get(
                      "index_block_restart_interval"))), None)
    if found is None:
        return ""
    if not same_commit(profile, run):
        return (f"profile.json ({short(profile.get('commit'))}) is not of "
                f"this run's commit ({short(run.get('commit'))}): not used")
    shares = sorted(((c, v) for c, v in category_shares(found).items()
                     if not c.startswith("other")), key=lambda cv: -cv[1])
    return f"profile *{found['name']}*: " + ", ".join(
        f"{c} {v:.0f}%" for c, v in shares[:top])
