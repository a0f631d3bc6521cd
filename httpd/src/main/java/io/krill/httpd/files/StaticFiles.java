package io.krill.httpd.files;

import io.krill.fibers.Checks;
import io.krill.httpd.Handler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A {@link Handler} that serves the files under one directory.
 *
 * <pre>{@code
 * HttpServer server = HttpServer.builder().port(8080)
 *     .fallback(StaticFiles.handler(Path.of("site")))
 *     .build().start();
 * }</pre>
 *
 * <p>What it does: {@code GET} and {@code HEAD} (other methods get 405 with {@code Allow});
 * {@code ETag} and {@code Last-Modified} with {@code If-None-Match}/{@code If-Modified-Since}
 * (304), {@code If-Match} and {@code If-Unmodified-Since} (412); one byte range per request ({@code Range}, {@code If-Range}:
 * 206, or 416 when it starts past the end; several ranges are answered with the whole file and
 * 200, which RFC 9110 allows); a content type by extension; gzip for text types over
 * {@link Builder#DEFAULT_GZIP_MIN_BYTES} when the client accepts it: a {@code name.gz} sibling
 * as it is, else compressed once per file version into a cache bounded in bytes (on the
 * blocking pool, never on a carrier), else, for files too large for it, streamed a slice at a
 * time, each deflated on the blocking pool; a directory requested without its trailing slash is redirected (301) to
 * it; zero-copy transfer through {@link io.krill.httpd.Response#sendFile} when TLS is
 * off; a directory is answered with its index file or 404.
 *
 * <p>What it refuses, always with 404 and never by serving: {@code ..} and {@code .}
 * segments, also percent-encoded ({@code %2e%2e}); encoded slashes ({@code %2f}); backslashes,
 * colons, NUL and other control characters; malformed escapes and invalid UTF-8; files whose
 * real path (after symlinks) lies outside the real root; hidden files (a segment starting with
 * {@code .}) unless allowed.
 *
 * <p>Threading: the handler is immutable and thread-safe; it runs on each connection's strand
 * and may suspend it while sending.
 */
public final class StaticFiles {
  private StaticFiles() {}

  /**
   * A handler with the defaults: index file {@value Builder#DEFAULT_INDEX_FILE}, gzip on, hidden
   * files refused, mounted at {@code /}.
   *
   * @param root an existing directory
   * @return the handler
   * @throws IllegalArgumentException if {@code root} is not an existing directory
   */
  public static Handler handler(Path root) {
    return builder(root).build();
  }

  /**
   * Starts a handler for the files under {@code root}.
   *
   * @param root an existing directory
   * @return a builder
   */
  public static Builder builder(Path root) {
    return new Builder(root);
  }

  /** Settings of a static-file handler. Not thread-safe; configure on one thread, then {@link #build()}. */
  public static final class Builder {
    /** Default file answered for a directory. */
    public static final String DEFAULT_INDEX_FILE = "index.html";
    /** Default: gzip compressible types when the client accepts it. */
    public static final boolean DEFAULT_GZIP = true;
    /** Default: smallest file worth compressing, in bytes. */
    public static final long DEFAULT_GZIP_MIN_BYTES = 1024;
    /**
     * Default deflate level: 1, the fastest; text shrinks nearly as much as at the JDK's default
     * 6 for a fraction of the time.
     */
    public static final int DEFAULT_GZIP_LEVEL = 1;
    /** Default: most bytes of gzipped files kept in memory (each file version is compressed once). */
    public static final long DEFAULT_GZIP_CACHE_BYTES = 64L * 1024 * 1024;
    /** Default: answer with {@code name.gz} next to a file when the client accepts gzip (nginx's gzip_static). */
    public static final boolean DEFAULT_GZIP_STATIC = true;
    /** Default: refuse paths with a segment starting with {@code .} ({@code .git}, {@code .env}). */
    public static final boolean DEFAULT_HIDDEN_FILES = false;
    /**
     * Default: most bytes of small files' bodies kept in memory, read once per file version (0:
     * none; paths are still remembered).
     */
    public static final long DEFAULT_FILE_CACHE_BYTES = 16L * 1024 * 1024;
    /**
     * Largest file whose bytes the file cache keeps on the heap and sends with every response;
     * larger ones go zero-copy from disk on cleartext HTTP/1.1.
     */
    public static final long FILE_CACHE_MAX_FILE_BYTES = 64 * 1024;
    /**
     * Default: largest file whose bytes the file cache keeps at all (above
     * {@link #FILE_CACHE_MAX_FILE_BYTES} in direct memory, sent as slices on TLS and HTTP/2,
     * which would otherwise read and copy the file per response).
     */
    public static final long DEFAULT_FILE_CACHE_MAX_FILE_BYTES = 1024 * 1024;
    /** Most {@link #fileCacheMaxFileBytes} allows: one buffer's bound. */
    public static final long MAX_FILE_CACHE_MAX_FILE_BYTES = 1L << 30;
    /**
     * How long a path's resolution (symlinks, index file, refusals) is trusted; the file's size
     * and modification time are checked on every request regardless.
     */
    public static final java.time.Duration FILE_CACHE_VALID = java.time.Duration.ofSeconds(1);

    private final Path root;
    private String indexFile = DEFAULT_INDEX_FILE;
    private boolean gzip = DEFAULT_GZIP;
    private long gzipMinBytes = DEFAULT_GZIP_MIN_BYTES;
    private int gzipLevel = DEFAULT_GZIP_LEVEL;
    private long gzipCacheBytes = DEFAULT_GZIP_CACHE_BYTES;
    private boolean gzipStatic = DEFAULT_GZIP_STATIC;
    private boolean hiddenFiles = DEFAULT_HIDDEN_FILES;
    private long fileCacheBytes = DEFAULT_FILE_CACHE_BYTES;
    private long fileCacheMaxFileBytes = DEFAULT_FILE_CACHE_MAX_FILE_BYTES;
    private String mountPrefix = "";

    Builder(Path root) {
      this.root = Objects.requireNonNull(root, "root");
    }

    /**
     * @param name the file answered for a directory, a plain file name
     * @return this
     */
    public Builder indexFile(String name) {
      Objects.requireNonNull(name, "name");
      if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0
          || name.indexOf('\\') >= 0 || name.indexOf('\0') >= 0) {
        throw new IllegalArgumentException("indexFile: " + name + " (expected: a file name without separators)");
      }
      this.indexFile = name;
      return this;
    }

    /**
     * @param enabled gzip compressible types when the client accepts it
     * @return this
     */
    public Builder gzip(boolean enabled) { this.gzip = enabled; return this; }

    /**
     * @param bytes the smallest file worth compressing, >= 0
     * @return this
     */
    public Builder gzipMinBytes(long bytes) {
      this.gzipMinBytes = Checks.nonNegative("gzipMinBytes", bytes);
      return this;
    }

    /**
     * @param level the deflate level, 1 (fastest) to 9 (smallest)
     * @return this
     */
    public Builder gzipLevel(int level) {
      this.gzipLevel = Checks.inRange("gzipLevel", level, 1, 9);
      return this;
    }

    /**
     * @param bytes the most bytes of gzipped files kept in memory, >= 0 (0: compress every
     *     response while streaming it); a file whose gzip form exceeds a quarter of this is
     *     always streamed
     * @return this
     */
    public Builder gzipCacheBytes(long bytes) {
      this.gzipCacheBytes = Checks.nonNegative("gzipCacheBytes", bytes);
      return this;
    }

    /**
     * @param enabled answer with {@code name.gz} (inside the root, not older than {@code name})
     *     when the client accepts gzip
     * @return this
     */
    public Builder gzipStatic(boolean enabled) { this.gzipStatic = enabled; return this; }

    /**
     * @param bytes the most bytes of small files (up to {@value #FILE_CACHE_MAX_FILE_BYTES} bytes
     *     each) kept in memory, >= 0; each request still checks the file's size and modification
     *     time, so a changed file is read again, never served stale
     * @return this
     */
    public Builder fileCacheBytes(long bytes) {
      this.fileCacheBytes = Checks.nonNegative("fileCacheBytes", bytes);
      return this;
    }

    /**
     * @param bytes the largest file whose bytes the file cache keeps, 0..{@value
     *     #MAX_FILE_CACHE_MAX_FILE_BYTES}: up to {@value #FILE_CACHE_MAX_FILE_BYTES} on the heap,
     *     above that in direct memory, sent as slices where a response would copy the file
     *     (TLS, HTTP/2); counted against {@link #fileCacheBytes}
     * @return this
     */
    public Builder fileCacheMaxFileBytes(long bytes) {
      this.fileCacheMaxFileBytes =
          Checks.inRange("fileCacheMaxFileBytes", bytes, 0, MAX_FILE_CACHE_MAX_FILE_BYTES);
      return this;
    }

    /**
     * @param allowed serve paths with segments starting with {@code .}
     * @return this
     */
    public Builder hiddenFiles(boolean allowed) { this.hiddenFiles = allowed; return this; }

    /**
     * @param prefix the path the root is mounted at, e.g. {@code /static} (default {@code /});
     *     targets outside it get 404
     * @return this
     */
    public Builder mountPrefix(String prefix) {
      Objects.requireNonNull(prefix, "prefix");
      String p = prefix.equals("/") ? "" : prefix;
      if (!p.isEmpty() && (!p.startsWith("/") || p.endsWith("/") || p.contains("..") || p.contains("%"))) {
        throw new IllegalArgumentException("mountPrefix: " + prefix + " (expected: / or /a/b without a trailing /)");
      }
      this.mountPrefix = p;
      return this;
    }

    /**
     * @return the handler
     * @throws IllegalArgumentException if the root is not an existing directory
     */
    public Handler build() {
      Path real;
      try {
        real = root.toRealPath();
      } catch (IOException e) {
        throw new IllegalArgumentException("root: " + root + " (expected: an existing directory)", e);
      }
      if (!Files.isDirectory(real)) {
        throw new IllegalArgumentException("root: " + root + " (expected: an existing directory)");
      }
      return new FileHandler(real, mountPrefix, indexFile, hiddenFiles, gzip, gzipMinBytes, gzipLevel, gzipCacheBytes,
          gzipStatic, new FileCache(fileCacheBytes, fileCacheMaxFileBytes, FILE_CACHE_VALID.toNanos()));
    }
  }
}
