package io.krill.fibers;

/**
 * A one-shot delimited continuation: a body of suspendable code that runs until it suspends
 * or finishes, and can be run again to resume where it suspended.
 *
 * <pre>{@code
 * Continuation c = new Continuation(() -> {
 *   System.out.println("one");
 *   Continuation.suspend();
 *   System.out.println("two");
 * });
 * c.run();   // prints "one", returns at the suspend
 * c.run();   // prints "two", returns at the end; c.isDone() is now true
 * }</pre>
 *
 * <p>Threading: one thread runs a continuation at a time; it may be resumed on another
 * thread when the hand-off is safely published. A continuation whose body and saved values
 * are serializable can be written with Java serialization while suspended and resumed after
 * reading it back, in this JVM or another; a class that changed in between is refused with
 * an {@link java.io.InvalidClassException}.
 */
public class Continuation extends Stack {
  private static final long serialVersionUID = 1L;

  /**
   * Creates a continuation that will run {@code body} on its first {@link #run()}.
   *
   * @param body the code to run; may suspend
   * @throws NullPointerException if body is null
   */
  public Continuation(SuspendableRunnable body) {
    super(requireBody(body));
  }

  private static SuspendableRunnable requireBody(SuspendableRunnable body) {
    if (body == null) {
      throw new NullPointerException("body");
    }
    return body;
  }

  /**
   * Runs the body until it suspends or finishes. An exception thrown by the body ends the
   * continuation and propagates from here with its original stack trace.
   *
   * @throws IllegalStateException if the continuation is done or already running
   */
  public final void run() {
    runStack();
  }

  /** @return true once the body has finished, normally or by an exception */
  public final boolean isDone() {
    return stackDone();
  }

  /** @return true while the body is suspended, waiting for {@link #run()} */
  public final boolean isSuspended() {
    return stackSuspended();
  }

  /**
   * Suspends the continuation that runs on the current thread; its {@link #run()} returns,
   * and the next {@code run()} resumes right after this call. May suspend.
   *
   * @throws IllegalStateException if no continuation runs on the current thread
   * @throws Suspendable never; marks that this method suspends
   */
  @Primitive
  public static void suspend() throws Suspendable {
    Stack.suspendCurrent();
  }

  /**
   * {@link #suspend()} for woven callers, which hold the current stack: the weaver calls this
   * entry in place of {@code suspend()} and passes the stack and its flow, so the suspension
   * does not look the stack up again. Not for hand-written calls.
   *
   * @param s the current stack
   * @param flow the stack's flow at the call: above 0 when the woven caller is restoring
   * @throws IllegalStateException if no continuation runs on the current thread
   * @throws Suspendable never; marks that this method suspends
   */
  @Primitive
  public static void suspend(Stack s, byte flow) throws Suspendable {
    Stack.suspendCurrent(s, flow);
  }

  /**
   * Runs suspendable code directly on the current thread, outside any continuation: the way
   * plain code (a {@code main} method, a platform or virtual thread) calls suspendable code.
   * Inside it, a park blocks the thread and {@link #suspend()} fails. Exceptions of the body
   * propagate unchanged.
   *
   * @param body the code to run
   */
  @Primitive
  public static void runOnThread(SuspendableRunnable body) {
    callOnThread(() -> {
      body.run();
      return null;
    });
  }

  /**
   * Calls suspendable code directly on the current thread, outside any continuation; see
   * {@link #runOnThread(SuspendableRunnable)}.
   *
   * @param body the computation
   * @param <T> the result type
   * @return the body's result
   */
  @Primitive
  public static <T> T callOnThread(SuspendableCallable<T> body) {
    return Stack.callDetached(body);
  }

  /** @return true if the current thread is running a continuation */
  public static boolean isInContinuation() {
    return Stack.current() != Stack.NONE;
  }
}
