package io.krill.httpd;

import io.krill.fibers.ExecutionMode;
import io.krill.fibers.Suspendable;

/**
 * Serves one HTTP request: reads {@code request}, writes {@code response}. Written like code for
 * a thread per connection: it may block-style read the body, call other services and write,
 * and each of those may suspend the connection's fiber.
 *
 * <pre>{@code
 * Handler hello = (req, res) -> res.send("Hello, " + req.queryParam("name") + "\n");
 * }</pre>
 *
 * <p>Threading: runs on the connection's strand (a fiber on the channel's event loop in
 * {@link ExecutionMode#FIBER}, a virtual or platform thread in the other modes), one request
 * of a connection at a time; handlers are shared by all connections and must be thread-safe.
 */
@FunctionalInterface
public interface Handler {
  /**
   * Serves one request. May suspend. An exception becomes a 500 response (logged once with
   * the request line) unless the response was committed, in which case the connection is
   * closed. A response not sent when this returns is sent as it stands (empty body).
   *
   * @param request the request
   * @param response the response to fill in and send
   * @throws Exception anything; answered with 500
   * @throws Suspendable never; marks that this method suspends
   */
  void handle(Request request, Response response) throws Exception, Suspendable;
}
