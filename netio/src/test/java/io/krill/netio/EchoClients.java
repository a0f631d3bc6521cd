package io.krill.netio;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.Continuation;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/** Many concurrent echo clients, one fiber each, checking every byte that comes back. */
final class EchoClients {
  static final int ROUNDS = 3;

  private EchoClients() {}

  /** Runs the clients on the transport whose channels live on {@code scheduler}'s carriers. */
  static void run(String host, int port, int connections, FiberScheduler scheduler) throws Exception {
    run(host, port, connections, scheduler, Transport.ofCarriers(scheduler));
  }

  static void run(String host, int port, int connections, FiberScheduler scheduler, Transport transport)
      throws Exception {
    SocketOptions o = SocketOptions.builder().scheduler(scheduler).transport(transport).connectTimeout(Duration.ofSeconds(30))
        .readTimeout(Duration.ofSeconds(60)).build();
    // Channels of the carriers' own transport register on the connecting fiber's loop.
    boolean onCarriers = TestLoops.ioOf(transport).equals(io.krill.fibers.spi.Carriers.io(scheduler));
    Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
    AtomicInteger open = new AtomicInteger();
    AtomicInteger maxOpen = new AtomicInteger();
    AtomicInteger done = new AtomicInteger();
    // Every client holds its connection until all are connected, so they are truly concurrent.
    java.util.concurrent.CountDownLatch allConnected = new java.util.concurrent.CountDownLatch(connections);
    List<Fiber> fibers = new ArrayList<>(connections);
    for (int i = 0; i < connections; i++) {
      int id = i;
      fibers.add(Fiber.builder().scheduler(scheduler).name("echo-client-" + i).start(() -> {
        try (FiberSocket s = FiberSocket.connect(host, port, o)) {
          maxOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
          if (onCarriers && io.krill.fibers.spi.Carriers.currentLoop() != s.connection.channel().eventLoop()) {
            throw new AssertionError("client " + id + " runs on " + Thread.currentThread().getName()
                + ", its channel on " + s.connection.channel().eventLoop());
          }
          allConnected.countDown();
          for (int r = 0; r < ROUNDS; r++) {
            byte[] sent = pattern(id, r);
            s.output().write(sent);
            s.output().flush();
            byte[] back = new byte[sent.length];
            s.input().readFully(back);
            if (!Arrays.equals(sent, back)) {
              throw new AssertionError("client " + id + " round " + r + ": bytes differ");
            }
            if (r == 0) {
              while (allConnected.getCount() > 0) {
                Fiber.sleep(Duration.ofMillis(20));
              }
            }
          }
          s.shutdownOutput();
          if (s.input().read() != -1) {
            throw new AssertionError("client " + id + ": expected end of stream");
          }
          done.incrementAndGet();
        } catch (Throwable e) {
          allConnected.countDown();
          failures.add(e);
        } finally {
          open.decrementAndGet();
        }
      }));
    }
    Continuation.runOnThread(() -> {
      for (Fiber f : fibers) {
        try {
          f.join(Duration.ofMinutes(3));
        } catch (java.util.concurrent.TimeoutException e) {
          throw new AssertionError("echo client did not finish: " + f, e);
        }
      }
    });
    if (!failures.isEmpty()) {
      AssertionError e = new AssertionError(failures.size() + " of " + connections + " echo clients failed, first: "
          + failures.peek());
      e.initCause(failures.peek());
      throw e;
    }
    assertThat(done.get()).isEqualTo(connections);
    assertThat(maxOpen.get()).isEqualTo(connections);
  }

  /** 1..3000 bytes that depend on the client and the round. */
  static byte[] pattern(int id, int round) {
    int len = 1 + (id * 31 + round * 997) % 3000;
    byte[] b = new byte[len];
    for (int i = 0; i < len; i++) {
      b[i] = (byte) (id * 7 + round * 13 + i);
    }
    return b;
  }
}
