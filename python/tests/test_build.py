"""Writing tables: build_table, TableBuilder, and every build option."""

import os

import pytest

import bloomtable
from conftest import key_of

ITEMS = [(key_of(i), b"value%d" % i) for i in range(3000)]


def read_back(path, **open_options):
    with bloomtable.Table.open(path, **open_options) as t:
        return list(t.items()), t.filter_info(), t.scan_filter_info()


def test_build_table_returns_the_size_and_reads_back(tmp_path):
    path = tmp_path / "t.ldb"
    size = bloomtable.build_table(path, ITEMS)
    assert size == os.path.getsize(path)
    items, info, _ = read_back(path)
    assert items == ITEMS
    assert info["metaindex_key"] == "filter.leveldb.BuiltinBloomFilter2"  # the default


def test_build_table_accepts_a_dict_a_generator_and_buffers(tmp_path):
    bloomtable.build_table(tmp_path / "d", dict(reversed(ITEMS)), sort=True)
    bloomtable.build_table(tmp_path / "g", ((bytearray(k), memoryview(v)) for k, v in ITEMS))
    bloomtable.build_table(str(tmp_path / "s"), ITEMS)
    for name in "dgs":
        assert read_back(tmp_path / name)[0] == ITEMS


@pytest.mark.parametrize(
    "options, metaindex_key",
    [
        ({}, "filter.leveldb.BuiltinBloomFilter2"),
        ({"filter": "none"}, ""),
        ({"bits_per_key": 0}, ""),
        ({"filter": "cache_local_bloom", "bits_per_key": 9.5}, "filter.bloomtable.CacheLocalBloom"),
        ({"filter": "ribbon", "filter_layout": "whole_table"}, "fullfilter.bloomtable.Ribbon"),
        ({"filter": "ribbon", "filter_layout": "partitioned", "filter_partition_keys": 100},
         "partitionedfilter.bloomtable.Ribbon"),
        ({"filter": bloomtable.FilterPolicy.for_rate("cache_local_bloom", 0.001),
          "filter_layout": "whole_table"}, "fullfilter.bloomtable.CacheLocalBloom"),
        ({"filter": "bloom", "fp_rate": 0.01}, "filter.leveldb.BuiltinBloomFilter2"),
        ({"compression": "none", "block_size": 100, "block_restart_interval": 2,
          "index_block_restart_interval": 16}, "filter.leveldb.BuiltinBloomFilter2"),
        ({"compression": "zstd", "compression_level": 9}, "filter.leveldb.BuiltinBloomFilter2"),
    ],
)
def test_build_options(tmp_path, options, metaindex_key):
    path = tmp_path / "t.ldb"
    bloomtable.build_table(path, ITEMS, **options)
    items, info, _ = read_back(path)
    assert items == ITEMS
    assert info["metaindex_key"] == metaindex_key
    assert info["in_use"] == bool(metaindex_key)


def test_block_size_and_compression_change_the_file(tmp_path):
    sizes = {}
    for name, options in {"snappy": {}, "none": {"compression": "none"},
                          "zstd": {"compression": "zstd", "compression_level": 19}}.items():
        sizes[name] = bloomtable.build_table(tmp_path / name, ITEMS, filter="none", **options)
    assert sizes["zstd"] < sizes["snappy"] < sizes["none"]


def test_scan_filter_options(tmp_path):
    path = tmp_path / "t.ldb"
    bloomtable.build_table(path, ITEMS, prefix_extractor=bloomtable.PrefixExtractor.fixed(6),
                           whole_key_filtering=False, range_filter_bits_per_key=12,
                           max_range_length=32)
    _, _, scan = read_back(path)
    assert scan["prefix_metaindex_key"] == "prefixfilter.leveldb.BuiltinBloomFilter2"
    assert scan["prefix_extractor"] == "bloomtable.FixedPrefix.6"
    assert scan["prefix_whole_keys"] is False
    assert scan["range_metaindex_key"] == "rangefilter.bloomtable.Grafite"
    assert scan["range_num_keys"] == len(ITEMS)


