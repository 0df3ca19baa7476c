"""Damaged files: every truncation and flipped byte either raises
CorruptionError / UnsupportedError or answers exactly as the model does,
and never crashes the interpreter."""

import pytest

import bloomtable

MODEL = {b"key%04d" % i: b"value-%d" % (i * 7) for i in range(0, 120, 3)}
PROBES = sorted(MODEL) + [b"key%04d" % i for i in range(1, 120, 3)] + [b"", b"zzz"]
SOME = PROBES[::9]

LAYOUTS = [
    {"filter": "bloom"},
    {"filter": "ribbon", "filter_layout": "whole_table"},
    {"filter": "cache_local_bloom", "filter_layout": "partitioned",
     "filter_partition_keys": 8, "range_filter_bits_per_key": 10},
]


def check_against_model(path):
    """Reads everything; returns normally only if every answer is the model's."""
    try:
        with bloomtable.Table.open(path, block_cache=bloomtable.BlockCache(0)) as t:
            assert [t.get(k) for k in SOME] == [MODEL.get(k) for k in SOME]
            assert t.multi_get(PROBES) == [MODEL.get(k) for k in PROBES]
            assert list(t.items()) == sorted(MODEL.items())
            assert list(t.keys(reverse=True)) == sorted(MODEL, reverse=True)
            lo, hi = b"key0030", b"key0090"
            assert list(t.keys(lo, hi)) == [k for k in sorted(MODEL) if lo <= k < hi]
            for k in MODEL:
                assert t.may_contain_range(k, k + b"\x00")
    except (bloomtable.CorruptionError, bloomtable.UnsupportedError):
        pass


@pytest.mark.parametrize("options", LAYOUTS, ids=["per_block", "whole_table", "partitioned"])
def test_every_truncation_and_flipped_byte(tmp_path, options):
    original = tmp_path / "t.ldb"
    bloomtable.build_table(original, sorted(MODEL.items()), block_size=128, **options)
    data = original.read_bytes()
    check_against_model(original)
    damaged = tmp_path / "damaged.ldb"

    def write(contents):
        # A new file each time: truncating one in place makes ext4 flush it
        # on close (auto_da_alloc), a thousand times slower.
        damaged.unlink(missing_ok=True)
        damaged.write_bytes(contents)

    for length in range(len(data)):
        write(data[:length])
        check_against_model(damaged)
    for offset in range(len(data)):
        flipped = bytearray(data)
        flipped[offset] ^= 1 << (offset % 8)
        write(bytes(flipped))
        check_against_model(damaged)
