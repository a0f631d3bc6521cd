package io.krill.benchmarks.internal;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Paths;

/** What the heap-counting mains weigh: live heap after collections, and the resident set. Stateless; thread-safe. */
public final class Heap {
  private Heap() {}

  /**
   * The least heap left by a few requested collections (one {@code System.gc()} may not finish
   * the job, so the minimum of several is the live set): the heap pools' usage as each pool's
   * last collection left it, not the heap's usage when it is read, which counts what other
   * threads allocated since (measured: tens of megabytes at a JVM's start, at random).
   *
   * @param collections how many collections to request, > 0
   * @return bytes of heap in use
   */
  public static long usedAfterGc(int collections) {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < collections; i++) {
      System.gc();
      long sum = 0;
      for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
        MemoryUsage after = pool.getType() == MemoryType.HEAP ? pool.getCollectionUsage() : null;
        if (after != null) {
          sum += after.getUsed();
        }
      }
      used = Math.min(used, sum);
    }
    return used;
  }

  /** @return the resident set size in bytes, or 0 where /proc is absent */
  public static long rss() {
    try {
      for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | NumberFormatException e) {
      return 0;
    }
    return 0;
  }
}