@pytest.mark.parametrize(
    "options",
    [
        {"filter": "nope"},
        {"filter": "bloom", "bits_per_key": 9.5},
        {"filter": "bloom", "bits_per_key": -1},
        {"filter": "ribbon"},  # per-block layout: Ribbon is whole-table only
        {"filter": "none", "bits_per_key": 5},
        {"filter_layout": "diagonal"},
        {"compression": "lz4"},
        {"compression_level": 3},  # needs zstd
        {"compression": "zstd", "compression_level": 99},
        {"block_size": 0},
        {"block_restart_interval": 0},
        {"prefix_extractor": bloomtable.PrefixExtractor.fixed(2), "filter": "none"},
        {"whole_key_filtering": False},
        {"range_filter_bits_per_key": 2},
        {"max_range_length": 8},
        {"range_filter_bits_per_key": 8, "max_range_length": 0},
        {"bits_per_key": 10, "fp_rate": 0.1},
    ],
)
def test_bad_options_are_invalid_arguments_and_write_nothing(tmp_path, options):
    path = tmp_path / "t.ldb"
    with pytest.raises(bloomtable.InvalidArgumentError):
        bloomtable.build_table(path, ITEMS, **options)
    assert os.listdir(tmp_path) == []


def test_unknown_or_mistyped_options_are_type_errors(tmp_path):
    with pytest.raises(TypeError, match="unknown build option 'blocksize'"):
        bloomtable.build_table(tmp_path / "t", ITEMS, blocksize=10)
    with pytest.raises(TypeError, match="block_size"):
        bloomtable.build_table(tmp_path / "t", ITEMS, block_size="big")
    with pytest.raises(TypeError):
        bloomtable.build_table(tmp_path / "t", [(b"k",)])
    assert os.listdir(tmp_path) == []


def test_out_of_order_and_duplicates_keep_the_old_file(tmp_path):
    path = tmp_path / "t.ldb"
    bloomtable.build_table(path, ITEMS[:10])
    before = path.read_bytes()
    with pytest.raises(bloomtable.InvalidArgumentError):
        bloomtable.build_table(path, [(b"b", b""), (b"a", b"")])
    with pytest.raises(ValueError, match="duplicate key b'a'"):
        bloomtable.build_table(path, [(b"a", b"1"), (b"b", b""), (b"a", b"2")], sort=True)
    with pytest.raises(TypeError):
        bloomtable.build_table(path, [(b"a", "str value")])
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["t.ldb"]


def test_table_builder_steps(tmp_path):
    path = tmp_path / "t.ldb"
    builder = bloomtable.TableBuilder(path, filter="ribbon", filter_layout="whole_table")
    for key, value in ITEMS:
        builder.add(key, value)
    assert builder.num_entries == len(ITEMS)
    assert not path.exists()  # written beside it until finish
    size = builder.finish()
    assert builder.finished and builder.num_entries == len(ITEMS)
    assert size == os.path.getsize(path)
    assert read_back(path)[0] == ITEMS
    with pytest.raises(bloomtable.InvalidArgumentError, match="finished"):
        builder.add(b"zzz", b"")
    with pytest.raises(bloomtable.InvalidArgumentError, match="finished"):
        builder.finish()


def test_table_builder_out_of_order_then_abandon(tmp_path):
    builder = bloomtable.TableBuilder(tmp_path / "t.ldb")
    builder.add(b"b", b"")
    with pytest.raises(bloomtable.InvalidArgumentError):
        builder.add(b"a", b"")
    builder.abandon()
    builder.abandon()
    assert os.listdir(tmp_path) == []


def test_table_builder_context_manager(tmp_path):
    with bloomtable.TableBuilder(tmp_path / "ok.ldb") as builder:
        builder.add(b"k", b"v")
    assert read_back(tmp_path / "ok.ldb")[0] == [(b"k", b"v")]
    with pytest.raises(RuntimeError):
        with bloomtable.TableBuilder(tmp_path / "failed.ldb") as builder:
            builder.add(b"k", b"v")
            raise RuntimeError("stop")
    assert sorted(os.listdir(tmp_path)) == ["ok.ldb"]
    # Dropped without finish: nothing left either.
    builder = bloomtable.TableBuilder(tmp_path / "dropped.ldb")
    builder.add(b"k", b"v")
    del builder
    assert sorted(os.listdir(tmp_path)) == ["ok.ldb"]


def test_builder_in_a_missing_directory_is_an_os_error(tmp_path):
    with pytest.raises(FileNotFoundError) as raised:
        bloomtable.TableBuilder(tmp_path / "no" / "t.ldb")
    assert raised.value.filename == str(tmp_path / "no" / "t.ldb")
