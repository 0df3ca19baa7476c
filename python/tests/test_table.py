"""bloomtable.Table: lookups, multi_get, iteration, filters and statistics."""

import array
import gc

import pytest

import bloomtable
from conftest import key_of


def test_version_is_the_library_version():
    assert isinstance(bloomtable.__version__, str)
    assert bloomtable.__version__.count(".") == 2


def test_get_getitem_contains(table_path, model):
    with bloomtable.Table.open(table_path) as t:
        for key, value in model.items():
            assert t.get(key) == value
            assert t[key] == value
            assert key in t
        absent = key_of(1)
        assert t.get(absent) is None
        assert t.get(absent, b"dflt") == b"dflt"
        assert absent not in t
        with pytest.raises(KeyError) as raised:
            t[absent]
        assert raised.value.args[0] == absent


def test_any_buffer_is_a_key_and_str_is_refused(table_path, model):
    key = key_of(10)
    with bloomtable.Table.open(table_path) as t:
        assert t.get(bytearray(key)) == model[key]
        assert t.get(memoryview(key)) == model[key]
        assert t.get(array.array("B", key)) == model[key]
        with pytest.raises(TypeError, match="not str"):
            t.get(key.decode())
        with pytest.raises(TypeError, match="not str"):
            list(t.items(start="key"))
        with pytest.raises(TypeError):
            t.get(12)


def test_multi_get_matches_get(table_path, model):
    keys = [key_of(i) for i in range(0, 4100, 3)] + [b"", b"\xff" * 9]
    with bloomtable.Table.open(table_path) as t:
        assert t.multi_get(keys) == [model.get(k) for k in keys]
        assert t.multi_get(keys, default=b"-") == [model.get(k, b"-") for k in keys]
        assert t.multi_get([]) == []
        assert t.multi_get(iter([key_of(0)])) == [model[key_of(0)]]


def test_iteration_in_order_with_half_open_bounds(table_path, model):
    ordered = sorted(model.items())
    with bloomtable.Table.open(table_path) as t:
        assert list(t.items()) == ordered
        assert list(t.keys()) == [k for k, _ in ordered]
        assert list(t.values()) == [v for _, v in ordered]
        assert list(t) == [k for k, _ in ordered]
        lo, hi = key_of(100), key_of(200)
        expected = [(k, v) for k, v in ordered if lo <= k < hi]
        assert list(t.items(lo, hi)) == expected
        assert list(t.items(start=lo, stop=hi, reverse=True)) == expected[::-1]
        assert list(t.items(start=lo)) == [(k, v) for k, v in ordered if k >= lo]
        assert list(t.items(stop=hi, reverse=True)) == [
            (k, v) for k, v in ordered if k < hi][::-1]
        assert list(t.items(hi, lo)) == []
        assert list(t.items(reverse=True)) == ordered[::-1]


def test_prefix_iteration(tmp_path):
    entries = {b"a": b"1", b"ab": b"2", b"abc": b"3", b"abd": b"4", b"ac": b"5",
               b"b": b"6", b"\xff": b"7", b"\xff\xff": b"8", b"\xff\xff\x00": b"9"}
    path = tmp_path / "p.ldb"
    bloomtable.build_table(path, entries, sort=True)
    with bloomtable.Table.open(path) as t:
        assert list(t.keys(prefix=b"ab")) == [b"ab", b"abc", b"abd"]
        assert list(t.keys(prefix=b"ab", reverse=True)) == [b"abd", b"abc", b"ab"]
        assert list(t.keys(prefix=b"ab", start=b"abc")) == [b"abc", b"abd"]
        assert list(t.keys(prefix=b"ab", stop=b"abd")) == [b"ab", b"abc"]
        assert list(t.keys(prefix=b"\xff\xff")) == [b"\xff\xff", b"\xff\xff\x00"]
        assert list(t.keys(prefix=b"")) == sorted(entries)
        assert list(t.keys(prefix=b"zz")) == []


def test_partly_consumed_iterators_and_many_at_once(table_path, model):
    ordered = sorted(model)
    with bloomtable.Table.open(table_path) as t:
        first = t.keys()
        second = t.keys(reverse=True)
        assert [next(first) for _ in range(3)] == ordered[:3]
        assert [next(second) for _ in range(3)] == ordered[-3:][::-1]
        assert list(first) == ordered[3:]
        with pytest.raises(StopIteration):
            next(first)


def test_range_and_prefix_filters(tmp_path):
    keys = [b"user:%d:%s" % (i, f) for i in range(0, 200, 2) for f in (b"mail", b"name")]
    path = tmp_path / "scan.ldb"
    bloomtable.build_table(
        path, ((k, b"x") for k in sorted(keys)), filter="cache_local_bloom",
        prefix_extractor=bloomtable.PrefixExtractor.delimited(b":", 2),
        range_filter_bits_per_key=16)
    extractor = bloomtable.PrefixExtractor.delimited(b":", 2)
    with bloomtable.Table.open(path, prefix_extractor=extractor) as t:
        info = t.scan_filter_info()
        assert info["prefix_metaindex_key"] == "prefixfilter.bloomtable.CacheLocalBloom"
        assert info["prefix_extractor"] == extractor.name
        assert info["prefix_in_use"] and info["range_in_use"]
        assert info["range_num_keys"] == len(keys)
        # Never a false "no": every present key's range answers True.
        for k in keys:
            assert t.may_contain_range(k, k + b"\x00")
        assert not t.may_contain_range(b"b", b"a")  # empty range
        assert list(t.keys(prefix=b"user:17:")) == []
        assert list(t.keys(prefix=b"user:16:")) == [b"user:16:mail", b"user:16:name"]
        before = t.stats()["prefix_filter_checks"] + t.stats()["range_filter_checks"]
        list(t.keys(prefix=b"user:33:"))
        after = t.stats()["prefix_filter_checks"] + t.stats()["range_filter_checks"]
        assert after > before


