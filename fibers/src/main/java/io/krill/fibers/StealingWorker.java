package io.krill.fibers;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/** A work-stealing worker that carries continuations, with the current stack as a field. */
final class StealingWorker extends ForkJoinWorkerThread {
  Stack stack = Stack.NONE;
  /** The arrays that continuations' captures on this thread write into first (see Stack), or null. */
  Stack.Scratch scratch;
  /** The fiber this worker runs now and its slice count, for the watchdog and statistics. */
  final Supervision.SliceRecord slice = new Supervision.SliceRecord();

  StealingWorker(ForkJoinPool pool) {
    super(pool);
    setDaemon(true);
  }
}
