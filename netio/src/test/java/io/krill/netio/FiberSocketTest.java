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
      String echoed = Continuation.callOnThread(() -> TestLoops.echoLine("localhost", server.port(), options().build(), "from a thread"));
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

  @EveryTransport
  void echo_manyConcurrentFiberConnections_everyByteReturnsInOrderOnChannelLoops(Transport transport) throws Exception {
    int connections = Integer.getInteger("krill.netio.echo.connections", 2000);
    TestLoops.Carriers c = TestLoops.on(transport);
    java.util.concurrent.atomic.AtomicInteger served = new java.util.concurrent.atomic.AtomicInteger();
    FiberServerSocket server = c.serve(c.options().backlog(4096).build(), s -> {
      served.incrementAndGet();
      BYTE_ECHO.handle(s);
    });
    SERVERS.add(server);
    EchoClients.run("127.0.0.1", server.port(), connections, c.scheduler(), transport);
    // Every handler ran on its channel's loop, a carrier of this transport: checked in c.serve,
    // reported by NetioInvariant.
    assertThat(served.get()).isEqualTo(connections);
  }

  @EveryTransport
  void echo_transportUnlikeCarriers_channelsOnSharedGroupFibersOnCarriers(Transport carriers) throws Exception {
    TestLoops.Carriers c = TestLoops.on(carriers);
    Transport other = carriers == Transport.NIO ? Transport.IO_URING : Transport.NIO;
    io.netty.channel.EventLoopGroup shared = other.group(c.scheduler());
    assertThat(shared).isNotSameAs(c.group());
    java.util.Queue<String> wrong = new java.util.concurrent.ConcurrentLinkedQueue<>();
    FiberServerSocket server = TestLoops.serve(c.options().transport(other).build(), s -> {
      if (s.connection.channel().eventLoop().parent() != shared || io.krill.fibers.spi.Carriers.currentLoop() == null) {
        wrong.add(Thread.currentThread().getName() + " / " + s.connection.channel().eventLoop());
      }
      BYTE_ECHO.handle(s);
    });
    SERVERS.add(server);
    EchoClients.run("127.0.0.1", server.port(), 200, c.scheduler(), other);
    assertThat(wrong).isEmpty();
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
        .hasMessage("readTimeout: -1s (expected: >= 0)");
    assertThatThrownBy(() -> SocketOptions.builder().writeBufferWaterMark(10, 5))
        .hasMessage("writeHighWaterMark: 5 (expected: >= writeLowWaterMark 10)");
    assertThatThrownBy(() -> Continuation.callOnThread(() -> FiberSocket.connect("127.0.0.1", 0)))
        .hasMessage("port: 0 (expected: 1..65535)");
  }

  @EveryTransport
  void connect_nobodyListening_throwsConnectExceptionWithHostPort(Transport transport) throws Exception {
    TestLoops.Carriers c = TestLoops.on(transport);
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    assertThatThrownBy(() -> c.inFiber(() -> FiberSocket.connect("127.0.0.1", port, c.options().build())))
        .isInstanceOf(ConnectException.class).hasMessage("Connection refused: 127.0.0.1:" + port);
  }

  @EveryTransport
  void connect_acceptQueueFull_throwsSocketTimeout(Transport transport) throws Exception {
    TestLoops.Carriers c = TestLoops.on(transport);
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
        SocketOptions o = c.options().connectTimeout(Duration.ofMillis(300)).build();
        assertThatThrownBy(() -> c.inFiber(() -> FiberSocket.connect("127.0.0.1", full.getLocalPort(), o)))
            .isInstanceOf(SocketTimeoutException.class)
            .hasMessage("Connect timed out after 300 ms: 127.0.0.1:" + full.getLocalPort());
      } finally {
        for (Socket f : fillers) {
          f.close();
        }
      }
    }
  }

  @EveryTransport
  void read_peerSendsNothing_throwsSocketTimeoutAfterReadTimeout(Transport transport) throws Exception {
    TestLoops.Carriers c = TestLoops.on(transport);
    CountDownLatch done = new CountDownLatch(1);
    try (FiberServerSocket server = c.serve(c.options().build(), s -> {
      s.input().read(); // waits for the client to close
      done.countDown();
    })) {
      SocketOptions o = c.options().readTimeout(Duration.ofMillis(200)).build();
      assertThatThrownBy(() -> c.inFiber(() -> {
        try (FiberSocket s = FiberSocket.connect("127.0.0.1", server.port(), o)) {
          return s.input().readLine();
        }
      })).isInstanceOf(SocketTimeoutException.class).hasMessage("Read timed out after 200 ms: 127.0.0.1:" + server.port());
      assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
    }
  }

  @EveryTransport
  void read_peerResetsMidStream_deliversDataThenSocketExceptionNamingPeer(Transport transport) throws Exception {
    TestLoops.Carriers c = TestLoops.on(transport);
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
      assertThatThrownBy(() -> c.inFiber(() -> {
        try (FiberSocket s = FiberSocket.connect("127.0.0.1", plain.getLocalPort(), c.options().build())) {
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

  @EveryTransport
  void shutdownOutput_peerReadsEndOfStream_peerCanStillAnswer(Transport transport) throws Exception {
    TestLoops.Carriers c = TestLoops.on(transport);
    try (FiberServerSocket server = c.serve(c.options().build(), s -> {
      long total = 0;
      byte[] b = new byte[1024];
      for (int n; (n = s.input().read(b)) > 0; ) {
        total += n;
      }
      s.output().writeUtf8("got " + total + "\n");
    })) {
      String answer = c.inFiber(() -> {
        try (FiberSocket s = FiberSocket.connect("127.0.0.1", server.port(), c.options().build())) {
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

  @EveryTransport
  void close_whileAnotherFiberReads_readerGetsSocketException(Transport transport) throws Exception {
    TestLoops.Carriers c = TestLoops.on(transport);
    try (FiberServerSocket server = c.serve(c.options().build(), s -> s.input().read())) {
      Throwable failure = c.inFiber(() -> {
        FiberSocket s = FiberSocket.connect("127.0.0.1", server.port(), c.options().build());
        AtomicReference<Throwable> seen = new AtomicReference<>();
        Fiber reader = Fiber.builder().scheduler(c.scheduler()).start(() -> {
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

  @EveryTransport
  void flush_slowReaderFastWriter_writerParksAndUnreadBytesStayBounded(Transport transport) throws Exception {
    TestLoops.Carriers c = TestLoops.on(transport);
    long total = 32L << 20;
    AtomicLong read = new AtomicLong();
    AtomicLong maxAhead = new AtomicLong();
    AtomicLong written = new AtomicLong();
    SocketOptions small = c.options().sendBufferSize(64 * 1024).receiveBufferSize(64 * 1024).build();
    try (FiberServerSocket server = c.serve(small, s -> {
      byte[] b = new byte[8192];
      Fiber.sleep(Duration.ofMillis(300)); // the writer runs into the water mark meanwhile
      for (int n; (n = s.input().read(b)) > 0; ) {
        read.addAndGet(n);
        if ((read.get() & ((1 << 20) - 1)) < n) {
          Fiber.sleep(Duration.ofMillis(1));
        }
      }
    })) {
      c.inFiber(() -> {
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
  void messages_manyDecodedFromOneRead_receivedInOrderThenEndOfStream() throws Exception {
    int lines = 300;
    StringBuilder all = new StringBuilder();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < lines; i++) {
      all.append("line").append(i).append('\n');
      expected.add("line" + i);
    }
    try (FiberServerSocket server = TestLoops.serve(options().build(), s -> {
      s.output().writeUtf8(all.toString()); // one write: the client's reads each decode many lines
      s.output().flush();
      s.shutdownOutput();
      s.input().read();
    })) {
      List<String> got = inFiber(() -> {
        try (FiberSocket s = FiberSocket.connect("127.0.0.1", server.port(), options().build())) {
          MessageSocket<String> m = s.messages(p -> p.addLast(new LineBasedFrameDecoder(64),
              new StringDecoder(StandardCharsets.UTF_8)));
          List<String> out = new ArrayList<>();
          for (String line; (line = m.receive()) != null; ) {
            out.add(line);
          }
          return out;
        }
      });
      assertThat(got).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void messages_closeWithFramesQueued_releasesThem() throws Exception {
    try (FiberServerSocket server = TestLoops.serve(options().build(), s -> {
      s.output().writeUtf8("a\nb\nc\nd\n");
      s.output().flush();
      s.input().read();
    })) {
      // The reader is a platform thread, so it is not resumed inside the decoder's loop (as a
      // fiber on the channel's loop would be): the loop queues b, c and d while it wakes, and
      // close() finds them queued and must release them (the paranoid leak detector of
      // NetioInvariant fails the test otherwise).
      AtomicLong queued = new AtomicLong();
      String first = Continuation.callOnThread(() -> {
        FiberSocket s = FiberSocket.connect("127.0.0.1", server.port(), options().build());
        MessageSocket<io.netty.buffer.ByteBuf> m = s.messages(p -> p.addLast(new LineBasedFrameDecoder(64)));
        io.netty.buffer.ByteBuf b = m.receive();
        try {
          long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
          while (!s.connection.hasQueued() && System.nanoTime() < end) {
            Thread.sleep(5);
          }
          Thread.sleep(50); // the decoder's loop fires the rest within one channelRead
          queued.set(s.connection.hasQueued() ? 1 : 0);
          return b.toString(StandardCharsets.UTF_8);
        } finally {
          b.release();
          m.close();
        }
      });
      assertThat(queued.get()).as("frames queued behind the first when close() ran").isEqualTo(1);
      assertThat(first).isEqualTo("a");
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
