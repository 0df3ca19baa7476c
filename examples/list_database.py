#!/usr/bin/env python3
"""Lists a LevelDB database directory as JSON lines.

    python3 examples/list_database.py DIR [--versions] [--leftovers]
                                          [--start KEY] [--stop KEY]
                                          [--reverse] [--sequence N]

By default, one {"key": ..., "value": ...} per key with a value (its newest
version), in key order. With --versions, every version of every key the
database holds: {"key", "sequence", "type" ("put" or "del"), "value",
"file", "offset", "status" ("live", "overwritten", "deleted" or, with
--leftovers, "leftover")}, newest first per key. Keys and values are printed
as strings when valid UTF-8 and as {"hex": "..."} otherwise. The database is
read without its LOCK and never written. Exit status 1 with a message on
standard error for a damaged database (bloomtable.CorruptionError), an
unsupported one (bloomtable.UnsupportedError), a directory that holds no
database (bloomtable.Error) or a file-system error (OSError).
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


def version_json(record: bloomtable.VersionRecord) -> str:
    return json.dumps({"key": text_or_hex(record.key), "sequence": record.sequence,
                       "type": record.type, "value": text_or_hex(record.value),
                       "file": record.file, "offset": record.offset,
                       "status": record.status})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir")
    parser.add_argument("--versions", action="store_true",
                        help="every version of every key, with its status")
    parser.add_argument("--leftovers", action="store_true",
                        help="with --versions: also files the MANIFEST no longer names")
    parser.add_argument("--start", help="first key (inclusive, UTF-8)")
    parser.add_argument("--stop", help="end key (exclusive, UTF-8)")
    parser.add_argument("--reverse", action="store_true")
    parser.add_argument("--sequence", type=int, help="read as of this sequence number")
    args = parser.parse_args()
    start = args.start.encode() if args.start is not None else None
    stop = args.stop.encode() if args.stop is not None else None
    try:
        with bloomtable.Database.open(args.dir, read_leftovers=args.leftovers) as db:
            if args.versions:
                for record in db.versions(sequence=args.sequence):
                    print(version_json(record))
            else:
                for key, value in db.items(start, stop, reverse=args.reverse,
                                           sequence=args.sequence):
                    print(json.dumps({"key": text_or_hex(key),
                                      "value": text_or_hex(value)}))
    except (bloomtable.Error, OSError) as error:
        sys.stdout.flush()
        print(f"list_database: {args.dir}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
