package io.krill.httpd;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Matches a request's method and path to a route: literal segments, {@code {name}} parameters
 * and a trailing {@code *}. Immutable once built; thread-safe.
 */
final class Router {
  /*
   * Implementation notes.
   *
   * A linear scan over the routes: servers have tens of routes, and a scan over short arrays of
   * segments beats a trie's pointer chasing at that size. Each route has a specificity rank per
   * segment (literal 2, parameter 1, wildcard 0); the route matching the path with the highest
   * rank sequence wins, earlier routes among equals. The path is split on '/' before decoding,
   * so an encoded slash (%2F) stays inside one segment.
   *
   * Fast path: a route of literal segments only is the most specific match of every path it
   * matches (a parameter or wildcard ranks lower at some segment), so for a raw path with no
   * '%' (it decodes to itself) match(method, rawPath) looks such routes up by their path text
   * first and skips splitting, decoding and the scan. Literals holding a '/' (a %2F in the
   * pattern) would make the text ambiguous and are left to the scan.
   */

  private static final String[] NO_VALUES = new String[0];

  private final Route[] routes;
  /* path text of literal-only routes -> their exact matches, in route order */
  private final Map<String, Match[]> exact = new HashMap<>();
  private final Set<String> methods = new java.util.HashSet<>();

  Router(List<Route> routes) {
    this.routes = routes.toArray(new Route[0]);
    for (Route r : this.routes) {
      methods.add(r.method);
      String text = r.exactText();
      if (text != null) {
        Match[] old = exact.get(text);
        Match m = new Match(r, NO_VALUES, null);
        Match[] grown = old == null ? new Match[] {m} : Arrays.copyOf(old, old.length + 1);
        grown[grown.length - 1] = m;
        exact.put(text, grown);
      }
    }
  }

  /** @return true if a route takes {@code method} (upper case, as routes store it) */
  boolean hasMethod(String method) {
    return methods.contains(method);
  }

  /**
   * Like {@link #match(String, String[])} for an undecoded request path.
   *
   * @param method the request method
   * @param rawPath the request path as sent, without query
   * @return the match, a 405, or null if no path matches
   */
  Match match(String method, String rawPath) {
    if (rawPath.indexOf('%') < 0) {
      Match[] candidates = exact.get(rawPath);
      if (candidates != null) {
        for (Match m : candidates) {
          if (m.route.method.equals(method)) {
            return m; // the first of equally specific routes wins, as in the scan
          }
        }
      }
    }
    return match(method, Paths.split(rawPath));
  }

  /**
   * @param method the request method
   * @param segments the raw path split at '/', without the leading empty segment
   * @return the match, a 405 (route == null, allow set), or null if no path matches
   */
  Match match(String method, String[] segments) {
    Route best = null;
    Route bestForPath = null;
    for (Route r : routes) {
      if (!r.matches(segments)) {
        continue;
      }
      if (bestForPath == null || r.compareTo(bestForPath) > 0) {
        bestForPath = r;
      }
      if (r.method.equals(method) && (best == null || r.compareTo(best) > 0)) {
        best = r;
      }
    }
    if (best == null && "HEAD".equals(method)) {
      return match("GET", segments);
    }
    if (best != null) {
      return new Match(best, best.params(segments), null);
    }
    if (bestForPath == null) {
      return null;
    }
    Set<String> allow = new TreeSet<>();
    for (Route r : routes) {
      if (r.matches(segments)) {
        allow.add(r.method);
        if (r.method.equals("GET")) {
          allow.add("HEAD");
        }
      }
    }
    return new Match(null, null, String.join(", ", allow));
  }

  /** A route found for a request: its handler and parameters, or the methods allowed (405). */
  static final class Match {
    final Route route;
    final String[] values;
    final String allow;

    Match(Route route, String[] values, String allow) {
      this.route = route;
      this.values = values;
      this.allow = allow;
    }

    String param(String name) {
      if (route == null) {
        return null;
      }
      String[] names = route.paramNames;
      for (int i = 0; i < names.length; i++) {
        if (names[i].equals(name)) {
          return values[i];
        }
      }
      return null;
    }
  }

