package io.krill.netio;

import io.krill.fibers.Continuation;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.Suspendable;
import io.krill.fibers.SuspendableCallable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The event-loop schedulers netio tests share, and a way to run a test body in a fiber.
 * {@link #scheduler()} runs the I/O handler {@code -Dkrill.fibers.io} names; {@link #on(Transport)}
 * gives one scheduler per transport whose carriers run that transport, so its channels live on
 * the carriers (the transport matrix).
 */
public final class TestLoops {
  private static final FiberScheduler SCHEDULER = FiberScheduler.eventLoop(2);
  private static final Map<Transport, Carriers> CARRIERS = new EnumMap<>(Transport.class);

  private TestLoops() {}

  public static FiberScheduler scheduler() {
    return SCHEDULER;
  }

  /** @return options on the test scheduler with short deadlines */
  public static SocketOptions.Builder options() {
    return options(SCHEDULER);
  }

  static SocketOptions.Builder options(FiberScheduler scheduler) {
    return SocketOptions.builder().scheduler(scheduler).connectTimeout(Duration.ofSeconds(5))
        .readTimeout(Duration.ofSeconds(20)).writeTimeout(Duration.ofSeconds(20));
  }

  /**
   * @param transport NIO, EPOLL or IO_URING
   * @return the shared carriers that run {@code transport}; fails (never skips) if it does not load
   */
  static Carriers on(Transport transport) {
    synchronized (CARRIERS) {
      return CARRIERS.computeIfAbsent(transport, t -> new Carriers(t,
          io.krill.fibers.spi.Carriers.eventLoop(2, true, ioOf(t))));
    }
  }

  /** @return the carriers' I/O handler id that runs {@code transport}: nio, epoll or io_uring */
  static String ioOf(Transport transport) {
    return transport.name().toLowerCase(Locale.ROOT);
  }

  /** @return the test scheduler and every transport's carriers created so far */
  static List<FiberScheduler> schedulers() {
    List<FiberScheduler> all = new ArrayList<>();
    all.add(SCHEDULER);
    synchronized (CARRIERS) {
      CARRIERS.values().forEach(c -> all.add(c.scheduler));
    }
    return all;
  }

  /** @return problems the transport carriers recorded since the last call, and forgets them */
  static List<String> drainCarrierProblems() {
    List<String> problems = new ArrayList<>();
    synchronized (CARRIERS) {
      for (Carriers c : CARRIERS.values()) {
        for (String p; (p = c.problems.poll()) != null; ) {
          problems.add(p);
        }
      }
    }
    return problems;
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
  /** Connects, sends {@code line} and a newline, and returns the line the peer answers. May suspend. */
  static String echoLine(String host, int port, SocketOptions options, String line) throws IOException, Suspendable {
    try (FiberSocket s = FiberSocket.connect(host, port, options)) {
      s.output().writeUtf8(line + "\n");
      s.output().flush();
      return s.input().readLine();
    }
  }

  public static <T> T inFiber(SuspendableCallable<T> body) throws Exception {
    return inFiber(SCHEDULER, body);
  }

  static <T> T inFiber(FiberScheduler scheduler, SuspendableCallable<T> body) throws Exception {
    AtomicReference<T> result = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Fiber f = Fiber.builder().scheduler(scheduler).name("test").start(() -> {
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
        throw new AssertionError("test fiber did not finish:\n" + scheduler.dumpParked(), e);
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

  /**
   * Two carriers that run one transport's I/O handler, with sockets of that transport on them.
   * {@link #serve} checks that every handler fiber runs on its channel's own loop and every
   * channel on a carrier; a violation is recorded and fails the test through
   * {@link NetioInvariant}.
   */
  record Carriers(Transport transport, FiberScheduler scheduler, Queue<String> problems) {
    Carriers(Transport transport, FiberScheduler scheduler) {
      this(transport, scheduler, new ConcurrentLinkedQueue<>());
      if (!ioOf(transport).equals(io())) {
        throw new AssertionError(transport + ": carriers run " + io());
      }
    }

    SocketOptions.Builder options() {
      return TestLoops.options(scheduler).transport(transport);
    }

    <T> T inFiber(SuspendableCallable<T> body) throws Exception {
      return TestLoops.inFiber(scheduler, body);
    }

    FiberServerSocket serve(SocketOptions options, SocketHandler handler) {
      return TestLoops.serve(options, s -> {
        checkOnOwnLoop(s, "server handler");
        handler.handle(s);
      });
    }

    FiberServerSocket serve(SocketHandler handler) {
      return serve(options().build(), handler);
    }

    /** Records a problem unless the calling fiber runs on {@code s}'s channel loop, a carrier of this transport. */
    void checkOnOwnLoop(FiberSocket s, String who) {
      io.netty.channel.EventLoop channelLoop = s.connection.channel().eventLoop();
      if (channelLoop.parent() != group()) {
        problems.add(transport + " " + who + ": channel on " + channelLoop + ", not on a carrier of " + scheduler);
      } else if (io.krill.fibers.spi.Carriers.currentLoop() != channelLoop) {
        problems.add(transport + " " + who + ": runs on " + Thread.currentThread().getName()
            + ", not on its channel's loop " + channelLoop);
      }
    }

    /** @return the id of the I/O handler these carriers run */
    String io() {
      return io.krill.fibers.spi.Carriers.io(scheduler);
    }

    /** @return the Netty group of these carriers */
    io.netty.channel.EventLoopGroup group() {
      return io.krill.fibers.spi.Carriers.group(scheduler);
    }

    @Override
    public String toString() {
      return transport + " carriers";
    }
  }
}
