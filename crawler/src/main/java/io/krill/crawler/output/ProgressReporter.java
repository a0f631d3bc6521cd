package io.krill.crawler.output;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Prints crawl progress: pages/s, in flight, queued, per-status counts, DNS stats and errors.
 * On a terminal one line is rewritten every second; otherwise a plain line is printed every
 * interval. Runs on its own daemon thread.
 */
public final class ProgressReporter implements AutoCloseable {
  private final Thread thread;
  private volatile boolean running = true;

  /**
   * Starts reporting.
   *
   * @param out where to print (stderr)
   * @param live true for a rewritten line (terminal)
   * @param interval interval of plain lines
   * @param line makes the current line
   */
  public ProgressReporter(PrintStream out, boolean live, Duration interval, Supplier<String> line) {
    long sleep = live ? 1000 : interval.toMillis();
    thread = new Thread(() -> {
      while (running) {
        try {
          Thread.sleep(sleep);
        } catch (InterruptedException e) {
          break;
        }
        if (!running) {
          break;
        }
        String l = line.get();
        if (live) {
          out.print("\r" + l + "\033[K");
        } else {
          out.println(l);
        }
        out.flush();
      }
      if (live) {
        out.print("\r\033[K");
        out.flush();
      }
    }, "krill-crawl-progress");
    thread.setDaemon(true);
    thread.start();
  }

  /** @return a progress line from the stats and extra fields */
  public static String line(CrawlStats s, long queued, String dns) {
    double t = Math.max(0.001, s.elapsedSeconds());
    return String.format(Locale.ROOT, "[%5.0fs] pages %d (%.1f/s), in flight %d, queued %d, %s, errors %d, %s",
        t, s.pages.sum(), s.pages.sum() / t, s.inFlight.get(), queued, s.statuses(), s.errorCount(), dns);
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
