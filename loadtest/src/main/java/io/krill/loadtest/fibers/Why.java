package io.krill.loadtest.fibers;

import static io.krill.loadtest.internal.Reports.fmt;

/**
 * The explanations the report prints beside each goal. They come from profiling these
 * benchmarks on this machine (the commands are in {@link #FINDINGS}); the numbers in the
 * goal rows come from the run itself.
 */
final class Why {
  static final String PROFILE_RING = "taskset -c 0 java -jar loadtest/target/benchmarks.jar RingBenchmark -p tokens=1"
      + " -p competitor=fiber -f 1 -wi 2 -i 4 -jvmArgsAppend"
      + " \"-XX:StartFlightRecording=filename=ring.jfr,jdk.ExecutionSample#period=1ms\"";
  static final String PROFILE_GC = "taskset -c 0 java -jar loadtest/target/benchmarks.jar RingBenchmark -p tokens=1"
      + " -p competitor=fiber,virtualThreadSyncQueue,virtualThreadChannel -f 1 -wi 2 -i 3 -prof gc";

  static final String SWITCH_COST = "a hop costs a fiber: (1) the run queue: every wake, even of a fiber on the"
      + " same loop, goes through Netty's MPSC task queue (SingleThreadEventExecutor.execute →"
      + " MpscUnboundedAtomicArrayQueue.offer, a locked CAS on the producer index), 20% of the loop's samples in"
      + " the ring profile; (2) woven-frame bookkeeping: Stack.current() at each woven method entry and in"
      + " Strands.current(), 22% of samples, and each suspension unwinds and re-enters Fiber.park ← Strands.park"
      + " ← Waiter.await ← Channel.receive under the workload's own frames; (3) the channel: a ReentrantLock"
      + " lock/unlock per operation, and per blocking receive a new Waiter plus a bound `this::withdraw` Predicate"
      + " (72 B allocated per hop by -prof gc, against 64 B for SynchronousQueue), Channel/Waiter code 26% of"
      + " samples; (4) four CASes on Fiber.state per switch, and a LongAdder update on every park and unpark"
      + " while the live-fiber registry is on (the default). A virtual thread pays a stack-chunk freeze/thaw and"
      + " a ForkJoinPool push/pop instead, of the same order";

  static final String COMMS_TIME = SWITCH_COST;
  static final String RING = SWITCH_COST + "; with 64 tokens the same per-hop path runs with more fibers runnable"
      + " at once, so queue traffic, not latency, dominates";
  static final String SPAWN = "a fiber start is one Fiber object (its frame store is allocated on first"
      + " suspension) and an enqueue on the current loop; a join of a finished fiber is a state read. A virtual"
      + " thread allocates a Thread, a Continuation and a stack chunk and mounts and unmounts it. The live-fiber"
      + " registry (ConcurrentHashMap add and remove per fiber, on by default) is a large part of a fiber's spawn"
      + " cost: compare fiberUntracked in the spawn table";
  static final String CROSS_LOOP = "a fiber keeps its home loop, so each hand-over is Netty execute() from a"
      + " foreign thread: an MPSC enqueue plus Selector.wakeup() (an eventfd write) for a loop asleep in"
      + " epoll_wait, then the OS must schedule that thread; fiberSameLoop shows the same ping-pong without the"
      + " cross-thread wake. Virtual threads with two carriers mostly do not cross: the JDK scheduler pushes the"
      + " woken thread on the waker's own ForkJoinPool queue and the waker parks at once, so its carrier usually"
      + " runs it (a separate probe that records the carrier named in Thread.toString() at each hand-over saw 11-28%"
      + " of 20,000 hand-overs change carrier); its figure stays near its one-carrier figure. Platform threads"
      + " (a futex wake per hand-over) are in the same range as the cross-loop fiber";

