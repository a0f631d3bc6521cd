package io.krill.httpd.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.fibers.ExecutionMode;
import io.krill.fibers.Fiber;
import io.krill.fibers.FiberScheduler;
import io.krill.httpd.HttpServer;
import io.krill.testkit.RawHttp;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** WebSocket routes against the JDK's client and raw sockets on loopback. */
@Timeout(120)
class WebSocketTest {
  static final FiberScheduler SCHEDULER = FiberScheduler.eventLoop(2);

  /* Echoes text and binary as they came, and answers "ping" by pinging the client. */
  static final WebSocketHandler ECHO = socket -> {
    for (WebSocketMessage m; (m = socket.receive()) != null; ) {
      switch (m.kind()) {
        case TEXT:
          if (m.text().equals("ping")) {
            socket.ping("p1".getBytes(StandardCharsets.UTF_8));
          } else if (m.text().equals("mode")) {
            socket.send(strandKind());
          } else if (m.text().startsWith("close ")) {
            String[] parts = m.text().split(" ", 3);
            socket.close(Integer.parseInt(parts[1]), parts[2]);
          } else {
            socket.send(m.text());
          }
          break;
        case BINARY:
          socket.send(m.bytes());
          break;
        case PONG:
          socket.send("server got pong " + m.text());
          break;
        default:
          throw new AssertionError(m);
      }
    }
  };

  private final List<HttpServer> servers = new ArrayList<>();

