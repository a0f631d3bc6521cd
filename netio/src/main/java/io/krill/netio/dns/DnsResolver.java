package io.krill.netio.dns;

import io.krill.fibers.Checks;
import io.krill.fibers.Strand;
import io.krill.fibers.Suspendable;
import io.netty.util.NetUtil;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.ExtendedResolver;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Resolver;
import org.xbill.DNS.ResolverConfig;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;
import org.xbill.DNS.hosts.HostsFileParser;
import org.xbill.DNS.lookup.LookupResult;
import org.xbill.DNS.lookup.LookupSession;
import org.xbill.DNS.lookup.NoSuchDomainException;
import org.xbill.DNS.lookup.NoSuchRRSetException;
import org.xbill.DNS.lookup.ServerFailedException;

/**
 * Resolves hostnames for fibers with dnsjava's asynchronous {@link LookupSession}: the calling
 * fiber parks while the query is in flight and costs no thread. Answers are cached for their
 * TTL, clamped to {@code [minTtl, maxTtl]}; names that do not exist are cached for
 * {@code negativeTtl}; the cache holds at most {@code cacheSize} names. The hosts file is
 * consulted first. Concurrent lookups of one name share one query: while it is in flight,
 * further lookups of that name wait for its answer instead of asking again.
 *
 * <pre>{@code
 * DnsResolver dns = DnsResolver.builder().servers(List.of(new InetSocketAddress("127.0.0.1", 5353))).build();
 * InetAddress a = dns.resolve("example.test");
 * }</pre>
 *
 * <p>Threading: thread-safe. {@code resolve} suspends the calling fiber, never its carrier;
 * off-fiber it blocks the thread. Failures are {@link UnknownHostException}s whose message
 * names the host and the cause (NXDOMAIN, no records, SERVFAIL, timeout).
 */
public final class DnsResolver {
  /** Default: how long one query to one server may take before it is retried. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);
  /** Default: how often a query is retried per server after a timeout. */
  public static final int DEFAULT_RETRIES = 1;
  /** Default: the shortest time an answer is cached, whatever its TTL. */
  public static final Duration DEFAULT_MIN_TTL = Duration.ZERO;
  /** Default: the longest time an answer is cached, whatever its TTL. */
  public static final Duration DEFAULT_MAX_TTL = Duration.ofHours(1);
  /** Default: how long "no such name" or "no such record" is cached. */
  public static final Duration DEFAULT_NEGATIVE_TTL = Duration.ofSeconds(10);
  /** Default: the most names the cache holds; the least recently used go first. */
  public static final int DEFAULT_CACHE_SIZE = 10_000;
  /** Default: which addresses are looked up and which come first. */
  public static final IpPreference DEFAULT_IP_PREFERENCE = IpPreference.IPV4_FIRST;
  /** Default hosts file. */
  public static final Path DEFAULT_HOSTS_FILE = Paths.get("/etc/hosts");

  /* dnsjava's switch for its exit hook (see the static block). */
  private static final String DNSJAVA_EXIT_HOOK = "dnsjava.nio.register_shutdown_hook";

  static {
    // dnsjava's exit hook stops its I/O thread and joins it without a bound. A lookup made while
    // it runs (a crawl drains its fetches after SIGTERM) opens the I/O again, which restarts the
    // old thread's loop, and the JVM never ends. The thread is a daemon and the OS closes the
    // sockets at exit: the hook is not needed. A value the user set is kept.
    if (System.getProperty(DNSJAVA_EXIT_HOOK) == null) {
      System.setProperty(DNSJAVA_EXIT_HOOK, "false");
    }
  }

  private final LookupSession session;
  private final HostsFileParser hosts;
  private final DnsCache cache;
  private final IpPreference preference;
  private final long minTtlNanos;
  private final long maxTtlNanos;
  private final long negativeTtlNanos;
  private final long budgetNanos;
  private final int retries;
  private final LongAdder lookups = new LongAdder();
  private final LongAdder cacheHits = new LongAdder();
  private final LongAdder hostsHits = new LongAdder();
  private final LongAdder queries = new LongAdder();
  private final LongAdder failures = new LongAdder();
  private final LongAdder latencyNanos = new LongAdder();
  private final AtomicLong maxLatencyNanos = new AtomicLong();
  private final LongAdder coalesced = new LongAdder();
  private final ConcurrentHashMap<String, Flight> inFlight = new ConcurrentHashMap<>();

