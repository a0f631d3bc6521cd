package io.krill.benchmarks.fibers;

import java.lang.management.ManagementFactory;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/** Counts fiber slices per CommsTime cycle and per ring hop on one carrier (the scheduler MBeans' slice counters). */
public final class SlicesPerCycle {
  static long slices() throws Exception {
    MBeanServer s = ManagementFactory.getPlatformMBeanServer();
    long n = 0;
    for (ObjectName o : s.queryNames(new ObjectName("io.krill:type=FiberScheduler,*"), null)) {
      n += (Long) s.getAttribute(o, "Slices");
    }
    return n;
  }

  public static void main(String[] args) throws Exception {
    CommsTimeBenchmark c = new CommsTimeBenchmark();
    c.competitor = "fiber";
    c.setUp();
    c.cycles(); // warm
    long before = slices();
    int rounds = 50;
    for (int i = 0; i < rounds; i++) {
      c.cycles();
    }
    long after = slices();
    System.out.printf("CommsTime: %.3f slices per cycle (%d cycles)%n",
        (after - before) / (double) (rounds * CommsTimeBenchmark.BATCH), rounds * CommsTimeBenchmark.BATCH);
    c.tearDown();
    RingBenchmark r = new RingBenchmark();
    r.competitor = "fiber";
    r.tokens = 1;
    r.setUp();
    r.hops();
    before = slices();
    for (int i = 0; i < 10; i++) {
      r.hops();
    }
    after = slices();
    System.out.printf("Ring, 1 token: %.3f slices per hop (%d hops)%n", (after - before) / (10.0 * RingBenchmark.HOPS), 10 * RingBenchmark.HOPS);
    r.tearDown();
    System.exit(0);
  }
}
