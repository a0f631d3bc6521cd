package io.krill.netio;

import io.krill.fibers.Continuation;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.SuspendableCallable;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/** The event-loop scheduler netio tests share, and a way to run a test body in a fiber. */
public final class TestLoops {
  private static final FiberScheduler SCHEDULER = FiberScheduler.eventLoop(2);

  private TestLoops() {}

  public static FiberScheduler scheduler() {
    return SCHEDULER;
  }

  /** @return options on the test scheduler with short deadlines */
  public static SocketOptions.Builder options() {
    return SocketOptions.builder().scheduler(SCHEDULER).connectTimeout(Duration.ofSeconds(5))
        .readTimeout(Duration.ofSeconds(20)).writeTimeout(Duration.ofSeconds(20));
  }

  /** Binds a server on 127.0.0.1 from the test thread. */
  public static FiberServerSocket bind(SocketOptions options) {
    return Continuation.callOnThread(() -> FiberServerSocket.bind("127.0.0.1", 0, options));
  }

  /** Binds a server on 127.0.0.1 that serves every connection with {@code handler}. */
  public static FiberServerSocket serve(SocketOptions options, SocketHandler handler) {
    return bind(options).serve(handler);
  }

  /** Runs {@code body} in a fiber of the test scheduler and returns its result; rethrows its failure. */
  public static <T> T inFiber(SuspendableCallable<T> body) throws Exception {
    AtomicReference<T> result = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Fiber f = Fiber.builder().scheduler(SCHEDULER).name("test").start(() -> {
      try {
        result.set(body.call());
      } catch (Throwable e) {
        failure.set(e);
      }
    });
    Continuation.runOnThread(() -> {
      try {
        f.join(Duration.ofSeconds(60));
      } catch (java.util.concurrent.TimeoutException e) {
        throw new AssertionError("test fiber did not finish:\n" + SCHEDULER.dumpParked(), e);
      }
    });
    Throwable e = failure.get();
    if (e instanceof Exception) {
      throw (Exception) e;
    }
    if (e instanceof Error) {
      throw (Error) e;
    }
    return result.get();
  }
}
