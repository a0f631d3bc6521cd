package io.krill.loadtest.load;

import io.krill.loadtest.launch.Mains;
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
  @Option(names = "--host", description = "target address, loopback only (default: ${DEFAULT-VALUE})")
  String host = LoadSpec.DEFAULT_HOST;
  @Option(names = "--port", required = true, converter = WholeNumber.class, description = "target port")
  long port;
  @Option(names = "--protocol", description = "http or echo (default: ${DEFAULT-VALUE})")
  String protocol = "http";
  @Option(names = "--mode", description = "closed, open or idle (default: ${DEFAULT-VALUE})")
  String mode = "closed";
  @Option(names = "--path", description = "request path (default: ${DEFAULT-VALUE})")
  String path = LoadSpec.DEFAULT_PATH;
  @Option(names = "--connections", converter = WholeNumber.class, description = "connections (default: ${DEFAULT-VALUE})")
  long connections = LoadSpec.DEFAULT_CONNECTIONS;
  @Option(names = "--pipeline", converter = WholeNumber.class,
      description = "requests in flight per connection (default: ${DEFAULT-VALUE})")
  long pipeline = LoadSpec.DEFAULT_PIPELINE;
  @Option(names = "--size", converter = WholeNumber.class, description = "echo message bytes (default: ${DEFAULT-VALUE})")
  long size = LoadSpec.DEFAULT_ECHO_SIZE;
  @Option(names = "--rate", converter = WholeNumber.class, description = "open loop: requests per second")
  long rate;
  @Option(names = "--sources", converter = WholeNumber.class,
      description = "source addresses 127.0.0.2, ... (default: ${DEFAULT-VALUE})")
  long sources = LoadSpec.DEFAULT_SOURCES;
  @Option(names = "--threads", converter = WholeNumber.class, description = "generator carriers (default: the processors)")
  long threads = Runtime.getRuntime().availableProcessors();
  @Option(names = "--warmup-ms", converter = WholeNumber.class, description = "warm-up time (default: ${DEFAULT-VALUE})")
  long warmupMs = LoadSpec.DEFAULT_WARMUP.toMillis();
  @Option(names = "--warmup-requests", converter = WholeNumber.class,
      description = "warm-up ends after this many (default: ${DEFAULT-VALUE})")
  long warmupRequests = LoadSpec.DEFAULT_WARMUP_REQUESTS;
  @Option(names = "--measure-ms", converter = WholeNumber.class, description = "measured time (default: ${DEFAULT-VALUE})")
  long measureMs = LoadSpec.DEFAULT_MEASURE.toMillis();
  @Option(names = "--measure-requests", converter = WholeNumber.class,
      description = "measurement ends after this many (default: ${DEFAULT-VALUE})")
  long measureRequests = LoadSpec.DEFAULT_MEASURE_REQUESTS;
  @Option(names = "--timeout-ms", converter = WholeNumber.class, description = "request timeout (default: ${DEFAULT-VALUE})")
  long timeoutMs = LoadSpec.DEFAULT_REQUEST_TIMEOUT.toMillis();

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
    return Mains.parseOrThrow(new LoadMain(), args).spec();
  }

  private LoadSpec spec() {
    return LoadSpec.builder().host(host).port(intValue(port))
        .protocol(LoadSpec.Protocol.valueOf(upper("protocol", protocol, "http|echo")))
        .mode(LoadSpec.Mode.valueOf(upper("mode", mode, "closed|open|idle"))).path(path)
        .connections(intValue(connections)).pipeline(intValue(pipeline)).echoSize(intValue(size)).rate(rate)
        .sources(intValue(sources)).threads(intValue(threads)).requestTimeout(Duration.ofMillis(timeoutMs))
        .warmup(Duration.ofMillis(warmupMs), warmupRequests).measure(Duration.ofMillis(measureMs), measureRequests)
        .build();
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
