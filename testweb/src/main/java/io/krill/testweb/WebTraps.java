package io.krill.testweb;

import io.krill.fibers.Checks;

/**
 * The crawler traps of the synthetic web: how many hosts carry a calendar, a session-id, a deep
 * path, a redirect loop or a gzip bomb, and how big the loop and the bomb are. Each component is
 * checked when the record is made; {@link #check(int)} checks the host counts against the web's
 * hosts.
 *
 * @param calendarHosts hosts with a calendar trap, 0..hosts
 * @param sessionIdHosts hosts with a session-id trap, 0..hosts
 * @param deepPathHosts hosts with an infinitely deep path, 0..hosts
 * @param redirectLoopHosts hosts with a redirect loop, 0..hosts
 * @param redirectLoopLength URLs in a redirect loop, 1..100
 * @param gzipBombHosts hosts with a gzip bomb, 0..hosts
 * @param gzipBombBytes size the bomb inflates to, 1MiB..1GiB
 */
public record WebTraps(int calendarHosts, int sessionIdHosts, int deepPathHosts, int redirectLoopHosts, int redirectLoopLength,
    int gzipBombHosts, long gzipBombBytes) {
  /** Default number of hosts with a calendar trap (endless next-month links). */
  public static final int DEFAULT_CALENDAR_HOSTS = 1;
  /** Default number of hosts with a session-id trap (a new {@code sid} in every link). */
  public static final int DEFAULT_SESSION_ID_HOSTS = 1;
  /** Default number of hosts with an infinitely deep path. */
  public static final int DEFAULT_DEEP_PATH_HOSTS = 1;
  /** Default number of hosts with a redirect loop. */
  public static final int DEFAULT_REDIRECT_LOOP_HOSTS = 1;
  /** Default number of URLs in a redirect loop. */
  public static final int DEFAULT_REDIRECT_LOOP_LENGTH = 3;
  /** Default number of hosts with a gzip bomb. */
  public static final int DEFAULT_GZIP_BOMB_HOSTS = 1;
  /** Default size a gzip bomb inflates to. */
  public static final long DEFAULT_GZIP_BOMB_BYTES = 64L << 20;

  /** The default traps: one host of each. */
  public static final WebTraps DEFAULTS = new WebTraps(DEFAULT_CALENDAR_HOSTS, DEFAULT_SESSION_ID_HOSTS, DEFAULT_DEEP_PATH_HOSTS,
      DEFAULT_REDIRECT_LOOP_HOSTS, DEFAULT_REDIRECT_LOOP_LENGTH, DEFAULT_GZIP_BOMB_HOSTS, DEFAULT_GZIP_BOMB_BYTES);

  /** Checks each component on its own. */
  public WebTraps {
    checkHosts(WebShape.MAX_HOSTS, calendarHosts, sessionIdHosts, deepPathHosts, redirectLoopHosts, gzipBombHosts);
    Checks.inRange("redirectLoopLength", redirectLoopLength, 1, 100);
    Checks.inRange("gzipBombBytes", gzipBombBytes, 1L << 20, 1L << 30);
  }

  /** Checks that no trap is on more hosts than the web has. */
  void check(int hosts) {
    checkHosts(hosts, calendarHosts, sessionIdHosts, deepPathHosts, redirectLoopHosts, gzipBombHosts);
  }

  private static void checkHosts(int hosts, int calendar, int sessionId, int deepPath, int redirectLoop, int gzipBomb) {
    Checks.inRange("calendarHosts", calendar, 0, hosts);
    Checks.inRange("sessionIdHosts", sessionId, 0, hosts);
    Checks.inRange("deepPathHosts", deepPath, 0, hosts);
    Checks.inRange("redirectLoopHosts", redirectLoop, 0, hosts);
    Checks.inRange("gzipBombHosts", gzipBomb, 0, hosts);
  }
}
