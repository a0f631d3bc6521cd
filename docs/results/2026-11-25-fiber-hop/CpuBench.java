import io.krill.benchmarks.fibers.*;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

/** Process CPU time per operation of the fibers JMH workloads (less sensitive to a loaded machine than wall time). */
public class CpuBench {
  public static void main(String[] a) throws Exception {
    String which = a[0];
    String competitor = a[1];
    long targetMs = Long.parseLong(a[2]);
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    Runnable op;
    Runnable down;
    long per;
    switch (which) {
      case "ring": { RingBenchmark b = new RingBenchmark(); b.competitor = competitor; b.tokens = 1; b.setUp(); op = b::hops; down = b::tearDown; per = RingBenchmark.HOPS; break; }
      case "park": { ParkUnparkBenchmark b = new ParkUnparkBenchmark(); b.competitor = competitor; b.setUp(); op = b::handOvers; down = b::tearDown; per = ParkUnparkBenchmark.BATCH; break; }
      case "comms": { CommsTimeBenchmark b = new CommsTimeBenchmark(); b.competitor = competitor; b.setUp(); op = b::cycles; down = b::tearDown; per = CommsTimeBenchmark.BATCH; break; }
      case "spawn": { SpawnJoinBenchmark b = new SpawnJoinBenchmark(); b.competitor = competitor; b.setUp(); op = b::spawnJoin; down = b::tearDown; per = SpawnJoinBenchmark.BATCH; break; }
      default: throw new IllegalArgumentException(which);
    }
    // warm-up: 3 s of CPU
    long w0 = os.getProcessCpuTime();
    while (os.getProcessCpuTime() - w0 < 1_500_000_000L) { op.run(); }
    double[] cpu = new double[5];
    for (int r = 0; r < cpu.length; r++) {
      long c0 = os.getProcessCpuTime();
      long n = 0;
      while (os.getProcessCpuTime() - c0 < targetMs * 1_000_000L) { op.run(); n++; }
      cpu[r] = (os.getProcessCpuTime() - c0) / (double) (n * per);
    }
    down.run();
    Arrays.sort(cpu);
    System.out.printf("cpu %s %s median=%.1f min=%.1f max=%.1f ns/op%n", which, competitor, cpu[2], cpu[0], cpu[4]);
    System.exit(0);
  }
}
