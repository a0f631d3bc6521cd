package io.krill.httpd;

import io.krill.fibers.Suspendable;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpRequest;

/**
 * A handler that may take its connection over from HTTP/1.1, as a WebSocket route does
 * ({@code io.krill.httpd.websocket.WebSocketRoute}). For protocol libraries built on httpd, not
 * for application code: it hands over Netty's channel.
 *
 * <p>Threading: {@link #upgrade} runs on the connection's strand, like {@link Handler#handle}.
 */
public interface UpgradeHandler extends Handler {
  /**
   * The user event a server fires through the pipeline of each of its HTTP/1.1 connections when
   * it begins to shut down. A connection taken over by an upgrade ends itself on it within the
   * shutdown grace (a WebSocket sends Close 1001, going away); the server's own handlers ignore
   * it.
   */
  Object SHUTDOWN_EVENT = new Object() {
    @Override
    public String toString() {
      return "server shutdown";
    }
  };

  /**
   * Serves a request routed here instead of {@link #handle}: either answers it through
   * {@code response} like any handler (a refused upgrade), or takes the connection over and
   * serves it until it ends. May suspend.
   *
   * @param request the request
   * @param response its response, for a refusal
   * @param channel the connection's channel; its pipeline ends with the HTTP connection handler
   *     named {@code connectionHandler}, which a takeover replaces with its own
   * @param head the request's head as Netty decoded it (not to be retained)
   * @param connectionHandler the pipeline name of the HTTP connection handler
   * @return true if the connection was taken over: no response follows and the connection is
   *     closed once this returns; false if the request was answered and the connection may go on
   * @throws Exception anything; answered with 500 unless the connection was taken over
   * @throws Suspendable never; marks that this method suspends
   */
  boolean upgrade(Request request, Response response, Channel channel, HttpRequest head, String connectionHandler)
      throws Exception, Suspendable;
}