def test_stats_and_filter_info(table_path, model):
    with bloomtable.Table.open(table_path, block_cache=bloomtable.BlockCache(0)) as t:
        info = t.filter_info()
        assert info == {"metaindex_key": "filter.leveldb.BuiltinBloomFilter2",
                        "in_use": True, "unused_reason": ""}
        for i in range(1, 2001, 2):
            t.get(key_of(i))
        stats = t.stats()
        assert stats["filter_checks"] == 1000
        assert stats["filter_negatives"] > 900  # 10 bits per key: ~1% pass
        assert stats["data_block_reads"] == stats["filter_checks"] - stats["filter_negatives"]
        assert stats["block_cache_hits"] == 0
        assert t.approximate_memory_usage() > 0
        assert 0 < t.approximate_offset_of(key_of(3000)) < t.file_size


def test_filters_argument_chooses_the_policies(table_path):
    with bloomtable.Table.open(table_path, filters=[]) as t:
        assert not t.filter_info()["in_use"]
        assert t.filter_info()["metaindex_key"] == "filter.leveldb.BuiltinBloomFilter2"
        assert t.filter_info()["unused_reason"]
    with bloomtable.Table.open(table_path, filters=["ribbon"]) as t:
        assert not t.filter_info()["in_use"]
    with bloomtable.Table.open(table_path, filters=[bloomtable.FilterPolicy("bloom", 10)]) as t:
        assert t.filter_info()["in_use"]


def test_shared_block_cache_and_options(table_path, model):
    cache = bloomtable.BlockCache(1 << 20)
    assert cache.capacity == 1 << 20
    with bloomtable.Table.open(table_path, block_cache=cache,
                               cache_index_and_filter_blocks=True,
                               mmap=True) as t:
        for _ in range(2):
            assert t[key_of(0)] == model[key_of(0)]
        assert t.stats()["block_cache_hits"] >= 1
        assert cache.stats()["hits"] >= 1
        assert cache.usage > 0
    # Blocks read without their checksum verified are cached for reads
    # that do not verify either (the C++ tests show that a verifying read
    # never takes them).
    unverified_cache = bloomtable.BlockCache(1 << 20)
    with bloomtable.Table.open(table_path, block_cache=unverified_cache,
                               verify_checksums=False) as t:
        for _ in range(2):
            assert t[key_of(0)] == model[key_of(0)]
        assert t.stats()["block_cache_hits"] == 1
        assert unverified_cache.usage > 0
    with bloomtable.Table.open(table_path, block_cache=cache, fill_cache=False) as t:
        assert list(t.items()) == sorted(model.items())


def test_close_and_context_manager(table_path):
    t = bloomtable.Table.open(str(table_path))
    assert not t.closed and t.path == str(table_path)
    assert "model.ldb" in repr(t)
    t.close()
    t.close()  # idempotent
    assert t.closed
    for call in (lambda: t.get(b"k"), lambda: t.multi_get([b"k"]), lambda: t.items(),
                 lambda: t.stats(), lambda: b"k" in t, lambda: t.may_contain_range(b"a", b"b")):
        with pytest.raises(bloomtable.InvalidArgumentError, match="closed"):
            call()
    with bloomtable.Table.open(table_path) as t2:
        it = t2.items()
        next(it)
    assert t2.closed
    with pytest.raises(ValueError, match="closed"):
        next(it)


def pack_internal_key(user_key: bytes, sequence: int, kind: int) -> bytes:
    return user_key + ((sequence << 8) | kind).to_bytes(8, "little")


def test_internal_keys_newest_version_and_deletions(tmp_path):
    # Internal key order: user key ascending, then sequence descending.
    entries = [
        (pack_internal_key(b"a", 9, 1), b"a-new"),
        (pack_internal_key(b"a", 3, 1), b"a-old"),
        (pack_internal_key(b"b", 7, 0), b""),  # deletion
        (pack_internal_key(b"b", 2, 1), b"b-old"),
        (pack_internal_key(b"c", 1, 1), b"c"),
    ]
    path = tmp_path / "000005.ldb"
    bloomtable.build_table(path, entries, internal_keys=True)
    with bloomtable.Table.open(path, internal_keys=True) as t:
        assert t.internal_keys
        assert t.get(b"a") == b"a-new"
        assert t.get(b"b") is None
        assert t[b"c"] == b"c"
        assert list(t.items()) == entries
        assert [k[:-8] for k in t.keys(start=b"b", stop=b"c")] == [b"b", b"b"]


def test_get_pinned_is_a_view_that_outlives_the_table(table_path, model):
    t = bloomtable.Table.open(table_path)
    views = {key: t.get_pinned(key) for key in model}
    assert t.get_pinned(key_of(1)) is None
    for key, view in views.items():
        assert isinstance(view, memoryview)
        assert view.readonly
        assert view.tobytes() == model[key] == t.get(key)
    t.close()
    del t
    gc.collect()
    # Each view holds its block: still readable after the table is gone.
    for key, view in views.items():
        assert bytes(view) == model[key]
    with pytest.raises(TypeError):
        next(iter(views.values()))[0:1] = b"x"
