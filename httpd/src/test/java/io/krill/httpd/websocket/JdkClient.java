package io.krill.httpd.websocket;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's own WebSocket client, with what it receives queued for the test: text as
 * {@code "text:" + message}, binary as {@code "binary:" + bytes as UTF-8}, pongs as
 * {@code "pong:" + payload}; the close as {@link #closed}.
 */
final class JdkClient implements AutoCloseable {
  static final Duration TIMEOUT = Duration.ofSeconds(20);

  final WebSocket socket;
  final BlockingQueue<String> received = new LinkedBlockingQueue<>();
  final CompletableFuture<String> closed = new CompletableFuture<>();

  private JdkClient(WebSocket socket) {
    this.socket = socket;
  }

  static JdkClient connect(int port, String path) throws Exception {
    return connect(HttpClient.newHttpClient().newWebSocketBuilder(), port, path);
  }

  static JdkClient connect(WebSocket.Builder builder, int port, String path) throws Exception {
    JdkClient[] self = new JdkClient[1];
    Listener listener = new Listener(self);
    WebSocket ws = builder.connectTimeout(TIMEOUT).buildAsync(URI.create("ws://127.0.0.1:" + port + path), listener)
        .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    return listener.client(ws);
  }

  /** @return the next thing received, waiting up to the timeout */
  String next() throws InterruptedException {
    String s = received.poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    if (s == null) {
      throw new AssertionError("nothing received within " + TIMEOUT);
    }
    return s;
  }

  /** @return "code reason" of the server's close, waiting up to the timeout */
  String awaitClose() throws Exception {
    return closed.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
  }

  void sendText(String text) throws Exception {
    socket.sendText(text, true).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    socket.abort();
  }

  private static final class Listener implements WebSocket.Listener {
    private final JdkClient[] self;
    private final StringBuilder text = new StringBuilder();
    private final java.io.ByteArrayOutputStream binary = new java.io.ByteArrayOutputStream();
    private final BlockingQueue<String> early = new LinkedBlockingQueue<>();
    private final CompletableFuture<String> earlyClose = new CompletableFuture<>();

    Listener(JdkClient[] self) {
      this.self = self;
    }

    synchronized JdkClient client(WebSocket ws) {
      JdkClient c = new JdkClient(ws);
      early.drainTo(c.received);
      earlyClose.thenAccept(c.closed::complete);
      self[0] = c;
      return c;
    }

    private synchronized void deliver(String s) {
      if (self[0] == null) {
        early.add(s);
      } else {
        self[0].received.add(s);
      }
    }

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      text.append(data);
      if (last) {
        deliver("text:" + text);
        text.setLength(0);
      }
      ws.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
      byte[] b = new byte[data.remaining()];
      data.get(b);
      binary.write(b, 0, b.length);
      if (last) {
        deliver("binary:" + binary.toString(java.nio.charset.StandardCharsets.UTF_8));
        binary.reset();
      }
      ws.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onPong(WebSocket ws, ByteBuffer message) {
      byte[] b = new byte[message.remaining()];
      message.get(b);
      deliver("pong:" + new String(b, java.nio.charset.StandardCharsets.UTF_8));
      ws.request(1);
      return null;
    }

    @Override
    public synchronized CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
      String s = statusCode + " " + reason;
      if (self[0] == null) {
        earlyClose.complete(s);
      } else {
        self[0].closed.complete(s);
      }
      return null;
    }

    @Override
    public synchronized void onError(WebSocket ws, Throwable error) {
      String s = "error " + error;
      if (self[0] == null) {
        earlyClose.complete(s);
      } else {
        self[0].closed.complete(s);
      }
    }
  }
}
