package io.krill.fibers;

import java.util.Locale;

/**
 * What runs a unit of work (a connection's handler, a fetch): the same woven code runs unchanged
 * in every mode; only the strand beneath it differs.
 */
public enum ExecutionMode {
  /** A fiber on an event-loop carrier (the default everywhere). */
  FIBER("fibers"),
  /** A JDK virtual thread; needs JDK 21 or newer (see {@link VirtualThreads}). */
  VIRTUAL("virtual"),
  /** A platform thread (per unit of work or from a pool, as the user decides). */
  PLATFORM("threads");

  private final String alias;

  ExecutionMode(String alias) {
    this.alias = alias;
  }

  /**
   * Reads a mode by its name ({@code fiber}, {@code virtual}, {@code platform}) or by the crawler's
   * word for it ({@code fibers}, {@code virtual}, {@code threads}), ignoring case.
   *
   * @param text the mode as typed
   * @return the mode
   * @throws IllegalArgumentException naming the accepted words
   */
  public static ExecutionMode parse(String text) {
    String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    for (ExecutionMode m : values()) {
      if (m.name().toLowerCase(Locale.ROOT).equals(t) || m.alias.equals(t)) {
        return m;
      }
    }
    throw Checks.bad("mode", text, "fiber, virtual or platform (or fibers, threads)");
  }

  /** @return the crawler's word for this mode: fibers, virtual or threads */
  public String alias() {
    return alias;
  }
}
