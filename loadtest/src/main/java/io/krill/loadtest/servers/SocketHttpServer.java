package io.krill.loadtest.servers;

import io.krill.loadtest.internal.ThreadPerConnection;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Locale;
import java.util.function.Function;

/**
 * The thread-per-connection HTTP server people write today: a {@link ServerSocket}, an accept
 * loop, and a thread per connection running blocking reads and writes, with
 * {@link Thread#sleep} in the slow handler. Its request parsing is the minimal hand-written one
 * such servers carry (request line, headers to the blank line, a {@code content-length} body
 * skipped); it keeps connections alive unless asked to close, and flushes when no further
 * pipelined request is buffered.
 *
 * <p>Threading: one acceptor thread; each connection's thread comes from {@code threads}
 * (platform threads for the classic server, virtual ones for comparison).
 */
final class SocketHttpServer implements AutoCloseable {
  /** Longest request line or header line accepted. */
  static final int MAX_LINE = 8192;

  private final ServerSocket server;

  SocketHttpServer(int backlog, Function<Runnable, Thread> threads) throws IOException {
    server = ThreadPerConnection.listen(backlog, threads, SocketHttpServer::serve);
  }

  int port() {
    return server.getLocalPort();
  }

  @Override
  public void close() throws IOException {
    server.close();
  }

  private static void serve(Socket s) {
    try (s) {
      InputStream in = new BufferedInputStream(s.getInputStream(), 8192);
      OutputStream out = new BufferedOutputStream(s.getOutputStream(), 8192);
      for (;;) {
        String line = readLine(in);
        if (line == null) {
          return;
        }
        if (line.isEmpty()) {
          continue;
        }
        String[] parts = line.split(" ");
        boolean keepAlive = parts.length == 3 && parts[2].equals("HTTP/1.1");
        long length = 0;
        for (String h; (h = readLine(in)) != null && !h.isEmpty(); ) {
          int colon = h.indexOf(':');
          if (colon < 0) {
            continue;
          }
          String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
          String value = h.substring(colon + 1).trim();
          if (name.equals("content-length")) {
            length = Long.parseLong(value);
          } else if (name.equals("connection")) {
            keepAlive = !value.equalsIgnoreCase("close") && (keepAlive || value.equalsIgnoreCase("keep-alive"));
          }
        }
        in.skipNBytes(length);
        String path = parts.length > 1 ? parts[1] : "";
        if (path.equals(HelloBytes.SLOW)) {
          Thread.sleep(HelloBytes.SLOW_MILLIS);
        }
        out.write(path.equals(HelloBytes.HELLO) || path.equals(HelloBytes.SLOW) ? HelloBytes.response()
            : HelloBytes.notFound());
        if (!keepAlive) {
          out.flush();
          return;
        }
        if (in.available() == 0) {
          out.flush();
        }
      }
    } catch (IOException | RuntimeException e) {
      // The client went away or sent garbage: this connection ends, the server goes on.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** @return the next CRLF- or LF-terminated line without its terminator, or null at end of stream (a partial last line included) */
  private static String readLine(InputStream in) throws IOException {
    StringBuilder b = new StringBuilder(64);
    for (int c; (c = in.read()) >= 0; ) {
      if (c == '\n') {
        int n = b.length();
        return n > 0 && b.charAt(n - 1) == '\r' ? b.substring(0, n - 1) : b.toString();
      }
      if (b.length() >= MAX_LINE) {
        throw new IOException("line longer than " + MAX_LINE + " bytes");
      }
      b.append((char) c);
    }
    return null;
  }
}
