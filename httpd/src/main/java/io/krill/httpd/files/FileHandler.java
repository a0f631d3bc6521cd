package io.krill.httpd.files;

import io.krill.fibers.Suspendable;
import io.krill.httpd.Handler;
import io.krill.httpd.Preconditions;
import io.krill.httpd.Request;
import io.krill.httpd.Response;
import io.krill.httpd.internal.body.BufferedBody;
import io.krill.netio.FiberOutput;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;

/**
 * The {@link Handler} built by {@link StaticFiles}: GET and HEAD of files under one root.
 * Immutable; thread-safe.
 */
final class FileHandler implements Handler {
  /*
   * Implementation notes.
   *
   * Order of decisions (RFC 9110 section 13.2.2): method; path (refusals are all 404 so a
   * probe learns nothing); real path inside the real root (symlinks may point anywhere inside);
   * directory without trailing slash -> 301 to the slash form; directory -> index file; the
   * conditions (Preconditions: If-Match or If-Unmodified-Since 412, If-None-Match or
   * If-Modified-Since 304); Range with If-Range (206/416); then the whole file.
   *
   * Representations: identity, with strong ETag "size-mtime" in hex, and for compressible
   * types a gzip variant "size-mtime-gzL" at level L (the deflater output is deterministic, so
   * the tag is strong), or a precompressed sibling "size-mtime-gzsN" of N bytes. Gzip bytes come
   * from the sibling, the cache (compressed once per file version, on the blocking pool) or, for
   * files too large for the cache, a compression streamed a slice at a time on the blocking pool. A Range request is always answered from the identity representation, so a client
   * resuming a download never gets byte offsets into compressed data. HEAD ignores Range.
   */

  private static final byte[] MOVED = "Moved Permanently\n".getBytes(StandardCharsets.UTF_8);
  private static final byte[] NOT_FOUND = "Not Found\n".getBytes(StandardCharsets.UTF_8);

  private final Path root;
  private final PathResolver resolver;
  private final String indexFile;
  private final boolean gzip;
  private final long gzipMinBytes;
  private final int gzipLevel;
  private final boolean gzipStatic;
  /** Null when the cache is off. */
  final GzipCache gzipCache;
  final FileCache fileCache;

  FileHandler(Path realRoot, String mountPrefix, String indexFile, boolean hiddenFiles, boolean gzip, long gzipMinBytes,
      int gzipLevel, long gzipCacheBytes, boolean gzipStatic, FileCache fileCache) {
    this.fileCache = fileCache;
    this.root = realRoot;
    this.resolver = new PathResolver(realRoot, mountPrefix, hiddenFiles);
    this.indexFile = indexFile;
    this.gzip = gzip;
    this.gzipMinBytes = gzipMinBytes;
    this.gzipLevel = gzipLevel;
    this.gzipStatic = gzipStatic;
    this.gzipCache = gzip && gzipCacheBytes > 0 ? new GzipCache(gzipCacheBytes, gzipLevel) : null;
  }

  @Override
  public void handle(Request req, Response res) throws IOException, Suspendable {
    String method = req.method();
    boolean head = "HEAD".equals(method);
    if (!head && !"GET".equals(method)) {
      res.status(405).header("Allow", "GET, HEAD");
      res.send("Method Not Allowed\n");
      return;
    }
    String key = PathResolver.pathOf(req.uri());
    long now = System.nanoTime();
    FileCache.Entry cached = key == null ? null : fileCache.get(key, now);
    if (cached != null && (head || req.header("Range") == null)
        && !(cached.gzipCandidate && gzip && acceptsGzip(req.header("Accept-Encoding")))) {
      BasicFileAttributes a = attributes(cached.file);
      if (a != null && cached.matches(a)) {
        serveCached(req, res, cached, head);
        return;
      }
      fileCache.remove(key, cached);
    }
    PathResolver.Target target = resolver.resolve(req.uri());
    if (target != null && !target.directorySyntax && isDirectoryInside(target.path)) {
      redirectToDirectory(req, res);
      return;
    }
    Path file = target == null ? null : servable(target);
    BasicFileAttributes attrs = file == null ? null : attributes(file);
    if (attrs == null) {
      res.status(404).header("Content-Type", "text/plain; charset=utf-8");
      res.send(NOT_FOUND);
      return;
    }
    serve(req, res, file, attrs, head, key, now);
  }

