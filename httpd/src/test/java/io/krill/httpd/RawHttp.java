package io.krill.httpd;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A raw-socket HTTP/1.1 client for conformance tests: sends exact bytes (whole or in fragments
 * of a given size) and parses responses byte by byte, so nothing is normalised on the way.
 */
final class RawHttp implements AutoCloseable {
  final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  RawHttp(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setTcpNoDelay(true);
    socket.setSoTimeout(10_000);
    in = socket.getInputStream();
    out = socket.getOutputStream();
  }

  /** Sends {@code bytes} in writes of {@code fragment} bytes (0: one write). */
  RawHttp send(byte[] bytes, int fragment) throws IOException {
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

  RawHttp send(String text) throws IOException {
    return send(text.getBytes(StandardCharsets.ISO_8859_1), 0);
  }

  /** One parsed response. */
  static final class Response {
    final int status;
    final Map<String, String> headers;
    final byte[] body;

    Response(int status, Map<String, String> headers, byte[] body) {
      this.status = status;
      this.headers = headers;
      this.body = body;
    }

    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    String body() {
      return new String(body, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
      return status + " " + headers + " " + body();
    }
  }

  /** Reads the next response, skipping nothing (a 100 Continue is returned as it is). */
  Response read(boolean headRequest) throws IOException {
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
    byte[] body = new byte[0];
    if (headRequest || status < 200 || status == 204 || status == 304) {
      return new Response(status, headers, body);
    }
    String cl = headers.get("content-length");
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      for (;;) {
        int size = Integer.parseInt(line().split(";")[0].trim(), 16);
        if (size == 0) {
          while (!line().isEmpty()) {
            // trailers
          }
          break;
        }
        b.write(in.readNBytes(size));
        line();
      }
      body = b.toByteArray();
    } else if (cl != null) {
      body = in.readNBytes(Integer.parseInt(cl));
    } else {
      body = in.readAllBytes();
    }
    return new Response(status, headers, body);
  }

  Response read() throws IOException {
    return read(false);
  }

  /** @return true if the server closed the connection (EOF or reset) within the socket timeout */
  boolean closedByServer() throws IOException {
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
