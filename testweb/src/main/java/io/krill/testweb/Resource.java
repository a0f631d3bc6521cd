package io.krill.testweb;

import java.util.List;

/**
 * What one request to the model yields: a kind (page, error, redirect, ...), the links of a
 * page, the target of a redirect. The server renders it; the ground truth follows its links.
 */
final class Resource {
  /** The kinds of answer; each names the ground-truth outcome of a crawl URL that gets it. */
  enum Kind {
    PAGE(200, GroundTruth.Outcome.OK),
    THROTTLED(200, GroundTruth.Outcome.THROTTLED),
    NOT_FOUND(404, GroundTruth.Outcome.NOT_FOUND),
    SERVER_ERROR(500, GroundTruth.Outcome.SERVER_ERROR),
    RESET(0, GroundTruth.Outcome.RESET),
    SLOW_DRIP(200, GroundTruth.Outcome.SLOW_DRIP),
    /** 301 for pages, 302 for the loop trap. */
    REDIRECT(301, GroundTruth.Outcome.REDIRECT),
    GZIP_BOMB(200, GroundTruth.Outcome.GZIP_BOMB),
    /** robots.txt and sitemaps are not crawl URLs: their outcome is only nominal. */
    ROBOTS(200, GroundTruth.Outcome.OK),
    /** 503 for robots.txt. */
    ROBOTS_ERROR(503, GroundTruth.Outcome.SERVER_ERROR),
    SITEMAP(200, GroundTruth.Outcome.OK);

    final int status;
    final GroundTruth.Outcome outcome;

    Kind(int status, GroundTruth.Outcome outcome) {
      this.status = status;
      this.outcome = outcome;
    }
  }

  final Kind kind;
  final int status;
  final int host;
  final String pathAndQuery;
  /** Which trap the resource belongs to, or null. */
  final Trap trap;
  /** The links of a page (PAGE, THROTTLED); empty otherwise. */
  final List<Link> links;
  /** The target of a REDIRECT, or null. */
  final Link location;
  /** Page number for pages of the regular site, -1 for trap pages and others. */
  final int page;

  Resource(Kind kind, int status, int host, String pathAndQuery, Trap trap, List<Link> links, Link location, int page) {
    this.kind = kind;
    this.status = status;
    this.host = host;
    this.pathAndQuery = pathAndQuery;
    this.trap = trap;
    this.links = links;
    this.location = location;
    this.page = page;
  }

  static Resource of(Kind kind, int host, String pathAndQuery) {
    return new Resource(kind, kind.status, host, pathAndQuery, null, List.of(), null, -1);
  }

  boolean hasContent() {
    return kind == Kind.PAGE || kind == Kind.THROTTLED;
  }

  @Override
  public String toString() {
    return kind + " " + status + " " + pathAndQuery + (trap == null ? "" : " (" + trap + ")");
  }
}
