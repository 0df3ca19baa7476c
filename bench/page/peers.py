"""The Peers section: which builds of LevelDB and RocksDB each run linked,
and the banner that says which runs' cross-engine ratios are not results."""

from page.common import has_peers, peer_provenance


def peers_section(named):
    """Per db_bench JSON: the peers it was linked with, or why its
    cross-engine figures are not results."""
    out = []
    for name, report in named:
        if report is None or not has_peers(report):
            continue
        ok, text = peer_provenance(report)
        out.append(f"- `{name}`: {text}" +
                   ("" if ok else ": its cross-engine ratios are not "
                    "results."))
    return "\n".join(out) or "No db_bench run committed."


def peers_banner(named):
    """Said plainly at the top: which runs' cross-engine ratios are not
    results."""
    pending = [name for name, report in named
               if report is not None and has_peers(report) and
               peer_provenance(report)[0] is not True]
    if not pending:
        return ""
    return ("\n> **The cross-engine ratios await release-peer runs.** "
            f"{', '.join(pending)} were not taken against release builds of "
            "LevelDB and RocksDB recorded as such (see Peers): their ratios "
            "against a peer are shown, but are not results and decide no "
            "goal. `bench/run_all.sh` builds the release peers "
            "(`bench/build_peers.sh`) and retakes them.\n")
