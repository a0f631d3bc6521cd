package io.krill.netio;

import static io.krill.netio.TestLoops.inFiber;
import static io.krill.netio.TestLoops.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.fibers.Continuation;
import io.krill.fibers.Fiber;
import io.netty.handler.codec.LineBasedFrameDecoder;
import io.netty.handler.codec.string.StringDecoder;
import io.netty.handler.codec.string.StringEncoder;
import java.io.EOFException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class FiberSocketTest {
  /** Echoes lines until the client half-closes, then closes. */
  static final SocketHandler LINE_ECHO = s -> {
    for (String line; (line = s.input().readLine()) != null; ) {
      s.output().writeUtf8(line + "\n");
      s.output().flush();
    }
  };

  /** Echoes bytes until end of stream. */
  static final SocketHandler BYTE_ECHO = s -> {
    byte[] buf = new byte[4096];
    for (int n; (n = s.input().read(buf)) > 0; ) {
      s.output().write(buf, 0, n);
      s.output().flush();
    }
  };

  @Test
  void readLine_echoServer_returnsLinesInOrderThenEndOfStream() throws Exception {
    try (FiberServerSocket server = TestLoops.serve(options().build(), LINE_ECHO)) {
      List<String> got = inFiber(() -> {
        List<String> lines = new ArrayList<>();
        try (FiberSocket s = FiberSocket.connect("127.0.0.1", server.port(), options().build())) {
          s.output().writeUtf8("héllo\r\nworld\n");
          s.output().flush();
          lines.add(s.input().readLine(100));
          lines.add(s.input().readLine(100));
          s.shutdownOutput();
          lines.add(s.input().readLine(100));
        }
        return lines;
      });
      assertThat(got).containsExactly("héllo", "world", null);
    }
  }

  @Test
  void connect_fromPlatformThread_blocksThreadAndEchoes() throws Exception {
    try (FiberServerSocket server = TestLoops.serve(options().build(), LINE_ECHO)) {
      String echoed = Continuation.callOnThread(() -> {
        try (FiberSocket s = FiberSocket.connect("localhost", server.port(), options().build())) {
          s.output().writeUtf8("from a thread\n");
          s.output().flush();
          return s.input().readLine();
        }
      });
      assertThat(echoed).isEqualTo("from a thread");
    }
  }

  @Test
  void connect_localAddressSet_serverSeesThatSourceAddress() throws Exception {
    try (FiberServerSocket server = TestLoops.serve(options().build(), s -> {
      s.output().writeUtf8(((InetSocketAddress) s.remoteAddress()).getAddress().getHostAddress() + "\n");
      s.output().flush();
    })) {
      String seen = inFiber(() -> {
        try (FiberSocket s = FiberSocket.connect("127.0.0.1", server.port(),
            options().localAddress(java.net.InetAddress.getByName("127.0.0.3")).build())) {
          return s.input().readLine(100);
        }
      });
      assertThat(seen).isEqualTo("127.0.0.3");
    }
  }

  @Test
  void accept_clientConnects_returnsSocketThatReadsAndWrites() throws Exception {
    try (FiberServerSocket server = TestLoops.bind(options().build())) {
      Fiber serverFiber = Fiber.builder().scheduler(TestLoops.scheduler()).start(() -> {
        try (FiberSocket s = server.accept()) {
          byte[] b = new byte[5];
          s.input().readFully(b);
          s.output().write(b);
          s.output().write('!');
          s.output().flush();
        } catch (java.io.IOException e) {
          throw new AssertionError(e);
        }
      });
      String got = inFiber(() -> {
        try (FiberSocket s = FiberSocket.connect("127.0.0.1", server.port(), options().build())) {
          s.output().write("abcde".getBytes(StandardCharsets.US_ASCII));
          s.output().flush();
          byte[] b = new byte[6];
          s.input().readFully(b);
          assertThat(s.input().read()).isEqualTo(-1);
          return new String(b, StandardCharsets.US_ASCII);
        }
      });
      assertThat(got).isEqualTo("abcde!");
      Continuation.runOnThread(serverFiber::join);
    }
  }

  @Test
  void echo_manyConcurrentFiberConnections_everyByteReturnsInOrder() throws Exception {
    int connections = Integer.getInteger("krill.netio.echo.connections", 2000);
    EchoClients.run("127.0.0.1", startEchoServer(), connections, TestLoops.scheduler());
  }

  @Test
  void echo_epollTransport_everyByteReturnsInOrder() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(Transport.EPOLL.isAvailable(), "epoll does not load here");
    FiberServerSocket server = TestLoops.serve(options().transport(Transport.EPOLL).build(), BYTE_ECHO);
    SERVERS.add(server);
    EchoClients.run("127.0.0.1", server.port(), 200, TestLoops.scheduler(), Transport.EPOLL);
  }

  @Test
  void serve_epollCarriers_channelsAndFibersShareTheEpollLoops() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(Transport.EPOLL.isAvailable(), "epoll does not load here");
    io.krill.fibers.internal.EventLoopScheduler epollLoops = new io.krill.fibers.internal.EventLoopScheduler(2, true, true);
    try {
      assertThat(io.krill.netio.internal.Transports.group(Transport.EPOLL, epollLoops)).isSameAs(epollLoops.group());
      assertThat(io.krill.netio.internal.Transports.group(Transport.NIO, epollLoops)).isNotSameAs(epollLoops.group());
      SocketOptions o = SocketOptions.builder().scheduler(epollLoops).transport(Transport.EPOLL)
          .connectTimeout(Duration.ofSeconds(5)).readTimeout(Duration.ofSeconds(20)).build();
      java.util.Set<String> handlerThreads = java.util.concurrent.ConcurrentHashMap.newKeySet();
      FiberServerSocket server = Continuation.callOnThread(() -> FiberServerSocket.bind("127.0.0.1", 0, o));
      try {
        server.serve(s -> {
          io.netty.channel.EventLoop loop = io.krill.fibers.internal.EventLoopScheduler.currentLoop();
          handlerThreads.add(loop != null && loop.parent() == epollLoops.group() ? "carrier" : Thread.currentThread().getName());
          BYTE_ECHO.handle(s);
        });
        EchoClients.run("127.0.0.1", server.port(), 100, epollLoops, Transport.EPOLL);
      } finally {
        server.close();
      }
      assertThat(handlerThreads).containsExactly("carrier");
    } finally {
      epollLoops.close();
    }
  }

  @Test
  void ioProperty_unknownValue_namesTheProperty() {
    String old = System.getProperty("krill.fibers.io");
    System.setProperty("krill.fibers.io", "kqueue");
    try {
      assertThatThrownBy(io.krill.fibers.internal.EventLoopScheduler::ioFromSystemProperty)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("krill.fibers.io: kqueue (expected: nio, epoll or auto)");
    } finally {
      if (old == null) {
        System.clearProperty("krill.fibers.io");
      } else {
        System.setProperty("krill.fibers.io", old);
      }
    }
  }

  @Test
  void transport_auto_resolvesToAvailableOne() {
    assertThat(Transport.AUTO.resolve()).isEqualTo(Transport.EPOLL.isAvailable() ? Transport.EPOLL : Transport.NIO);
  }

  private static int startEchoServer() throws Exception {
    FiberServerSocket server = Continuation.callOnThread(
        () -> TestLoops.serve(options().backlog(4096).build(), BYTE_ECHO));
    SERVERS.add(server);
    return server.port();
  }

  private static final List<FiberServerSocket> SERVERS = new java.util.concurrent.CopyOnWriteArrayList<>();

  @org.junit.jupiter.api.AfterEach
  void closeServers() {
    SERVERS.forEach(FiberServerSocket::close);
    SERVERS.clear();
  }

  @Test
  void readFully_streamEndsEarly_throwsEofNamingCounts() throws Exception {
    try (FiberServerSocket server = TestLoops.serve(options().build(), s -> {
      s.output().write(new byte[3]);
    })) {
      assertThatThrownBy(() -> inFiber(() -> {
        try (FiberSocket s = FiberSocket.connect("127.0.0.1", server.port(), options().build())) {
          s.input().readFully(new byte[10]);
          return null;
        }
      })).isInstanceOf(EOFException.class).hasMessageContaining("after 3 of 10 bytes from 127.0.0.1:" + server.port());
    }
  }

  @Test
  void readLine_lineLongerThanLimit_throwsLineTooLong() throws Exception {
    try (FiberServerSocket server = TestLoops.serve(options().build(), s -> {
      s.output().writeUtf8("0123456789\n");
    })) {
      assertThatThrownBy(() -> inFiber(() -> {
        try (FiberSocket s = FiberSocket.connect("127.0.0.1", server.port(), options().build())) {
          return s.input().readLine(9);
        }
      })).isInstanceOf(LineTooLongException.class).hasMessageContaining("longer than 9 bytes");
    }
  }

  @Test
  void readLine_exactlyAtLimitWithCrlfAndLastLineUnterminated_returnsBoth() throws Exception {
    try (FiberServerSocket server = TestLoops.serve(options().build(), s -> {
      s.output().writeUtf8("0123456789\r\nlast");
    })) {
      List<String> got = inFiber(() -> {
        try (FiberSocket s = FiberSocket.connect("127.0.0.1", server.port(), options().build())) {
          List<String> out = new ArrayList<>();
          out.add(s.input().readLine(10));
          assertThat(s.input().skip(2)).isEqualTo(2);
          out.add(s.input().readLine(10));
          out.add(s.input().readLine(10));
          return out;
        }
      });
      assertThat(got).containsExactly("0123456789", "st", null);
    }
  }

  @Test
  void readLine_zeroLimit_rejectedInHouseFormat() throws Exception {
    try (FiberServerSocket server = TestLoops.serve(options().build(), s -> {})) {
      assertThatThrownBy(() -> inFiber(() -> {
        try (FiberSocket s = FiberSocket.connect("127.0.0.1", server.port(), options().build())) {
          return s.input().readLine(0);
        }
      })).isInstanceOf(IllegalArgumentException.class).hasMessage("maxLength: 0 (expected: > 0)");
    }
  }

  @Test
  void options_invalidLimits_rejectedInHouseFormat() {
    assertThatThrownBy(() -> SocketOptions.builder().outputBufferSize(0))
        .hasMessage("outputBufferSize: 0 (expected: > 0)");
    assertThatThrownBy(() -> SocketOptions.builder().backlog(-1)).hasMessage("backlog: -1 (expected: > 0)");
    assertThatThrownBy(() -> SocketOptions.builder().readTimeout(Duration.ofSeconds(-1)))
        .hasMessage("readTimeout: PT-1S (expected: >= 0)");
    assertThatThrownBy(() -> SocketOptions.builder().writeBufferWaterMark(10, 5))
        .hasMessage("writeHighWaterMark: 5 (expected: >= writeLowWaterMark 10)");
    assertThatThrownBy(() -> Continuation.callOnThread(() -> FiberSocket.connect("127.0.0.1", 0)))
        .hasMessage("port: 0 (expected: 1..65535)");
  }

  @Test
  void connect_nobodyListening_throwsConnectExceptionWithHostPort() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    assertThatThrownBy(() -> inFiber(() -> FiberSocket.connect("127.0.0.1", port, options().build())))
        .isInstanceOf(ConnectException.class).hasMessage("Connection refused: 127.0.0.1:" + port);
  }

  @Test
  void connect_acceptQueueFull_throwsSocketTimeout() throws Exception {
    // A listener that never accepts, with its queue filled: the kernel drops further SYNs.
    try (ServerSocket full = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      List<Socket> fillers = new ArrayList<>();
      try {
        for (int i = 0; i < 3; i++) {
          Socket f = new Socket();
          try {
            f.connect(new InetSocketAddress("127.0.0.1", full.getLocalPort()), 300);
          } catch (SocketTimeoutException e) {
            f.close();
            break;
          }
          fillers.add(f);
        }
        SocketOptions o = options().connectTimeout(Duration.ofMillis(300)).build();
        assertThatThrownBy(() -> inFiber(() -> FiberSocket.connect("127.0.0.1", full.getLocalPort(), o)))
            .isInstanceOf(SocketTimeoutException.class)
            .hasMessage("Connect timed out after 300 ms: 127.0.0.1:" + full.getLocalPort());
      } finally {
        for (Socket f : fillers) {
          f.close();
        }
      }
    }
  }

  @Test
  void read_peerSendsNothing_throwsSocketTimeoutAfterReadTimeout() throws Exception {
    CountDownLatch done = new CountDownLatch(1);
    try (FiberServerSocket server = TestLoops.serve(options().build(), s -> {
      s.input().read(); // waits for the client to close
      done.countDown();
    })) {
      SocketOptions o = options().readTimeout(Duration.ofMillis(200)).build();
      assertThatThrownBy(() -> inFiber(() -> {
        try (FiberSocket s = FiberSocket.connect("127.0.0.1", server.port(), o)) {
          return s.input().readLine();
        }
      })).isInstanceOf(SocketTimeoutException.class).hasMessage("Read timed out after 200 ms: 127.0.0.1:" + server.port());
      assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void read_peerResetsMidStream_deliversDataThenSocketExceptionNamingPeer() throws Exception {
    try (ServerSocket plain = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      Thread peer = new Thread(() -> {
        try (Socket s = plain.accept()) {
          OutputStream out = s.getOutputStream();
          InputStream in = s.getInputStream();
          out.write("hello\n".getBytes(StandardCharsets.US_ASCII));
          out.flush();
          in.read(); // the client's go-ahead
          s.setSoLinger(true, 0); // close sends RST
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      peer.start();
      AtomicReference<String> first = new AtomicReference<>();
      assertThatThrownBy(() -> inFiber(() -> {
        try (FiberSocket s = FiberSocket.connect("127.0.0.1", plain.getLocalPort(), options().build())) {
          first.set(s.input().readLine());
          s.output().write('g');
          s.output().flush();
          return s.input().readLine();
        }
      })).isInstanceOf(SocketException.class).hasMessage("Connection reset by peer: 127.0.0.1:" + plain.getLocalPort());
      assertThat(first.get()).isEqualTo("hello");
      peer.join();
    }
  }

  @Test
  void shutdownOutput_peerReadsEndOfStream_peerCanStillAnswer() throws Exception {
    try (FiberServerSocket server = TestLoops.serve(options().build(), s -> {
      long total = 0;
      byte[] b = new byte[1024];
      for (int n; (n = s.input().read(b)) > 0; ) {
        total += n;
      }
      s.output().writeUtf8("got " + total + "\n");
    })) {
      String answer = inFiber(() -> {
        try (FiberSocket s = FiberSocket.connect("127.0.0.1", server.port(), options().build())) {
          s.output().write(new byte[100_000]);
          s.shutdownOutput();
          try {
            s.output().write(1);
            s.output().flush();
            throw new AssertionError("flush after shutdownOutput succeeded");
          } catch (SocketException expected) {
            // the output is shut down
          }
          String line = s.input().readLine();
          assertThat(s.input().readLine()).isNull();
          return line;
        }
      });
      assertThat(answer).isEqualTo("got 100000");
    }
  }

  @Test
  void close_whileAnotherFiberReads_readerGetsSocketException() throws Exception {
    try (FiberServerSocket server = TestLoops.serve(options().build(), s -> s.input().read())) {
      Throwable failure = inFiber(() -> {
        FiberSocket s = FiberSocket.connect("127.0.0.1", server.port(), options().build());
        AtomicReference<Throwable> seen = new AtomicReference<>();
        Fiber reader = Fiber.builder().start(() -> {
          try {
            s.input().read();
          } catch (Throwable e) {
            seen.set(e);
          }
        });
        Fiber.sleep(Duration.ofMillis(50));
        s.close();
        reader.join();
        return seen.get();
      });
      assertThat(failure).isInstanceOf(SocketException.class).hasMessageStartingWith("Socket closed: 127.0.0.1:");
    }
  }

  @Test
  void flush_slowReaderFastWriter_writerParksAndUnreadBytesStayBounded() throws Exception {
    long total = 32L << 20;
    AtomicLong read = new AtomicLong();
    AtomicLong maxAhead = new AtomicLong();
    AtomicLong written = new AtomicLong();
    SocketOptions small = options().sendBufferSize(64 * 1024).receiveBufferSize(64 * 1024).build();
    try (FiberServerSocket server = TestLoops.serve(small, s -> {
      byte[] b = new byte[8192];
      Fiber.sleep(Duration.ofMillis(300)); // the writer runs into the water mark meanwhile
      for (int n; (n = s.input().read(b)) > 0; ) {
        read.addAndGet(n);
        if ((read.get() & ((1 << 20) - 1)) < n) {
          Fiber.sleep(Duration.ofMillis(1));
        }
      }
    })) {
      inFiber(() -> {
        try (FiberSocket s = FiberSocket.connect("127.0.0.1", server.port(), small)) {
          byte[] chunk = new byte[16384];
          while (written.get() < total) {
            s.output().write(chunk);
            written.addAndGet(chunk.length);
            maxAhead.accumulateAndGet(written.get() - read.get(), Math::max);
          }
          s.shutdownOutput();
          assertThat(s.input().read()).isEqualTo(-1);
        }
        return null;
      });
    }
    assertThat(read.get()).isEqualTo(total);
    // Kernel buffers (both ends, autotuned on loopback) + Netty's high water mark + one buffer.
    assertThat(maxAhead.get()).isLessThan(8L << 20);
  }

  @Test
  void messages_lineCodec_receivesDecodedAndSendsEncoded() throws Exception {
    try (FiberServerSocket server = TestLoops.serve(options().build(), s -> {
      MessageSocket<String> m = s.messages(p -> p.addLast(new LineBasedFrameDecoder(64),
          new StringDecoder(StandardCharsets.UTF_8), new StringEncoder(StandardCharsets.UTF_8)));
      for (String line; (line = m.receive()) != null; ) {
        m.send(line.toUpperCase(java.util.Locale.ROOT) + "\n");
      }
    })) {
      List<String> got = inFiber(() -> {
        try (FiberSocket s = FiberSocket.connect("127.0.0.1", server.port(), options().build())) {
          MessageSocket<String> m = s.messages(p -> p.addLast(new LineBasedFrameDecoder(64),
              new StringDecoder(StandardCharsets.UTF_8), new StringEncoder(StandardCharsets.UTF_8)));
          m.write("one\n");
          m.write("two\n");
          m.flush();
          List<String> out = new ArrayList<>();
          out.add(m.receive());
          out.add(m.receive());
          m.shutdownOutput();
          out.add(m.receive());
          assertThatThrownBy(s::input).isInstanceOf(IllegalStateException.class);
          return out;
        }
      });
      assertThat(got).containsExactly("ONE", "TWO", null);
    }
  }

  @Test
  void messages_frameTooLong_receiveThrowsIoExceptionNamingPeer() throws Exception {
    try (FiberServerSocket server = TestLoops.serve(options().build(), s -> {
      s.output().writeUtf8("x".repeat(100) + "\n");
      s.output().flush();
      s.input().read();
    })) {
      assertThatThrownBy(() -> inFiber(() -> {
        try (FiberSocket s = FiberSocket.connect("127.0.0.1", server.port(), options().build())) {
          MessageSocket<String> m = s.messages(p -> p.addLast(new LineBasedFrameDecoder(10),
              new StringDecoder(StandardCharsets.UTF_8)));
          return m.receive();
        }
      })).isInstanceOf(java.io.IOException.class).hasMessageStartingWith("Decoding a message from 127.0.0.1:");
    }
  }
}
