package io.krill.testweb;

import io.krill.fibers.Checks;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The synthetic web as a pure function of a {@link TestWebConfig}: which hosts exist, at which
 * loopback address, and what every path of every host answers. It holds no per-page state, so
 * 5,000 hosts cost a few kilobytes each; pages are generated when asked for. The same
 * configuration always gives the same web; only the port appears in absolute links.
 *
 * <p>Threading: immutable and thread-safe.
 */
public final class SyntheticWeb {
  /* Implementation notes
   *
   * Every random choice is a hash of (seed, host, page, purpose, index), so that any page can
   * be generated alone, in any order, and the server, the ground truth and a second instance
   * agree. Hosts are h<i>.<domain>, domain i % domains; host i lives at firstIp + i % ips.
   *
   * Page 0 of a host is "/". Pages 1..linkable-1 are "/page/<k>.html" or, for a share of
   * them, "/private/<k>.html" (disallowed by robots.txt). Pages linkable..pages-1 are orphans:
   * no link points at them, only the sitemap lists them. Each non-root linkable page has a
   * kind (ok, 500, 429-then-ok, reset, slow drip, 301) drawn once from the rates.
   *
   * The root page links to the roots of the next two hosts (a ring, so every host is
   * reachable even if one host on the way is broken) and to the entries of its host's traps.
   */

  static final String PAGE_PREFIX = "/page/";
  static final String PRIVATE_PREFIX = "/private/";
  /** Every host's robots.txt. */
  static final String ROBOTS_PATH = "/robots.txt";
  /** Every host's sitemap, which its robots.txt names when the web has sitemaps. */
  static final String SITEMAP_PATH = "/sitemap.xml";
  static final String MISSING_PREFIX = "/missing/";
  static final String CALENDAR_ENTRY = "/calendar/2026/01.html";
  static final String DEEP_ENTRY = "/deep/1/";
  static final String LOOP_ENTRY = "/loop/0";
  static final String BOMB_PATH = "/bomb.html";
  static final String SHOP_PREFIX = "/shop/";
  static final String SESSION_PARAM = "sid";
  static final int SHOP_ITEMS = 3;
  static final int MAX_DEEP_SEGMENTS = 100_000;
  static final int MAX_CALENDAR_YEAR = 999_999_999;

  private static final int SALT_PRIVATE = 1;
  private static final int SALT_KIND = 2;
  private static final int SALT_LINK = 3;
  private static final int SALT_CROSS = 4;
  private static final int SALT_HOST = 5;
  private static final int SALT_PAGE = 6;
  private static final int SALT_REDIRECT = 7;
  private static final int SALT_SIZE = 8;
  private static final int SALT_LATENCY = 9;
  private static final int SALT_BANDWIDTH = 10;
  private static final int SALT_ROBOTS = 11;
  private static final int SALT_SESSION = 12;
  private static final int SALT_SHUFFLE = 13;
  private static final int SALT_SLOW = 14;

  enum Robots { NORMAL, MISSING, ERROR }

  enum PageKind { OK, SERVER_ERROR, THROTTLED, RESET, SLOW_DRIP, REDIRECT }

  /** One host's fixed properties. */
  static final class Host {
    final int index;
    final String name;
    final String domain;
    final InetAddress address;
    Duration latency;
    boolean slow;
    final long bandwidth;
    Robots robots;
    DnsFault dnsFault;
    final Set<Trap> traps = EnumSet.noneOf(Trap.class);

    Host(int index, String name, String domain, InetAddress address, Duration latency, long bandwidth) {
      this.index = index;
      this.name = name;
      this.domain = domain;
      this.address = address;
      this.latency = latency;
      this.bandwidth = bandwidth;
    }
  }

  private final TestWebConfig config;
  private final Host[] hosts;
  private final Map<String, Host> byName;
  private final List<String> names;
  private final List<InetAddress> addresses;
  private final Map<Trap, List<String>> trapHosts = new EnumMap<>(Trap.class);
  private final int linkable;

