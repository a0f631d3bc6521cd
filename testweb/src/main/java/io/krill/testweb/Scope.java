package io.krill.testweb;

import io.krill.fibers.Checks;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What a crawl of the synthetic web may visit, for {@link GroundTruth}: which hosts, how deep,
 * whether robots.txt and sitemaps count, URL patterns, and the query parameters the crawler's
 * URL normalizer removes. It mirrors the crawler's own scope options.
 *
 * <p>Depth: seeds are at depth 0; a link from a page at depth d leads to depth d + 1; the target
 * of a redirect has the depth of the URL that redirected (a redirect is part of one fetch); a
 * URL listed in the sitemap of a host the crawl meets has depth {@value #SITEMAP_DEPTH}, as the
 * sitemap named by robots.txt is one hop from the host. A URL has the smallest depth any of
 * these paths gives it. (A concurrent crawler that keeps the depth at which it first met a URL
 * may give some URLs larger depths, and then, with a depth limit, fetch a subset.)
 *
 * <p>Threading: immutable and thread-safe; the {@link Builder} is not thread-safe.
 */
public final class Scope {
  /** Which hosts a crawl may visit. */
  public enum Hosts {
    /** Only the hosts of the seeds. */
    SAME_HOST,
    /** Hosts in the registrable domains of the seeds (the last two labels: {@code krill.test}). */
    SAME_DOMAIN,
    /** Hosts equal to, or under, one of {@link Builder#allowDomains}. */
    ALLOW_LIST,
    /** Every host. */
    ANY
  }

  /** The depth of URLs listed in sitemaps. */
  public static final int SITEMAP_DEPTH = 1;
  /** No limit on depth or pages. */
  public static final int UNLIMITED = Integer.MAX_VALUE;
  /** Default host scope. */
  public static final Hosts DEFAULT_HOSTS = Hosts.ANY;
  /** Default depth limit. */
  public static final int DEFAULT_MAX_DEPTH = UNLIMITED;
  /** Default page limit. */
  public static final long DEFAULT_MAX_PAGES = UNLIMITED;
  /** Default: robots.txt is obeyed. */
  public static final boolean DEFAULT_HONOUR_ROBOTS = true;
  /** Default: URLs listed in sitemaps are crawled. */
  public static final boolean DEFAULT_FOLLOW_SITEMAPS = true;

  final Hosts hosts;
  final List<String> allowDomains;
  final int maxDepth;
  final long maxPages;
  final boolean honourRobots;
  final boolean followSitemaps;
  final List<Pattern> include;
  final List<Pattern> exclude;
  final Set<String> removeQueryParams;
  final List<String> seeds;

  private Scope(Builder b) {
    hosts = b.hosts;
    allowDomains = List.copyOf(b.allowDomains);
    maxDepth = b.maxDepth;
    maxPages = b.maxPages;
    honourRobots = b.honourRobots;
    followSitemaps = b.followSitemaps;
    include = List.copyOf(b.include);
    exclude = List.copyOf(b.exclude);
    removeQueryParams = Set.copyOf(b.removeQueryParams);
    seeds = b.seeds == null ? null : List.copyOf(b.seeds);
  }

  /** @return a builder holding the defaults */
  public static Builder builder() {
    return new Builder();
  }

  /** @return the host scope */
  public Hosts hosts() {
    return hosts;
  }

  /** @return the depth limit, {@link #UNLIMITED} for none */
  public int maxDepth() {
    return maxDepth;
  }

  /** @return the page limit, {@link #UNLIMITED} for none */
  public long maxPages() {
    return maxPages;
  }

  /** @return whether robots.txt is obeyed */
  public boolean honourRobots() {
    return honourRobots;
  }

  /** @return whether URLs listed in sitemaps are crawled */
  public boolean followSitemaps() {
    return followSitemaps;
  }

  /** @return the query parameters the normalizer removes */
  public Set<String> removeQueryParams() {
    return removeQueryParams;
  }

  /** @return the registrable domain of a host: its last two labels */
  static String domainOf(String host) {
    int last = host.lastIndexOf('.');
    int second = last <= 0 ? -1 : host.lastIndexOf('.', last - 1);
    return second < 0 ? host : host.substring(second + 1);
  }

  boolean patternsAllow(String url) {
    for (Pattern p : exclude) {
      if (p.matcher(url).find()) {
        return false;
      }
    }
    if (include.isEmpty()) {
      return true;
    }
    for (Pattern p : include) {
      if (p.matcher(url).find()) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return "Scope{hosts=" + hosts + (hosts == Hosts.ALLOW_LIST ? allowDomains : "") + ", maxDepth="
        + (maxDepth == UNLIMITED ? "unlimited" : maxDepth) + ", maxPages=" + (maxPages == UNLIMITED ? "unlimited" : maxPages)
        + ", robots=" + honourRobots + ", sitemaps=" + followSitemaps + ", include=" + include + ", exclude=" + exclude
        + ", removeQueryParams=" + new TreeSet<>(removeQueryParams) + "}";
  }

  /** Collects and checks scope options. Setters throw {@link IllegalArgumentException} naming the option. */
  public static final class Builder {
    private Hosts hosts = DEFAULT_HOSTS;
    private final List<String> allowDomains = new ArrayList<>();
    private int maxDepth = DEFAULT_MAX_DEPTH;
    private long maxPages = DEFAULT_MAX_PAGES;
    private boolean honourRobots = DEFAULT_HONOUR_ROBOTS;
    private boolean followSitemaps = DEFAULT_FOLLOW_SITEMAPS;
    private final List<Pattern> include = new ArrayList<>();
    private final List<Pattern> exclude = new ArrayList<>();
    private final List<String> removeQueryParams = new ArrayList<>();
    private List<String> seeds;

    private Builder() {}

    /** @param hosts which hosts may be visited @return this */
    public Builder hosts(Hosts hosts) {
      this.hosts = Objects.requireNonNull(hosts, "hosts");
      return this;
    }

    /** @param domains the allowed domains for {@link Hosts#ALLOW_LIST}; also sets that mode @return this */
    public Builder allowDomains(Collection<String> domains) {
      for (String d : domains) {
        if (d == null || d.isBlank() || d.startsWith(".") || d.endsWith(".")) {
          throw Checks.bad("allowDomains", d, "domain names such as krill.test");
        }
        allowDomains.add(d.toLowerCase(Locale.ROOT));
      }
      this.hosts = Hosts.ALLOW_LIST;
      return this;
    }

    /** @param depth the deepest link depth crawled, 0.. or {@link #UNLIMITED} @return this */
    public Builder maxDepth(int depth) {
      this.maxDepth = Checks.inRange("maxDepth", depth, 0, UNLIMITED);
      return this;
    }

    /** @param pages the most URLs fetched, 1.. or {@link #UNLIMITED} @return this */
    public Builder maxPages(long pages) {
      this.maxPages = Checks.inRange("maxPages", pages, 1, Long.MAX_VALUE);
      return this;
    }

    /** @param honour whether robots.txt is obeyed @return this */
    public Builder honourRobots(boolean honour) {
      this.honourRobots = honour;
      return this;
    }

    /** @param follow whether URLs listed in sitemaps are crawled @return this */
    public Builder followSitemaps(boolean follow) {
      this.followSitemaps = follow;
      return this;
    }

    /** @param regex a URL is in scope only if some include pattern is found in it @return this */
    public Builder include(String regex) {
      include.add(Checks.regex("include", regex));
      return this;
    }

    /** @param regex a URL is out of scope if an exclude pattern is found in it @return this */
    public Builder exclude(String regex) {
      exclude.add(Checks.regex("exclude", regex));
      return this;
    }

    /** @param names query parameters the crawler's normalizer removes, such as {@code sid} @return this */
    public Builder removeQueryParams(String... names) {
      for (String n : names) {
        if (n == null || n.isEmpty()) {
          throw Checks.bad("removeQueryParams", n, "parameter names");
        }
        removeQueryParams.add(n);
      }
      return this;
    }

    /** @param urls seed URLs (default: the web's seeds) @return this */
    public Builder seeds(List<String> urls) {
      if (urls.isEmpty()) {
        throw Checks.bad("seeds", urls, "at least one URL");
      }
      this.seeds = List.copyOf(urls);
      return this;
    }

    /** @return the scope */
    public Scope build() {
      if (hosts == Hosts.ALLOW_LIST && allowDomains.isEmpty()) {
        throw Checks.bad("allowDomains", "[]", "at least one domain for hosts ALLOW_LIST");
      }
      return new Scope(this);
    }

  }
}
