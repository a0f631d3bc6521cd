package io.krill.console.internal;

import io.krill.fibers.Suspendable;
import io.krill.httpd.websocket.WebSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Pushes one snapshot per interval to every open tab. The snapshot is built once per interval
 * (and only while a tab is open) and offered to each socket with {@code trySend}: a tab whose
 * send queue is full misses that snapshot, so old snapshots are never queued behind each other
 * and a slow tab never holds up the crawl or the other tabs.
 *
 * <p>What a tab gets: on connect, the current snapshot in full; then, while it takes every tick,
 * each tick's delta (the same string for every such tab). A tab that missed a tick gets the next
 * tick in full (again one string shared by every tab that needs it), so it converges on the
 * crawl as soon as its queue has room. All a tab costs is its socket and the number of the last
 * tick it got.
 *
 * <p>Threading: one platform thread pushes; {@link #serve(WebSocket)} runs on the server's
 * strands; ticks are made and offered under one lock, so a tab never sees a delta whose base it
 * lacks; the counters may be read from any thread.
 */
public final class Pusher implements AutoCloseable {
  private final SnapshotJson snapshots;
  private final long intervalNanos;
  /* Each open tab and the number of the last tick it got (in full or as a delta). */
  private final Map<WebSocket, Long> tabs = new ConcurrentHashMap<>();
  private final LongAdder pushed = new LongAdder();
  private final LongAdder dropped = new LongAdder();
  private final Thread thread;
  private final Object lock = new Object();
  private volatile boolean closed;
  private SnapshotJson.Tick current;

  /**
   * @param snapshots makes the ticks
   * @param interval time between snapshots
   */
  public Pusher(SnapshotJson snapshots, Duration interval) {
    this.snapshots = snapshots;
    this.intervalNanos = interval.toNanos();
    this.thread = new Thread(this::loop, "krill-console-pusher");
    this.thread.setDaemon(true);
  }

  /** Starts pushing. */
  public void start() {
    thread.start();
  }

  /**
   * Serves one tab: sends it the current snapshot in full at once, registers it for the next
   * ticks, and reads until it closes (the page sends nothing; reading answers the close
   * handshake). May suspend.
   *
   * @param socket the tab's socket
   */
  public void serve(WebSocket socket) throws Suspendable {
    synchronized (lock) {
      SnapshotJson.Tick t = currentTick();
      // a tab whose first message does not fit is registered as behind: the next tick goes to it in full
      tabs.put(socket, offer(socket, t.full()) ? t.seq() : -1L);
    }
    try {
      while (socket.receive() != null) {
        // nothing to read: controls go through POST with the token
      }
    } finally {
      tabs.remove(socket);
    }
  }

  /** @return the latest pushed snapshot in full, or one built now when no tab is open */
  public String current() {
    synchronized (lock) {
      return currentTick().full();
    }
  }

  private SnapshotJson.Tick currentTick() {
    if (current == null) {
      current = snapshots.next();
    }
    return current;
  }

  /** @return tabs open */
  public int tabs() {
    return tabs.size();
  }

  /** @return snapshots sent (in full or as deltas) */
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
    synchronized (lock) {
      if (tabs.isEmpty()) {
        current = null; // nobody watches: no snapshot is built, and the next request builds a fresh one
        return;
      }
      SnapshotJson.Tick before = current;
      SnapshotJson.Tick t = snapshots.next();
      current = t;
      for (Map.Entry<WebSocket, Long> tab : tabs.entrySet()) {
        boolean behind = before == null || tab.getValue() != before.seq();
        if (offer(tab.getKey(), behind ? t.full() : t.delta())) {
          tab.setValue(t.seq());
        }
      }
    }
  }

  private boolean offer(WebSocket s, String json) {
    if (s.trySend(json)) {
      pushed.increment();
      return true;
    }
    if (s.isOpen()) {
      dropped.increment();
    }
    return false;
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
