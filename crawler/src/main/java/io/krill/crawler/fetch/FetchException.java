package io.krill.crawler.fetch;

import java.io.IOException;
import java.net.URI;
import java.util.Objects;

/**
 * A fetch that failed, with the kind of failure and the URL it concerns. The crawler records
 * it (JSONL {@code error} field) and goes on; a failing host never stops a crawl.
 */
public final class FetchException extends IOException {
  private static final long serialVersionUID = 1L;

  /** What went wrong; the JSONL {@code error} field starts with its lower-case name. */
  public enum Kind {
    /** The host name did not resolve (NXDOMAIN, SERVFAIL, DNS timeout). */
    DNS,
    /** The address is private, loopback, link-local or a metadata address and {@code --allow-private} is off. */
    BLOCKED,
    /** The TCP connection was refused or reset while connecting. */
    CONNECT,
    /** The TLS handshake failed (certificate, hostname, protocol). */
    TLS,
    /** A connect, read or total deadline passed. */
    TIMEOUT,
    /** The server sent fewer bytes per second than the minimum (slow drip). */
    SLOW,
    /** The body was larger than the body cap. */
    BODY_TOO_LARGE,
    /** The decompressed body was larger than the decompressed-size cap (a compression bomb). */
    BOMB,
    /** The response was not valid HTTP. */
    PROTOCOL,
    /** More redirects than the limit. */
    REDIRECT_LIMIT,
    /** A redirect target failed the scope, robots or safety check. */
    REDIRECT_REFUSED,
    /** The connection failed in another way (reset, closed early). */
    IO,
    /** robots.txt disallows the URL. */
    ROBOTS,
    /** The URL is not a valid http(s) URL. */
    BAD_URL
  }

  private final Kind kind;
  private final String url;

  /**
   * @param kind what went wrong
   * @param url the URL concerned
   * @param message what happened, naming the limit or peer
   * @param cause the underlying failure, or null
   */
  public FetchException(Kind kind, String url, String message, Throwable cause) {
    super(message, cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.url = url;
  }

  /** @return what went wrong */
  public Kind kind() {
    return kind;
  }

  /** @return the URL concerned */
  public String url() {
    return url;
  }

  /** @return {@code kind: message}, the form used in the JSONL log */
  public String describe() {
    return kind.name().toLowerCase(java.util.Locale.ROOT) + ": " + getMessage();
  }

  static FetchException of(Kind kind, URI uri, String message) {
    return new FetchException(kind, uri.toString(), message, null);
  }
}