  static final String FINDINGS = String.join("\n",
      "Profiled with JFR (1 ms execution samples) on the ring, one token, fibers: `" + PROFILE_RING + "`; then"
          + " `jfr print --events jdk.ExecutionSample --stack-depth 64 ring.jfr`, each sample attributed to its"
          + " innermost krill/Netty frame. Allocation: `" + PROFILE_GC + "`. fibers/src/main is not changed here;"
          + " these are suggestions for its owners, biggest first.",
      "",
      "1. **Run queue for same-loop wakes.** Netty's MPSC task queue's producer CAS is the largest single cost"
          + " (20% of loop samples). `EventLoopScheduler.submit` could push a fiber woken *on its own loop* onto a"
          + " carrier-local, single-threaded `ArrayDeque` that the loop drains before returning to Netty (one plain"
          + " store, no CAS), keeping `execute()` for wakes from other threads. For rendezvous, a direct hand-off"
          + " (run the woken receiver next on this carrier, CCSP-style) avoids the queue altogether.",
      "2. **Channel fast path.** Each blocking operation allocates a `Waiter` and a bound `this::withdraw`"
          + " `Predicate` (make the latter a final field of `Channel`; let each fiber own one reusable `Waiter` for"
          + " its single pending operation), and takes a `ReentrantLock` (for one-to-one use a CAS on a waiter slot"
          + " would do, falling back to the lock for shared ends and `Select`).",
      "3. **Shallower suspension.** A blocking receive suspends four runtime frames deep (`Channel.receive` →"
          + " `Waiter.await` → `Strands.park` → `Fiber.park`), each captured and re-entered with a `Stack.current()`"
          + " read (22% of samples). Inlining the park loop into `Channel.send/receive` and passing the current"
          + " `Stack` down instead of re-reading it would cut both.",
      "4. **Live-fiber registry.** On by default, it costs a `ConcurrentHashMap` add/remove per spawn and a"
          + " `LongAdder` update per park and unpark, and about 40 B per live fiber (parked fiber: see the heap"
          + " goal, registry on vs off). An intrusive per-carrier list (two fields in `Fiber`) or off-by-default"
          + " outside tests would meet the 150 B goal and speed spawn + join.",
      "5. **Cross-loop wake.** A loop asleep in `epoll_wait` is woken by an eventfd write per cross-loop"
          + " unpark. A short spin before the loop blocks (a Netty `SelectStrategy` that spins while the task"
          + " queue may refill), or letting a fiber with no pending I/O run on the waker's loop (migration, as"
          + " the work-stealing scheduler allows), would take the syscall and the OS wake-up off the path.",
      "6. **Heap per channel.** A rendezvous `Channel` is ~150 B (the object, a `ReentrantLock` and its `Sync`,"
          + " two `WaitQueue`s): half of it lands on each fiber of a max-process pair. Folding the lock state and"
          + " the two queue heads into `Channel` would save about 90 B per channel.",
      "7. **Event-loop scheduler and CPU-bound trees.** A fiber spawned on a loop stays on it, so Mandelbrot's"
          + " one-fiber-per-pixel tree on `eventLoop(n)` runs on one core (as documented); `workStealing(n)` spreads"
          + " it. Not a bug, but the README should steer CPU-bound fiber trees to `workStealing`.");

  private Why() {}

  static String heap(Double tracked, Double untracked, Double vt) {
    String base = "a parked fiber with a shared body is the Fiber object (Stack's frame-store fields, state, id,"
        + " scheduler, home, joiners) plus its frame store, a long[] and an Object[] sized for the one frame";
    if (untracked == null) {
      return base;
    }
    return base + ": " + fmt(untracked) + " B without the registry; the live-fiber registry (a ConcurrentHashMap"
        + " entry per live fiber; on for the `fiber` competitor, opt-in with -Dkrill.fibers.track=true in the library) adds "
        + fmt(tracked - untracked) + " B" + (tracked > 150 && untracked <= 150 ? ", which is what pushes the"
        + " default over 150 B" : "") + (vt == null ? "" : "; a parked virtual thread measured " + fmt(vt) + " B here"
        + " (its frames in a heap stack chunk plus the Thread and Continuation objects), so \"5× smaller\" needs ≤ "
        + fmt(vt / 5) + " B, which even the untracked fiber " + (untracked <= vt / 5 ? "meets" : "misses"));
  }
}
