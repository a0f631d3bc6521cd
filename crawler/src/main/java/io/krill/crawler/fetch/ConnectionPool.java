package io.krill.crawler.fetch;

import io.krill.netio.MessageSocket;
import io.netty.handler.codec.http.HttpObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Idle kept-alive connections by origin and address. Taking returns the most recently used
 * open connection that has not idled too long; the pool holds at most a cap per origin and
 * closes the rest. Thread-safe; never blocks (the lock is held for a few field accesses).
 */
final class ConnectionPool {
  static final class Pooled {
    final MessageSocket<HttpObject> socket;
    final WireTap tap;
    long idleSince;

    Pooled(MessageSocket<HttpObject> socket, WireTap tap) {
      this.socket = socket;
      this.tap = tap;
    }
  }

  private final Map<String, ArrayDeque<Pooled>> idle = new HashMap<>();
  private final long idleTimeoutNanos;
  private final int maxIdlePerOrigin;
  private boolean closed;

  ConnectionPool(long idleTimeoutNanos, int maxIdlePerOrigin) {
    this.idleTimeoutNanos = idleTimeoutNanos;
    this.maxIdlePerOrigin = maxIdlePerOrigin;
  }

  Pooled take(String key) {
    List<Pooled> stale = new ArrayList<>();
    Pooled found = null;
    long now = System.nanoTime();
    synchronized (this) {
      ArrayDeque<Pooled> q = idle.get(key);
      while (q != null && !q.isEmpty()) {
        Pooled p = q.pollLast();
        if (p.socket.isOpen() && now - p.idleSince < idleTimeoutNanos) {
          found = p;
          break;
        }
        stale.add(p);
      }
      if (q != null && q.isEmpty()) {
        idle.remove(key);
      }
    }
    stale.forEach(p -> p.socket.close());
    return found;
  }

  void offer(String key, Pooled p) {
    p.idleSince = System.nanoTime();
    boolean keep;
    synchronized (this) {
      ArrayDeque<Pooled> q = idle.computeIfAbsent(key, k -> new ArrayDeque<>());
      keep = !closed && q.size() < maxIdlePerOrigin;
      if (keep) {
        q.addLast(p);
      }
    }
    if (!keep) {
      p.socket.close();
    }
  }

  synchronized int idleCount() {
    int n = 0;
    for (ArrayDeque<Pooled> q : idle.values()) {
      n += q.size();
    }
    return n;
  }

  void close() {
    List<Pooled> all = new ArrayList<>();
    synchronized (this) {
      closed = true;
      idle.values().forEach(all::addAll);
      idle.clear();
    }
    all.forEach(p -> p.socket.close());
  }
}
