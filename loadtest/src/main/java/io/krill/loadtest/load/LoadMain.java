package io.krill.loadtest.load;

import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The load generator alone in its JVM, as the harness starts it.
 *
 * <p>usage: {@code LoadMain --port P [--host 127.0.0.1] [--protocol http|echo]
 * [--mode closed|open|idle] [--path /hello] [--connections N] [--pipeline D] [--size B]
 * [--rate R] [--sources S] [--threads T] [--warmup-ms MS] [--warmup-requests N]
 * [--measure-ms MS] [--measure-requests N] [--timeout-ms MS]}
 *
 * <p>Prints {@code connected N ms M}, {@code phase measure}, {@code phase done} and one
 * {@link LoadResult#toLine() result line}, then exits 0. Closing its standard input ends the
 * current phase (the harness ends an idle hold that way); bad arguments print one
 * {@code failed: ...} line and exit 2; a run that overstays its bounds halts with status 3.
 */
public final class LoadMain {
  private LoadMain() {}

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
    LoadSpec.Builder b = LoadSpec.builder();
    long warmupMs = LoadSpec.DEFAULT_WARMUP.toMillis();
    long warmupN = LoadSpec.DEFAULT_WARMUP_REQUESTS;
    long measureMs = LoadSpec.DEFAULT_MEASURE.toMillis();
    long measureN = LoadSpec.DEFAULT_MEASURE_REQUESTS;
    for (int i = 0; i < args.length; i += 2) {
      String k = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(k + ": missing value");
      }
      String v = args[i + 1];
      switch (k) {
        case "--host": b.host(v); break;
        case "--port": b.port(intValue(k, v)); break;
        case "--protocol": b.protocol(LoadSpec.Protocol.valueOf(upper(k, v, "http|echo"))); break;
        case "--mode": b.mode(LoadSpec.Mode.valueOf(upper(k, v, "closed|open|idle"))); break;
        case "--path": b.path(v); break;
        case "--connections": b.connections(intValue(k, v)); break;
        case "--pipeline": b.pipeline(intValue(k, v)); break;
        case "--size": b.echoSize(intValue(k, v)); break;
        case "--rate": b.rate(longValue(k, v)); break;
        case "--sources": b.sources(intValue(k, v)); break;
        case "--threads": b.threads(intValue(k, v)); break;
        case "--warmup-ms": warmupMs = longValue(k, v); break;
        case "--warmup-requests": warmupN = longValue(k, v); break;
        case "--measure-ms": measureMs = longValue(k, v); break;
        case "--measure-requests": measureN = longValue(k, v); break;
        case "--timeout-ms": b.requestTimeout(Duration.ofMillis(longValue(k, v))); break;
        default: throw new IllegalArgumentException(k + ": unknown option");
      }
    }
    return b.warmup(Duration.ofMillis(warmupMs), warmupN).measure(Duration.ofMillis(measureMs), measureN).build();
  }

  private static String upper(String k, String v, String expected) {
    String u = v.toUpperCase(Locale.ROOT);
    for (String e : expected.split("\\|")) {
      if (e.equalsIgnoreCase(v)) {
        return u;
      }
    }
    throw new IllegalArgumentException(k.substring(2) + ": " + v + " (expected: " + expected + ")");
  }

  private static int intValue(String k, String v) {
    return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, longValue(k, v)));
  }

  private static long longValue(String k, String v) {
    try {
      return Long.parseLong(v.replace("_", "").replace(",", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(k.substring(2) + ": " + v + " (expected: a whole number)", e);
    }
  }
}
