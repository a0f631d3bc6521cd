package io.krill.crawler.testweb;

import java.util.List;

/**
 * What one request to the model yields: a kind (page, error, redirect, ...), the links of a
 * page, the target of a redirect. The server renders it; the ground truth follows its links.
 */
final class Resource {
  enum Kind {
    /** 200 with HTML and links. */
    PAGE(200),
    /** 429 with Retry-After for the first throttleCount requests, then like PAGE. */
    THROTTLED(200),
    /** 404. */
    NOT_FOUND(404),
    /** 500. */
    SERVER_ERROR(500),
    /** The connection is reset after the request is read. */
    RESET(0),
    /** 200 whose body drips at slowDripBandwidth. */
    SLOW_DRIP(200),
    /** 301 (pages) or 302 (the loop trap) with a Location. */
    REDIRECT(301),
    /** 200 with a gzip-encoded body that inflates to gzipBombBytes. */
    GZIP_BOMB(200),
    /** 200 robots.txt. */
    ROBOTS(200),
    /** 503 for robots.txt. */
    ROBOTS_ERROR(503),
    /** 200 sitemap XML. */
    SITEMAP(200);

    final int status;

    Kind(int status) {
      this.status = status;
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
