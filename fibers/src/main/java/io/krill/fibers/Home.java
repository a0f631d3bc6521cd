package io.krill.fibers;

/**
 * A fiber's home within its scheduler (for the event-loop scheduler, one of its loops). A fiber
 * keeps only its home and finds its scheduler through it, one field less per fiber. Not API.
 */
interface Home {
  /** @return the scheduler this home belongs to */
  FiberScheduler scheduler();
}
