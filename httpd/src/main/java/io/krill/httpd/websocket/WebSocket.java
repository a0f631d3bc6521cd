package io.krill.httpd.websocket;

import io.krill.fibers.Suspendable;
import io.krill.httpd.Request;
import java.io.IOException;

/**
 * One open WebSocket as its {@link WebSocketHandler} sees it: receive messages on demand, send
 * them with backpressure, ping, and close with a code and a reason.
 *
 * <p>Backpressure both ways: the socket reads from the network only while {@link #receive()}
 * waits, so a handler that does not receive holds the peer back (TCP flow control); {@link
 * #send(String)} parks while more than {@link WebSocketSettings#sendQueueBytes()} wait to be
 * written, and {@link #trySend(String)} refuses instead of waiting, which suits a broadcast to
 * many sockets where one slow peer must not hold up the others.
 *
 * <p>Pings from the peer are answered with a pong on the event loop, without the handler.
 * The close handshake is the socket's: a Close from the peer is answered at once (echoing its
 * code) and ends {@link #receive()} once the messages before it were taken; {@link #close(int,
 * String)} sends a Close and waits a short while for the peer's.
 *
 * <p>Threading: {@link #receive()} is for one strand at a time (the handler's); the send
 * methods, {@link #ping(byte[])} and the close methods may be called from any strand, also
 * concurrently (each message is written whole). Methods that wait may suspend the calling fiber,
 * never its carrier, and block the thread off-fiber.
 */
public interface WebSocket {
  /** Close code 1000: normal closure. */
  int NORMAL_CLOSURE = 1000;
  /** Close code 1001: the endpoint is going away (idle timeout, server shutdown). */
  int GOING_AWAY = 1001;
  /** Close code 1002: protocol error. */
  int PROTOCOL_ERROR = 1002;
  /** Close code 1003: a kind of data the endpoint cannot accept. */
  int UNSUPPORTED_DATA = 1003;
  /** Close code 1006 (never sent): the connection ended without a close handshake. */
  int ABNORMAL_CLOSURE = 1006;
  /** Close code 1007: text that is not UTF-8. */
  int INVALID_PAYLOAD = 1007;
  /** Close code 1008: the message violates the endpoint's policy. */
  int POLICY_VIOLATION = 1008;
  /** Close code 1009: a frame or message larger than the endpoint accepts. */
  int MESSAGE_TOO_BIG = 1009;
  /** Close code 1011: the endpoint failed (the handler threw). */
  int INTERNAL_ERROR = 1011;

  /**
   * Waits for the next message (or frame, with whole messages off). Pongs are delivered too.
   * May suspend.
   *
   * @return the message, or null once the socket is closed (by either side, or the connection
   *     was lost) and every message received before was taken; {@link #closeCode()} says how
   * @throws Suspendable never; marks that this method suspends
   */
  WebSocketMessage receive() throws Suspendable;

  /**
   * Sends a text message, then parks while the send queue is full. May suspend.
   *
   * @param text the message
   * @throws IOException if the socket is closed, or the peer did not read for
   *     {@link WebSocketSettings#sendTimeout()} (the socket is then closed)
   * @throws Suspendable never; marks that this method suspends
   */
  void send(String text) throws IOException, Suspendable;

  /**
   * Sends a binary message, then parks while the send queue is full. May suspend.
   *
   * @param data the message (copied)
   * @throws IOException if the socket is closed, or the peer did not read in time
   * @throws Suspendable never; marks that this method suspends
   */
  void send(byte[] data) throws IOException, Suspendable;

  /**
   * Sends a text message unless the send queue is full or the socket closed. Never waits.
   *
   * @param text the message
   * @return true if the message was queued for sending, false if it was dropped
   */
  boolean trySend(String text);

  /**
   * Sends a binary message unless the send queue is full or the socket closed. Never waits.
   *
   * @param data the message (copied)
   * @return true if the message was queued for sending, false if it was dropped
   */
  boolean trySend(byte[] data);

  /**
   * Sends a ping; the peer's pong arrives through {@link #receive()}. May suspend like a send.
   *
   * @param payload at most 125 bytes (copied)
   * @throws IllegalArgumentException if the payload is longer than 125 bytes
   * @throws IOException if the socket is closed or the peer did not read in time
   * @throws Suspendable never; marks that this method suspends
   */
  void ping(byte[] payload) throws IOException, Suspendable;

  /**
   * Starts the close handshake: sends a Close frame with {@code code} and {@code reason}, waits
   * up to {@link WebSocketSettings#closeTimeout()} for the peer's Close (dropping messages that
   * arrive meanwhile), then closes the connection. Idempotent. May suspend.
   *
   * @param code a close code the protocol lets an endpoint send: 1000..1003, 1007..1011, or
   *     3000..4999
   * @param reason a reason of at most 123 UTF-8 bytes, may be empty
   * @throws IllegalArgumentException if the code or the reason is not allowed
   * @throws Suspendable never; marks that this method suspends
   */
  void close(int code, String reason) throws Suspendable;

  /**
   * Same as {@code close(NORMAL_CLOSURE, "")}. May suspend.
   *
   * @throws Suspendable never; marks that this method suspends
   */
  void close() throws Suspendable;

  /** @return true until a Close was sent or received, or the connection was lost */
  boolean isOpen();

  /**
   * @return the close code: the peer's (or 1005 if its Close had none), the one this side sent,
   *     {@link #ABNORMAL_CLOSURE} if the connection ended without a Close; 0 while open
   */
  int closeCode();

  /** @return the reason that came with {@link #closeCode()}, empty if none; null while open */
  String closeReason();

  /**
   * The opening handshake's request: its path parameters, query, headers and addresses. Its body
   * and response are not available.
   *
   * @return the request that opened this socket
   */
  Request request();

  /** @return the subprotocol agreed in the handshake, or null if none */
  String subprotocol();

  /** @return true if permessage-deflate was agreed in the handshake */
  boolean compressed();
}
