package io.krill.httpd;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.JMException;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives memory back once a server has gone quiet: after a set time with no request, no accepted
 * connection and no byte received, one full collection (G1 then shrinks its committed heap to
 * the heap-free ratios, down to the live data) and one trim of the C heap, on a thread of its
 * own. Once per quiet period: the next activity arms it again. Not thread-safe: {@link #tick}
 * runs on the server's sweeper only.
 */
final class IdleCollector {
  /*
   * Implementation notes. A busy server allocates and collects anyway; an idle one keeps the
   * heap its last burst made G1 commit, and G1's periodic concurrent cycle shrinks it only to
   * what that cycle counts as in use, garbage of the burst included. A full collection leaves
   * the live data alone and lets G1 release the rest. It stops every carrier, so it runs only
   * when no request has come for the whole quiet time; a request arriving during it waits for
   * it (tens of milliseconds at tens of MB of live heap). System.gc() honours the JVM's flags
   * (-XX:+DisableExplicitGC turns it into nothing, -XX:+ExplicitGCInvokesConcurrent into a
   * concurrent cycle). The trim is the diagnostic command behind `jcmd <pid>
   * System.trim_native_heap` (JDK 17.0.15 and 25 have it); a JVM without it skips the trim.
   */
  private static final Logger LOG = LoggerFactory.getLogger(HttpServer.class);

  private final long quietNanos;
  private final Runnable collection;
  private final AtomicInteger started = new AtomicInteger();
  private boolean seen;
  private long lastActivity;
  private long quietSince;
  private boolean armed;

  /**
   * @param quietNanos how long no activity must be seen before the collection, > 0
   * @param collection what to run then (on the sweeper: it must return at once)
   */
  IdleCollector(long quietNanos, Runnable collection) {
    this.quietNanos = quietNanos;
    this.collection = collection;
  }

  /** An idle collector that collects on a new thread of its own (the server's). */
  static IdleCollector collecting(long quietNanos) {
    return new IdleCollector(quietNanos, IdleCollector::startCollection);
  }

  /**
   * One look at the server: starts the collection if {@code activity} has not changed for the
   * quiet time and no collection ran since it last changed.
   *
   * @param activity a count that grows with every request, accepted connection or byte received
   * @param nowNanos the time now, on {@link System#nanoTime()}'s scale
   * @return whether the collection was started
   */
  boolean tick(long activity, long nowNanos) {
    return tick(activity, false, nowNanos);
  }

  /**
   * One look at the server, as {@link #tick(long, long)}, with {@code heldOpen} true while a
   * connection taken over by an upgrade handler (a WebSocket) is being served: its frames pass
   * none of the counters behind {@code activity}, so the server counts as active then, and a
   * busy WebSocket server never sees the collection's pause.
   *
   * @param activity a count that grows with every request, accepted connection or byte received
   * @param heldOpen whether a taken-over connection is open now
   * @param nowNanos the time now, on {@link System#nanoTime()}'s scale
   * @return whether the collection was started
   */
  boolean tick(long activity, boolean heldOpen, long nowNanos) {
    if (!seen || activity != lastActivity || heldOpen) {
      seen = true;
      lastActivity = activity;
      quietSince = nowNanos;
      armed = true;
      return false;
    }
    if (!armed || nowNanos - quietSince < quietNanos) {
      return false;
    }
    armed = false;
    started.incrementAndGet();
    collection.run();
    return true;
  }

  /** @return how many collections were started (any thread) */
  int started() {
    return started.get();
  }

  private static void startCollection() {
    Thread t = new Thread(IdleCollector::collect, "krill-idle-collection");
    t.setDaemon(true);
    t.start();
  }

  /* Blocks this thread for the collection (and stops every other one while it runs). */
  static void collect() {
    long before = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
    long start = System.nanoTime();
    System.gc();
    long gcNanos = System.nanoTime() - start;
    String trim = trimNativeHeap();
    LOG.debug("idle: full collection in {} ms, committed heap {} -> {} MB; {}", gcNanos / 1_000_000,
        before >> 20, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted() >> 20, trim);
  }

  /* @return what the JVM said, or why there was no trim */
  private static String trimNativeHeap() {
    try {
      ObjectName name = new ObjectName("com.sun.management:type=DiagnosticCommand");
      Object out = ManagementFactory.getPlatformMBeanServer().invoke(name, "systemTrimNativeHeap",
          new Object[] {new String[0]}, new String[] {String[].class.getName()});
      return String.valueOf(out).trim();
    } catch (JMException | RuntimeException e) {
      return "no C-heap trim: " + e;
    }
  }
}
