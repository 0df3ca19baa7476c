// Writes a small LevelDB database with the Java port of LevelDB
// (org.iq80.leveldb, Debian's libleveldb-java), for bloomtable's tests of
// foreign writers' logs and MANIFESTs. See ../README.md for how to run it.
//
// Usage: java MakeJavaLevelDb DIR EXPECTED
//
// DIR gets a database with flushed tables (the Java port names them .sst)
// and a live log of the batches written after the last flush; EXPECTED gets
// what a reader must find there, one fact a line:
//
//   comparator NAME
//   table LEVEL NUMBER SIZE       (from the port's own current version)
//   op SEQUENCE put|del KEYHEX VALUEHEX
//
// The op lines are the operations of the live log, in log order.

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.impl.DbImpl;
import org.iq80.leveldb.impl.FileMetaData;
import org.iq80.leveldb.impl.Version;
import org.iq80.leveldb.impl.VersionSet;

public class MakeJavaLevelDb {
  private static long sequence = 0;
  private static final StringBuilder expected = new StringBuilder();

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  private static String hex(byte[] b) {
    StringBuilder s = new StringBuilder();
    for (byte x : b) s.append(String.format("%02x", x & 0xff));
    return s.toString();
  }

  // Each operation takes the next sequence number; only those of the live
  // log are listed.
  private static void op(boolean listed, String kind, byte[] key, byte[] value) {
    sequence++;
    if (listed) {
      expected.append("op ").append(sequence).append(' ').append(kind)
          .append(' ').append(hex(key)).append(' ').append(hex(value))
          .append('\n');
    }
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: java MakeJavaLevelDb DIR EXPECTED");
      System.exit(2);
    }
    Options options = new Options();
    options.createIfMissing(true);
    options.compressionType(CompressionType.NONE);
    DbImpl db = new DbImpl(options, new File(args[0]));

    for (int i = 0; i < 20; i++) {
      byte[] key = bytes(String.format("java-key-%02d", i));
      byte[] value = bytes("value " + i);
      db.put(key, value);
      op(false, "put", key, value);
    }
    db.flushMemTable();
    db.delete(bytes("java-key-03"));
    op(false, "del", bytes("java-key-03"), new byte[0]);
    db.flushMemTable();

    WriteBatch batch = db.createWriteBatch();
    batch.put(bytes("log-a"), bytes("1"));
    batch.delete(bytes("java-key-01"));
    batch.put(bytes("log-\u0000\u00ff"), bytes("binary"));
    db.write(batch);
    batch.close();
    op(true, "put", bytes("log-a"), bytes("1"));
    op(true, "del", bytes("java-key-01"), new byte[0]);
    op(true, "put", bytes("log-\u0000\u00ff"), bytes("binary"));
    byte[] big = bytes("0123456789".repeat(3300));  // 33000 bytes: 2 fragments
    db.put(bytes("log-big"), big);
    op(true, "put", bytes("log-big"), big);
    db.delete(bytes("log-a"));
    op(true, "del", bytes("log-a"), new byte[0]);

    // The port's property for its tables is not implemented: its version
    // set is asked directly.
    StringBuilder out = new StringBuilder("comparator leveldb.BytewiseComparator\n");
    try {
      Field field = DbImpl.class.getDeclaredField("versions");
      field.setAccessible(true);
      Version current = ((VersionSet) field.get(db)).getCurrent();
      for (int level = 0; level < 7; level++) {
        for (FileMetaData file : current.getFiles(level)) {
          out.append("table ").append(level).append(' ').append(file.getNumber())
              .append(' ').append(file.getFileSize()).append('\n');
        }
      }
    } catch (ReflectiveOperationException e) {
      throw new IOException(e);
    }
    db.close();
    out.append(expected);
    Files.write(new File(args[1]).toPath(), out.toString().getBytes(StandardCharsets.UTF_8));
  }
}
