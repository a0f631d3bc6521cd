package io.krill.loadtest.load;

import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The load generator alone in its JVM, as the harness starts it ({@code LoadMain --help} lists
 * the options).
 *
 * <p>Prints {@code connected N ms M}, {@code phase measure}, {@code phase done} and one
 * {@link LoadResult#toLine() result line}, then exits 0. Closing its standard input ends the
 * current phase (the harness ends an idle hold that way); bad arguments print one
 * {@code failed: ...} line and exit 2; a run that overstays its bounds halts with status 3.
 */
@Command(name = "LoadMain", mixinStandardHelpOptions = true, sortOptions = false,
    description = "The HTTP or echo load generator of krill loadtest, alone in its JVM.")
public final class LoadMain {
  @Option(names = "--host", description = "target address, loopback only (default: 127.0.0.1)")
  String host;
  @Option(names = "--port", required = true, converter = WholeNumber.class, description = "target port")
  long port;
  @Option(names = "--protocol", description = "http or echo (default: http)")
  String protocol;
  @Option(names = "--mode", description = "closed, open or idle (default: closed)")
  String mode;
  @Option(names = "--path", description = "request path (default: /hello)")
  String path;
  @Option(names = "--connections", converter = WholeNumber.class, description = "connections to open")
  Long connections;
  @Option(names = "--pipeline", converter = WholeNumber.class, description = "requests in flight per connection")
  Long pipeline;
  @Option(names = "--size", converter = WholeNumber.class, description = "echo message bytes")
  Long size;
  @Option(names = "--rate", converter = WholeNumber.class, description = "open loop: requests per second")
  Long rate;
  @Option(names = "--sources", converter = WholeNumber.class, description = "source addresses 127.0.0.2, ...")
  Long sources;
  @Option(names = "--threads", converter = WholeNumber.class, description = "generator carrier threads")
  Long threads;
  @Option(names = "--warmup-ms", converter = WholeNumber.class, description = "warm-up time")
  Long warmupMs;
  @Option(names = "--warmup-requests", converter = WholeNumber.class, description = "warm-up ends after this many")
  Long warmupRequests;
  @Option(names = "--measure-ms", converter = WholeNumber.class, description = "measured time")
  Long measureMs;
  @Option(names = "--measure-requests", converter = WholeNumber.class, description = "measurement ends after this many")
  Long measureRequests;
  @Option(names = "--timeout-ms", converter = WholeNumber.class, description = "request timeout")
  Long timeoutMs;

  private LoadMain() {}

  /** A whole number, with {@code ,} or {@code _} as digit separators allowed. */
  static final class WholeNumber implements CommandLine.ITypeConverter<Long> {
    @Override
    public Long convert(String v) {
      try {
        return Long.parseLong(v.replace("_", "").replace(",", ""));
      } catch (NumberFormatException e) {
        throw new CommandLine.TypeConversionException(v + " (expected: a whole number)");
      }
    }
  }

  /**
   * Runs the generator.
   *
   * @param args see the class comment
   */
  public static void main(String[] args) throws Exception {
    LoadSpec spec;
    try {
      spec = parse(args);
    } catch (IllegalArgumentException e) {
      System.out.println("failed: " + e.getMessage());
      System.out.flush();
      Runtime.getRuntime().halt(2);
      return;
    }
    LoadGenerator g = LoadGenerator.start(spec, line -> {
      System.out.println(line);
      System.out.flush();
    });
    Duration limit = g.longestRun().plusSeconds(60);
    daemon("lifetime-limit", () -> {
      sleep(limit.toMillis());
      System.out.println("failed: over the time limit of " + limit.toSeconds() + " s");
      System.out.flush();
      Runtime.getRuntime().halt(3);
    });
    daemon("stdin-watch", () -> {
      try {
        while (System.in.read() >= 0) {
          // Runs until the harness closes our standard input or dies.
        }
      } catch (IOException e) {
        // Same as end of input.
      }
      g.stop();
      g.stop();
      sleep(spec.requestTimeout.toMillis() + 30_000);
      Runtime.getRuntime().halt(4);
    });
    LoadResult r = g.awaitResult(limit);
    System.out.println(r.toLine());
    System.out.flush();
    Runtime.getRuntime().halt(0);
  }

  private static void daemon(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }

  private static void sleep(long millis) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Parses the command line into a spec.
   *
   * @throws IllegalArgumentException naming the bad option
   */
  static LoadSpec parse(String[] args) {
    LoadMain m = new LoadMain();
    CommandLine cl = new CommandLine(m);
    try {
      cl.parseArgs(args);
    } catch (CommandLine.ParameterException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    if (cl.isUsageHelpRequested()) {
      cl.usage(System.out);
      Runtime.getRuntime().halt(0);
    }
    return m.spec();
  }

  private LoadSpec spec() {
    LoadSpec.Builder b = LoadSpec.builder();
    if (host != null) {
      b.host(host);
    }
    b.port(intValue(port));
    if (protocol != null) {
      b.protocol(LoadSpec.Protocol.valueOf(upper("protocol", protocol, "http|echo")));
    }
    if (mode != null) {
      b.mode(LoadSpec.Mode.valueOf(upper("mode", mode, "closed|open|idle")));
    }
    if (path != null) {
      b.path(path);
    }
    if (connections != null) {
      b.connections(intValue(connections));
    }
    if (pipeline != null) {
      b.pipeline(intValue(pipeline));
    }
    if (size != null) {
      b.echoSize(intValue(size));
    }
    if (rate != null) {
      b.rate(rate);
    }
    if (sources != null) {
      b.sources(intValue(sources));
    }
    if (threads != null) {
      b.threads(intValue(threads));
    }
    if (timeoutMs != null) {
      b.requestTimeout(Duration.ofMillis(timeoutMs));
    }
    return b.warmup(Duration.ofMillis(or(warmupMs, LoadSpec.DEFAULT_WARMUP.toMillis())),
            or(warmupRequests, LoadSpec.DEFAULT_WARMUP_REQUESTS))
        .measure(Duration.ofMillis(or(measureMs, LoadSpec.DEFAULT_MEASURE.toMillis())),
            or(measureRequests, LoadSpec.DEFAULT_MEASURE_REQUESTS))
        .build();
  }

  private static long or(Long v, long otherwise) {
    return v == null ? otherwise : v;
  }

  private static String upper(String k, String v, String expected) {
    for (String e : expected.split("\\|")) {
      if (e.equalsIgnoreCase(v)) {
        return v.toUpperCase(Locale.ROOT);
      }
    }
    throw new IllegalArgumentException(k + ": " + v + " (expected: " + expected + ")");
  }

  private static int intValue(long v) {
    return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
  }
}
