package io.krill.httpd.files;

import io.krill.fibers.Blocking;
import io.krill.fibers.FiberCountDownLatch;
import io.krill.fibers.Suspendable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Gzipped static files in memory, so that each version of a file is compressed once, not per
 * request: keyed by real path, size and modification time, bounded in bytes, least recently used
 * first out. Compression runs on the blocking pool ({@link Blocking}), never on a carrier; the
 * requests that arrive meanwhile wait for the same result. Thread-safe.
 */
final class GzipCache {
  /*
   * Implementation notes.
   *
   * One lock (the map's monitor) guards the map and the byte count; nothing suspends under it.
   * An entry is put in the map before its compression starts, so concurrent requests find it and
   * await its latch. A file whose gzip form would exceed maxEntryBytes keeps an entry with no
   * data (costing no bytes), so later requests stream it at once instead of compressing it again
   * up to the limit; MAX_ENTRIES bounds those markers too. A changed file has a new key; its old
   * entry ages out.
   */
  /** The most entries, data or markers. */
  static final int MAX_ENTRIES = 4096;

  private final long capacityBytes;
  private final long maxEntryBytes;
  private final int level;
  private final LinkedHashMap<Key, Entry> map = new LinkedHashMap<>(64, 0.75f, true);
  private long bytes;
  /** Compressions started; tests read it to show a file is compressed once. */
  final AtomicLong compressions = new AtomicLong();

  /**
   * @param capacityBytes the most compressed bytes held, > 0
   * @param level the deflate level, 1..9
   */
  GzipCache(long capacityBytes, int level) {
    this.capacityBytes = capacityBytes;
    this.maxEntryBytes = Math.max(1, capacityBytes / 4);
    this.level = level;
  }

  private record Key(Path file, long size, long mtimeMillis) {}

  private static final class Entry {
    final FiberCountDownLatch done = FiberCountDownLatch.create(1);
    volatile byte[] data;
  }

  /**
   * The gzip form of a file, compressing it on the blocking pool if no request did yet. May
   * suspend.
   *
   * @param file the real path of a regular file
   * @return the gzip member, or null if it is too large for the cache or could not be read
   *     (the caller streams it instead)
   */
  byte[] get(Path file, long size, long mtimeMillis) throws Suspendable {
    Key key = new Key(file, size, mtimeMillis);
    Entry e;
    boolean mine = false;
    synchronized (map) {
      e = map.get(key);
      if (e == null) {
        e = new Entry();
        map.put(key, e);
        mine = true;
        trim();
      }
    }
    if (!mine) {
      e.done.await();
      return e.data;
    }
    compressions.incrementAndGet();
    byte[] data = null;
    try {
      data = Blocking.call(() -> GzipWriter.compress(file, level, maxEntryBytes));
    } catch (IOException | RuntimeException ex) {
      synchronized (map) {
        map.remove(key, e); // a read error is not remembered: the next request tries again
      }
    } catch (Exception ex) {
      throw new IllegalStateException(ex); // compress throws nothing else
    } finally {
      e.data = data;
      e.done.countDown();
    }
    if (data != null) {
      synchronized (map) {
        if (map.get(key) == e) {
          bytes += data.length;
          trim();
        }
      }
    }
    return data;
  }

  /** @return the gzip form if it is cached already, else null; never compresses */
  byte[] peek(Path file, long size, long mtimeMillis) {
    Entry e;
    synchronized (map) {
      e = map.get(new Key(file, size, mtimeMillis));
    }
    return e == null ? null : e.data;
  }

  /* Under the lock: drops the least recently used entries until within bounds. */
  private void trim() {
    Iterator<Map.Entry<Key, Entry>> it = map.entrySet().iterator();
    while ((bytes > capacityBytes || map.size() > MAX_ENTRIES) && it.hasNext()) {
      Entry old = it.next().getValue();
      byte[] d = old.data;
      if (d == null && old.done.getCount() > 0) {
        continue; // being compressed: its bytes are not counted yet
      }
      it.remove();
      if (d != null) {
        bytes -= d.length;
      }
    }
  }

  /** @return compressed bytes held now */
  long bytes() {
    synchronized (map) {
      return bytes;
    }
  }
}
