package io.krill.fibers;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionException;

/**
 * Structured fork/join (a CSP {@code PAR}): runs each child in its own fiber and returns when
 * all of them have finished, so no child outlives the call.
 *
 * <pre>{@code
 * Par.run(
 *     () -> producer(out),
 *     () -> consumer(in));
 * }</pre>
 *
 * <p>Failure: the first child to throw cancels its siblings ({@link Fiber#cancel()}); once all
 * children have finished, that first exception is rethrown to the caller, with the other
 * children's failures added as suppressed exceptions (the {@link FiberCancelledException}s of
 * the cancelled siblings are left out). A caller that is cancelled while it waits cancels
 * every child, still waits for all of them, then throws its {@link FiberCancelledException}.
 *
 * <p>{@code run} may suspend: it suspends the calling fiber, never the carrier; off-fiber it
 * blocks the thread. Children run on the given scheduler, else on the calling fiber's, else on
 * the default scheduler; they are named after the caller ("parent/par-0", ...).
 */
public final class Par {
  private final Fiber[] children;
  private Throwable first;
  private List<Throwable> others;

  private Par(int n) {
    children = new Fiber[n];
  }

  /**
   * Runs the children in parallel fibers and waits for all. May suspend.
   *
   * @param children the bodies
   * @throws RuntimeException the first child failure (an {@link Error} is rethrown as is;
   *     a checked exception is wrapped in a {@link CompletionException})
   * @throws Suspendable never; marks that this method may suspend
   */
  public static void run(SuspendableRunnable... children) throws Suspendable {
    run(null, Arrays.asList(children));
  }

  /**
   * Runs the children in parallel fibers and waits for all. May suspend.
   *
   * @param children the bodies
   * @throws RuntimeException the first child failure
   * @throws Suspendable never; marks that this method may suspend
   */
  public static void run(List<? extends SuspendableRunnable> children) throws Suspendable {
    run(null, children);
  }

  /**
   * Runs the children in parallel fibers on {@code scheduler} and waits for all. May suspend.
   *
   * @param scheduler where the children run, or null for the caller's (or the default)
   * @param children the bodies
   * @throws RuntimeException the first child failure
   * @throws Suspendable never; marks that this method may suspend
   */
  public static void run(FiberScheduler scheduler, List<? extends SuspendableRunnable> children) throws Suspendable {
    for (SuspendableRunnable c : children) {
      Objects.requireNonNull(c, "child");
    }
    Par par = new Par(children.size());
    par.start(scheduler, children);
    par.joinAll();
    par.rethrow();
  }

  private void start(FiberScheduler scheduler, List<? extends SuspendableRunnable> bodies) {
    Object parent = Strand.current();
    String prefix = (parent instanceof Fiber ? ((Fiber) parent).name() : ((Thread) parent).getName()) + "/par-";
    Fiber.Builder b = Fiber.builder();
    if (scheduler != null) {
      b.scheduler(scheduler);
    }
    Fiber[] unstarted = new Fiber[bodies.size()];
    for (int i = 0; i < unstarted.length; i++) {
      SuspendableRunnable body = bodies.get(i);
      unstarted[i] = b.name(prefix + i).unstarted(() -> {
        try {
          body.run();
        } catch (Throwable t) {
          failed(t);
        }
      });
    }
    for (int i = 0; i < unstarted.length; i++) {
      children[i] = unstarted[i];
      unstarted[i].start();
    }
  }

  private void failed(Throwable t) {
    boolean cancelSiblings;
    synchronized (this) {
      cancelSiblings = first == null;
      if (cancelSiblings) {
        first = t;
      } else if (!(t instanceof FiberCancelledException)) {
        if (others == null) {
          others = new ArrayList<>();
        }
        others.add(t);
      }
    }
    if (cancelSiblings) {
      cancelAll();
    }
  }

  private void cancelAll() {
    for (Fiber f : children) {
      if (f != null && f != Fiber.current()) {
        f.cancel();
      }
    }
  }

  private void joinAll() throws Suspendable {
    FiberCancelledException cancelled = null;
    int i = 0;
    while (i < children.length) {
      try {
        children[i].join();
        i++;
      } catch (FiberCancelledException e) {
        if (cancelled == null) {
          cancelled = e;
          cancelAll();
        }
        if (Fiber.current() == null) {
          Thread.interrupted(); // keep waiting for the children; the interrupt is restored below
        }
      }
    }
    if (cancelled != null) {
      if (Fiber.current() == null) {
        Thread.currentThread().interrupt();
      }
      synchronized (this) {
        if (first != null && !(first instanceof FiberCancelledException)) {
          cancelled.addSuppressed(first);
        }
        if (others != null) {
          others.forEach(cancelled::addSuppressed);
        }
      }
      throw cancelled;
    }
  }

  private synchronized void rethrow() {
    Throwable t = first;
    if (t == null) {
      return;
    }
    if (others != null) {
      others.forEach(t::addSuppressed);
    }
    if (t instanceof RuntimeException) {
      throw (RuntimeException) t;
    }
    if (t instanceof Error) {
      throw (Error) t;
    }
    throw new CompletionException(t);
  }
}
