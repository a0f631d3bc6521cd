package io.krill.netio.internal;

import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedChannelException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * Turns Netty's failures into the {@code java.net} exceptions a blocking-socket programmer
 * expects, each naming the peer as {@code host:port}. A new exception is made at every throw,
 * so its stack trace is the caller's; the original is its cause. Not API.
 */
public final class Errors {
  private Errors() {}

  /** @return the exception to throw for a failed connect to {@code peer} */
  public static IOException connectFailed(Throwable cause, String peer, long timeoutMillis) {
    if (cause instanceof ConnectTimeoutException || cause instanceof SocketTimeoutException) {
      return connectTimedOut(peer, timeoutMillis, cause);
    }
    String message = cause.getMessage() == null ? "" : cause.getMessage();
    IOException e;
    if (cause instanceof NoRouteToHostException) {
      e = new NoRouteToHostException("No route to host: " + peer);
    } else if (cause instanceof ConnectException || message.contains("refused")) {
      e = new ConnectException("Connection refused: " + peer);
    } else {
      e = new ConnectException("Connect to " + peer + " failed: " + message);
    }
    e.initCause(cause);
    return e;
  }

  /** @return a connect timeout for {@code peer} */
  public static SocketTimeoutException connectTimedOut(String peer, long timeoutMillis, Throwable cause) {
    SocketTimeoutException e = new SocketTimeoutException("Connect timed out after " + timeoutMillis + " ms: " + peer);
    if (cause != null) {
      e.initCause(cause);
    }
    return e;
  }

  /** @return the exception for a TLS handshake with {@code peer} that failed */
  public static SSLHandshakeException handshakeFailed(Throwable cause, String peer) {
    Throwable root = unwrap(cause);
    SSLHandshakeException e = new SSLHandshakeException("TLS handshake with " + peer + " failed: " + describe(root));
    e.initCause(cause);
    return e;
  }

  /** @return the exception for an I/O failure of an established connection to {@code peer} */
  public static IOException ioFailed(Throwable cause, String peer) {
    Throwable root = unwrap(cause);
    IOException e;
    if (root instanceof SSLHandshakeException) {
      return handshakeFailed(cause, peer);
    } else if (root instanceof SSLException) {
      e = new SSLException("TLS failure with " + peer + ": " + describe(root));
    } else if (root instanceof ClosedChannelException) {
      e = new SocketException("Socket closed: " + peer);
    } else if (root instanceof IOException) {
      String m = String.valueOf(root.getMessage());
      e = new SocketException(m.contains("reset") ? "Connection reset by peer: " + peer : m + ": " + peer);
    } else if (cause instanceof DecoderException) {
      e = new IOException("Decoding a message from " + peer + " failed: " + describe(root));
    } else {
      e = new IOException("Connection to " + peer + " failed: " + describe(root));
    }
    e.initCause(cause);
    return e;
  }

  /** @return a "socket closed" exception for {@code peer} */
  public static SocketException closed(String peer) {
    return new SocketException("Socket closed: " + peer);
  }

  private static Throwable unwrap(Throwable t) {
    while ((t instanceof DecoderException || t.getClass() == RuntimeException.class) && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  private static String describe(Throwable t) {
    return t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
  }
}
