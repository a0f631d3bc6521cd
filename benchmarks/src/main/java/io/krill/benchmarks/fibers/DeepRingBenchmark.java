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
 * {@link RingBenchmark}'s ring with one token, but each process receives {@code receiveDepth}
 * woven frames below its forwarding loop, and runs that loop {@code loopDepth} woven frames
 * below its body, so each hop parks and resumes a stack {@code loopDepth + receiveDepth} deep;
 * one operation is one hop. The question is whether a hop's cost grows with the depth of the
 * parked stack.
 *
 * <p>The two depths are different questions. The frames from the loop down to the receive run
 * on every hop in any implementation (the loop calls them, they return the token), so they cost
 * their calls and returns even unwoven, and a thread pays for them too. The frames above the
 * loop ({@code loopDepth - 1} of them) only wait: a hop that restores only the frames it runs
 * pays nothing for them, one that re-enters the whole parked stack pays for each.
 *
 * <p>{@code aboveCall} is how each frame above the loop calls the next: {@code static} (a call
 * to a method bound at build time, which the weaver gives a stack entry) or {@code interface}
 * (as a framework calls a handler).
 */
@State(Scope.Thread)
public class DeepRingBenchmark extends JmhDefaults.OneCarrier {
  /** Hops per invocation: 256 laps of one token. */
  public static final int HOPS = RingBenchmark.HOPS;

  @Param({"fiber", "virtualThreadChannel"})
  public String competitor;

  /** Woven frames from the forwarding loop down to the pipe's receive, the loop's own included. */
  @Param({"1", "5", "20"})
  public int receiveDepth;

  /** Woven frames from the process's body down to the forwarding loop, the loop's own included. */
  @Param({"1"})
  public int loopDepth;

  /** How a frame above the loop calls the next: {@code static} or {@code interface}. */
  @Param({"static"})
  public String aboveCall;

  private Model model;
  private Pipe<Long>[] pipes;

  /** Starts processes 1..255. */
  @Setup
  @SuppressWarnings("unchecked")
  public void setUp() {
    if (receiveDepth < 1) {
      throw new IllegalArgumentException("receiveDepth: " + receiveDepth + " (expected: > 0)");
    }
    if (loopDepth < 1) {
      throw new IllegalArgumentException("loopDepth: " + loopDepth + " (expected: > 0)");
    }
    RingBenchmark.checkSize();
    model = Model.create(competitor, 1);
    int size = RingBenchmark.SIZE;
    pipes = new Pipe[size];
    for (int i = 0; i < size; i++) {
      pipes[i] = model.pipe();
    }
    int depth = receiveDepth;
    int above = loopDepth;
    boolean throughInterface;
    switch (aboveCall) {
      case "static":
        throughInterface = false;
        break;
      case "interface":
        throughInterface = true;
        break;
      default:
        throw new IllegalArgumentException("aboveCall: " + aboveCall + " (expected: static or interface)");
    }
    for (int i = 1; i < size; i++) {
      Pipe<Long> in = pipes[i];
      Pipe<Long> out = pipes[(i + 1) % size];
      if (above == 1) {
        model.spawn(() -> forward(in, out, depth));
      } else if (throughInterface) {
        model.spawn(() -> InterfaceAbove.NEXT.below(in, out, depth, above - 1));
      } else {
        model.spawn(() -> forwardBelow(in, out, depth, above - 1));
      }
    }
  }

  /** Runs {@link #HOPS} hops. */
  @Benchmark
  @OperationsPerInvocation(HOPS)
  public void hops() {
    Pipe<Long> in = pipes[0];
    Pipe<Long> out = pipes[1];
    model.runAndWait(() -> RingBenchmark.lapAll(in, out, 1, HOPS / RingBenchmark.SIZE));
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

  static void forward(Pipe<Long> in, Pipe<Long> out, int depth) throws Suspendable {
    for (;;) {
      out.send(depth == 1 ? in.receive() : receiveBelow(in, depth - 1));
    }
  }

  /** Runs the forwarding loop below {@code frames} woven frames of this method. */
  static void forwardBelow(Pipe<Long> in, Pipe<Long> out, int depth, int frames) throws Suspendable {
    if (frames == 1) {
      forward(in, out, depth);
      return;
    }
    forwardBelow(in, out, depth, frames - 1);
  }

  /** A frame above the forwarding loop, called through an interface. */
  interface Above {
    void below(Pipe<Long> in, Pipe<Long> out, int depth, int frames) throws Suspendable;
  }

  /** {@link #forwardBelow}, each frame calling the next through {@link Above}. */
  static final class InterfaceAbove implements Above {
    static final Above NEXT = new InterfaceAbove();

    @Override
    public void below(Pipe<Long> in, Pipe<Long> out, int depth, int frames) throws Suspendable {
      if (frames == 1) {
        forward(in, out, depth);
        return;
      }
      NEXT.below(in, out, depth, frames - 1);
    }
  }

  /** Receives from {@code frames} woven frames of this method, the last one calling the pipe. */
  static Long receiveBelow(Pipe<Long> in, int frames) throws Suspendable {
    if (frames == 1) {
      return in.receive();
    }
    return receiveBelow(in, frames - 1);
  }
}
