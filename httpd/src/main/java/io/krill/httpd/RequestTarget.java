package io.krill.httpd;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads the parts of a request target (RFC 9112 3.2): the raw path and the query. Stateless. */
final class RequestTarget {
  private RequestTarget() {}

  /** @return the path of {@code uri} as sent (origin-form or absolute-form), without query or fragment */
  static String rawPath(String uri) {
    int start = 0;
    if (!uri.startsWith("/")) {
      int scheme = uri.indexOf("://");
      if (scheme > 0) { // absolute-form (3.2.2)
        int slash = uri.indexOf('/', scheme + 3);
        if (slash < 0) {
          return "/";
        }
        start = slash;
      }
    }
    int end = uri.length();
    int q = uri.indexOf('?', start);
    if (q >= 0) {
      end = q;
    }
    int hash = uri.indexOf('#', start);
    if (hash >= 0 && hash < end) {
      end = hash;
    }
    return uri.substring(start, end);
  }

  /** @return the query of {@code uri} without the '?', undecoded, or null if it has none */
  static String query(String uri) {
    int q = uri.indexOf('?');
    if (q < 0) {
      return null;
    }
    int hash = uri.indexOf('#', q);
    return uri.substring(q + 1, hash < 0 ? uri.length() : hash);
  }

  /** @return the decoded parameters of {@code query} (may be null), in order, repeated names kept */
  static Map<String, List<String>> parameters(String query) {
    Map<String, List<String>> m = new LinkedHashMap<>();
    if (query == null || query.isEmpty()) {
      return m;
    }
    for (String pair : query.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = Paths.decode(eq < 0 ? pair : pair.substring(0, eq), true);
      String value = eq < 0 ? "" : Paths.decode(pair.substring(eq + 1), true);
      m.computeIfAbsent(name, k -> new ArrayList<>(1)).add(value);
    }
    return m;
  }
}
