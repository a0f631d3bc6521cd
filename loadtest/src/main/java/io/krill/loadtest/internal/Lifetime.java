package io.krill.loadtest.internal;

/**
 * The lifetime limit of a benchmark child JVM: a daemon thread that halts the JVM after a fixed
 * time whatever else happens, so that no server outlives a harness that died. Not API.
 */
public final class Lifetime {
  private Lifetime() {}

  /**
   * Starts the limit.
   *
   * @param seconds how long the JVM may live
   * @param who how the message on standard error names the JVM
   */
  public static void haltAfter(long seconds, String who) {
    Thread t = new Thread(() -> {
      try {
        Thread.sleep(seconds * 1000);
      } catch (InterruptedException e) {
        return;
      }
      System.err.println(who + ": exiting after its limit of " + seconds + " s");
      Runtime.getRuntime().halt(3);
    }, "lifetime-limit");
    t.setDaemon(true);
    t.start();
  }
}
