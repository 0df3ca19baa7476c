"""The `bloomtable` command of an installed package: runs the tool binary
that the wheel carries (bloomtable/_bin/bloomtable), with the same
arguments, exit status and output."""

import os
import sys


def tool_path() -> str:
    """The path of the bloomtable tool binary installed with the package."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "bloomtable")


def main() -> None:
    """Replaces this process with the tool (console entry point `bloomtable`)."""
    tool = tool_path()
    if not os.access(tool, os.X_OK):
        sys.exit(f"bloomtable: no tool binary at {tool}: this copy of the package "
                 "was installed without it (it is part of the wheel and of `pip install .`)")
    os.execv(tool, ["bloomtable", *sys.argv[1:]])
