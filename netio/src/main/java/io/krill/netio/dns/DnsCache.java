package io.krill.netio.dns;

import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The resolver's cache: positive entries (addresses) and negative ones (the name or its
 * records do not exist), each with an expiry, least recently used evicted beyond
 * {@code maxEntries}. Thread-safe; the lock is held for a map operation only.
 */
final class DnsCache {
  /** A cached answer; {@code addresses} null means negative, with {@code reason}. */
  static final class Entry {
    final List<InetAddress> addresses;
    final String reason;
    final long expiresAt;

    Entry(List<InetAddress> addresses, String reason, long expiresAt) {
      this.addresses = addresses;
      this.reason = reason;
      this.expiresAt = expiresAt;
    }
  }

  private final Map<String, Entry> map;

  DnsCache(int maxEntries) {
    map = new LinkedHashMap<>(64, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<String, DnsCache.Entry> eldest) {
        return size() > maxEntries;
      }
    };
  }

  synchronized Entry get(String key, long now) {
    Entry e = map.get(key);
    if (e != null && now - e.expiresAt >= 0) {
      map.remove(key);
      return null;
    }
    return e;
  }

  synchronized void put(String key, Entry e) {
    map.put(key, e);
  }

  synchronized int size() {
    return map.size();
  }

  synchronized void clear() {
    map.clear();
  }
}
