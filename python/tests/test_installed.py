"""The package under test is the one meant (the build tree's in ctest, the
installed wheel's in CI's wheel stage: BLOOMTABLE_EXPECT_PACKAGE_IN says
which), and the tool next to it (BLOOMTABLE_TOOL: the build tree's binary,
or the wheel's `bloomtable` console entry point) is the same version."""

import os
import pathlib
import subprocess

import bloomtable


def test_the_package_imported_is_the_one_under_test():
    expected = pathlib.Path(os.environ["BLOOMTABLE_EXPECT_PACKAGE_IN"]).resolve()
    here = pathlib.Path(bloomtable.__file__).resolve().parent
    assert here == expected, f"imported {here}, expected {expected}"
    assert pathlib.Path(bloomtable._bloomtable.__file__).resolve().parent == expected


def test_the_tool_is_the_same_version():
    out = subprocess.run([os.environ["BLOOMTABLE_TOOL"], "--version"], check=True,
                         capture_output=True, text=True).stdout
    assert bloomtable.__version__ in out
