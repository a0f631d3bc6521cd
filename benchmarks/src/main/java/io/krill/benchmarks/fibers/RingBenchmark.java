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
 * A ring of {@link #SIZE} processes (256, or the system property {@value #SIZE_PROPERTY}, a
 * power of two from 2 to 256) over rendezvous channels with {@code tokens} tokens in
 * flight; one operation is one hop (a token passed from one process to the next).
 *
 * <p>Processes 1 to SIZE - 1 forward forever and live for the trial. Each invocation runs process 0
 * as one strand of the model: it injects the tokens, forwards each arriving token until every
 * token has made {@code HOPS / (SIZE * tokens)} laps, then absorbs them, so an invocation is
 * exactly {@link #HOPS} hops and leaves the ring idle. Competitors: see {@link Model}; one
 * carrier, as for {@link CommsTimeBenchmark}.
 */
@State(Scope.Thread)
public class RingBenchmark extends JmhDefaults.OneCarrier {
  /**
   * The system property that sets the ring's size, for a run that checks whether the hop depends
   * on how many processes (and their stores) the ring cycles through.
   */
  public static final String SIZE_PROPERTY = "krill.bench.ringSize";
  /** Processes in the ring. */
  public static final int SIZE = Integer.getInteger(SIZE_PROPERTY, 256);
  /** Hops per invocation: 256 laps of one token, or 4 laps of 64. */
  public static final int HOPS = 65_536;

  /*
   * Parameters run in the alphabetical order of their names, the first outermost: all
   * competitors of one token count run one after another.
   */
  @Param({"fiber", "virtualThreadSyncQueue", "virtualThreadChannel", "platformSyncQueue", "platformChannel"})
  public String competitor;

  @Param({"1", "64"})
  public int tokens;

  private Model model;
  private Pipe<Long>[] pipes;

  /** Starts processes 1 to SIZE - 1. */
  @Setup
  @SuppressWarnings("unchecked")
  public void setUp() {
    checkSize();
    if (tokens < 1 || tokens >= SIZE || HOPS % (SIZE * tokens) != 0) {
      throw new IllegalArgumentException("tokens: " + tokens + " (expected: a power of two below " + SIZE + ")");
    }
    model = Model.create(competitor, 1);
    pipes = new Pipe[SIZE];
    for (int i = 0; i < SIZE; i++) {
      pipes[i] = model.pipe();
    }
    for (int i = 1; i < SIZE; i++) {
      Pipe<Long> in = pipes[i];
      Pipe<Long> out = pipes[(i + 1) % SIZE];
      model.spawn(() -> forward(in, out));
    }
  }

  /**
   * Rejects a ring size set by {@value #SIZE_PROPERTY} that would not divide {@link #HOPS} into
   * whole laps; every benchmark that builds a ring of {@link #SIZE} calls it first.
   *
   * @throws IllegalArgumentException naming the property
   */
  static void checkSize() {
    if (SIZE < 2 || SIZE > 256 || Integer.bitCount(SIZE) != 1) {
      throw new IllegalArgumentException(SIZE_PROPERTY + ": " + SIZE + " (expected: a power of two from 2 to 256)");
    }
  }

  /** Runs {@link #HOPS} hops. */
  @Benchmark
  @OperationsPerInvocation(HOPS)
  public void hops() {
    Pipe<Long> in = pipes[0];
    Pipe<Long> out = pipes[1];
    int t = tokens;
    model.runAndWait(() -> lapAll(in, out, t, HOPS / (SIZE * t)));
  }

  /** Collects the heap before each iteration: see {@link JmhDefaults#settleHeap()}. */
  @Setup(Level.Iteration)
  public void settle() {
    JmhDefaults.settleHeap();
  }

  /** Stops the ring. */
  @TearDown
  public void tearDown() {
    model.close();
  }

  static void forward(Pipe<Long> in, Pipe<Long> out) throws Suspendable {
    for (;;) {
      out.send(in.receive());
    }
  }

  /** Process 0: injects {@code tokens}, lets each make {@code laps} laps, absorbs them. */
  static void lapAll(Pipe<Long> in, Pipe<Long> out, int tokens, int laps) throws Suspendable {
    for (long i = 0; i < tokens; i++) {
      out.send(i);
    }
    long arrivals = (long) tokens * laps;
    long forwards = arrivals - tokens;
    long sum = 0;
    for (long k = 0; k < arrivals; k++) {
      Long x = in.receive();
      sum += x;
      if (k < forwards) {
        out.send(x);
      }
    }
    long expected = (long) tokens * (tokens - 1) / 2 * laps;
    if (sum != expected) {
      throw new IllegalStateException("ring: token sum " + sum + " (expected: " + expected + ")");
    }
  }
}