  private DnsResolver(Builder b) {
    List<Resolver> resolvers = new ArrayList<>();
    for (InetSocketAddress server : b.servers) {
      SimpleResolver r = new SimpleResolver(server);
      r.setTimeout(b.timeout);
      resolvers.add(r);
    }
    ExtendedResolver extended = new ExtendedResolver(resolvers);
    // One attempt per server here; retries after a timeout are ours (see query), so that
    // their count and the time they take do not depend on dnsjava's retry policy.
    extended.setRetries(1);
    extended.setLoadBalance(false);
    Duration attempt = b.timeout.multipliedBy(resolvers.size());
    extended.setTimeout(attempt);
    // dnsjava hands each answer to the session's executor, by default the common pool. A program
    // that waits on common-pool threads (a crawl started from a CompletableFuture) can hold every
    // worker the pool will run, and then no answer is ever handed on: JDK 25's pool starts no
    // spare worker for them (JDK 17's happened to). What runs on the executor is short (dnsjava
    // parses the answer, our callbacks wake a strand), so it runs on dnsjava's own I/O thread.
    this.session = LookupSession.builder().resolver(extended).executor(Runnable::run).clearCaches().build();
    this.budgetNanos = attempt.toNanos() + Duration.ofMillis(500).toNanos();
    this.retries = b.retries;
    this.hosts = b.hostsFile == null ? null : new HostsFileParser(b.hostsFile);
    this.cache = new DnsCache(b.cacheSize);
    this.preference = b.preference;
    this.minTtlNanos = b.minTtl.toNanos();
    this.maxTtlNanos = b.maxTtl.toNanos();
    this.negativeTtlNanos = b.negativeTtl.toNanos();
  }

  /** @return a builder with the defaults and the system's DNS servers */
  public static Builder builder() {
    return new Builder();
  }

  /** @return a shared resolver with the defaults and the system's DNS servers */
  public static DnsResolver system() {
    return SystemResolver.INSTANCE;
  }

  /* Initialization-on-demand holder: the JVM builds the shared resolver once, on the first call. */
  private static final class SystemResolver {
    static final DnsResolver INSTANCE = builder().build();
  }

  /**
   * Resolves {@code host} to its first address in preference order. May suspend.
   *
   * @param host a hostname or IP literal
   * @return the address
   * @throws UnknownHostException naming the host and the cause
   * @throws Suspendable never; marks that this method suspends
   */
  public InetAddress resolve(String host) throws UnknownHostException, Suspendable {
    return resolveAll(host).get(0);
  }

  /**
   * Resolves {@code host} to all its addresses, in preference order. May suspend.
   *
   * @param host a hostname or IP literal
   * @return the addresses, not empty, unmodifiable
   * @throws UnknownHostException naming the host and the cause
   * @throws Suspendable never; marks that this method suspends
   */
  public List<InetAddress> resolveAll(String host) throws UnknownHostException, Suspendable {
    Objects.requireNonNull(host, "host");
    byte[] literal = NetUtil.createByteArrayFromIpAddressString(host);
    if (literal != null) {
      return List.of(InetAddress.getByAddress(host, literal));
    }
    lookups.increment();
    String key = host.toLowerCase(Locale.ROOT);
    if (key.endsWith(".")) {
      key = key.substring(0, key.length() - 1);
    }
    Name name = name(key);
    List<InetAddress> fromHosts = fromHostsFile(host, name);
    if (fromHosts != null) {
      hostsHits.increment();
      return fromHosts;
    }
    DnsCache.Entry cached = cache.get(key, System.nanoTime());
    if (cached != null) {
      cacheHits.increment();
      if (cached.addresses == null) {
        failures.increment();
        throw new UnknownHostException(host + ": " + cached.reason + " (cached)");
      }
      return cached.addresses;
    }
    Flight mine = new Flight(host);
    Flight leader = inFlight.putIfAbsent(key, mine);
    if (leader != null) {
      coalesced.increment();
      return follow(host, leader);
    }
    queries.increment();
    long start = System.nanoTime();
    try {
      List<InetAddress> found = query(host, key, name);
      mine.result.complete(found);
      return found;
    } catch (UnknownHostException e) {
      failures.increment();
      mine.result.completeExceptionally(e);
      throw e;
    } catch (RuntimeException | Error e) {
      mine.result.completeExceptionally(e); // e.g. the leader was cancelled: followers ask again
      throw e;
    } finally {
      inFlight.remove(key, mine);
      long took = System.nanoTime() - start;
      latencyNanos.add(took);
      maxLatencyNanos.accumulateAndGet(took, Math::max);
    }
  }

  /** A query in flight for one name; lookups of that name meanwhile wait for its result. */
  private static final class Flight {
    final String host;
    final CompletableFuture<List<InetAddress>> result = new CompletableFuture<>();

    Flight(String host) {
      this.host = host;
    }
  }

