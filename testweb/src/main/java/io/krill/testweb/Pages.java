package io.krill.testweb;

import io.krill.netio.GzipFraming;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/** Renders the model's resources as bytes: HTML pages, robots.txt, sitemaps, error bodies, the gzip bomb. */
final class Pages {
  /** The most URLs one sitemap lists (the sitemap protocol's limit). */
  static final int SITEMAP_MAX_URLS = 50_000;
  /** The user agent robots.txt shuts out completely, so that a crawler's group matching is exercised. */
  static final String EXCLUDED_AGENT = "krill-testweb-excluded-bot";

  private static final String[] WORDS = {
    "krill", "fiber", "event", "loop", "socket", "crawl", "frontier", "robots", "sitemap", "politeness",
    "continuation", "channel", "select", "barrier", "latency", "bandwidth", "host", "domain", "page", "link",
    "ocean", "plankton", "swarm", "whale", "current", "drift", "depth", "surface", "tide", "reef"};

  private Pages() {}

  /** @return the HTML of a page resource (PAGE or THROTTLED) */
  static byte[] html(SyntheticWeb web, Resource r, int port) {
    SyntheticWeb.Host host = web.host(r.host);
    StringBuilder sb = new StringBuilder(r.page >= 0 ? web.pageSize(r.host, r.page) + 256 : 512);
    String title = host.name + " " + escape(r.pathAndQuery);
    sb.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>").append(title).append("</title></head>\n<body>\n<h1>")
        .append(title).append("</h1>\n<ul>\n");
    int i = 0;
    for (Link l : r.links) {
      sb.append("<li><a href=\"").append(escape(l.href(port))).append("\">link ").append(i++).append("</a></li>\n");
    }
    sb.append("</ul>\n");
    if (r.page >= 0) {
      int size = web.pageSize(r.host, r.page);
      SplittableRandom words = web.filler(r.host, r.page);
      sb.append("<p>");
      while (sb.length() < size - 20) {
        sb.append(WORDS[words.nextInt(WORDS.length)]).append(words.nextInt(12) == 0 ? ".\n" : " ");
      }
      sb.append("</p>\n");
    }
    sb.append("</body></html>\n");
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** @return robots.txt of a host whose robots are NORMAL */
  static byte[] robots(SyntheticWeb web, SyntheticWeb.Host host, int port) {
    TestWebConfig c = web.config();
    StringBuilder sb = new StringBuilder();
    sb.append("# robots.txt of ").append(host.name).append(", a host of the krill synthetic web (seed ").append(c.seed()).append(")\n");
    sb.append("User-agent: ").append(EXCLUDED_AGENT).append("\nDisallow: /\n\n");
    sb.append("User-agent: *\nDisallow: ").append(SyntheticWeb.PRIVATE_PREFIX).append('\n');
    if (!c.crawlDelay().isZero()) {
      sb.append("Crawl-delay: ").append(seconds(c.crawlDelay().toMillis())).append('\n');
    }
    if (c.sitemaps()) {
      sb.append("Sitemap: ").append(SyntheticWeb.origin(host.name, port)).append(SyntheticWeb.SITEMAP_PATH).append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** @return the paths a host's sitemap lists: its public pages that answer 200, orphans included */
  static List<String> sitemapPaths(SyntheticWeb web, SyntheticWeb.Host host) {
    int pages = web.config().pagesPerHost();
    List<String> out = new ArrayList<>(Math.min(pages, SITEMAP_MAX_URLS));
    for (int k = 0; k < pages && out.size() < SITEMAP_MAX_URLS; k++) {
      SyntheticWeb.PageKind kind = web.kind(host.index, k);
      if (!web.isPrivate(host.index, k) && (kind == SyntheticWeb.PageKind.OK || kind == SyntheticWeb.PageKind.THROTTLED)) {
        out.add(web.pagePath(host.index, k));
      }
    }
    return out;
  }

  /** @return the sitemap XML of a host */
  static byte[] sitemap(SyntheticWeb web, SyntheticWeb.Host host, int port) {
    StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    String origin = SyntheticWeb.origin(host.name, port);
    for (String path : sitemapPaths(web, host)) {
      sb.append("<url><loc>").append(origin).append(path).append("</loc></url>\n");
    }
    sb.append("</urlset>\n");
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** @return a short plain-text body for an error status */
  static byte[] error(int status, String reason) {
    return (status + " " + reason + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /** @return the first bytes of a dripping page; the rest is {@link #DRIP_FILL} */
  static byte[] dripHead() {
    return "<!DOCTYPE html>\n<html><body><p>".getBytes(StandardCharsets.US_ASCII);
  }

  static final byte DRIP_FILL = '.';

  /**
   * Builds a gzip stream of an HTML page padded with spaces to {@code inflatedBytes}: it
   * inflates about a thousand times beyond its size.
   */
  static byte[] gzipBomb(long inflatedBytes) {
    /* Deflating 64 MiB takes a second. Each 1 MiB chunk of spaces is deflated with a sync
     * flush, which ends its output on a byte boundary; once the window holds only spaces, two
     * chunks in a row come out as the same bytes, and from then on those bytes are repeated
     * instead of deflated again. The CRC is still computed over every byte. */
    byte[] head = "<!DOCTYPE html>\n<html><body>\n".getBytes(StandardCharsets.US_ASCII);
    byte[] spaces = new byte[BOMB_CHUNK];
    Arrays.fill(spaces, (byte) ' ');
    ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(Integer.MAX_VALUE, inflatedBytes / 900 + 1024));
    out.writeBytes(GzipFraming.header(Deflater.BEST_COMPRESSION));
    Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
    CRC32 crc = new CRC32();
    try {
      long left = inflatedBytes;
      int first = (int) Math.min(head.length, left);
      out.writeBytes(deflate(deflater, head, first, Deflater.SYNC_FLUSH));
      crc.update(head, 0, first);
      left -= first;
      byte[] previous = null;
      byte[] repeated = null;
      for (; left >= BOMB_CHUNK; left -= BOMB_CHUNK) {
        byte[] chunk = repeated != null ? repeated : deflate(deflater, spaces, BOMB_CHUNK, Deflater.SYNC_FLUSH);
        if (repeated == null && Arrays.equals(chunk, previous)) {
          repeated = chunk;
        }
        previous = chunk;
        out.writeBytes(chunk);
        crc.update(spaces, 0, BOMB_CHUNK);
      }
      deflater.setInput(spaces, 0, (int) left);
      deflater.finish();
      byte[] buf = new byte[8192];
      while (!deflater.finished()) {
        out.write(buf, 0, deflater.deflate(buf));
      }
      crc.update(spaces, 0, (int) left);
    } finally {
      deflater.end();
    }
    out.writeBytes(GzipFraming.trailer(crc.getValue(), inflatedBytes, new byte[GzipFraming.TRAILER_BYTES]));
    return out.toByteArray();
  }

  private static final int BOMB_CHUNK = 1 << 20;

  /* Deflates all of input[0, length) and flushes: a full output buffer means there may be more. */
  private static byte[] deflate(Deflater deflater, byte[] input, int length, int flush) {
    deflater.setInput(input, 0, length);
    ByteArrayOutputStream out = new ByteArrayOutputStream(2048);
    byte[] buf = new byte[8192];
    int n;
    do {
      n = deflater.deflate(buf, 0, buf.length, flush);
      out.write(buf, 0, n);
    } while (n == buf.length || !deflater.needsInput());
    return out.toByteArray();
  }

  private static String seconds(long millis) {
    String s = String.format(Locale.ROOT, "%d.%03d", millis / 1000, millis % 1000);
    return s.replaceAll("\\.?0+$", "");
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace("\"", "&quot;");
  }
}
