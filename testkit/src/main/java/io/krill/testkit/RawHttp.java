package io.krill.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A raw-socket HTTP/1.1 client for tests: sends exact bytes (whole or in fragments of a given
 * size) and parses responses byte by byte, so nothing is normalised on the way; independent of
 * every HTTP stack under test. {@link #get} makes one whole {@code Connection: close} request.
 *
 * <p>Threading: one connection, for one thread at a time.
 */
public final class RawHttp implements AutoCloseable {
  /** The read timeout of {@link #connect(int)}. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "raw-http-deadlines");
    t.setDaemon(true);
    return t;
  });

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  private RawHttp(InetSocketAddress address, Duration timeout) throws IOException {
    socket = new Socket(address.getAddress(), address.getPort());
    socket.setTcpNoDelay(true);
    socket.setSoTimeout(Math.toIntExact(timeout.toMillis()));
    in = socket.getInputStream();
    out = socket.getOutputStream();
  }

  /** Connects to 127.0.0.1:{@code port} with the {@linkplain #DEFAULT_TIMEOUT default read timeout}. */
  public static RawHttp connect(int port) throws IOException {
    return connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), DEFAULT_TIMEOUT);
  }

  /** Connects to {@code address}; a read waits at most {@code timeout}. */
  public static RawHttp connect(InetSocketAddress address, Duration timeout) throws IOException {
    return new RawHttp(address, timeout);
  }

  /**
   * Sends one request to {@code address} with the given Host header and {@code Connection: close},
   * and reads the answer.
   *
   * @param method the method, e.g. GET or HEAD
   * @param address where to connect
   * @param host the Host header
   * @param target the request target, e.g. {@code /a?b}
   * @param readTimeout how long one read may wait
   * @param total how long the whole exchange may take; then the connection is closed
   * @return the answer
   * @throws IOException if the connection fails, times out or closes before a whole answer
   */
  public static Response request(String method, InetSocketAddress address, String host, String target,
      Duration readTimeout, Duration total) throws IOException {
    try (RawHttp c = connect(address, readTimeout)) {
      ScheduledFuture<?> deadline = DEADLINES.schedule(c::closeQuietly, total.toNanos(), TimeUnit.NANOSECONDS);
      try {
        c.send(method + " " + target + " HTTP/1.1\r\nHost: " + host
            + "\r\nUser-Agent: krill-testkit\r\nConnection: close\r\n\r\n");
        return c.read("HEAD".equals(method));
      } finally {
        deadline.cancel(false);
      }
    }
  }

  private void closeQuietly() {
    try {
      socket.close();
    } catch (IOException e) {
      // closed already: the exchange is over either way
    }
  }

  /** @return the socket, to read what follows a response or to half-close it */
  public Socket socket() {
    return socket;
  }

  /** Sends {@code bytes} in writes of {@code fragment} bytes (0: one write). */
  public RawHttp send(byte[] bytes, int fragment) throws IOException {
    if (fragment <= 0 || fragment >= bytes.length) {
      out.write(bytes);
    } else {
      for (int i = 0; i < bytes.length; i += fragment) {
        out.write(bytes, i, Math.min(fragment, bytes.length - i));
        out.flush();
      }
    }
    out.flush();
    return this;
  }

  /** Sends {@code text} in ISO-8859-1, in one write. */
  public RawHttp send(String text) throws IOException {
    return send(text.getBytes(StandardCharsets.ISO_8859_1), 0);
  }

  /**
   * One parsed response.
   *
   * @param status the status code
   * @param headers header names in lower case; repeated headers joined with ", "
   * @param body the body, de-chunked
   * @param nanos from the start of the read (the request is sent by then) to the whole answer
   */
  public record Response(int status, Map<String, String> headers, byte[] body, long nanos) {
    /** @return the header's value, or null */
    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    /** @return the body as UTF-8 text */
    public String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
      return status + " " + headers + " " + text();
    }
  }

  /** Reads the next response, skipping nothing (a 100 Continue is returned as it is). */
  public Response read() throws IOException {
    return read(false);
  }

  /** Reads the next response; {@code headRequest}: it has no body whatever its headers say. */
  public Response read(boolean headRequest) throws IOException {
    long start = System.nanoTime();
    String statusLine = line();
    if (statusLine == null) {
      throw new IOException("connection closed before a response");
    }
    String[] parts = statusLine.split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
      throw new IOException("bad status line: " + statusLine);
    }
    int status = Integer.parseInt(parts[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (String h; !(h = line()).isEmpty(); ) {
      int colon = h.indexOf(':');
      headers.merge(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim(),
          (a, b) -> a + ", " + b);
    }
    byte[] body = headRequest || status < 200 || status == 204 || status == 304 ? new byte[0] : body(headers);
    return new Response(status, headers, body, System.nanoTime() - start);
  }

  private byte[] body(Map<String, String> headers) throws IOException {
    String cl = headers.get("content-length");
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      for (;;) {
        int size = Integer.parseInt(line().split(";")[0].trim(), 16);
        if (size == 0) {
          while (!line().isEmpty()) {
            // trailers
          }
          return b.toByteArray();
        }
        b.write(readExactly(size));
        line();
      }
    }
    return cl != null ? readExactly(Integer.parseInt(cl)) : in.readAllBytes();
  }

  private byte[] readExactly(int n) throws IOException {
    byte[] b = in.readNBytes(n);
    if (b.length < n) {
      throw new IOException("connection closed after " + b.length + " of " + n + " body bytes");
    }
    return b;
  }

  /** @return true if the server closed the connection (EOF or reset) within the read timeout */
  public boolean closedByServer() throws IOException {
    try {
      return in.read() < 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true; // reset
    }
  }

  private String line() throws IOException {
    StringBuilder sb = new StringBuilder();
    for (;;) {
      int b = in.read();
      if (b < 0) {
        return sb.length() == 0 ? null : sb.toString();
      }
      if (b == '\n') {
        int n = sb.length();
        return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
      }
      sb.append((char) b);
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
