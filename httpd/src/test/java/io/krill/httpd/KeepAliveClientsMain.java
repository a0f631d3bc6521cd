package io.krill.httpd;

import io.krill.fibers.Continuation;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberCountDownLatch;
import io.krill.fibers.FiberScheduler;
import io.krill.fibers.FiberSemaphore;
import io.krill.fibers.Suspendable;
import io.krill.netio.FiberSocket;
import io.krill.netio.SocketOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A child JVM of {@link ManyConnectionsTest}: opens {@code connections} keep-alive connections
 * (one fiber each), sends one request on each, prints {@code connected N} once all are open
 * and answered, waits for a line on stdin, then sends {@code rounds - 1} more requests on
 * each, checking every response, and prints {@code ok N} or {@code failed ...}.
 */
public final class KeepAliveClientsMain {
  private KeepAliveClientsMain() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    int connections = Integer.parseInt(args[1]);
    int rounds = Integer.parseInt(args[2]);
    FiberScheduler scheduler = FiberScheduler.eventLoop(2);
    SocketOptions o = SocketOptions.builder().scheduler(scheduler).connectTimeout(Duration.ofSeconds(60))
        .readTimeout(Duration.ofSeconds(120)).build();
    Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
    AtomicInteger done = new AtomicInteger();
    FiberCountDownLatch connected = FiberCountDownLatch.create(connections);
    FiberCountDownLatch go = FiberCountDownLatch.create(1);
    // At most 256 connects in flight, as a client pool would: a burst of thousands of SYNs
    // overflows any accept queue and turns into one-second SYN retransmissions.
    FiberSemaphore connecting = FiberSemaphore.create(256);
    List<Fiber> fibers = new ArrayList<>(connections);
    for (int i = 0; i < connections; i++) {
      int id = i;
      fibers.add(Fiber.builder().scheduler(scheduler).start(() -> {
        boolean counted = false;
        connecting.acquire();
        boolean permit = true;
        try (FiberSocket s = FiberSocket.connect("127.0.0.1", port, o)) {
          exchange(s, id, 0);
          connecting.release();
          permit = false;
          connected.countDown();
          counted = true;
          go.await();
          for (int r = 1; r < rounds; r++) {
            exchange(s, id, r);
          }
          done.incrementAndGet();
        } catch (Throwable e) {
          failures.add(e);
        } finally {
          if (permit) {
            connecting.release();
          }
          if (!counted) {
            connected.countDown();
          }
        }
      }));
    }
    long start = System.nanoTime();
    Continuation.runOnThread(() -> connected.await());
    System.err.printf("clients: %d connected and answered in %d ms, %d failed%s%n", connections - failures.size(),
        (System.nanoTime() - start) / 1_000_000, failures.size(), failures.isEmpty() ? "" : ", first: " + failures.peek());
    System.out.println("connected " + (connections - failures.size()));
    System.out.flush();
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    go.countDown();
    Continuation.runOnThread(() -> {
      for (Fiber f : fibers) {
        f.join();
      }
    });
    if (failures.isEmpty()) {
      System.out.println("ok " + done.get());
    } else {
      System.out.println("failed " + failures.size() + ": " + failures.peek());
    }
    System.out.flush();
    System.exit(0);
  }

  /* One GET on a keep-alive connection; checks status, length and body. */
  private static void exchange(FiberSocket s, int id, int round) throws IOException, Suspendable {
    s.output().writeUtf8("GET /c/" + id + "/" + round + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
    s.output().flush();
    String status = s.input().readLine();
    if (!"HTTP/1.1 200 OK".equals(status)) {
      throw new IOException("client " + id + " round " + round + ": status " + status);
    }
    int length = -1;
    for (String h; !(h = s.input().readLine()).isEmpty(); ) {
      if (h.regionMatches(true, 0, "content-length:", 0, 15)) {
        length = Integer.parseInt(h.substring(15).trim());
      }
    }
    byte[] body = new byte[length];
    s.input().readFully(body);
    String expected = id + ":" + round;
    if (!expected.equals(new String(body, StandardCharsets.UTF_8))) {
      throw new IOException("client " + id + " round " + round + ": body " + new String(body, StandardCharsets.UTF_8));
    }
  }
}