  /* Waits for the leader's query; its answer or its UnknownHostException, renamed for our host. */
  private List<InetAddress> follow(String host, Flight leader) throws UnknownHostException, Suspendable {
    CompletableFuture<List<InetAddress>> f = leader.result;
    if (!f.isDone()) {
      Object me = Strand.current();
      f.whenComplete((r, e) -> Strand.wake(me));
      while (!f.isDone()) {
        Strand.park(f, Long.MAX_VALUE); // bounded: the leader's query has its own deadline
      }
    }
    try {
      return renamed(host, f.join());
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      if (!(cause instanceof UnknownHostException)) {
        return resolveAll(host); // the leader did not finish its query: ask again
      }
      failures.increment();
      String message = cause.getMessage();
      String reason = message.startsWith(leader.host + ": ") ? message.substring(leader.host.length() + 2) : message;
      UnknownHostException u = new UnknownHostException(host + ": " + reason);
      u.initCause(cause.getCause());
      throw u;
    }
  }

  private static List<InetAddress> renamed(String host, List<InetAddress> addresses) throws UnknownHostException {
    if (addresses.isEmpty() || host.equals(addresses.get(0).getHostName())) {
      return addresses;
    }
    List<InetAddress> out = new ArrayList<>(addresses.size());
    for (InetAddress a : addresses) {
      out.add(InetAddress.getByAddress(host, a.getAddress()));
    }
    return List.copyOf(out);
  }

  private List<InetAddress> query(String host, String key, Name name) throws UnknownHostException, Suspendable {
    for (int attempt = 0;; attempt++) {
      try {
        return queryOnce(host, key, name);
      } catch (UnknownHostException e) {
        if (attempt >= retries || !isTimeout(e.getCause())) {
          throw e;
        }
      }
    }
  }

  private List<InetAddress> queryOnce(String host, String key, Name name) throws UnknownHostException, Suspendable {
    int[] types = types();
    List<CompletableFuture<LookupResult>> pending = new ArrayList<>(types.length);
    for (int type : types) {
      pending.add(session.lookupAsync(name, type).toCompletableFuture());
    }
    long deadline = System.nanoTime() + budgetNanos;
    Object me = Strand.current();
    for (CompletableFuture<LookupResult> f : pending) {
      f.whenComplete((r, e) -> Strand.wake(me));
    }
    for (CompletableFuture<LookupResult> f : pending) {
      while (!f.isDone()) {
        if (!Strand.park(this, deadline)) {
          break;
        }
      }
    }
    List<InetAddress> addresses = new ArrayList<>();
    long ttlSeconds = Long.MAX_VALUE;
    String negative = null;
    Throwable failure = null;
    for (int i = 0; i < types.length; i++) {
      CompletableFuture<LookupResult> f = pending.get(i);
      if (!f.isDone()) {
        failure = new TimeoutException("no answer within " + Duration.ofNanos(budgetNanos).toMillis() + " ms");
        continue;
      }
      try {
        for (Record r : f.get().getRecords()) {
          InetAddress a = r instanceof ARecord ? ((ARecord) r).getAddress()
              : r instanceof AAAARecord ? ((AAAARecord) r).getAddress() : null;
          if (a != null) {
            addresses.add(InetAddress.getByAddress(host, a.getAddress()));
            ttlSeconds = Math.min(ttlSeconds, r.getTTL());
          }
        }
      } catch (ExecutionException | CompletionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof NoSuchDomainException) {
          negative = "NXDOMAIN (no such name)";
        } else if (cause instanceof NoSuchRRSetException) {
          if (negative == null) {
            negative = "no " + Type.string(types[i]) + " record";
          }
        } else {
          failure = cause;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure = e;
      }
    }
    long now = System.nanoTime();
    if (!addresses.isEmpty()) {
      long ttl = clamp(ttlSeconds * 1_000_000_000L);
      List<InetAddress> result = List.copyOf(addresses);
      if (ttl > 0) {
        cache.put(key, new DnsCache.Entry(result, null, now + ttl));
      }
      return result;
    }
    if (failure == null && negative != null) {
      if (negativeTtlNanos > 0) {
        cache.put(key, new DnsCache.Entry(null, negative, now + negativeTtlNanos));
      }
      throw new UnknownHostException(host + ": " + negative);
    }
    UnknownHostException e = new UnknownHostException(host + ": " + describe(failure));
    e.initCause(failure);
    throw e;
  }

  private static boolean isTimeout(Throwable failure) {
    return failure instanceof TimeoutException || failure instanceof IOException
        && String.valueOf(failure.getMessage()).toLowerCase(Locale.ROOT).contains("timed out");
  }

  private String describe(Throwable failure) {
    if (failure instanceof ServerFailedException) {
      return "SERVFAIL (server failure)";
    }
    if (isTimeout(failure)) {
      return "timed out after " + (retries + 1) + " attempt(s) (" + failure.getMessage() + ")";
    }
    return failure == null ? "no addresses" : failure.toString();
  }

  private long clamp(long ttlNanos) {
    return Math.max(minTtlNanos, Math.min(maxTtlNanos, ttlNanos));
  }

