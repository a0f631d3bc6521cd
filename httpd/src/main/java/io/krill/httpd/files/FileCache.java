package io.krill.httpd.files;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the static-file handler learnt about a request path, kept so the next request for it
 * skips the path resolution (a {@code realpath} and several {@code stat}s) and the header
 * formatting, like nginx's {@code open_file_cache}: the real file, its size and modification
 * time, its header values, and for a small file its bytes: on the heap up to
 * {@link #HEAP_MAX_FILE_BYTES}, above that (up to the cache's per-file bound) in one read-only
 * direct buffer that responses which copy file bodies (TLS, HTTP/2) send slices of, where a
 * cleartext HTTP/1.1 response still sends the file zero-copy. Every use re-reads the file's
 * attributes (one {@code stat}) and drops the entry when size or modification time changed, so
 * a changed file is never served stale; the resolution itself (symlinks, index files, a hidden
 * sibling appearing) is trusted for {@link #validNanos}. Bodies are bounded in bytes; paths in
 * count (a full table is cleared). Thread-safe.
 */
final class FileCache {
  /** Most paths remembered; past it the table is cleared and refilled. */
  static final int MAX_ENTRIES = 10_000;
  /** Largest file whose bytes are held as an array (sent whole by every response). */
  static final long HEAP_MAX_FILE_BYTES = StaticFiles.Builder.FILE_CACHE_MAX_FILE_BYTES;

  /** A resolved file with its response header values; immutable. */
  static final class Entry {
    final Path file;
    final long size;
    final FileTime mtime;
    final long mtimeMillis;
    final String type;
    final String lastModified;
    final String identityTag;
    final String gzipTag;
    /** Whether gzip could apply (compressible type or a .gz sibling): such requests take the full path when they accept gzip. */
    final boolean gzipCandidate;
    /** The whole file, or null when it is larger than the cache keeps. */
    final byte[] body;
    /**
     * The whole file, read-only in direct memory, for a file too large for {@link #body}; null
     * otherwise. Not reference counted (releases do nothing): the JDK frees the memory once
     * neither the cache nor a response still sending it holds the buffer.
     */
    final ByteBuf content;
    final long resolvedNanos;

    Entry(Path file, BasicFileAttributes attrs, String type, String lastModified, String identityTag, String gzipTag,
        boolean gzipCandidate, byte[] body, ByteBuf content, long resolvedNanos) {
      this.file = file;
      this.size = attrs.size();
      this.mtime = attrs.lastModifiedTime();
      this.mtimeMillis = mtime.toMillis();
      this.type = type;
      this.lastModified = lastModified;
      this.identityTag = identityTag;
      this.gzipTag = gzipTag;
      this.gzipCandidate = gzipCandidate;
      this.body = body;
      this.content = content;
      this.resolvedNanos = resolvedNanos;
    }

    /** @return true if {@code attrs} (read just now) still describe the file this entry was made from */
    boolean matches(BasicFileAttributes attrs) {
      return attrs.isRegularFile() && attrs.size() == size && attrs.lastModifiedTime().equals(mtime);
    }

    /** @return a view of {@link #content} with indexes of its own, or null when there is none */
    ByteBuf content() {
      return content == null ? null : content.duplicate();
    }

    long heldBytes() {
      return body != null || content != null ? size : 0;
    }
  }

  private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
  private final long maxBytes;
  private final long maxFileBytes;
  private final long validNanos;
  private final AtomicLong bodyBytes = new AtomicLong();

  /**
   * @param maxBytes most bytes of file bodies held
   * @param maxFileBytes largest file whose bytes are held (above {@link #HEAP_MAX_FILE_BYTES} in
   *     direct memory)
   * @param validNanos how long a path's resolution is trusted
   */
  FileCache(long maxBytes, long maxFileBytes, long validNanos) {
    this.maxBytes = maxBytes;
    this.maxFileBytes = maxFileBytes;
    this.validNanos = validNanos;
  }

  /** @return the entry for {@code path} if its resolution is still trusted, else null */
  Entry get(String path, long now) {
    Entry e = entries.get(path);
    if (e == null) {
      return null;
    }
    if (now - e.resolvedNanos >= validNanos) {
      remove(path, e);
      return null;
    }
    return e;
  }

  /** Forgets {@code e} (the file changed). */
  void remove(String path, Entry e) {
    if (entries.remove(path, e)) {
      bodyBytes.addAndGet(-e.heldBytes());
    }
  }

  /**
   * Remembers a resolved file, reading its bytes when it is small and the budget allows; a file
   * that changes while it is read is not remembered.
   */
  void put(String path, Path file, BasicFileAttributes attrs, String type, String lastModified, String identityTag,
      String gzipTag, boolean gzipCandidate, long now) {
    byte[] body = null;
    ByteBuf content = null;
    long size = attrs.size();
    if (size <= maxFileBytes && bodyBytes.addAndGet(size) <= maxBytes) {
      try {
        long read;
        if (size <= HEAP_MAX_FILE_BYTES) {
          body = Files.readAllBytes(file);
          read = body.length;
        } else {
          content = readDirect(file, (int) size);
          read = content.readableBytes();
        }
        BasicFileAttributes after = Files.readAttributes(file, BasicFileAttributes.class);
        if (read != size || after.size() != size || !after.lastModifiedTime().equals(attrs.lastModifiedTime())) {
          bodyBytes.addAndGet(-size);
          return; // changed under us: serve it from disk this time, cache it next time
        }
      } catch (IOException | RuntimeException e) {
        bodyBytes.addAndGet(-size);
        return;
      }
    } else if (size <= maxFileBytes) {
      bodyBytes.addAndGet(-size); // over budget: remember the resolution only
    }
    if (entries.size() >= MAX_ENTRIES) {
      clear();
    }
    Entry e = new Entry(file, attrs, type, lastModified, identityTag, gzipTag, gzipCandidate, body, content, now);
    Entry old = entries.put(path, e);
    if (old != null) {
      bodyBytes.addAndGet(-old.heldBytes());
    }
  }

  /*
   * Up to size bytes of the file (fewer if it shrank: the caller compares), read-only. A JDK
   * direct buffer, freed by the JDK when unreachable, so that an entry dropped while a response
   * still sends it needs no reference count, and a cache dropped with its server leaks nothing.
   */
  private static ByteBuf readDirect(Path file, int size) throws IOException {
    ByteBuffer bytes = ByteBuffer.allocateDirect(size);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      while (bytes.hasRemaining() && ch.read(bytes, bytes.position()) > 0) {
        // FileChannel reads may be short
      }
    }
    bytes.flip();
    return Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(bytes.asReadOnlyBuffer()));
  }

  private void clear() {
    for (String k : entries.keySet()) {
      Entry e = entries.get(k);
      if (e != null) {
        remove(k, e);
      }
    }
  }

  /** @return bytes of file bodies held now */
  long bodyBytes() {
    return bodyBytes.get();
  }

  /** @return paths remembered now */
  int size() {
    return entries.size();
  }
}
