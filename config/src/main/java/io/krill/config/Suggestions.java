package io.krill.config;

import java.util.Collection;

/** "Did you mean" for misspelt keys: the nearest known name by edit distance, or by last segment. */
final class Suggestions {
  private Suggestions() {}

  /**
   * The known name closest to {@code name}, or {@code null} when none is close: within an edit
   * distance of a third of the last {@code separator}-separated segment (at least 1), else the
   * only name with the same last segment.
   */
  static String nearest(String name, Collection<String> known, char separator) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String k : known) {
      int d = distance(name, k);
      if (d < bestDistance) {
        bestDistance = d;
        best = k;
      }
    }
    String last = name.substring(name.lastIndexOf(separator) + 1);
    if (best != null && bestDistance <= Math.max(1, last.length() / 3)) {
      return best;
    }
    String match = null;
    for (String k : known) {
      if (k.substring(k.lastIndexOf(separator) + 1).equals(last)) {
        if (match != null) {
          return null;
        }
        match = k;
      }
    }
    return match;
  }

  /** Optimal string alignment distance: Levenshtein plus adjacent transpositions ("prot" is one from "port"). */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          v = Math.min(v, d[i - 2][j - 2] + 1);
        }
        d[i][j] = v;
      }
    }
    return d[a.length()][b.length()];
  }
}