  private int[] types() {
    switch (preference) {
      case IPV4_ONLY:
        return new int[] {Type.A};
      case IPV6_ONLY:
        return new int[] {Type.AAAA};
      case IPV6_FIRST:
        return new int[] {Type.AAAA, Type.A};
      default:
        return new int[] {Type.A, Type.AAAA};
    }
  }

  private static Name name(String key) throws UnknownHostException {
    try {
      return Name.fromString(key, Name.root);
    } catch (TextParseException e) {
      UnknownHostException u = new UnknownHostException(key + ": invalid name (" + e.getMessage() + ")");
      u.initCause(e);
      throw u;
    }
  }

  private List<InetAddress> fromHostsFile(String host, Name name) {
    if (hosts == null) {
      return null;
    }
    List<InetAddress> found = new ArrayList<>(2);
    for (int type : types()) {
      try {
        Optional<InetAddress> a = hosts.getAddressForHost(name, type);
        if (a.isPresent()) {
          found.add(InetAddress.getByAddress(host, a.get().getAddress()));
        }
      } catch (IOException e) {
        return null; // an unreadable hosts file is skipped, as the system resolver does
      }
    }
    return found.isEmpty() ? null : List.copyOf(found);
  }

  /** @return a snapshot of the counters */
  public DnsMetrics metrics() {
    return new DnsMetrics(lookups.sum(), cacheHits.sum(), hostsHits.sum(), queries.sum(), failures.sum(),
        Duration.ofNanos(latencyNanos.sum()), Duration.ofNanos(maxLatencyNanos.get()), coalesced.sum());
  }

  /** @return how many names are cached now */
  public int cacheSize() {
    return cache.size();
  }

  /** Empties the cache. */
  public void clearCache() {
    cache.clear();
  }

  /** Builds a {@link DnsResolver}. Not thread-safe. */
  public static final class Builder {
    private List<InetSocketAddress> servers;
    private Duration timeout = DEFAULT_TIMEOUT;
    private int retries = DEFAULT_RETRIES;
    private Duration minTtl = DEFAULT_MIN_TTL;
    private Duration maxTtl = DEFAULT_MAX_TTL;
    private Duration negativeTtl = DEFAULT_NEGATIVE_TTL;
    private int cacheSize = DEFAULT_CACHE_SIZE;
    private IpPreference preference = DEFAULT_IP_PREFERENCE;
    private Path hostsFile = Files.isReadable(DEFAULT_HOSTS_FILE) ? DEFAULT_HOSTS_FILE : null;

    private Builder() {}

    /** @param servers the DNS servers, asked in order @return this */
    public Builder servers(List<InetSocketAddress> servers) {
      if (servers.isEmpty()) {
        throw new IllegalArgumentException("servers: [] (expected: at least one)");
      }
      this.servers = List.copyOf(servers);
      return this;
    }

    /** @param timeout how long one query to one server may take, > 0 @return this */
    public Builder timeout(Duration timeout) { this.timeout = Checks.positive("timeout", timeout); return this; }

    /** @param retries retries per server after a timeout, 0..10 @return this */
    public Builder retries(int retries) { this.retries = Checks.inRange("retries", retries, 0, 10); return this; }

    /** @param minTtl the shortest caching time, >= 0 @return this */
    public Builder minTtl(Duration minTtl) { this.minTtl = Checks.nonNegative("minTtl", minTtl); return this; }

    /** @param maxTtl the longest caching time, >= 0 @return this */
    public Builder maxTtl(Duration maxTtl) { this.maxTtl = Checks.nonNegative("maxTtl", maxTtl); return this; }

    /** @param negativeTtl how long a missing name is cached, zero for never @return this */
    public Builder negativeTtl(Duration negativeTtl) { this.negativeTtl = Checks.nonNegative("negativeTtl", negativeTtl); return this; }

    /** @param names the most names cached, > 0 @return this */
    public Builder cacheSize(int names) { this.cacheSize = Checks.positive("cacheSize", names); return this; }

    /** @param preference the address families and their order @return this */
    public Builder ipPreference(IpPreference preference) { this.preference = Objects.requireNonNull(preference, "preference"); return this; }

    /** @param hostsFile the hosts file, or null for none @return this */
    public Builder hostsFile(Path hostsFile) { this.hostsFile = hostsFile; return this; }

    /** @return the resolver */
    public DnsResolver build() {
      if (maxTtl.compareTo(minTtl) < 0) {
        throw new IllegalArgumentException("maxTtl: " + maxTtl + " (expected: >= minTtl " + minTtl + ")");
      }
      List<InetSocketAddress> s = servers != null ? servers : ResolverConfig.getCurrentConfig().servers();
      if (s.isEmpty()) {
        s = List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), SimpleResolver.DEFAULT_PORT));
      }
      Builder copy = this;
      copy.servers = s;
      return new DnsResolver(copy);
    }
  }
}
