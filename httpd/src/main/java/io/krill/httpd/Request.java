package io.krill.httpd;

import io.krill.fibers.Suspendable;
import io.krill.netio.FiberInput;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;

/**
 * One HTTP request as the handler sees it: the request line, headers, path parameters from
 * the route, and the body as a stream.
 *
 * <p>Threading: valid only inside {@link Handler#handle} on the connection's strand; the body
 * methods may suspend that fiber (block the thread off-fiber).
 */
public interface Request {
  /** @return the method, e.g. {@code GET} */
  String method();

  /** @return the raw request target as sent, e.g. {@code /a%20b?x=1} */
  String uri();

  /** @return the percent-decoded path without the query, e.g. {@code /a b} */
  String path();

  /** @return the raw query string without {@code ?}, or null if there is none */
  String query();

  /**
   * @param name a query parameter name
   * @return its first decoded value, or null if absent
   */
  String queryParam(String name);

  /**
   * @param name a query parameter name
   * @return all its decoded values in order; empty if absent
   */
  List<String> queryParams(String name);

  /**
   * @param name a parameter of the matched route pattern, e.g. {@code id} for {@code /users/{id}}
   * @return its decoded value, or null if the route has no such parameter
   */
  String pathParam(String name);

  /** @return the protocol version: {@code HTTP/1.1}, {@code HTTP/1.0}, or {@code HTTP/2.0} on an HTTP/2 stream */
  String protocol();

  /** @return true if the client wants the connection kept open after this exchange */
  boolean keepAlive();

  /**
   * @param name a header name, any case
   * @return the first value, or null if absent
   */
  String header(String name);

  /**
   * @param name a header name, any case
   * @return all values in order; empty if absent
   */
  List<String> headers(String name);

  /** @return the names of all headers (lower case) */
  Set<String> headerNames();

  /** @return the Content-Length, or -1 if unknown (chunked) or absent with no body */
  long contentLength();

  /**
   * The body as a stream; reading past {@code maxBodyBytes} throws an {@link IOException}
   * (and the server answers 413 if nothing was sent yet). The first read sends
   * {@code 100 Continue} when the client asked for it. Reads may suspend.
   *
   * @return the body stream, at end of stream at once for a request without body
   */
  FiberInput body();

  /**
   * Reads the whole body. May suspend.
   *
   * @return the body bytes
   * @throws IOException if reading fails or the body exceeds {@code maxBodyBytes}
   * @throws Suspendable never; marks that this method suspends
   */
  byte[] bodyBytes() throws IOException, Suspendable;

  /** @return the client's address */
  InetSocketAddress remoteAddress();

  /** @return the local address the request came in on */
  InetSocketAddress localAddress();

  /** @return true if the connection uses TLS */
  boolean secure();
}
