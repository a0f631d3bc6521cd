package io.krill.console.internal;

import io.krill.fibers.Suspendable;
import io.krill.httpd.websocket.WebSocket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Pushes one snapshot per interval to every open tab. The snapshot is built once per interval
 * (and only while a tab is open) and offered to each socket with {@code trySend}: a tab whose
 * send queue is full misses that snapshot and gets the next one, newer and complete, so old
 * snapshots are never queued behind each other and a slow tab never holds up the crawl or the
 * other tabs.
 *
 * <p>Threading: one platform thread pushes; {@link #serve(WebSocket)} runs on the server's
 * strands; the counters may be read from any thread.
 */
public final class Pusher implements AutoCloseable {
  private final Supplier<String> snapshot;
  private final long intervalNanos;
  private final Set<WebSocket> sockets = ConcurrentHashMap.newKeySet();
  private final LongAdder pushed = new LongAdder();
  private final LongAdder dropped = new LongAdder();
  private final Thread thread;
  private volatile boolean closed;
  private volatile String current;

  /**
   * @param snapshot builds the JSON snapshot
   * @param interval time between snapshots
   */
  public Pusher(Supplier<String> snapshot, Duration interval) {
    this.snapshot = snapshot;
    this.intervalNanos = interval.toNanos();
    this.thread = new Thread(this::loop, "krill-console-pusher");
    this.thread.setDaemon(true);
  }

  /** Starts pushing. */
  public void start() {
    thread.start();
  }

  /**
   * Serves one tab: registers it, sends it the latest snapshot at once, and reads until it
   * closes (the page sends nothing; reading answers the close handshake). May suspend.
   *
   * @param socket the tab's socket
   */
  public void serve(WebSocket socket) throws Suspendable {
    sockets.add(socket);
    try {
      offer(socket, current());
      while (socket.receive() != null) {
        // nothing to read: controls go through POST with the token
      }
    } finally {
      sockets.remove(socket);
    }
  }

  /** @return the latest pushed snapshot, or one built now when no tab is open */
  public String current() {
    String c = current;
    return c != null ? c : snapshot.get();
  }

  /** @return tabs open */
  public int tabs() {
    return sockets.size();
  }

  /** @return snapshots sent */
  public long pushed() {
    return pushed.sum();
  }

  /** @return snapshots dropped because a tab's send queue was full */
  public long dropped() {
    return dropped.sum();
  }

  private void loop() {
    while (!closed) {
      try {
        TimeUnit.NANOSECONDS.sleep(intervalNanos);
      } catch (InterruptedException e) {
        break;
      }
      pushOnce();
    }
  }

  private void pushOnce() {
    if (sockets.isEmpty()) {
      current = null; // nobody watches: no snapshot is built, and the next request builds a fresh one
      return;
    }
    String json = snapshot.get();
    current = json;
    for (WebSocket s : sockets) {
      offer(s, json);
    }
  }

  private void offer(WebSocket s, String json) {
    if (s.trySend(json)) {
      pushed.increment();
    } else if (s.isOpen()) {
      dropped.increment();
    }
  }

  /** Stops pushing after a last snapshot to every tab. */
  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    pushOnce();
  }
}
