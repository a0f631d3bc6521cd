package io.krill.crawler.frontier;

import crawlercommons.filters.basic.BasicURLNormalizer;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Normalizes URLs with crawler-commons' {@link BasicURLNormalizer} (case, default ports, dot
 * segments, percent-encoding, fragments) and keeps only http and https. Thread-safe.
 */
public final class UrlNormalizer {
  private static final BasicURLNormalizer NORMALIZER = BasicURLNormalizer.newBuilder().build();

  private UrlNormalizer() {}

  /**
   * @param url an absolute URL
   * @return the normalized URL, or null if it is not a valid http(s) URL
   */
  public static String normalize(String url) {
    if (url == null) {
      return null;
    }
    String n;
    try {
      n = NORMALIZER.filter(url.trim());
    } catch (RuntimeException e) {
      return null;
    }
    if (n == null) {
      return null;
    }
    try {
      URI u = new URI(n);
      String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
      if (!(scheme.equals("http") || scheme.equals("https")) || u.getHost() == null || u.getHost().isEmpty()) {
        return null;
      }
      if (u.getRawFragment() != null) {
        n = n.substring(0, n.indexOf('#'));
      }
      return n;
    } catch (URISyntaxException e) {
      return null;
    }
  }

  /**
   * @param url a normalized URL
   * @return {@code scheme://host:port}, the key of its politeness queue
   * @throws IllegalArgumentException if it is not a valid URL
   */
  public static String hostKey(String url) {
    URI u = URI.create(url);
    String scheme = u.getScheme().toLowerCase(Locale.ROOT);
    int port = u.getPort() > 0 ? u.getPort() : scheme.equals("https") ? 443 : 80;
    return scheme + "://" + u.getHost().toLowerCase(Locale.ROOT) + ":" + port;
  }
}
