// Command make_goleveldb_db writes a small LevelDB database with goleveldb
// (github.com/syndtr/goleveldb), for bloomtable's tests of foreign writers'
// logs and MANIFESTs. See ../README.md for how to run it.
//
// Usage: make_goleveldb_db DIR EXPECTED
//
// DIR gets a database whose MANIFEST names tables on two levels and whose
// live log holds batches written after the last flush. Its tables carry
// goleveldb's Bloom filter (10 bits a key), which goleveldb names
// "leveldb.BuiltinBloomFilter", the name LevelDB used before 2014. EXPECTED
// gets what a reader must find there, one fact a line:
//
//	comparator NAME
//	table LEVEL NUMBER SIZE        (from goleveldb's "leveldb.sstables")
//	op SEQUENCE put|del KEYHEX VALUEHEX
//
// The op lines are the operations of the live log, in log order.
package main

import (
	"encoding/hex"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/filter"
	"github.com/syndtr/goleveldb/leveldb/opt"
	"github.com/syndtr/goleveldb/leveldb/util"
)

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: make_goleveldb_db DIR EXPECTED")
		os.Exit(2)
	}
	db, err := leveldb.OpenFile(os.Args[1], &opt.Options{
		Compression: opt.NoCompression,
		Filter:      filter.NewBloomFilter(10),
	})
	check(err)

	// Tables: two flushes, the first compacted into level 1.
	for i := 0; i < 20; i++ {
		check(db.Put([]byte(fmt.Sprintf("table-key-%02d", i)),
			[]byte(fmt.Sprintf("value %d", i)), nil))
	}
	check(db.CompactRange(util.Range{}))
	check(db.Put([]byte("table-key-05"), []byte("newer"), nil))
	check(db.Delete([]byte("table-key-06"), nil))
	check(db.CompactRange(util.Range{Start: []byte("table-key-05"),
		Limit: []byte("table-key-07")}))
	// A second table, of keys no other table holds.
	check(db.Put([]byte("zz-1"), []byte("z1"), nil))
	check(db.Put([]byte("zz-2"), []byte("z2"), nil))
	check(db.CompactRange(util.Range{Start: []byte("zz"), Limit: []byte("zzz")}))

	// The live log: what was written since the last flush.
	var expected strings.Builder
	// goleveldb exposes no sequence number: each operation takes the next
	// one, from 1; 24 were written above.
	sequence := uint64(24)
	op := func(kind string, key, value []byte) {
		sequence++
		fmt.Fprintf(&expected, "op %d %s %s %s\n", sequence, kind,
			hex.EncodeToString(key), hex.EncodeToString(value))
	}
	batch := new(leveldb.Batch)
	batch.Put([]byte("log-a"), []byte("1"))
	batch.Delete([]byte("table-key-01"))
	batch.Put([]byte("log-\x00\xff"), []byte("binary"))
	check(db.Write(batch, nil))
	op("put", []byte("log-a"), []byte("1"))
	op("del", []byte("table-key-01"), nil)
	op("put", []byte("log-\x00\xff"), []byte("binary"))
	big := []byte(strings.Repeat("0123456789", 3300)) // 33000 bytes: 2 fragments
	check(db.Put([]byte("log-big"), big, nil))
	op("put", []byte("log-big"), big)
	check(db.Delete([]byte("log-a"), nil))
	op("del", []byte("log-a"), nil)

	sstables, err := db.GetProperty("leveldb.sstables")
	check(err)
	check(db.Close())

	var out strings.Builder
	out.WriteString("comparator leveldb.BytewiseComparator\n")
	level := -1
	header := regexp.MustCompile(`^--- level (\d+) ---$`)
	table := regexp.MustCompile(`^(\d+):(\d+)\[`)
	for _, line := range strings.Split(sstables, "\n") {
		if m := header.FindStringSubmatch(line); m != nil {
			level, _ = strconv.Atoi(m[1])
		} else if m := table.FindStringSubmatch(line); m != nil {
			fmt.Fprintf(&out, "table %d %s %s\n", level, m[1], m[2])
		}
	}
	out.WriteString(expected.String())
	check(os.WriteFile(os.Args[2], []byte(out.String()), 0o644))
}
