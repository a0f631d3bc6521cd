package io.krill.loadtest.echo;

import io.krill.fibers.Checks;
import io.krill.loadtest.launch.Mains;
import io.krill.loadtest.load.LoadResult;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The closed-loop echo load generator, alone in its JVM: opens {@code connections} to
 * 127.0.0.1:{@code port} from source addresses 127.0.0.2, 127.0.0.3, ..., and on each one
 * sends a {@code size}-byte message, waits for all of it to come back (checking every byte),
 * and sends the next. A warm-up phase, then a measured phase, each ends at its time or its
 * count of round trips, whichever comes first.
 *
 * <p>Built on raw async Netty (epoll when it loads, else NIO), not on krill: the generator
 * must not share code with one of the servers it compares, and an event-loop client is the
 * cheapest per round trip, so the servers saturate before it does.
 *
 * <p>Prints {@code connected N ms M}, {@code phase measure}, {@code phase done}, then one
 * {@code result key=value ...} line whose {@code histogram} is the measured round trips in
 * nanoseconds, an HdrHistogram compressed and base64-encoded; with {@code --format load}, the
 * load harness's {@link LoadResult} line instead (the harness's echo scenario runs this
 * generator). Exits with status 2 when the
 * run fails (connects time out, a connection drops, an echo differs).
 */
public final class EchoClientMain {
  static final long HIGHEST_TRACKABLE_NANOS = TimeUnit.SECONDS.toNanos(60);
  static final int WARMUP = 0;
  static final int MEASURE = 1;
  static final int STOP = 2;

  private EchoClientMain() {}

  /** Options, all bounded, parsed by picocli ({@code EchoClientMain --help} lists them). */
  @Command(name = "EchoClientMain", mixinStandardHelpOptions = true, sortOptions = false,
      description = "The closed-loop raw-Netty echo client of krill loadtest's echo scenario, alone in its JVM.")
  static final class Options {
    @Option(names = "--port", required = true, description = "server port on 127.0.0.1")
    int port;
    @Option(names = "--connections", description = "connections, 1..19000 (default: ${DEFAULT-VALUE})")
    int connections = 1;
    @Option(names = "--size", description = "message bytes, 1..65536 (default: ${DEFAULT-VALUE})")
    int size = 64;
    @Option(names = "--sources", description = "source addresses 127.0.0.2, ..., 1..250 (default: ${DEFAULT-VALUE})")
    int sources = 64;
    @Option(names = "--threads", description = "event loops, 1..64 (default: the processors)")
    int threads = Runtime.getRuntime().availableProcessors();
    int connectsInFlight = 256;
    @Option(names = "--connect-seconds", description = "longest time to connect, 1..600 (default: ${DEFAULT-VALUE})")
    long connectSeconds = 120;
    @Option(names = "--warmup-ms", description = "warm-up time, 0..600000 (default: ${DEFAULT-VALUE})")
    long warmupMillis = 3000;
    @Option(names = "--warmup-count", description = "warm-up ends after this many round trips (default: ${DEFAULT-VALUE})")
    long warmupCount = 50_000_000;
    @Option(names = "--measure-ms", description = "measured time, 1..600000 (default: ${DEFAULT-VALUE})")
    long measureMillis = 5000;
    @Option(names = "--measure-count", description = "measurement ends after this many round trips (default: ${DEFAULT-VALUE})")
    long measureCount = 100_000_000;
    @Option(names = "--format", description = "echo (this class's result line) or load (the harness's LoadResult line)")
    String format = "echo";
    /** Print the result as a {@link LoadResult} line (the load harness reads that) instead of this class's own. */
    boolean loadResult;

    static Options parse(String[] args) {
      Options o = Mains.parseOrThrow(new Options(), args);
      if (!o.format.equals("echo") && !o.format.equals("load")) {
        throw new IllegalArgumentException("--format: " + o.format + " (expected: echo or load)");
      }
      o.loadResult = o.format.equals("load");
      Checks.inRange("--port", o.port, 1, 65535);
      Checks.inRange("--connections", o.connections, 1, 19_000);
      Checks.inRange("--size", o.size, 1, 65536);
      Checks.inRange("--sources", o.sources, 1, 250);
      Checks.inRange("--threads", o.threads, 1, 64);
      Checks.inRange("--connect-seconds", o.connectSeconds, 1, 600);
      Checks.inRange("--warmup-ms", o.warmupMillis, 0, 600_000);
      Checks.inRange("--measure-ms", o.measureMillis, 1, 600_000);
      Checks.inRange("--warmup-count", o.warmupCount, 0, Long.MAX_VALUE);
      Checks.inRange("--measure-count", o.measureCount, 1, Long.MAX_VALUE);
      return o;
    }
  }