  private SyntheticWeb(TestWebConfig config) {
    this.config = config;
    int n = config.hosts();
    hosts = new Host[n];
    byName = new HashMap<>(n * 2);
    List<String> nameList = new ArrayList<>(n);
    long first = Loopback.ipv4(config.firstIp());
    List<InetAddress> ips = new ArrayList<>(config.ips());
    for (int i = 0; i < config.ips(); i++) {
      ips.add(Loopback.ipv4(first + i));
    }
    addresses = Collections.unmodifiableList(ips);
    for (int i = 0; i < n; i++) {
      String domain = domain(i % config.domains());
      double jitter = config.latencyJitter();
      Duration latency = Duration.ofNanos(Math.round(config.latency().toNanos() * (1 + jitter * (2 * u(i, 0, SALT_LATENCY, 0) - 1))));
      long bandwidth = config.bandwidth() == 0 ? 0
          : Math.max(1024, Math.round(config.bandwidth() * (1 + jitter * (2 * u(i, 0, SALT_BANDWIDTH, 0) - 1))));
      Host h = new Host(i, "h" + i + "." + domain, domain, ips.get(i % config.ips()), latency, bandwidth);
      h.robots = robotsOf(i);
      hosts[i] = h;
      byName.put(h.name, h);
      nameList.add(h.name);
    }
    names = Collections.unmodifiableList(nameList);
    int orphans = (int) Math.min(config.pagesPerHost() - 1L, Math.round(config.pagesPerHost() * config.sitemapOnlyRate()));
    linkable = config.pagesPerHost() - orphans;
    assignDnsFaults();
    assignTraps();
    assignSlowHosts();
  }

  /**
   * Generates the web of a configuration.
   *
   * @param config the knobs
   * @return the web
   * @throws IllegalArgumentException if a trap count exceeds the hosts that can carry it
   */
  public static SyntheticWeb of(TestWebConfig config) {
    return new SyntheticWeb(Objects.requireNonNull(config, "config"));
  }

  /** @return the configuration this web was generated from */
  public TestWebConfig config() {
    return config;
  }

  /** @return the host names, {@code h0...} first */
  public List<String> hosts() {
    return names;
  }

  /** @return the loopback addresses the hosts live on */
  public List<InetAddress> addresses() {
    return addresses;
  }

  /**
   * Returns the address the DNS server gives a name, ignoring injected faults.
   *
   * @param host a host name, any case, with or without a trailing dot
   * @return its address, or null if the web has no such host
   */
  public InetAddress addressOf(String host) {
    Host h = host(host);
    return h == null ? null : h.address;
  }

  /** @return the hosts that carry {@code trap} (they answer robots.txt and DNS) */
  public List<String> hostsWith(Trap trap) {
    return trapHosts.get(trap);
  }

  /** @return the hosts whose robots.txt answers 503, so that nothing on them may be crawled */
  public List<String> hostsWithRobotsError() {
    return hostsWhere(h -> h.robots == Robots.ERROR);
  }

  /** @return the hosts without robots.txt (404: everything is allowed) */
  public List<String> hostsWithoutRobots() {
    return hostsWhere(h -> h.robots == Robots.MISSING);
  }

  /** @return the hosts whose DNS answer is a fault, and the fault */
  public Map<String, DnsFault> dnsFaults() {
    Map<String, DnsFault> out = new HashMap<>();
    for (Host h : hosts) {
      if (h.dnsFault != null) {
        out.put(h.name, h.dnsFault);
      }
    }
    return Collections.unmodifiableMap(out);
  }

