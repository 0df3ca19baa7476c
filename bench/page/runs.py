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
        out.append(f"- `{name}`: commit `{commit}`"
                   f"{' (with uncommitted changes)' if report.get('dirty') else ''}"
                   f", {machine.get('cpu', '?')}, {machine.get('kernel', '?')}."
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
    return "\n".join(out)
