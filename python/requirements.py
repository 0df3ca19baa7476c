#!/usr/bin/env python3
"""Prints the pinned Python requirements of the groups named on the command
line, one per line for `pip install -r`, from pyproject.toml (their one
place): `build` (the build backend and pybind11), `test`, `wheel`.

    python3 python/requirements.py build test > requirements.txt
"""

import pathlib
import sys
import tomllib

GROUPS = ("build", "test", "wheel")


def requirements(groups):
    project = tomllib.loads(
        (pathlib.Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    lines = []
    for group in groups:
        if group == "build":
            lines += project["build-system"]["requires"]
        elif group in GROUPS:
            lines += project["project"]["optional-dependencies"][group]
        else:
            raise SystemExit(f"requirements.py: unknown group {group!r}; "
                             f"groups: {', '.join(GROUPS)}")
    return lines


if __name__ == "__main__":
    print("\n".join(requirements(sys.argv[1:] or GROUPS)))
