package io.krill.fibers;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Entry points for programs: run a main fiber and wait for it from plain code.
 *
 * <pre>{@code
 * public static void main(String[] args) {
 *   Fibers.runMain(() -> { ... suspendable code ... });
 * }
 * }</pre>
 */
public final class Fibers {
  /** How often the deadlock detector samples; a deadlock must be seen twice in a row. */
  public static final Duration DEADLOCK_CHECK_PERIOD = Duration.ofMillis(100);

  private Fibers() {}

  /**
   * Describes every parked fiber of every live scheduler in this JVM: name, what it waits on,
   * and its suspended frames. The CLI prints it on {@code SIGUSR1} ({@code kill -USR1 <pid>}).
   *
   * @return the dump, one block per scheduler that has parked fibers
   */
  public static String dumpAll() {
    java.util.List<FiberScheduler> schedulers;
    synchronized (FiberScheduler.CREATED) {
      schedulers = new java.util.ArrayList<>(FiberScheduler.CREATED.keySet());
    }
    schedulers.sort(java.util.Comparator.comparingInt(s -> s.serial));
    StringBuilder sb = new StringBuilder("krill fiber dump\n");
    for (FiberScheduler s : schedulers) {
      String parked = s.dumpParked();
      if (!parked.isEmpty()) {
        sb.append(s.name()).append(":\n").append(parked);
      }
    }
    return sb.toString();
  }

  /**
   * Describes every live fiber of every open threaded scheduler as JSON: {@code
   * {"schedulers":[{"name":…,"tracking":…,"fibers":[{"id":…,"name":…,"state":…,"blocker":…,
   * "stack":[…]}]}]}}, the shape of {@code jcmd Thread.dump_to_file -format=json} for virtual
   * threads. Schedulers that do not track list no fibers.
   *
   * @return the JSON text
   */
  public static String dumpAllJson() {
    return Supervision.dumpJson(Supervision.schedulers());
  }

  /**
   * Runs {@code body} as a fiber on the default scheduler and blocks the calling thread until
   * it finishes; its exception is rethrown here.
   *
   * @param body the main fiber's code
   */
  public static void runMain(SuspendableRunnable body) {
    runMain(FiberScheduler.defaultScheduler(), false, body);
  }

  /**
   * Runs {@code body} as a fiber on {@code scheduler} and blocks the calling thread until it
   * finishes.
   *
   * @param scheduler where to run
   * @param detectDeadlock when true, a deadlock among the scheduler's fibers ends the wait
   *     with a {@link DeadlockException} instead of a hang; this turns fiber tracking on for
   *     {@code scheduler} if it was off (fibers it started before are not seen by the detector)
   * @param body the main fiber's code
   * @throws DeadlockException when detection is on and every fiber is stuck
   */
  public static void runMain(FiberScheduler scheduler, boolean detectDeadlock, SuspendableRunnable body) {
    if (scheduler instanceof DeterministicScheduler) {
      throw new IllegalArgumentException("scheduler: deterministic (expected: a threaded scheduler; drive a"
          + " DeterministicScheduler with run() instead)");
    }
    if (detectDeadlock) {
      scheduler.track();
    }
    Fiber main = Fiber.builder().scheduler(scheduler).name("main").uncaughtExceptionHandler((t, e) -> { })
        .start(body);
    String lastReport = null;
    while (!main.isDone()) {
      if (!detectDeadlock) {
        Continuation.runOnThread(main::join);
        break;
      }
      LockSupport.parkNanos(DEADLOCK_CHECK_PERIOD.toNanos());
      String report = scheduler.deadlockReport();
      if (report != null && report.equals(lastReport)) {
        throw new DeadlockException(report);
      }
      lastReport = report;
    }
    Throwable e = Continuation.callOnThread(main::joinFailure);
    if (e instanceof RuntimeException) {
      throw (RuntimeException) e;
    }
    if (e instanceof Error) {
      throw (Error) e;
    }
    if (e != null) {
      throw new IllegalStateException("main fiber failed", e);
    }
  }
}
