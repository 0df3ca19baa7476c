#!/usr/bin/env python3
"""Lists a table file as JSON lines: one {"key": ..., "value": ...} per entry.

    python3 examples/list_table.py FILE [--start KEY] [--stop KEY] [--reverse]
                                        [--internal_keys] [--limit N]

Keys and values are bytes; each is printed as a string when it is valid
UTF-8 and as {"hex": "..."} otherwise, so that every line is valid JSON and
no byte is lost. With --internal_keys (a LevelDB database's .ldb files) each
line also carries the entry's sequence number and type (1 value, 0
deletion), and "key" is the user key. Exit status 1 with a message on
standard error for a damaged file (bloomtable.CorruptionError), an
unsupported one (bloomtable.UnsupportedError) or a file-system error
(OSError); the lines printed before damage was met stay valid.

This is a script, not a folder: CI's loop over the C++ examples
(examples/*/) does not pick it up; CI runs it against the installed package.
"""

import argparse
import json
import sys

import bloomtable


def text_or_hex(data: bytes):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return {"hex": data.hex()}


def entry_json(key: bytes, value: bytes, internal_keys: bool) -> str:
    if not internal_keys:
        return json.dumps({"key": text_or_hex(key), "value": text_or_hex(value)})
    tag = int.from_bytes(key[-8:], "little")
    return json.dumps({"key": text_or_hex(key[:-8]), "sequence": tag >> 8,
                       "type": tag & 0xFF, "value": text_or_hex(value)})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("--start", help="first key (inclusive, UTF-8)")
    parser.add_argument("--stop", help="end key (exclusive, UTF-8)")
    parser.add_argument("--reverse", action="store_true")
    parser.add_argument("--internal_keys", action="store_true")
    parser.add_argument("--limit", type=int, default=-1)
    args = parser.parse_args()
    start = args.start.encode() if args.start is not None else None
    stop = args.stop.encode() if args.stop is not None else None
    try:
        with bloomtable.Table.open(args.file, internal_keys=args.internal_keys) as table:
            for count, (key, value) in enumerate(
                    table.items(start, stop, reverse=args.reverse)):
                if count == args.limit:
                    break
                print(entry_json(key, value, args.internal_keys))
    except (bloomtable.Error, OSError) as error:
        sys.stdout.flush()
        print(f"list_table: {args.file}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
