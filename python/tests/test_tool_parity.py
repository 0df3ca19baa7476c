"""build_table writes the same bytes as `bloomtable build` with the same
options: every option of the tool is one of build_table's.

Needs the tool: BLOOMTABLE_TOOL names it (ctest sets it when the tool is
built, and leaves this file out otherwise)."""

import os
import subprocess

import pytest

import bloomtable

TOOL = os.environ["BLOOMTABLE_TOOL"]
ITEMS = {b"user:%d:%s" % (i, f): b"value %d" % (i * i) for i in range(700)
         for f in (b"mail", b"name")}

# (tool flags, build_table keyword arguments)
CASES = [
    ([], {}),
    (["--filter", "none"], {"filter": "none"}),
    (["--bits_per_key", "0"], {"bits_per_key": 0}),
    (["--block_size", "512", "--block_restart_interval", "4"],
     {"block_size": 512, "block_restart_interval": 4}),
    (["--compression", "none"], {"compression": "none"}),
    (["--compression", "zstd", "--compression_level", "7"],
     {"compression": "zstd", "compression_level": 7}),
    (["--filter", "cache_local_bloom", "--bits_per_key", "7.5"],
     {"filter": "cache_local_bloom", "bits_per_key": 7.5}),
    (["--filter", "ribbon", "--filter_layout", "whole_table"],
     {"filter": "ribbon", "filter_layout": "whole_table"}),
    (["--filter", "bloom", "--filter_layout", "partitioned"],
     {"filter": "bloom", "filter_layout": "partitioned"}),
    (["--prefix_extractor", "delimiter:2::", "--nowhole_key_filtering"],
     {"prefix_extractor": bloomtable.PrefixExtractor.delimited(b":", 2),
      "whole_key_filtering": False}),
    (["--prefix_extractor", "fixed:5"], {"prefix_extractor": bloomtable.PrefixExtractor.fixed(5)}),
    (["--prefix_extractor", "capped:3"], {"prefix_extractor": bloomtable.PrefixExtractor.capped(3)}),
    (["--range_filter_bits_per_key", "12", "--max_range_length", "16"],
     {"range_filter_bits_per_key": 12, "max_range_length": 16}),
]


@pytest.mark.parametrize("flags, options", CASES, ids=[" ".join(f) or "defaults" for f, _ in CASES])
def test_same_bytes_as_the_tool(tmp_path, flags, options):
    tsv = tmp_path / "in.tsv"
    tsv.write_bytes(b"".join(k + b"\t" + v + b"\n" for k, v in ITEMS.items()))
    subprocess.run([TOOL, "build", str(tmp_path / "tool.ldb"), "--input", str(tsv), *flags],
                   check=True, capture_output=True)
    bloomtable.build_table(tmp_path / "python.ldb", ITEMS, sort=True, **options)
    assert (tmp_path / "python.ldb").read_bytes() == (tmp_path / "tool.ldb").read_bytes()