  @AfterEach
  void stopServersAndCheckFibers() throws InterruptedException {
    for (HttpServer s : servers) {
      s.close();
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!SCHEDULER.liveFibers().isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(SCHEDULER.liveFibers()).as("fibers left:\n%s", SCHEDULER.dumpParked()).isEmpty();
  }

  static String strandKind() {
    if (Fiber.current() != null) {
      return "FIBER";
    }
    try {
      return (boolean) Thread.class.getMethod("isVirtual").invoke(Thread.currentThread()) ? "VIRTUAL" : "PLATFORM";
    } catch (ReflectiveOperationException e) {
      return "PLATFORM";
    }
  }

  /* VIRTUAL before JDK 21: the builder refuses it (checked here), and the test has nothing more to run. */
  private static boolean refusedOnThisJdk(ExecutionMode mode) {
    if (mode == ExecutionMode.VIRTUAL && Runtime.version().feature() < 21) {
      assertThatThrownBy(() -> builder().mode(mode).build()).isInstanceOf(IllegalArgumentException.class);
      return true;
    }
    return false;
  }

  private HttpServer start(HttpServer.Builder b) throws IOException {
    HttpServer s = b.build().start();
    servers.add(s);
    return s;
  }

  private static HttpServer.Builder builder() {
    return HttpServer.builder().port(0).scheduler(SCHEDULER).shutdownGrace(Duration.ofSeconds(2));
  }

  @ParameterizedTest
  @EnumSource(ExecutionMode.class)
  void echo_textAndBinary_inEveryMode(ExecutionMode mode) throws Exception {
    if (refusedOnThisJdk(mode)) {
      return;
    }
    HttpServer server = start(builder().mode(mode).get("/echo", WebSocketRoute.of(ECHO)));
    try (JdkClient a = JdkClient.connect(server.port(), "/echo"); JdkClient b = JdkClient.connect(server.port(), "/echo")) {
      a.sendText("mode");
      assertThat(a.next()).isEqualTo("text:" + mode);
      a.sendText("héllo");
      b.socket.sendBinary(ByteBuffer.wrap("bytes".getBytes(StandardCharsets.UTF_8)), true).get(20, TimeUnit.SECONDS);
      assertThat(a.next()).isEqualTo("text:héllo");
      assertThat(b.next()).isEqualTo("binary:bytes");
      a.socket.sendClose(1000, "done").get(20, TimeUnit.SECONDS);
      assertThat(a.awaitClose()).isEqualTo("1000 ");
    }
    assertThat(server.stats().acceptedConnections()).isEqualTo(2);
  }

  @Test
  void echo_nettyClient_textBinaryAndCompression() throws Exception {
    BlockingQueue<String> agreed = new LinkedBlockingQueue<>();
    HttpServer server = start(builder().get("/echo", WebSocketRoute.of(socket -> {
      agreed.add("compressed=" + socket.compressed());
      ECHO.handle(socket);
    })));
    try (NettyClient c = NettyClient.connect(server.port(), "/echo", true)) {
      String big = "krill ".repeat(5000);
      c.sendText(big);
      assertThat(c.next()).isEqualTo("text:" + big);
      c.sendBinary("raw".getBytes(StandardCharsets.UTF_8));
      assertThat(c.next()).isEqualTo("binary:raw");
      assertThat(c.extensions()).startsWith("permessage-deflate");
    }
    assertThat(agreed.poll(20, TimeUnit.SECONDS)).isEqualTo("compressed=true");
  }

  @Test
  void compression_offeredByRawClient_agreedInThe101() throws Exception {
    HttpServer server = start(builder().get("/echo", WebSocketRoute.of(ECHO)));
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      String head = handshake(s, "/echo", "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n");
      assertThat(head).startsWith("HTTP/1.1 101").containsIgnoringCase("sec-websocket-extensions: permessage-deflate");
    }
    HttpServer plain = start(builder().get("/echo",
        WebSocketRoute.of(WebSocketSettings.builder().compression(false).build(), ECHO)));
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), plain.port())) {
      String head = handshake(s, "/echo", "Sec-WebSocket-Extensions: permessage-deflate\r\n");
      assertThat(head).startsWith("HTTP/1.1 101").doesNotContainIgnoringCase("permessage-deflate");
    }
  }

  @Test
  void fragments_wholeMessagesByDefault_framesOnRequest() throws Exception {
    WebSocketHandler describe = socket -> {
      for (WebSocketMessage m; (m = socket.receive()) != null; ) {
        socket.send(m.kind() + "/" + m.last() + "/" + m.text());
      }
    };
    HttpServer server = start(builder().get("/whole", WebSocketRoute.of(describe))
        .get("/frames", WebSocketRoute.of(WebSocketSettings.builder().wholeMessages(false).build(), describe)));
    try (JdkClient c = JdkClient.connect(server.port(), "/whole")) {
      c.socket.sendText("abc", false).get(20, TimeUnit.SECONDS);
      c.socket.sendText("def", true).get(20, TimeUnit.SECONDS);
      assertThat(c.next()).isEqualTo("text:TEXT/true/abcdef");
    }
    try (JdkClient c = JdkClient.connect(server.port(), "/frames")) {
      c.socket.sendText("abc", false).get(20, TimeUnit.SECONDS);
      c.socket.sendText("def", true).get(20, TimeUnit.SECONDS);
      assertThat(c.next()).isEqualTo("text:TEXT/false/abc");
      assertThat(c.next()).isEqualTo("text:TEXT/true/def");
    }
  }

  @Test
  void ping_fromClientAnsweredOnTheLoop_fromServerPongReceived() throws Exception {
    HttpServer server = start(builder().get("/echo", WebSocketRoute.of(ECHO)));
    try (JdkClient c = JdkClient.connect(server.port(), "/echo")) {
      c.socket.sendPing(ByteBuffer.wrap("c1".getBytes(StandardCharsets.UTF_8))).get(20, TimeUnit.SECONDS);
      assertThat(c.next()).isEqualTo("pong:c1");
      c.sendText("ping"); // the server pings; the JDK client answers; the handler receives the pong
      assertThat(c.next()).isEqualTo("text:server got pong p1");
    }
  }

  @Test
  void close_byServerWithCode_andByClientSeenByHandler() throws Exception {
    BlockingQueue<String> seen = new LinkedBlockingQueue<>();
    HttpServer server = start(builder().get("/echo", WebSocketRoute.of(socket -> {
      ECHO.handle(socket);
      seen.add(socket.closeCode() + " " + socket.closeReason() + " open=" + socket.isOpen());
    })));
    try (JdkClient c = JdkClient.connect(server.port(), "/echo")) {
      c.sendText("close 4000 bye now");
      assertThat(c.awaitClose()).isEqualTo("4000 bye now");
    }
    assertThat(seen.poll(20, TimeUnit.SECONDS)).isEqualTo("4000 bye now open=false");
    try (JdkClient c = JdkClient.connect(server.port(), "/echo")) {
      c.sendText("first");
      assertThat(c.next()).isEqualTo("text:first");
      c.socket.sendClose(4001, "later").get(20, TimeUnit.SECONDS);
      assertThat(c.awaitClose()).isEqualTo("4001 ");
    }
    assertThat(seen.poll(20, TimeUnit.SECONDS)).isEqualTo("4001 later open=false");
  }

  @Test
  void handler_returnsOrThrows_closes1000Or1011() throws Exception {
    HttpServer server = start(builder().get("/bye", WebSocketRoute.of(socket -> socket.send("hi")))
        .get("/fail", WebSocketRoute.of(socket -> {
          throw new IllegalStateException("boom (expected by the test)");
        })));
    try (JdkClient c = JdkClient.connect(server.port(), "/bye")) {
      assertThat(c.next()).isEqualTo("text:hi");
      assertThat(c.awaitClose()).isEqualTo("1000 ");
    }
    try (JdkClient c = JdkClient.connect(server.port(), "/fail")) {
      assertThat(c.awaitClose()).isEqualTo("1011 ");
    }
  }

  @Test
  void oversize_frameOrMessage_closes1009() throws Exception {
    HttpServer server = start(builder()
        .get("/frame", WebSocketRoute.of(WebSocketSettings.builder().maxFrameBytes(100).build(), ECHO))
        .get("/message", WebSocketRoute.of(WebSocketSettings.builder().maxMessageBytes(100).build(), ECHO)));
    try (JdkClient c = JdkClient.connect(server.port(), "/frame")) {
      c.sendText("x".repeat(100));
      assertThat(c.next()).isEqualTo("text:" + "x".repeat(100));
      c.sendText("x".repeat(101));
      assertThat(c.awaitClose()).startsWith("1009");
    }
    try (JdkClient c = JdkClient.connect(server.port(), "/message")) {
      c.socket.sendText("y".repeat(60), false).get(20, TimeUnit.SECONDS);
      c.socket.sendText("y".repeat(60), true).get(20, TimeUnit.SECONDS);
      assertThat(c.awaitClose()).startsWith("1009");
    }
  }

  @Test
  void handshake_bad_answered400Or426Or403() throws Exception {
    HttpServer server = start(builder().get("/echo", WebSocketRoute.of(ECHO))
        .get("/mine", WebSocketRoute.of(WebSocketSettings.builder().allowOrigins("http://good.test").build(), ECHO)));
    String key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    try (RawHttp c = RawHttp.connect(server.port())) {
      c.send("GET /echo HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(c.read().status()).isEqualTo(400);
      c.send("GET /echo HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          + "Sec-WebSocket-Version: 13\r\n\r\n");
      assertThat(c.read().status()).isEqualTo(400);
      c.send("GET /echo HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          + "Sec-WebSocket-Key: short\r\nSec-WebSocket-Version: 13\r\n\r\n");
      assertThat(c.read().status()).isEqualTo(400);
      c.send("GET /echo HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" + key
          + "Sec-WebSocket-Version: 8\r\n\r\n");
      RawHttp.Response r = c.read();
      assertThat(r.status()).isEqualTo(426);
      assertThat(r.header("Sec-WebSocket-Version")).isEqualTo("13");
      c.send("GET /mine HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" + key
          + "Sec-WebSocket-Version: 13\r\nOrigin: http://evil.test\r\n\r\n");
      assertThat(c.read().status()).isEqualTo(403);
      c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
      assertThat(c.read().status()).isEqualTo(405);
    }
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      assertThat(handshake(s, "/mine", "Origin: http://good.test\r\n")).startsWith("HTTP/1.1 101");
    }
  }

  @Test
  void broadcast_peerThatNeverReads_doesNotBlockOthers() throws Exception {
    Set<WebSocket> room = ConcurrentHashMap.newKeySet();
    BlockingQueue<String> dropped = new LinkedBlockingQueue<>();
    WebSocketSettings small = WebSocketSettings.builder().sendQueueBytes(16 * 1024).build();
    HttpServer server = start(builder().get("/room", WebSocketRoute.of(small, socket -> {
          room.add(socket);
          try {
            for (WebSocketMessage m; (m = socket.receive()) != null; ) {
              for (WebSocket other : room) {
                if (!other.trySend(m.text())) {
                  dropped.add(other.request().remoteAddress().toString());
                }
              }
            }
          } finally {
            room.remove(socket);
          }
        })));
    try (Socket deaf = deafSocket(server.port());
        JdkClient talker = JdkClient.connect(server.port(), "/room");
        JdkClient listener = JdkClient.connect(server.port(), "/room")) {
      assertThat(handshake(deaf, "/room", "")).startsWith("HTTP/1.1 101");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (room.size() < 3 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(room).hasSize(3);
      String chunk = "m".repeat(32 * 1024);
      for (int i = 0; i < 400 && dropped.isEmpty(); i++) {
        talker.sendText(i + ":" + chunk);
        assertThat(listener.next()).isEqualTo("text:" + i + ":" + chunk);
        assertThat(talker.next()).isEqualTo("text:" + i + ":" + chunk);
      }
      assertThat(dropped).isNotEmpty(); // the deaf peer's queue filled up; its messages were dropped, no one waited
    }
  }

  @Test
  void send_peerThatNeverReads_timesOutAndCloses() throws Exception {
    BlockingQueue<String> outcome = new LinkedBlockingQueue<>();
    WebSocketSettings impatient = WebSocketSettings.builder().sendQueueBytes(8 * 1024)
        .sendTimeout(Duration.ofMillis(500)).build();
    HttpServer server = start(builder().get("/flood", WebSocketRoute.of(impatient, socket -> {
          byte[] block = new byte[16 * 1024];
          try {
            for (int i = 0; i < 100_000; i++) {
              socket.send(block);
            }
            outcome.add("sent all");
          } catch (IOException e) {
            outcome.add("failed: " + e.getClass().getSimpleName() + " open=" + socket.isOpen());
          }
        })));
    try (Socket deaf = deafSocket(server.port())) {
      assertThat(handshake(deaf, "/flood", "")).startsWith("HTTP/1.1 101");
      assertThat(outcome.poll(30, TimeUnit.SECONDS)).isEqualTo("failed: SocketTimeoutException open=false");
    }
  }

  @Test
  void idleTimeout_quietSocket_closed1001() throws Exception {
    HttpServer server = start(builder().get("/echo",
        WebSocketRoute.of(WebSocketSettings.builder().idleTimeout(Duration.ofMillis(300)).build(), ECHO)));
    try (JdkClient c = JdkClient.connect(server.port(), "/echo")) {
      assertThat(c.awaitClose()).isEqualTo("1001 idle timeout");
    }
  }

  @ParameterizedTest
  @EnumSource(ExecutionMode.class)
  void shutdown_openSockets_closed1001BothSides(ExecutionMode mode) throws Exception {
    if (refusedOnThisJdk(mode)) {
      return;
    }
    BlockingQueue<String> seenByHandler = new LinkedBlockingQueue<>();
    HttpServer server = start(builder().mode(mode).shutdownGrace(Duration.ofSeconds(60)).get("/echo",
        WebSocketRoute.of(socket -> {
          for (WebSocketMessage m; (m = socket.receive()) != null; ) {
            socket.send(m.text());
          }
          seenByHandler.add(socket.closeCode() + " " + socket.closeReason());
        })));
    try (JdkClient a = JdkClient.connect(server.port(), "/echo"); JdkClient b = JdkClient.connect(server.port(), "/echo")) {
      a.sendText("a");
      b.sendText("b");
      assertThat(a.next()).isEqualTo("text:a");
      assertThat(b.next()).isEqualTo("text:b");
      long start = System.nanoTime();
      server.shutdown(Duration.ofSeconds(60));
      // Not cut off when the grace ends: both Closes were exchanged well before.
      assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(30));
      assertThat(a.awaitClose()).isEqualTo("1001 server shutting down");
      assertThat(b.awaitClose()).isEqualTo("1001 server shutting down");
      assertThat(seenByHandler.poll(20, TimeUnit.SECONDS)).isEqualTo("1001 server shutting down");
      assertThat(seenByHandler.poll(20, TimeUnit.SECONDS)).isEqualTo("1001 server shutting down");
    }
    assertThat(server.stats().openConnections()).isZero();
  }

  @Test
  void subprotocol_offeredAndKnown_agreed() throws Exception {
    HttpServer server = start(builder().get("/chat", WebSocketRoute.of(WebSocketSettings.builder().subprotocols("chat.v2", "chat.v1").build(),
        socket -> socket.send("agreed " + socket.subprotocol() + " for " + socket.request().path()))));
    try (JdkClient c = JdkClient.connect(HttpClient.newHttpClient().newWebSocketBuilder().subprotocols("chat.v1"),
        server.port(), "/chat")) {
      assertThat(c.next()).isEqualTo("text:agreed chat.v1 for /chat");
      assertThat(c.socket.getSubprotocol()).isEqualTo("chat.v1");
    }
  }

  @Test
  void protocolViolation_badUtf8OrUnmaskedFrame_closes1007Or1002() throws Exception {
    HttpServer server = start(builder().get("/echo", WebSocketRoute.of(ECHO)));
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      assertThat(handshake(s, "/echo", "")).startsWith("HTTP/1.1 101");
      s.getOutputStream().write(new byte[] {(byte) 0x81, (byte) 0x82, 0, 0, 0, 0, (byte) 0xC3, 0x28}); // text, masked, not UTF-8
      assertThat(closeCode(s.getInputStream())).isEqualTo(1007);
    }
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      assertThat(handshake(s, "/echo", "")).startsWith("HTTP/1.1 101");
      s.getOutputStream().write(new byte[] {(byte) 0x81, 0x02, 'h', 'i'}); // a client frame must be masked
      assertThat(closeCode(s.getInputStream())).isEqualTo(1002);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      // what the client sends (masked with a zero key)             | permessage-deflate offered | close code
      "RSV1 on a text frame, no extension agreed: 0xC1 hi           | false | 1002",
      "RSV2 on a text frame, permessage-deflate agreed: 0xA1 hi     | true  | 1002",
      "RSV3 on a binary frame, permessage-deflate agreed: 0x92 hi   | true  | 1002",
      "RSV1 on a continuation frame: 0x01 a 0xC0 b                  | true  | 1002",
      "RSV1 on a ping: 0xC9 p                                       | true  | 1002",
      "close code 5000, in no range RFC 6455 defines: 0x88 #5000    | false | 1002",
      "close code 4999, the last private one, echoed: 0x88 #4999    | false | 4999",
      "close code 1015, never sent in a frame: 0x88 #1015           | false | 1002"})
  void protocolViolation_reservedBitsOrCloseCodes_closes1002(String frames, boolean deflate, int expected)
      throws Exception {
    HttpServer server = start(builder().get("/echo", WebSocketRoute.of(ECHO)));
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      String head = handshake(s, "/echo", deflate ? "Sec-WebSocket-Extensions: permessage-deflate\r\n" : "");
      assertThat(head).startsWith("HTTP/1.1 101");
      assertThat(head.contains("permessage-deflate")).isEqualTo(deflate);
      s.getOutputStream().write(frames(frames.substring(frames.indexOf(':') + 1).trim()));
      assertThat(closeCode(s.getInputStream())).isEqualTo(expected);
    }
  }

  /* "0xC1 hi 0x80 there": each 0x.. starts a frame (its first byte), the word after it is its payload ("#N" a close code). */
  private static byte[] frames(String spec) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    String[] words = spec.split(" ");
    for (int i = 0; i < words.length; i += 2) {
      byte[] payload = words[i + 1].startsWith("#")
          ? new byte[] {(byte) (Integer.parseInt(words[i + 1].substring(1)) >> 8), (byte) Integer.parseInt(words[i + 1].substring(1))}
          : words[i + 1].getBytes(StandardCharsets.UTF_8);
      out.write(Integer.parseInt(words[i].substring(2), 16));
      out.write(0x80 | payload.length); // masked, with the key 0 0 0 0
      out.writeBytes(new byte[4]);
      out.writeBytes(payload);
    }
    return out.toByteArray();
  }

  /* Reads one server frame and returns its close code, or -1 if it is not a Close. */
  private static int closeCode(InputStream in) throws IOException {
    int opcode = in.read() & 0x0F;
    int length = in.read() & 0x7F;
    byte[] payload = in.readNBytes(length);
    return opcode == 8 && length >= 2 ? (payload[0] & 0xFF) << 8 | payload[1] & 0xFF : -1;
  }

  @Test
  void settings_badValues_nameTheField() {
    assertThatThrownBy(() -> WebSocketSettings.builder().maxFrameBytes(0))
        .hasMessage("maxFrameBytes: 0 (expected: > 0)");
    assertThatThrownBy(() -> WebSocketSettings.builder().allowOrigins("good.test"))
        .hasMessageStartingWith("allowedOrigins: good.test (expected:");
    assertThatThrownBy(() -> WebSocketSettings.builder().subprotocols("a b"))
        .hasMessageStartingWith("subprotocols: a b (expected: an HTTP token");
  }

  /* A client socket with a small receive window, which the test will never read from after the handshake. */
  static Socket deafSocket(int port) throws IOException {
    Socket s = new Socket();
    s.setReceiveBufferSize(4096);
    s.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 20_000);
    return s;
  }

  /* Sends an opening handshake on a raw socket and returns the response head (not reading further). */
  static String handshake(Socket s, String path, String extraHeaders) throws IOException {
    s.setSoTimeout(20_000);
    OutputStream out = s.getOutputStream();
    out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" + extraHeaders + "\r\n")
        .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    InputStream in = s.getInputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        break;
      }
      head.append((char) b);
    }
    return head.toString();
  }
}