  /*
   * A path served before whose file is unchanged: the same headers as serve() below, from the
   * entry, and the body from memory for a small file. Only for requests the identity form answers
   * whole (no Range, no gzip that could apply), so the decisions skipped are the ones the entry
   * already made.
   */
  private static void serveCached(Request req, Response res, FileCache.Entry e, boolean head)
      throws IOException, Suspendable {
    res.header("Content-Type", e.type).header("Last-Modified", e.lastModified).header("ETag", e.identityTag)
        .header("Accept-Ranges", "bytes");
    if (e.gzipCandidate) {
      res.header("Vary", "Accept-Encoding");
    }
    int precondition = Preconditions.evaluate(req, e.mtimeMillis, e.identityTag, e.gzipTag);
    if (precondition != Preconditions.PROCEED) {
      res.status(precondition);
      res.send(new byte[0]);
    } else if (e.body != null) {
      res.send(e.body);
    } else if (!sendContent(res, e)) {
      res.sendFile(e.file, 0, e.size);
    }
  }

  /*
   * A file whose bytes the cache holds in direct memory, for a response that would otherwise read
   * and copy the file (TLS, HTTP/2): slices of the held bytes, no read per request. Cleartext
   * HTTP/1.1 sends the file zero-copy instead.
   */
  private static boolean sendContent(Response res, FileCache.Entry e) throws IOException, Suspendable {
    if (e.content == null || !(res instanceof BufferedBody) || !((BufferedBody) res).copiesFileBodies()) {
      return false;
    }
    ByteBuf content = e.content();
    if (content == null) {
      return false;
    }
    ((BufferedBody) res).sendContent(content);
    return true;
  }

  private void serve(Request req, Response res, Path file, BasicFileAttributes attrs, boolean head, String key, long now)
      throws IOException, Suspendable {
    long size = attrs.size();
    long mtimeMillis = attrs.lastModifiedTime().toMillis();
    long mtimeSeconds = Math.floorDiv(mtimeMillis, 1000L);
    String type = ContentTypes.of(file.getFileName().toString());
    boolean compressible = gzip && size >= gzipMinBytes && ContentTypes.compressible(type);
    String range = head ? null : req.header("Range");
    boolean accepted = gzip && range == null && acceptsGzip(req.header("Accept-Encoding"));
    Path sibling = accepted && gzipStatic ? gzSibling(file, mtimeMillis) : null;
    boolean gzipped = sibling != null || accepted && compressible;
    String base = "\"" + Long.toHexString(size) + "-" + Long.toHexString(mtimeMillis);
    String identityTag = base + "\"";
    // The tag names the gzip bytes: ours depend on the level, a sibling's on its own size.
    long siblingSize = sibling == null ? -1 : Files.size(sibling);
    String gzipTag = sibling != null ? base + "-gzs" + Long.toHexString(siblingSize) + "\"" : base + "-gz" + gzipLevel + "\"";
    String lastModified = HttpDates.format(mtimeSeconds);
    if (key != null && sibling == null && (!accepted || !compressible)) {
      // Remember the identity form. Requests that accept gzip skip the entry when gzip could
      // apply: a compressible type, or a .gz sibling (one appearing later is seen once the
      // resolution expires).
      boolean candidate = compressible || gzip && gzipStatic && !accepted && gzSibling(file, mtimeMillis) != null;
      fileCache.put(key, file, attrs, type, lastModified, identityTag, base + "-gz" + gzipLevel + "\"", candidate, now);
    }
    res.header("Content-Type", type)
        .header("Last-Modified", lastModified)
        .header("ETag", gzipped ? gzipTag : identityTag)
        .header("Accept-Ranges", "bytes");
    if (compressible || sibling != null) {
      res.header("Vary", "Accept-Encoding");
    }
    int precondition = Preconditions.evaluate(req, mtimeMillis, identityTag, gzipTag);
    if (precondition != Preconditions.PROCEED) {
      res.status(precondition);
      res.send(new byte[0]);
      return;
    }
    ByteRange r = ByteRange.parse(range, size);
    if (r != ByteRange.WHOLE && !Preconditions.ifRange(req, mtimeMillis, identityTag)) {
      r = ByteRange.WHOLE;
    }
    if (r == ByteRange.UNSATISFIABLE) {
      res.status(416).header("Content-Range", "bytes */" + size);
      res.send(new byte[0]);
    } else if (r != ByteRange.WHOLE) {
      res.status(206).header("Content-Range", "bytes " + r.first + "-" + r.last + "/" + size);
      res.sendFile(file, r.first, r.length());
    } else if (gzipped) {
      res.header("Content-Encoding", "gzip");
      sendGzipped(res, file, size, mtimeMillis, sibling, siblingSize, head);
    } else {
      res.sendFile(file, 0, size);
    }
  }