  /**
   * Returns the seed URLs: the root pages of the first {@code seeds} hosts.
   *
   * @param port the HTTP port
   * @return the URLs
   */
  public List<String> seedUrls(int port) {
    List<String> out = new ArrayList<>(config.seeds());
    for (int i = 0; i < config.seeds(); i++) {
      out.add(origin(hosts[i].name, port) + "/");
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * Computes the exact set of URLs a crawl of this web within {@code scope} requests.
   *
   * @param scope what the crawl may visit
   * @param port the HTTP port the web is served on
   * @return the ground truth
   * @throws IllegalArgumentException if the scope reaches an infinite trap with no depth limit
   */
  public GroundTruth groundTruth(Scope scope, int port) {
    return GroundTruth.compute(this, scope, port);
  }

  // ---- model (package-private) ----

  Host host(String name) {
    String key = name.toLowerCase(Locale.ROOT);
    if (key.endsWith(".")) {
      key = key.substring(0, key.length() - 1);
    }
    return byName.get(key);
  }

  Host host(int index) {
    return hosts[index];
  }

  int hostCount() {
    return hosts.length;
  }

  int linkable() {
    return linkable;
  }

  static String domain(int d) {
    return d == 0 ? "krill.test" : "krill-" + d + ".test";
  }

  static String origin(String host, int port) {
    return port == 80 ? "http://" + host : "http://" + host + ":" + port;
  }

  boolean isPrivate(int host, int page) {
    return page > 0 && page < linkable && u(host, page, SALT_PRIVATE, 0) < config.disallowedRate();
  }

  PageKind kind(int host, int page) {
    if (page == 0 || page >= linkable) {
      return PageKind.OK;
    }
    double r = u(host, page, SALT_KIND, 0);
    if ((r -= config.serverErrorRate()) < 0) {
      return PageKind.SERVER_ERROR;
    }
    if ((r -= config.throttleRate()) < 0) {
      return PageKind.THROTTLED;
    }
    if ((r -= config.resetRate()) < 0) {
      return PageKind.RESET;
    }
    if ((r -= config.slowDripRate()) < 0) {
      return PageKind.SLOW_DRIP;
    }
    if ((r -= config.redirectRate()) < 0) {
      return PageKind.REDIRECT;
    }
    return PageKind.OK;
  }

  String pagePath(int host, int page) {
    if (page == 0) {
      return "/";
    }
    return (isPrivate(host, page) ? PRIVATE_PREFIX : PAGE_PREFIX) + page + ".html";
  }

  /** @return the size a page's HTML is padded to */
  int pageSize(int host, int page) {
    return (int) Math.round(config.pageBytes() * (0.5 + u(host, page, SALT_SIZE, 0)));
  }

  /** @return a generator of filler text for one page */
  SplittableRandom filler(int host, int page) {
    return new SplittableRandom(mix(config.seed() ^ mix(host * 0x9E3779B97F4A7C15L + page)));
  }

  /**
   * Answers a request to the model. May be called concurrently.
   *
   * @param hostName the Host header, without port
   * @param pathAndQuery the request target in origin form
   * @return the resource, or null if the web has no such host
   */
  Resource resolve(String hostName, String pathAndQuery) {
    Host h = host(hostName);
    if (h == null) {
      return null;
    }
    return resolve(h, pathAndQuery);
  }

  Resource resolve(Host h, String target) {
    int q = target.indexOf('?');
    String path = q < 0 ? target : target.substring(0, q);
    String query = q < 0 ? null : target.substring(q + 1);
    if (path.equals(ROBOTS_PATH) && query == null) {
      switch (h.robots) {
        case NORMAL:
          return Resource.of(Resource.Kind.ROBOTS, h.index, target);
        case ERROR:
          return Resource.of(Resource.Kind.ROBOTS_ERROR, h.index, target);
        default:
          return Resource.of(Resource.Kind.NOT_FOUND, h.index, target);
      }
    }
    if (path.equals(SITEMAP_PATH) && query == null && h.robots == Robots.NORMAL && config.sitemaps()) {
      return Resource.of(Resource.Kind.SITEMAP, h.index, target);
    }
    if (path.startsWith(SHOP_PREFIX) && h.traps.contains(Trap.SESSION_IDS)) {
      return shop(h, target, path, query);
    }
    if (query != null) {
      return Resource.of(Resource.Kind.NOT_FOUND, h.index, target);
    }
    int page = pageNumber(h.index, path);
    if (page >= 0) {
      return page(h, page);
    }
    for (Trap t : h.traps) {
      Resource r = trap(h, t, path);
      if (r != null) {
        return r;
      }
    }
    return Resource.of(Resource.Kind.NOT_FOUND, h.index, target);
  }

  private int pageNumber(int host, String path) {
    if (path.equals("/")) {
      return 0;
    }
    String prefix = path.startsWith(PAGE_PREFIX) ? PAGE_PREFIX : path.startsWith(PRIVATE_PREFIX) ? PRIVATE_PREFIX : null;
    if (prefix == null || !path.endsWith(".html")) {
      return -1;
    }
    int k = parseDecimal(path, prefix.length(), path.length() - ".html".length(), config.pagesPerHost() - 1);
    return k > 0 && pagePath(host, k).equals(path) ? k : -1;
  }

  private Resource page(Host h, int page) {
    String path = pagePath(h.index, page);
    PageKind kind = kind(h.index, page);
    switch (kind) {
      case SERVER_ERROR:
        return new Resource(Resource.Kind.SERVER_ERROR, 500, h.index, path, null, List.of(), null, page);
      case RESET:
        return new Resource(Resource.Kind.RESET, 0, h.index, path, null, List.of(), null, page);
      case SLOW_DRIP:
        return new Resource(Resource.Kind.SLOW_DRIP, 200, h.index, path, null, List.of(), null, page);
      case REDIRECT:
        return new Resource(Resource.Kind.REDIRECT, 301, h.index, path, null, List.of(),
            absolute(regularTarget(h.index, page, SALT_REDIRECT, 0)), page);
      case THROTTLED:
        return new Resource(Resource.Kind.THROTTLED, 200, h.index, path, null, links(h, page), null, page);
      default:
        return new Resource(Resource.Kind.PAGE, 200, h.index, path, null, links(h, page), null, page);
    }
  }

  private List<Link> links(Host h, int page) {
    List<Link> out = new ArrayList<>(config.outDegree() + 8);
    int n = hosts.length;
    if (page == 0) {
      for (int step = 1; step <= 2 && step < n; step++) {
        out.add(Link.absolute(hosts[(h.index + step) % n].name, "/"));
      }
      for (Trap t : h.traps) {
        out.add(Link.rootRelative(h.name, trapEntry(t)));
      }
    }
    String from = pagePath(h.index, page);
    for (int j = 0; j < config.outDegree(); j++) {
      double r = u(h.index, page, SALT_LINK, j);
      if (r < config.notFoundRate()) {
        out.add(Link.rootRelative(h.name, MISSING_PREFIX + page + "-" + j + ".html"));
      } else if (r < config.notFoundRate() + config.deadHostRate()) {
        out.add(Link.absolute("nx" + h.index + "-" + page + "-" + j + "." + h.domain, "/"));
      } else {
        out.add(relativeTo(h.index, from, regularTarget(h.index, page, SALT_LINK, j)));
      }
    }
    return out;
  }

  /** @return {host, page} of a link target on the regular site */
  private int[] regularTarget(int host, int page, int salt, int j) {
    int n = hosts.length;
    int target = host;
    if (n > 1 && u(host, page, salt + 100 * SALT_CROSS, j) < config.crossHostRate()) {
      target = (host + 1 + (int) (u(host, page, salt + 100 * SALT_HOST, j) * (n - 1))) % n;
    }
    int k = (int) (u(host, page, salt + 100 * SALT_PAGE, j) * linkable);
    return new int[] {target, k};
  }

  private Link absolute(int[] target) {
    return Link.absolute(hosts[target[0]].name, pagePath(target[0], target[1]));
  }

  private Link relativeTo(int host, String fromPath, int[] target) {
    String path = pagePath(target[0], target[1]);
    if (target[0] != host) {
      return Link.absolute(hosts[target[0]].name, path);
    }
    int slash = path.lastIndexOf('/');
    if (slash > 0 && fromPath.lastIndexOf('/') == slash && fromPath.regionMatches(0, path, 0, slash + 1)) {
      return Link.documentRelative(hosts[host].name, path, path.substring(slash + 1));
    }
    return Link.rootRelative(hosts[host].name, path);
  }

  // ---- traps ----

  static String trapEntry(Trap t) {
    switch (t) {
      case CALENDAR:
        return CALENDAR_ENTRY;
      case SESSION_IDS:
        return SHOP_PREFIX;
      case DEEP_PATH:
        return DEEP_ENTRY;
      case REDIRECT_LOOP:
        return LOOP_ENTRY;
      default:
        return BOMB_PATH;
    }
  }

  private Resource trap(Host h, Trap t, String path) {
    switch (t) {
      case CALENDAR:
        return calendar(h, path);
      case DEEP_PATH:
        return deep(h, path);
      case REDIRECT_LOOP:
        if (path.startsWith("/loop/")) {
          int i = parseDecimal(path, "/loop/".length(), path.length(), config.redirectLoopLength() - 1);
          if (i >= 0 && path.equals("/loop/" + i)) {
            Link next = Link.rootRelative(h.name, "/loop/" + (i + 1) % config.redirectLoopLength());
            return new Resource(Resource.Kind.REDIRECT, 302, h.index, path, Trap.REDIRECT_LOOP, List.of(), next, -1);
          }
        }
        return null;
      case GZIP_BOMB:
        return path.equals(BOMB_PATH)
            ? new Resource(Resource.Kind.GZIP_BOMB, 200, h.index, path, Trap.GZIP_BOMB, List.of(), null, -1) : null;
      default:
        return null;
    }
  }

  static String calendarPath(int year, int month) {
    return String.format(Locale.ROOT, "/calendar/%04d/%02d.html", year, month);
  }

  private Resource calendar(Host h, String path) {
    if (!path.startsWith("/calendar/") || !path.endsWith(".html")) {
      return null;
    }
    int slash = path.indexOf('/', "/calendar/".length());
    if (slash < 0) {
      return null;
    }
    int year = parseDigits(path, "/calendar/".length(), slash, MAX_CALENDAR_YEAR);
    int month = parseDigits(path, slash + 1, path.length() - ".html".length(), 12);
    if (year < 1 || month < 1 || !calendarPath(year, month).equals(path)) {
      return null;
    }
    List<Link> links = new ArrayList<>(3);
    if (year > 1 || month > 1) {
      links.add(calendarLink(h, year, month, month == 1 ? year - 1 : year, month == 1 ? 12 : month - 1));
    }
    if (year < MAX_CALENDAR_YEAR || month < 12) {
      links.add(calendarLink(h, year, month, month == 12 ? year + 1 : year, month == 12 ? 1 : month + 1));
    }
    links.add(Link.rootRelative(h.name, "/"));
    return new Resource(Resource.Kind.PAGE, 200, h.index, path, Trap.CALENDAR, List.copyOf(links), null, -1);
  }

  private static Link calendarLink(Host h, int fromYear, int fromMonth, int year, int month) {
    String to = calendarPath(year, month);
    return year == fromYear ? Link.documentRelative(h.name, to, to.substring(to.lastIndexOf('/') + 1)) : Link.rootRelative(h.name, to);
  }

  private Resource deep(Host h, String path) {
    if (!path.startsWith("/deep/") || !path.endsWith("/")) {
      return null;
    }
    int n = 0;
    int at = "/deep/".length();
    while (at < path.length()) {
      int slash = path.indexOf('/', at);
      int segment = parseDecimal(path, at, slash, MAX_DEEP_SEGMENTS);
      if (segment != n + 1) {
        return null;
      }
      n = segment;
      at = slash + 1;
    }
    if (n == 0) {
      return null;
    }
    List<Link> links = List.of(
        Link.documentRelative(h.name, path + (n + 1) + "/", (n + 1) + "/"),
        Link.rootRelative(h.name, "/"));
    return new Resource(Resource.Kind.PAGE, 200, h.index, path, Trap.DEEP_PATH, links, null, -1);
  }

  private Resource shop(Host h, String target, String path, String query) {
    String sid = null;
    if (query != null) {
      if (!query.startsWith(SESSION_PARAM + "=") || !isSessionId(query.substring(SESSION_PARAM.length() + 1))) {
        return Resource.of(Resource.Kind.NOT_FOUND, h.index, target);
      }
      sid = query.substring(SESSION_PARAM.length() + 1);
    }
    String session = sid != null ? sid : firstSession(h.index);
    List<Link> links = new ArrayList<>(SHOP_ITEMS + 1);
    if (path.equals(SHOP_PREFIX)) {
      for (int j = 0; j < SHOP_ITEMS; j++) {
        String item = "item" + j + ".html?" + SESSION_PARAM + "=" + session;
        links.add(Link.documentRelative(h.name, SHOP_PREFIX + item, item));
      }
    } else {
      int j = path.startsWith(SHOP_PREFIX + "item") && path.endsWith(".html")
          ? parseDecimal(path, (SHOP_PREFIX + "item").length(), path.length() - ".html".length(), SHOP_ITEMS - 1) : -1;
      if (j < 0 || !path.equals(SHOP_PREFIX + "item" + j + ".html")) {
        return Resource.of(Resource.Kind.NOT_FOUND, h.index, target);
      }
      links.add(Link.rootRelative(h.name, SHOP_PREFIX + "?" + SESSION_PARAM + "=" + nextSession(session)));
      String sibling = "item" + (j + 1) % SHOP_ITEMS + ".html?" + SESSION_PARAM + "=" + session;
      links.add(Link.documentRelative(h.name, SHOP_PREFIX + sibling, sibling));
    }
    links.add(Link.rootRelative(h.name, "/"));
    return new Resource(Resource.Kind.PAGE, 200, h.index, target, Trap.SESSION_IDS, List.copyOf(links), null, -1);
  }

  String firstSession(int host) {
    return String.format(Locale.ROOT, "%016x", mix(config.seed() ^ mix(host + 0x5E55L * SALT_SESSION)));
  }

  String nextSession(String session) {
    return String.format(Locale.ROOT, "%016x", mix(config.seed() ^ Long.parseUnsignedLong(session, 16)));
  }

  private static boolean isSessionId(String s) {
    return s.length() == 16 && s.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
  }

  // ---- hosts' fixed properties ----

  private Robots robotsOf(int host) {
    if (host < config.seeds()) {
      return Robots.NORMAL;
    }
    double r = u(host, 0, SALT_ROBOTS, 0);
    return r < config.robotsErrorRate() ? Robots.ERROR
        : r < config.robotsErrorRate() + config.robotsMissingRate() ? Robots.MISSING : Robots.NORMAL;
  }

  private void assignDnsFaults() {
    int[] order = shuffled(0);
    int failures = config.dnsFailureHosts();
    int timeouts = config.dnsTimeoutHosts();
    for (int i : order) {
      if (i < config.seeds()) {
        continue;
      }
      if (failures > 0) {
        hosts[i].dnsFault = DnsFault.SERVFAIL;
        failures--;
      } else if (timeouts > 0) {
        hosts[i].dnsFault = DnsFault.TIMEOUT;
        timeouts--;
      } else {
        break;
      }
    }
  }

  /* Slow hosts are drawn like the faults, from a shuffle of the hosts that are not seeds. */
  private void assignSlowHosts() {
    int want = config.slowHosts();
    if (want > hosts.length - config.seeds()) {
      throw Checks.bad("slowHosts", want, "<= " + (hosts.length - config.seeds()) + ", the hosts that are not seeds");
    }
    for (int i : shuffled(SALT_SLOW)) {
      if (want == 0) {
        break;
      }
      if (i >= config.seeds()) {
        hosts[i].latency = config.slowLatency();
        hosts[i].slow = true;
        want--;
      }
    }
  }

  /** @return the hosts that answer after the slow latency */
  public List<String> slowHosts() {
    return hostsWhere(h -> h.slow);
  }

  private void assignTraps() {
    int[] counts = {config.calendarHosts(), config.sessionIdHosts(), config.deepPathHosts(), config.redirectLoopHosts(), config.gzipBombHosts()};
    String[] knobs = {"calendarHosts", "sessionIdHosts", "deepPathHosts", "redirectLoopHosts", "gzipBombHosts"};
    for (Trap t : Trap.values()) {
      int want = counts[t.ordinal()];
      List<String> chosen = new ArrayList<>(want);
      for (int i : shuffled(1 + t.ordinal())) {
        if (chosen.size() == want) {
          break;
        }
        Host h = hosts[i];
        if (h.robots != Robots.ERROR && h.dnsFault == null) {
          h.traps.add(t);
          chosen.add(h.name);
        }
      }
      if (chosen.size() < want) {
        throw Checks.bad(knobs[t.ordinal()], want, "<= " + chosen.size() + ", the hosts whose robots.txt and DNS answer");
      }
      Collections.sort(chosen);
      trapHosts.put(t, Collections.unmodifiableList(chosen));
    }
  }

  private int[] shuffled(int salt) {
    int[] order = new int[hosts.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    SplittableRandom r = new SplittableRandom(mix(config.seed() ^ mix(SALT_SHUFFLE * 1000L + salt)));
    for (int i = order.length - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    return order;
  }

  private List<String> hostsWhere(java.util.function.Predicate<Host> p) {
    List<String> out = new ArrayList<>();
    for (Host h : hosts) {
      if (p.test(h)) {
        out.add(h.name);
      }
    }
    return Collections.unmodifiableList(out);
  }

  // ---- hashing ----

  /** @return a uniform double in [0, 1) from (seed, host, page, salt, j) */
  private double u(int host, int page, int salt, int j) {
    long z = mix(config.seed() + 0x9E3779B97F4A7C15L * (host + 1L));
    z = mix(z + 0xC2B2AE3D27D4EB4FL * (page + 1L));
    z = mix(z + 0x165667B19E3779F9L * salt);
    z = mix(z + 0x27D4EB2F165667C5L * (j + 1L));
    return (z >>> 11) * 0x1.0p-53;
  }

  /** The SplitMix64 finalizer: a bijective 64-bit mix. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** @return the decimal in {@code s[from, to)} without sign or leading zeros, or -1 if none or above max */
  static int parseDecimal(String s, int from, int to, int max) {
    if (from < to && s.charAt(from) == '0' && to - from > 1) {
      return -1;
    }
    return parseDigits(s, from, to, max);
  }

  /** @return the digits in {@code s[from, to)} as a number, leading zeros allowed, or -1 if none or above max */
  static int parseDigits(String s, int from, int to, int max) {
    if (from >= to || to - from > 10) {
      return -1;
    }
    long v = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v > max ? -1 : (int) v;
  }
}
