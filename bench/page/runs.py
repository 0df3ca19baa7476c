"""The Runs section: each JSON's commit, machine, command and the load
during each of its runs."""


def provenance(named):
    out = []
    for name, report in named:
        if report is None:
            out.append(f"- `{name}`: not committed.")
            continue
        settings = report.get("settings", {})
        command = settings.get("command_line", report.get("command_line", "?"))
        machine = report.get("machine", {})
        commit = report.get("commit", "unknown")
        took = report.get("run_all_seconds")
        out.append(f"- `{name}`: commit `{commit}`"
                   f"{' (with uncommitted changes)' if report.get('dirty') else ''}"
                   f", {machine.get('cpu', '?')}, {machine.get('kernel', '?')}"
                   f"{'' if took is None else f', {took / 60:.0f} min'}."
                   f"\n  `{command}`")
        runs = report.get("runs")
        for run in runs if isinstance(runs, list) else []:
            start = (run.get("start") or {}).get("load_average") or ["?"]
            end = (run.get("end") or {}).get("load_average") or ["?"]
            foreign = run.get("foreign_cpus")
            steal = run.get("steal_fraction")
            out.append(
                f"  - run {run['run']} attempt {run['attempt']}: "
                f"{'accepted' if run['accepted'] else 'rejected'}, "
                f"{run['seconds']:.0f} s, load average {start[0]} → {end[0]}, "
                f"other processes + steal "
                f"{'?' if foreign is None else f'{foreign:.2f}'} CPUs, steal "
                f"{'?' if steal is None else f'{100 * steal:.2f}'}%")
    took = [r["run_all_seconds"] for _, r in named
            if r is not None and r.get("run_all_seconds") is not None]
    if took:
        out.append(f"\nIn all, `bench/run_all.sh` took {sum(took) / 60:.0f} "
                   f"minutes for the {len(took)} runs that record it.")
    return "\n".join(out)


def commit_check(named):
    """(reason, banner): where the page's JSON do not all come from one
    commit without uncommitted changes, why no goal may read "met" and the
    banner that says so; (None, "") where they do."""
    by_commit = {}
    for name, report in named:
        if report is None:
            continue
        commit = str(report.get("commit") or "unknown")[:7]
        if report.get("dirty"):
            commit += " with uncommitted changes"
        by_commit.setdefault(commit, []).append(name)
    if len(by_commit) <= 1 and not any("uncommitted" in c or "unknown" in c
                                       for c in by_commit):
        return None, ""
    reason = (f"the runs come from {len(by_commit)} commits"
              if len(by_commit) > 1 else "the runs had uncommitted changes")
    return reason, (
        f"\n> **Not one commit: {reason}, so no goal below reads met.** " +
        "; ".join(f"{', '.join(names)} at {commit}"
                  for commit, names in sorted(by_commit.items())) +
        ". `bench/run_all.sh` retakes every run at one commit.\n")
