package io.krill.benchmarks.fibers;

import io.krill.benchmarks.internal.JmhDefaults;
import io.krill.fibers.Suspendable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * CommsTime, the CSP classic (JCSP, occam, JVMCSP): prefix, delta, succ and a consumer in a
 * cycle over four rendezvous channels; one operation is one cycle, i.e. four channel
 * communications and the switches between the four processes.
 *
 * <pre>
 *   prefix(0) --a--> delta --b--> consumer
 *      ^               |
 *      d               c
 *      +---- succ <----+
 * </pre>
 *
 * <p>Delta outputs sequentially (first to the consumer, then to succ). prefix, delta and succ
 * live for the whole trial; each invocation runs a fresh consumer as one strand of the model
 * for {@link #BATCH} cycles, and checks that it saw consecutive numbers. Between invocations
 * delta waits on the consumer, so the network is idle. Competitors: see {@link Model}; one
 * carrier ({@code fiber}: one event loop; virtual threads: parallelism 1; run pinned to one CPU).
 */
@State(Scope.Thread)
public class CommsTimeBenchmark extends JmhDefaults.OneCarrier {
  /** Cycles per invocation. */
  public static final int BATCH = 2_000;

  @Param({"fiber", "virtualThreadSyncQueue", "virtualThreadChannel", "platformSyncQueue", "platformChannel"})
  public String competitor;

  private Model model;
  private Pipe<Long> toConsumer;
  private long next;

  /** Starts prefix, delta and succ. */
  @Setup
  public void setUp() {
    model = Model.create(competitor, 1);
    Pipe<Long> a = model.pipe();
    Pipe<Long> b = model.pipe();
    Pipe<Long> c = model.pipe();
    Pipe<Long> d = model.pipe();
    model.spawn(() -> prefix(d, a));
    model.spawn(() -> delta(a, b, c));
    model.spawn(() -> succ(c, d));
    toConsumer = b;
  }

  /** Collects the heap before each iteration: see {@link JmhDefaults#settleHeap()}. */
  @Setup(Level.Iteration)
  public void settle() {
    JmhDefaults.settleHeap();
  }

  /** Runs {@link #BATCH} cycles. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void cycles() {
    model.runAndWait(() -> next = consume(toConsumer, next, BATCH));
  }

  /** @return the cycles completed so far, each checked by the consumer */
  long cyclesDone() {
    return next;
  }

  /** Stops the network. */
  @TearDown
  public void tearDown() {
    model.close();
  }

  static void prefix(Pipe<Long> in, Pipe<Long> out) throws Suspendable {
    out.send(0L);
    for (;;) {
      out.send(in.receive());
    }
  }

  static void delta(Pipe<Long> in, Pipe<Long> out1, Pipe<Long> out2) throws Suspendable {
    for (;;) {
      Long x = in.receive();
      out1.send(x);
      out2.send(x);
    }
  }

  static void succ(Pipe<Long> in, Pipe<Long> out) throws Suspendable {
    for (;;) {
      out.send(in.receive() + 1);
    }
  }

  /**
   * Receives {@code cycles} numbers, checking that they count up from {@code expected}.
   *
   * @return the next number expected
   */
  static long consume(Pipe<Long> in, long expected, int cycles) throws Suspendable {
    for (int i = 0; i < cycles; i++) {
      long x = in.receive();
      if (x != expected) {
        throw new IllegalStateException("CommsTime: received " + x + " (expected: " + expected + ")");
      }
      expected++;
    }
    return expected;
  }
}
