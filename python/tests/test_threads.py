"""Many Python threads on one table; close while others are inside calls."""

import threading

import pytest

import bloomtable
from conftest import key_of


def run_threads(target, count):
    errors = []

    def wrapped(index):
        try:
            target(index)
        except BaseException as error:  # reported to the main thread
            errors.append(error)

    threads = [threading.Thread(target=wrapped, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def test_parallel_readers_see_the_model(table_path, model):
    ordered = sorted(model.items())
    probes = [key_of(i) for i in range(0, 4000, 5)]
    with bloomtable.Table.open(table_path) as t:
        def read(index):
            for _ in range(5):
                assert t.multi_get(probes) == [model.get(k) for k in probes]
                assert [t.get(k) for k in probes[index::4]] == [
                    model.get(k) for k in probes[index::4]]
                assert list(t.items(reverse=index % 2 == 1)) == (
                    ordered[::-1] if index % 2 else ordered)
        run_threads(read, 4)


def test_close_while_other_threads_are_inside_calls(table_path, model):
    ordered = sorted(model.items())
    probes = sorted(model)
    t = bloomtable.Table.open(table_path)
    started = threading.Barrier(5)
    outcomes = []

    def read(index):
        calls = 0
        started.wait()
        try:
            while True:
                if index % 2:
                    assert t.multi_get(probes) == [model[k] for k in probes]
                else:
                    got = []
                    for entry in t.items():
                        got.append(entry)
                    assert got == ordered
                calls += 1
        except bloomtable.InvalidArgumentError as error:
            assert "closed" in str(error)
            outcomes.append(calls)

    threads = [threading.Thread(target=read, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    started.wait()
    t.close()  # waits for the calls in progress, then frees the table
    for thread in threads:
        thread.join()
    assert len(outcomes) == 4
    assert t.closed


def test_an_iterator_shared_by_two_threads_hands_out_each_entry_once(table_path, model):
    with bloomtable.Table.open(table_path) as t:
        iterator = t.keys()
        taken = [[], []]

        def pull(index):
            while True:
                try:
                    taken[index].append(next(iterator))
                except StopIteration:
                    return
                except bloomtable.InvalidArgumentError as error:
                    assert "in use" in str(error)

        run_threads(pull, 2)
    for keys in taken:
        assert keys == sorted(keys)
    assert sorted(taken[0] + taken[1]) == sorted(model)


def test_iterators_alive_at_close_raise_from_any_thread(table_path, model):
    t = bloomtable.Table.open(table_path)
    iterators = [t.items(), t.keys(reverse=True), t.values(start=key_of(50))]
    for iterator in iterators:
        next(iterator)
    closer = threading.Thread(target=t.close)
    closer.start()
    closer.join()
    for iterator in iterators:
        with pytest.raises(bloomtable.InvalidArgumentError, match="closed"):
            next(iterator)
    del iterators  # freeing them after close is fine too


def test_parallel_builds_and_filters(tmp_path):
    def build(index):
        items = [(key_of(i), b"%d" % index) for i in range(index, 20000, 3)]
        path = tmp_path / ("t%d.ldb" % index)
        bloomtable.build_table(path, items, filter="ribbon", filter_layout="whole_table")
        with bloomtable.Table.open(path) as t:
            assert list(t.items()) == items
        f = bloomtable.Filter.build((k for k, _ in items), "ribbon")
        assert all(k in f for k, _ in items)

    run_threads(build, 3)


def test_a_builder_is_one_thread_at_a_time(tmp_path):
    builder = bloomtable.TableBuilder(tmp_path / "t.ldb")
    lock = threading.Lock()
    next_key = [0]

    def add(_):
        for _ in range(2000):
            with lock:  # keys stay in order; the builder checks its own use
                key = key_of(next_key[0])
                next_key[0] += 1
                builder.add(key, b"")

    run_threads(add, 2)
    builder.finish()
    with bloomtable.Table.open(tmp_path / "t.ldb") as t:
        assert list(t.keys()) == [key_of(i) for i in range(4000)]