  /*
   * The gzip form: the .gz sibling as it is (zero-copy), else the cached compression (with
   * Content-Length), else, for a file too large for the cache, compressed while streaming, a
   * slice at a time on the blocking pool.
   */
  private void sendGzipped(Response res, Path file, long size, long mtimeMillis, Path sibling, long siblingSize,
      boolean head) throws IOException, Suspendable {
    if (sibling != null) {
      res.sendFile(sibling, 0, siblingSize);
      return;
    }
    byte[] cached = null;
    if (gzipCache != null) {
      // HEAD does not compress a file only to learn its length; it takes what is there
      cached = head ? gzipCache.peek(file, size, mtimeMillis) : gzipCache.get(file, size, mtimeMillis);
    }
    if (cached != null) {
      res.header("Content-Length", Integer.toString(cached.length));
    }
    FiberOutput out = res.output();
    if (head) {
      return;
    }
    if (cached != null) {
      out.write(cached);
    } else {
      GzipWriter.write(file, gzipLevel, out);
    }
  }

  /* nginx's gzip_static: name.gz next to the file, inside the root, regular, not older than the file. */
  private Path gzSibling(Path file, long mtimeMillis) {
    Path gz = inside(file.resolveSibling(file.getFileName() + ".gz"));
    if (gz == null) {
      return null;
    }
    BasicFileAttributes a = attributes(gz);
    return a != null && a.isRegularFile() && a.lastModifiedTime().toMillis() >= mtimeMillis && Files.isReadable(gz)
        ? gz : null;
  }

  private boolean isDirectoryInside(Path p) {
    Path real = inside(p);
    return real != null && Files.isDirectory(real);
  }

  /*
   * 301 to the same path with a slash, so relative links in the index resolve inside the
   * directory. Leading slashes collapse to one: "//host/" would send the client to another host.
   */
  private static void redirectToDirectory(Request req, Response res) throws IOException, Suspendable {
    String uri = req.uri();
    String path = PathResolver.pathOf(uri);
    int slashes = 0;
    while (slashes + 1 < path.length() && path.charAt(slashes + 1) == '/') {
      slashes++;
    }
    String query = req.query();
    res.status(301).header("Location", path.substring(slashes) + "/" + (query == null ? "" : "?" + query))
        .header("Content-Type", "text/plain; charset=utf-8");
    res.send(MOVED);
  }

  /** The real file to serve for a target, or null: outside the real root, missing, not regular, unreadable. */
  private Path servable(PathResolver.Target target) {
    Path real = inside(target.path);
    if (real == null) {
      return null;
    }
    if (Files.isDirectory(real)) {
      real = inside(real.resolve(indexFile));
      if (real == null) {
        return null;
      }
    } else if (target.directorySyntax) {
      return null; // "/file.txt/" names no directory
    }
    return Files.isRegularFile(real) && Files.isReadable(real) ? real : null;
  }

  /** Follows symlinks; null unless the result exists inside the real root. */
  private Path inside(Path p) {
    try {
      Path real = p.toRealPath();
      return real.startsWith(root) ? real : null;
    } catch (IOException | SecurityException e) {
      return null;
    }
  }

  private static BasicFileAttributes attributes(Path file) {
    try {
      return Files.readAttributes(file, BasicFileAttributes.class);
    } catch (IOException e) {
      return null;
    }
  }

  /** Whether Accept-Encoding allows gzip: listed (or {@code *}) with a q-value above 0. */
  static boolean acceptsGzip(String header) {
    if (header == null) {
      return false;
    }
    boolean star = false;
    for (String part : header.split(",")) {
      String[] p = part.split(";");
      String coding = p[0].trim().toLowerCase(Locale.ROOT);
      boolean allowed = true;
      for (int i = 1; i < p.length; i++) {
        String param = p[i].trim();
        if (param.startsWith("q=") || param.startsWith("Q=")) {
          try {
            allowed = Double.parseDouble(param.substring(2).trim()) > 0;
          } catch (NumberFormatException e) {
            allowed = false;
          }
        }
      }
      if (coding.equals("gzip") || coding.equals("x-gzip")) {
        return allowed;
      }
      if (coding.equals("*")) {
        star = allowed;
      }
    }
    return star;
  }

  @Override
  public String toString() {
    return "StaticFiles[" + root + "]";
  }
}
