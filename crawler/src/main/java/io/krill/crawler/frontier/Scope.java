package io.krill.crawler.frontier;

import crawlercommons.domains.EffectiveTldFinder;
import io.krill.fibers.Checks;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which URLs a crawl may fetch: the seeds' hosts, their registrable domains, or any host;
 * optionally only an allow-list of domains; a maximum link depth; include and exclude regular
 * expressions over the whole URL. Immutable after the seeds are added; thread-safe for
 * reading.
 */
public final class Scope {
  /** How far from the seeds' hosts a crawl may go. */
  public enum Kind {
    /** Only the seeds' hosts (host and port). */
    HOST,
    /** The seeds' registrable domains (public-suffix list): www.a.com and b.a.com for a.com. */
    DOMAIN,
    /** Any host (with the allow-list, if given). */
    ANY
  }

  private final Kind kind;
  private final int maxDepth;
  private final List<String> allowDomains;
  private final List<Pattern> include;
  private final List<Pattern> exclude;
  private final Set<String> seedHosts = new HashSet<>();
  private final Set<String> seedDomains = new HashSet<>();

  /**
   * @param kind how far from the seeds' hosts
   * @param maxDepth the most links from a seed (0 = seeds only)
   * @param allowDomains if not empty, a host must be one of these domains or under one
   * @param include if not empty, a URL must match one of these
   * @param exclude a URL must match none of these
   */
  public Scope(Kind kind, int maxDepth, List<String> allowDomains, List<Pattern> include, List<Pattern> exclude) {
    this.kind = Objects.requireNonNull(kind, "scope");
    this.maxDepth = Checks.nonNegative("maxDepth", maxDepth);
    List<String> allow = new ArrayList<>();
    for (String d : allowDomains) {
      allow.add(d.toLowerCase(Locale.ROOT).replaceAll("^\\.+|\\.+$", ""));
    }
    this.allowDomains = List.copyOf(allow);
    this.include = List.copyOf(include);
    this.exclude = List.copyOf(exclude);
  }

  /** Adds a seed's host and domain to the scope. Call before the crawl starts. */
  public synchronized void addSeed(String url) {
    URI u = URI.create(url);
    seedHosts.add(UrlNormalizer.hostKey(url).replaceFirst("^https?://", ""));
    seedDomains.add(domainOf(u.getHost()));
  }

  static String domainOf(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    String d = EffectiveTldFinder.getAssignedDomain(h, true, false);
    return d == null ? h : d;
  }

  /**
   * @param url a normalized URL
   * @param depth its link depth
   * @return null if the URL is in scope, else why not
   */
  public synchronized String refusal(String url, int depth) {
    if (depth > maxDepth) {
      return "depth " + depth + " > maxDepth " + maxDepth;
    }
    return refusal(url);
  }

  /**
   * @param url a normalized URL
   * @return null if the URL is in scope at some depth, else why not (the depth limit is the
   *     frontier's: it remembers a URL found too deep in case a shorter path turns up)
   */
  public synchronized String refusal(String url) {
    URI u = URI.create(url);
    String host = u.getHost().toLowerCase(Locale.ROOT);
    switch (kind) {
      case HOST:
        if (!seedHosts.contains(UrlNormalizer.hostKey(url).replaceFirst("^https?://", ""))) {
          return "host " + host + " is not a seed host";
        }
        break;
      case DOMAIN:
        if (!seedDomains.contains(domainOf(host))) {
          return "domain " + domainOf(host) + " is not a seed domain";
        }
        break;
      default:
        break;
    }
    if (!allowDomains.isEmpty() && allowDomains.stream().noneMatch(d -> host.equals(d) || host.endsWith("." + d))) {
      return "host " + host + " is not in the allowed domains";
    }
    if (!include.isEmpty() && include.stream().noneMatch(p -> p.matcher(url).find())) {
      return "matches no --include pattern";
    }
    for (Pattern p : exclude) {
      if (p.matcher(url).find()) {
        return "matches --exclude " + p.pattern();
      }
    }
    return null;
  }

  /** @return the maximum depth */
  public int maxDepth() {
    return maxDepth;
  }
}
