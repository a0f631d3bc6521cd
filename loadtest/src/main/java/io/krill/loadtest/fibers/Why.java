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

  static final String SWITCH_COST = "a hop is a channel hand-over plus a fiber switch. The switch alone"
      + " (the ParkUnpark table: a same-loop wake goes on the carrier-local run queue with plain stores, then one"
      + " suspension and one resumption of the woven frames) is about half of a ring hop; the rest is the channel:"
      + " per operation a spin-lock CAS and release, per blocking receive a new Waiter (about 56 B) queued and"
      + " claimed by CAS, and the workload's own extra woven frame (Pipe.receive) unwound and re-entered on every"
      + " suspension; plus four CASes on Fiber.state per switch (park, park-commit, unpark, run). A virtual thread"
      + " pays a stack-chunk freeze/thaw and a ForkJoinPool push/pop per switch instead. Reaching 5× needs a hop"
      + " near the bare switch cost: a lock-free one-to-one rendezvous slot and one reusable Waiter per fiber are"
      + " the next steps (see the findings)";

  static final String COMMS_TIME = SWITCH_COST;
  static final String RING = SWITCH_COST + "; with 64 tokens the same per-hop path runs with more fibers runnable"
      + " at once, so queue traffic, not latency, dominates";
  static final String SPAWN = "a fiber start is one Fiber object (its frame store is allocated on first"
      + " suspension) and an enqueue on the current loop; a join of a finished fiber is a state read. A virtual"
      + " thread allocates a Thread, a Continuation and a stack chunk and mounts and unmounts it. The live-fiber"
      + " registry (a ConcurrentHashMap add and remove per fiber; off by default, on in bin/krill and the tests)"
      + " roughly doubles a fiber's spawn cost: compare fiberTracked in the spawn table";
  static final String CROSS_LOOP = "a fiber keeps its home loop, so each hand-over puts the fiber in the other"
      + " loop's inbox; an idle carrier spins up to 20 µs (-Dkrill.fibers.spinNanos) watching its inbox before it"
      + " sleeps in epoll_wait/select, so between two busy loops a hand-over costs a cross-core queue hop instead"
      + " of an eventfd write and a kernel wake-up (about 11 µs here without the spin: -Dkrill.fibers.spinNanos=0)."
      + " Both carriers must really run at once: on a shared machine where the other carrier's CPU is taken, the"
      + " spin fails and the hand-over falls back to the kernel wake-up. Virtual threads with two carriers mostly"
      + " do not cross at all: the JDK scheduler pushes the woken thread on the waker's own ForkJoinPool queue"
      + " (a probe saw 11-28% of hand-overs change carrier)";

  static final String FINDINGS = String.join("\n",
      "Profiled earlier with JFR (1 ms execution samples) on the ring, one token, fibers: `" + PROFILE_RING + "`;"
          + " allocation with `" + PROFILE_GC + "`. Done since the first profile: same-loop wakes from a fiber use"
          + " a carrier-local run queue instead of Netty's MPSC task queue; channel operations park the fiber"
          + " directly (one woven frame instead of four); no LongAdder per park/unpark; the live-fiber registry is"
          + " off by default; the channel lock is a spin lock in a field of the channel (no ReentrantLock objects);"
          + " cross-thread wakes go through a per-carrier inbox and idle carriers spin briefly before sleeping."
          + " Next, biggest first:",
      "",
      "1. **Channel fast path.** Each blocking operation still allocates a `Waiter` and queues it; a lock-free"
          + " one-to-one rendezvous slot (CAS on a single waiter field, falling back to the queues for shared"
          + " ends and `Select`) and one reusable `Waiter` per fiber would take the channel close to the bare"
          + " park/unpark cost.",
      "2. **Fewer state CASes per switch.** Park (RUNNING→PARKING), commit (PARKING→PARKED), unpark"
          + " (PARKED→RUNNABLE) and run (→RUNNING) are four locked instructions; a carrier-owned fiber could"
          + " commit the park with a plain store when no other thread can race it.",
      "3. **Heap per parked fiber.** Done: the Fiber object keeps its frame-store fields, state, home,"
          + " joiners, blocker and extras only (the id is drawn on first use, the run-queue link shares the"
          + " blocker field, the scheduler is found through the home) and the first primitive frame array has"
          + " one slot. One combined frame array would save about 16 B more.",
      "4. **Event-loop scheduler and CPU-bound trees.** A fiber spawned on a loop stays on it, so Mandelbrot's"
          + " one-fiber-per-pixel tree on `eventLoop(n)` runs on one core (as documented); `workStealing(n)` spreads"
          + " it.");

  private Why() {}

  static String heap(Double tracked, Double untracked, Double vt) {
    String base = "a parked fiber with a shared body is the Fiber object (Stack's frame-store fields, state, home,"
        + " joiners, blocker, extras; the id is drawn on first use and the scheduler found through the home) plus"
        + " its frame store, a long[] and an Object[] sized for the one frame";
    if (untracked == null) {
      return base;
    }
    return base + ": " + fmt(untracked) + " B by default" + (tracked == null ? "" : "; the live-fiber registry (a"
        + " ConcurrentHashMap entry per live fiber; off by default, on for the `fiberTracked` kind and with"
        + " -Dkrill.fibers.track=true) adds " + fmt(tracked - untracked) + " B") + (vt == null ? ""
        : "; a parked virtual thread measured " + fmt(vt) + " B here (its frames in a heap stack chunk plus the"
        + " Thread and Continuation objects), so \"5× smaller\" needs ≤ " + fmt(vt / 5) + " B, which the default"
        + " fiber " + (untracked <= vt / 5 ? "meets" : "misses"));
  }

}
