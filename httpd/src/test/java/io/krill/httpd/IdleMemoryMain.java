package io.krill.httpd;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Measures the resident memory an idle keep-alive connection costs httpd (fiber mode).
 *
 * <p>{@code IdleMemoryMain measure N [rounds] [jvm options...]} starts {@code IdleMemoryMain
 * server} as a child JVM with the given options (the classpath of this one), reads its memory
 * after full collections with no connection open, opens N connections from this process and
 * sends one GET on each (so every connection has served a request and sits idle in keep-alive),
 * reads the memory again, and prints the difference per connection; {@code rounds} repeats the
 * whole sequence with a fresh child. By default each reading follows three {@code System.gc()};
 * with {@code -Didle.collect=periodic} (and {@code -XX:G1PeriodicGCInterval} among the child's
 * options) the child calls no collection but waits, at most {@value #PERIODIC_WAIT_MILLIS} ms,
 * for the JVM's own periodic collection, as an idle server would, and the heap figure is the
 * heap in use after it rather than the live data. With {@code -Didle.collect=idle} the server
 * collects when it has been quiet for {@code -Didle.quiet} (default 30s, {@code krill serve}'s
 * {@code httpd.idle-collection}; {@link HttpServer.Builder#idleCollection}) and each reading waits
 * for that collection, as a real idle {@code krill serve} would do it. The server's idle timeout
 * is ten minutes, so no connection is closed while measured. The two processes keep their file descriptors apart (the
 * limit here is 20,000 per process). Not a test: a measuring program, bounded in count and time
 * (the child halts after ten minutes).
 */
public final class IdleMemoryMain {
  private static final long CHILD_MAX_MILLIS = 600_000;
  /* How long a reading waits for an idle JVM's own collection to start. */
  private static final long PERIODIC_WAIT_MILLIS = 30_000;
  /* With idle.collect=idle: how long a reading waits for the server's idle collection (its quiet time and more). */
  private static final long IDLE_WAIT_MILLIS = 90_000;
  /* After it started: how long the committed heap must hold still to count as shrunk (the remark shrinks it). */
  private static final long SETTLED_MILLIS = 2_000;

  private IdleMemoryMain() {}

  public static void main(String[] args) throws Exception {
    if (args[0].equals("server")) {
      server();
      return;
    }
    int n = Integer.parseInt(args[1]);
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 1;
    List<String> jvm = new ArrayList<>();
    for (int i = 3; i < args.length; i++) {
      jvm.add(args[i]);
    }
    for (int r = 0; r < rounds; r++) {
      measure(n, jvm);
    }
  }

  private static void measure(int n, List<String> jvmOptions) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.add("-Didle.collect=" + COLLECT); // the server collects when idle in that mode
    cmd.add("-Didle.quiet=" + System.getProperty("idle.quiet", "30s"));
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), IdleMemoryMain.class.getName(), "server"));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      PrintStream in = new PrintStream(p.getOutputStream(), true, StandardCharsets.UTF_8);
      String first = out.readLine();
      while (first != null && !first.startsWith("port ")) { // the JVM's own log lines (JFR's start-up) come first
        first = out.readLine();
      }
      int port = Integer.parseInt(first.substring("port ".length()));
      // warm the path once so class loading and JIT are not counted per connection
      List<SocketChannel> warm = open(port, Math.min(n, 1000));
      for (SocketChannel c : warm) {
        c.close();
      }
      Thread.sleep(500);
      long[] before = mem(in, out);
      long start = System.nanoTime();
      List<SocketChannel> held = open(port, n / 3);
      long[] third = mem(in, out);
      held.addAll(open(port, n - n / 3));
      long[] during = mem(in, out);
      // From a third to all: the young generation's pages are touched by then, so this slope is
      // what each further connection keeps resident.
      System.out.printf(Locale.ROOT, "marginal (%,d -> %,d connections): rss %.0f B/conn, heap %.0f B/conn%n", n / 3, n,
          (during[0] - third[0]) / (double) (n - n / 3), (during[1] - third[1]) / (double) (n - n / 3));
      System.out.printf(Locale.ROOT, "connections %,d (opened in %.1f s): rss %.1f -> %.1f MB = %.0f B/conn; "
          + "heap %.1f -> %.1f MB = %.0f B/conn; committed heap %.1f -> %.1f MB; allocated %.0f B/conn; collect %s; jvm %s%n",
          n, (System.nanoTime() - start) / 1e9, before[0] / 1e6, during[0] / 1e6, (during[0] - before[0]) / (double) n,
          before[1] / 1e6, during[1] / 1e6, (during[1] - before[1]) / (double) n, before[3] / 1e6, during[3] / 1e6,
          (during[2] - before[2]) / (double) n, COLLECT, jvmOptions);
      if (Boolean.getBoolean("idle.pause")) { // hold the connections for a look with jcmd
        System.out.println("holding: server pid " + p.pid());
        Thread.sleep(Long.getLong("idle.pauseMillis", 30_000));
      }
      for (SocketChannel c : held) {
        c.close();
      }
    } finally {
      p.getOutputStream().close();
      if (!p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  /* "gc" (three System.gc() before each reading) or "periodic" (the JVM's own collection). */
  private static final String COLLECT = System.getProperty("idle.collect", "gc");

  private static long[] mem(PrintStream in, BufferedReader out) throws IOException, InterruptedException {
    // Idle connections, not just answered ones: an idle connection gives up its fiber after
    // ServerCore.IDLE_STRAND_DELAY, at the next sweep.
    Thread.sleep(ServerCore.IDLE_STRAND_DELAY.toMillis() + 3 * ServerCore.SWEEP_MILLIS);
    in.println("mem " + COLLECT);
    String line = out.readLine();
    while (!line.startsWith("mem ")) {
      if (line.startsWith("periodic ")) { // whether the JVM's own collection came, and when
        System.out.println(line);
      }
      line = out.readLine();
    }
    String[] parts = line.split(" ");
    return new long[] {Long.parseLong(parts[1]), Long.parseLong(parts[2]), Long.parseLong(parts[3]), Long.parseLong(parts[4])};
  }

  /* Opens n connections and sends one GET on each, reading every response whole. */
  private static List<SocketChannel> open(int port, int n) throws IOException {
    ByteBuffer request = ByteBuffer.wrap("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    ByteBuffer response = ByteBuffer.allocate(4096);
    List<SocketChannel> all = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
      all.add(c);
      c.write(request.duplicate());
      response.clear();
      while (!endsResponse(response)) {
        if (c.read(response) < 0) {
          throw new IOException("closed after " + response.position() + " bytes on connection " + i);
        }
      }
    }
    return all;
  }

  /* The hello response is "hello" with content-length 5: complete once the head and 5 bytes are in. */
  private static boolean endsResponse(ByteBuffer b) {
    String s = new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII);
    int end = s.indexOf("\r\n\r\n");
    return end >= 0 && s.length() >= end + 4 + 5;
  }

  private static void server() throws Exception {
    Thread halt = new Thread(() -> {
      try {
        Thread.sleep(CHILD_MAX_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      Runtime.getRuntime().halt(3);
    });
    halt.setDaemon(true);
    halt.start();
    HttpServer.Builder b = HttpServer.builder().port(0).maxConnections(20_000).backlog(4096)
        .idleTimeout(java.time.Duration.ofMinutes(10))
        .get("/hello", (req, res) -> res.send("hello"));
    if (COLLECT.equals("idle")) {
      b.idleCollection(java.time.Duration.parse("PT" + System.getProperty("idle.quiet", "30s").toUpperCase(Locale.ROOT)));
    }
    try (HttpServer server = b.build().start()) {
      System.out.println("port " + server.port());
      System.out.flush();
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line; (line = in.readLine()) != null; ) {
        if (line.startsWith("mem ")) {
          long heap = line.equals("mem periodic") ? heapAfterOwnCollection(IdleMemoryMain::collections, PERIODIC_WAIT_MILLIS)
              : line.equals("mem idle") ? heapAfterOwnCollection(server::idleCollections, IDLE_WAIT_MILLIS)
              : heapAfterGc();
          long committed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
          long rss = rss();
          long allocated = allocated();
          // After the figures: reading smaps or a histogram allocates megabytes, which would
          // otherwise count as the connections' (run the figures of record without them).
          diagnostics();
          System.out.println("mem " + rss + " " + heap + " " + allocated + " " + committed);
          System.out.flush();
        }
      }
    }
  }

  /*
   * With -XX:NativeMemoryTracking=summary: the first call sets the baseline, each later one
   * prints to stderr where the process's memory grew since (heap, GC, threads, code, others).
   */
  private static boolean nmtBaseline;

  private static void diagnostics() throws IOException {
    if (Boolean.getBoolean("idle.smaps")) {
      smaps();
    }
    if (Boolean.getBoolean("idle.histogram")) { // with -XX:+UseEpsilonGC every object allocated stays countable
      diagnostic("gcClassHistogram", "-all");
    }
    if (!ManagementFactory.getRuntimeMXBean().getInputArguments().stream().anyMatch(a -> a.startsWith("-XX:NativeMemoryTracking"))) {
      return;
    }
    diagnostic("vmNativeMemory", nmtBaseline ? "summary.diff" : "baseline");
    nmtBaseline = true;
  }

  /*
   * Where the resident memory is, in kB: in the Java heap's range, in other anonymous mappings
   * (C heap, code cache, the collector's structures, stacks) and in files (the JVM's own code);
   * then the anonymous mappings holding the most (the heap's committed parts first).
   */
  private static void smaps() throws IOException {
    long[] heapRange = heapRange();
    long heapRss = 0;
    long anonRss = 0;
    long fileRss = 0;
    List<String> top = new ArrayList<>();
    String mapping = null;
    long total = 0;
    for (String l : Files.readAllLines(Path.of("/proc/self/smaps"), StandardCharsets.US_ASCII)) {
      if (!l.isEmpty() && Character.digit(l.charAt(0), 16) >= 0 && l.indexOf(':') < 0 || l.matches("^[0-9a-f]+-[0-9a-f]+ .*")) {
        mapping = l;
      } else if (l.startsWith("Rss:") && mapping != null) {
        long rss = Long.parseLong(l.substring(4).trim().split("\\s+")[0]);
        String[] f = mapping.trim().split("\\s+");
        long from = Long.parseUnsignedLong(f[0].split("-")[0], 16);
        if (from >= heapRange[0] && from < heapRange[1]) {
          heapRss += rss;
        } else if (f.length < 6 || f[5].startsWith("[")) {
          anonRss += rss;
        } else {
          fileRss += rss;
        }
        if (f.length < 6 && rss > 1024) {
          String[] range = f[0].split("-");
          long size = (Long.parseUnsignedLong(range[1], 16) - Long.parseUnsignedLong(range[0], 16)) / 1024;
          top.add(String.format(Locale.ROOT, "%9d kB of %9d kB at %s", rss, size, range[0]));
          total += rss;
        }
      }
    }
    top.sort(java.util.Comparator.reverseOrder());
    System.err.printf(Locale.ROOT, "=== resident: heap %d kB, other anonymous %d kB, files %d kB%n", heapRss, anonRss, fileRss);
    System.err.println("=== smaps: anonymous mappings over 1 MB resident, " + total + " kB in all");
    top.forEach(System.err::println);
  }

  /* The Java heap's reserved address range, from the collector's own description of it; empty if not found. */
  private static long[] heapRange() {
    try {
      javax.management.ObjectName name = new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand");
      Object out = ManagementFactory.getPlatformMBeanServer().invoke(name, "gcHeapInfo", new Object[] {new String[0]},
          new String[] {String[].class.getName()});
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\[0x([0-9a-f]+), 0x([0-9a-f]+)\\)").matcher(String.valueOf(out));
      if (m.find()) {
        return new long[] {Long.parseUnsignedLong(m.group(1), 16), Long.parseUnsignedLong(m.group(2), 16)};
      }
    } catch (javax.management.JMException e) {
      System.err.println("gcHeapInfo: " + e);
    }
    return new long[] {0, 0};
  }

  private static void diagnostic(String command, String argument) {
    try {
      javax.management.ObjectName name = new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand");
      Object out = ManagementFactory.getPlatformMBeanServer().invoke(name, command, new Object[] {new String[] {argument}},
          new String[] {String[].class.getName()});
      System.err.println("=== " + command + " " + argument);
      System.err.println(out);
    } catch (javax.management.JMException e) {
      System.err.println(command + ": " + e);
    }
  }

  /* Bytes allocated so far by every live thread (the carriers do the per-connection work). */
  private static long allocated() {
    com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (long a : t.getThreadAllocatedBytes(t.getAllThreadIds())) {
      sum += Math.max(0, a);
    }
    return sum;
  }

  private static long heapAfterGc() throws InterruptedException {
    long heap = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(100);
      heap = Math.min(heap, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }
    return heap;
  }

  /*
   * Waits, calling no collection, until the JVM starts one of its own (an idle G1 with
   * G1PeriodicGCInterval starts a concurrent cycle, whose remark shrinks the committed heap), then
   * until the committed heap has held still for SETTLED_MILLIS and the C heap's trim has had a
   * turn. Bounded: PERIODIC_WAIT_MILLIS for the start, as long again for the settling.
   */
  private static long heapAfterOwnCollection(java.util.function.LongSupplier collections, long waitMillis)
      throws InterruptedException {
    long count = collections.getAsLong();
    long fullMillis = fullCollectionMillis();
    long start = System.nanoTime();
    while (collections.getAsLong() == count && System.nanoTime() - start < waitMillis * 1_000_000) {
      Thread.sleep(100);
    }
    long waited = (System.nanoTime() - start) / 1_000_000;
    if (collections.getAsLong() == count) {
      System.out.println("periodic collection: none within " + waited + " ms");
    } else {
      System.out.println("periodic collection: started after " + waited + " ms");
      long committed = -1;
      long still = System.nanoTime();
      long settleStart = still;
      while (System.nanoTime() - still < SETTLED_MILLIS * 1_000_000
          && System.nanoTime() - settleStart < PERIODIC_WAIT_MILLIS * 1_000_000) {
        long now = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
        if (now != committed) {
          committed = now;
          still = System.nanoTime();
        }
        Thread.sleep(100);
      }
      Thread.sleep(1_500); // -XX:TrimNativeHeapInterval=1000: one trim after the collection freed its C heap
      System.out.println("periodic collection: full collections took " + (fullCollectionMillis() - fullMillis) + " ms");
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /* How long the full collections (G1's "G1 Old Generation", the stop-the-world ones) took so far. */
  private static long fullCollectionMillis() {
    long sum = 0;
    for (java.lang.management.GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc.getName().contains("Old") || gc.getName().contains("MarkSweep")) {
        sum += Math.max(0, gc.getCollectionTime());
      }
    }
    return sum;
  }

  private static long collections() {
    long sum = 0;
    for (java.lang.management.GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      sum += Math.max(0, gc.getCollectionCount());
    }
    return sum;
  }

  private static long rss() throws IOException {
    for (String l : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
      if (l.startsWith("VmRSS:")) {
        return Long.parseLong(l.substring(6).trim().split("\\s+")[0]) * 1024;
      }
    }
    return -1;
  }
}