  /** One route: method, pattern segments and handler. */
  record Route(String method, String pattern, Handler handler,
      /* literal text per segment, or null for a parameter */
      String[] literals, String[] paramNames,
      /* the segment index of each parameter */
      int[] paramIndex, boolean wildcard) implements Comparable<Route> {
    static Route parse(String method, String pattern, Handler handler) {
      Objects.requireNonNull(method, "method");
      Objects.requireNonNull(pattern, "pattern");
      if (method.isEmpty() || !method.chars().allMatch(Route::isTokenChar)) {
        throw new IllegalArgumentException("method: \"" + method + "\" (expected: an HTTP token such as GET)");
      }
      if (!pattern.startsWith("/")) {
        throw new IllegalArgumentException("pattern: \"" + pattern + "\" (expected: a path starting with /)");
      }
      String[] parts = Paths.split(pattern);
      boolean wildcard = parts.length > 0 && parts[parts.length - 1].equals("*");
      int n = wildcard ? parts.length - 1 : parts.length;
      String[] literals = new String[n];
      List<String> names = new ArrayList<>();
      List<Integer> index = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        String p = parts[i];
        if (p.startsWith("{") && p.endsWith("}") && p.length() > 2) {
          String name = p.substring(1, p.length() - 1);
          if (names.contains(name) || name.equals("*")) {
            throw new IllegalArgumentException("pattern: \"" + pattern + "\" (expected: parameter {" + name
                + "} once)");
          }
          names.add(name);
          index.add(i);
        } else if (p.contains("{") || p.contains("}") || p.equals("*")) {
          throw new IllegalArgumentException("pattern: \"" + pattern + "\" (expected: segments that are literal, "
              + "{name}, or a last *)");
        } else {
          literals[i] = Paths.decode(p);
        }
      }
      if (wildcard) {
        names.add("*");
        index.add(n);
      }
      return new Route(method.toUpperCase(Locale.ROOT), pattern, handler, literals, names.toArray(new String[0]),
          index.stream().mapToInt(Integer::intValue).toArray(), wildcard);
    }

    private static boolean isTokenChar(int c) {
      return c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
    }

    /** @return the path text this route alone matches when it has only literal segments, else null */
    String exactText() {
      if (wildcard || paramNames.length > 0) {
        return null;
      }
      StringBuilder b = new StringBuilder();
      for (String lit : literals) {
        if (lit.indexOf('/') >= 0 || lit.indexOf('%') >= 0) {
          return null;
        }
        b.append('/').append(lit);
      }
      return b.length() == 0 ? "/" : b.toString();
    }

    boolean matches(String[] segments) {
      int n = literals.length;
      if (wildcard ? segments.length < n : segments.length != n) {
        return false;
      }
      for (int i = 0; i < n; i++) {
        String lit = literals[i];
        if (lit != null) {
          if (!lit.equals(Paths.decode(segments[i]))) {
            return false;
          }
        } else if (segments[i].isEmpty()) {
          return false;
        }
      }
      return true;
    }

    String[] params(String[] segments) {
      String[] values = new String[paramNames.length];
      for (int i = 0; i < values.length; i++) {
        int at = paramIndex[i];
        if (wildcard && i == values.length - 1) {
          StringBuilder rest = new StringBuilder();
          for (int k = at; k < segments.length; k++) {
            if (k > at) {
              rest.append('/');
            }
            rest.append(Paths.decode(segments[k]));
          }
          values[i] = rest.toString();
        } else {
          values[i] = Paths.decode(segments[at]);
        }
      }
      return values;
    }

    /* Higher is more specific: compares segment ranks left to right, then length. */
    @Override
    public int compareTo(Route o) {
      int n = Math.min(literals.length, o.literals.length);
      for (int i = 0; i < n; i++) {
        int a = literals[i] != null ? 2 : 1;
        int b = o.literals[i] != null ? 2 : 1;
        if (a != b) {
          return a - b;
        }
      }
      if (wildcard != o.wildcard) {
        return wildcard ? -1 : 1;
      }
      return literals.length - o.literals.length;
    }

    @Override
    public String toString() {
      return method + " " + pattern;
    }
  }
}