  /** What one event loop counted; written only by that loop, read by the driver. */
  static final class LoopStats {
    final Histogram histogram = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);
    volatile long warmupRoundTrips;
    volatile long measuredRoundTrips;
  }

  /** State shared by every connection of the run. */
  static final class Run {
    final byte[] pattern;
    final Map<EventLoop, LoopStats> stats = new HashMap<>();
    final AtomicInteger failures = new AtomicInteger();
    final AtomicInteger idle = new AtomicInteger();
    volatile int phase = WARMUP;
    volatile String firstFailure;

    Run(int size) {
      pattern = new byte[size];
      for (int i = 0; i < size; i++) {
        pattern[i] = (byte) (i * 31 + 7);
      }
    }

    void fail(String why) {
      if (failures.getAndIncrement() == 0) {
        firstFailure = why;
      }
    }

    long sum(boolean measured) {
      long n = 0;
      for (LoopStats s : stats.values()) {
        n += measured ? s.measuredRoundTrips : s.warmupRoundTrips;
      }
      return n;
    }
  }

  /** One connection's closed loop: send, wait for the whole echo, record, send again. */
  static final class EchoHandler extends ChannelInboundHandlerAdapter {
    private final Run run;
    private final ByteBuf message;
    private LoopStats stats;
    private ChannelHandlerContext ctx;
    private int received;
    private long sentAt;
    private boolean stopped;

    EchoHandler(Run run) {
      this.run = run;
      this.message = Unpooled.unreleasableBuffer(Unpooled.directBuffer(run.pattern.length).writeBytes(run.pattern));
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      this.ctx = ctx;
      this.stats = run.stats.get(ctx.channel().eventLoop());
    }

    /** Sends the first message; runs on the channel's loop. */
    void start() {
      send();
    }

    private void send() {
      received = 0;
      sentAt = System.nanoTime();
      ctx.writeAndFlush(message.duplicate(), ctx.voidPromise());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf b = (ByteBuf) msg;
      try {
        int n = b.readableBytes();
        byte[] p = run.pattern;
        if (received + n > p.length) {
          run.fail("echo longer than sent: " + (received + n) + " > " + p.length + " bytes");
          ctx.close();
          return;
        }
        int r = b.readerIndex();
        for (int i = 0; i < n; i++) {
          if (b.getByte(r + i) != p[received + i]) {
            run.fail("echo differs at byte " + (received + i));
            ctx.close();
            return;
          }
        }
        received += n;
      } finally {
        b.release();
      }
      if (received == run.pattern.length) {
        completed(System.nanoTime() - sentAt);
      }
    }

    private void completed(long nanos) {
      int phase = run.phase;
      if (phase == MEASURE) {
        stats.histogram.recordValue(Math.min(nanos, HIGHEST_TRACKABLE_NANOS));
        stats.measuredRoundTrips++;
      } else if (phase == WARMUP) {
        stats.warmupRoundTrips++;
      }
      if (phase == STOP) {
        stopped = true;
        run.idle.incrementAndGet();
      } else {
        send();
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      if (!stopped && run.phase != STOP) {
        run.fail("connection closed by the server during the run: " + ctx.channel());
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      if (run.phase != STOP) {
        run.fail(cause.toString());
      }
      ctx.close();
    }
  }

  /**
   * Runs the client.
   *
   * @param args the options ({@code --help} lists them)
   */
  public static void main(String[] args) throws Exception {
    Options o;
    try {
      o = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.out.println("failed: " + e.getMessage());
      System.exit(2);
      return;
    }
    Thread limit = new Thread(() -> {
      try {
        Thread.sleep(TimeUnit.SECONDS.toMillis(o.connectSeconds + 120) + o.warmupMillis + o.measureMillis);
      } catch (InterruptedException e) {
        return;
      }
      System.out.println("failed: over the time limit");
      Runtime.getRuntime().halt(2);
    }, "lifetime-limit");
    limit.setDaemon(true);
    limit.start();
    Thread orphan = new Thread(() -> {
      try {
        while (System.in.read() >= 0) {
          // Runs until the driver closes our standard input or dies.
        }
      } catch (java.io.IOException e) {
        // Same as end of input.
      }
      Runtime.getRuntime().halt(4);
    }, "stdin-watch");
    orphan.setDaemon(true);
    orphan.start();
    int status = run(o);
    System.out.flush();
    Runtime.getRuntime().halt(status);
  }

  private static int run(Options o) throws Exception {
    boolean epoll = Epoll.isAvailable();
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(o.threads,
        epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    Run run = new Run(o.size);
    for (int i = 0; i < o.threads; i++) {
      run.stats.put(group.next(), new LoopStats());
    }
    List<Channel> channels = new ArrayList<>(o.connections);
    List<EchoHandler> handlers = new ArrayList<>(o.connections);
    try {
      Bootstrap b = new Bootstrap().group(group).channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
          .option(ChannelOption.TCP_NODELAY, true)
          .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 30_000);
      long t0 = System.nanoTime();
      String failed = connect(o, b, run, channels, handlers);
      if (failed != null) {
        System.out.println("failed: " + failed);
        return 2;
      }
      System.out.println("connected " + o.connections + " ms " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)
          + " transport " + (epoll ? "epoll" : "nio"));
      System.out.flush();
      for (int i = 0; i < channels.size(); i++) {
        channels.get(i).eventLoop().execute(handlers.get(i)::start);
      }
      long nanos = drive(o, run);
      awaitIdle(run, channels.size());
      report(o, run, nanos);
      if (run.failures.get() > 0) {
        System.out.println("failed: " + run.failures.get() + " failures, first: " + run.firstFailure);
        return 2;
      }
      return 0;
    } finally {
      long closeEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      for (Channel ch : channels) {
        ch.close();
      }
      for (Channel ch : channels) {
        ch.closeFuture().awaitUninterruptibly(Math.max(1, TimeUnit.NANOSECONDS.toMillis(closeEnd - System.nanoTime())));
      }
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5000);
    }
  }

  /**
   * Opens every connection, at most {@code connectsInFlight} at a time, from source addresses
   * 127.0.0.2, 127.0.0.3, ... in turn, so that no one address runs out of ephemeral ports.
   *
   * @return null when all are connected, else why not
   */
  private static String connect(Options o, Bootstrap b, Run run, List<Channel> channels, List<EchoHandler> handlers)
      throws Exception {
    InetSocketAddress server = new InetSocketAddress(InetAddress.getLoopbackAddress(), o.port);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(o.connectSeconds);
    Semaphore inFlight = new Semaphore(o.connectsInFlight);
    List<ChannelFuture> futures = new ArrayList<>(o.connections);
    for (int i = 0; i < o.connections; i++) {
      if (!inFlight.tryAcquire(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
        return "connected fewer than " + (i + 1) + " of " + o.connections + " in " + o.connectSeconds + " s";
      }
      EchoHandler h = new EchoHandler(run);
      handlers.add(h);
      byte[] source = {127, 0, 0, (byte) (2 + i % o.sources)};
      ChannelFuture f = b.clone().handler(h).connect(server, new InetSocketAddress(InetAddress.getByAddress(source), 0));
      f.addListener(x -> inFlight.release());
      futures.add(f);
    }
    for (ChannelFuture f : futures) {
      long left = deadline - System.nanoTime();
      if (!f.awaitUninterruptibly(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left))) || !f.isSuccess()) {
        return "connect " + (f.isDone() ? String.valueOf(f.cause()) : "timed out");
      }
      channels.add(f.channel());
    }
    return null;
  }

  /**
   * Runs the warm-up, then the measured phase, each to its time or count, then tells every
   * connection to stop after its round trip in flight.
   *
   * @return the measured phase's length in nanoseconds
   */
  private static long drive(Options o, Run run) throws InterruptedException {
    long warmupEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(o.warmupMillis);
    while (System.nanoTime() < warmupEnd && run.sum(false) < o.warmupCount && run.failures.get() == 0) {
      Thread.sleep(2);
    }
    run.phase = MEASURE;
    long start = System.nanoTime();
    System.out.println("phase measure");
    System.out.flush();
    long measureEnd = start + TimeUnit.MILLISECONDS.toNanos(o.measureMillis);
    while (System.nanoTime() < measureEnd && run.sum(true) < o.measureCount && run.failures.get() == 0) {
      Thread.sleep(2);
    }
    run.phase = STOP;
    long nanos = System.nanoTime() - start;
    System.out.println("phase done");
    System.out.flush();
    return nanos;
  }

  private static void awaitIdle(Run run, int connections) throws InterruptedException {
    long drainEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (run.idle.get() < connections && run.failures.get() == 0 && System.nanoTime() < drainEnd) {
      Thread.sleep(2);
    }
  }

  /** Prints the {@code result} line: counts, throughput, and the merged histogram of every loop. */
  private static void report(Options o, Run run, long nanos) throws Exception {
    Histogram all = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);
    long measured = 0;
    long warmup = 0;
    for (Map.Entry<EventLoop, LoopStats> e : run.stats.entrySet()) {
      LoopStats s = e.getValue();
      // Copied on the loop that writes it.
      all.add(e.getKey().submit(s.histogram::copy).get(10, TimeUnit.SECONDS));
      measured += s.measuredRoundTrips;
      warmup += s.warmupRoundTrips;
    }
    if (o.loadResult) {
      LoadResult r = new LoadResult();
      r.connections = o.connections;
      r.warmupRequests = warmup;
      r.requests = measured;
      r.measuredNanos = nanos;
      r.badResponses = run.failures.get();
      r.firstError = run.firstFailure == null ? "" : run.firstFailure;
      r.latency.add(all);
      r.serviceTime.add(all); // closed loop: each round trip is sent the moment the last one is back
      System.out.println(r.toLine());
      return;
    }
    double seconds = nanos / 1e9;
    ByteBuffer buf = ByteBuffer.allocate(all.getNeededByteBufferCapacity());
    int len = all.encodeIntoCompressedByteBuffer(buf);
    String histogram = Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), len));
    System.out.printf(java.util.Locale.ROOT,
        "result connections=%d size=%d warmup=%d measured=%d seconds=%.6f rps=%.1f p50us=%.1f p99us=%.1f "
            + "failures=%d idle=%d histogram=%s%n",
        o.connections, o.size, warmup, measured, seconds, measured / seconds,
        all.getValueAtPercentile(50) / 1e3, all.getValueAtPercentile(99) / 1e3,
        run.failures.get(), run.idle.get(), histogram);
  }
}
