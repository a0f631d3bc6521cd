package io.krill.loadtest.internal;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM of the comparison: its standard output read line by line with timeouts, its
 * standard error appended to a log file, its pid recorded so that the script's trap can kill
 * it. Closing its standard input tells it to exit (every child watches for that); {@link
 * #close()} then kills what is still alive.
 */
public final class ChildProcess implements AutoCloseable {
  private static final String EOF = "\u0000eof";
  private static final java.util.Set<ChildProcess> LIVE = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** How messages name the child. */
  public final String name;
  /** The process. */
  public final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final Path log;
  /** The port a server child printed; 0 for clients. */
  public int port;

  /**
   * Starts the child.
   *
   * @param name how messages name it
   * @param command the command line
   * @param log where its standard error is appended
   * @param pids a file its pid is appended to, or null
   * @throws IOException if it cannot start
   */
  public ChildProcess(String name, List<String> command, Path log, Path pids) throws IOException {
    this.name = name;
    this.log = log;
    ProcessBuilder pb = new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    this.process = pb.start();
    LIVE.add(this);
    if (pids != null) {
      Files.writeString(pids, process.pid() + System.lineSeparator(), StandardCharsets.UTF_8,
          StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          lines.add(line);
        }
      } catch (IOException e) {
        // The child died: reported as end of output.
      }
      lines.add(EOF);
    }, "read " + name);
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Waits for a line that starts with one of {@code prefixes}, skipping others.
   *
   * @return the line
   * @throws IOException naming the child and the last line seen if it ends or times out first,
   *     or prints a line starting with "failed" or "skipped"
   */
  public String await(long timeout, TimeUnit unit, String... prefixes) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    String last = "(nothing)";
    for (;;) {
      long left = deadline - System.nanoTime();
      String line = left <= 0 ? null : lines.poll(left, TimeUnit.NANOSECONDS);
      if (line == null) {
        throw new IOException(name + ": no '" + String.join("' or '", prefixes) + "' line within " + timeout + " "
            + unit.toString().toLowerCase(java.util.Locale.ROOT) + "; last line: " + last);
      }
      if (line.equals(EOF)) {
        lines.add(EOF);
        throw new IOException(name + ": exited (status " + exitStatus() + ") before '" + prefixes[0] + "'; last line: "
            + last + "; its log " + log + " ends: " + logTail());
      }
      for (String p : prefixes) {
        if (line.startsWith(p)) {
          return line;
        }
      }
      if (line.startsWith("failed") || line.startsWith("skipped")) {
        throw new IOException(name + ": " + line);
      }
      last = line;
    }
  }

  /**
   * Writes one line to the child's standard input.
   *
   * @param line the line, without its terminator
   * @throws IOException if the child is gone
   */
  public void send(String line) throws IOException {
    java.io.OutputStream out = process.getOutputStream();
    out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** Closes the child's standard input, which asks it to finish (every child here watches for that). */
  public void closeInput() {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // Already gone.
    }
  }

  /* The last lines of the child's standard error (the log is shared by children of one role, so these may be a sibling's). */
  private String logTail() {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join(" | ", all.subList(Math.max(0, all.size() - 3), all.size()));
    } catch (IOException | RuntimeException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  private String exitStatus() {
    try {
      return process.waitFor(2, TimeUnit.SECONDS) ? String.valueOf(process.exitValue()) : "still running";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  /** @return user + system CPU time of the child so far, in nanoseconds, or -1 where /proc is absent */
  public long cpuNanos() {
    return cpuNanos(process.pid());
  }

  /** @return user + system CPU time of process {@code pid} so far, in nanoseconds, or -1 where /proc is absent */
  public static long cpuNanos(long pid) {
    return cpuNanos(new File("/proc/" + pid + "/stat"));
  }

  /** @return user + system CPU time of thread {@code tid} of process {@code pid} so far, in nanoseconds, or -1 */
  public static long cpuNanos(long pid, long tid) {
    return cpuNanos(new File("/proc/" + pid + "/task/" + tid + "/stat"));
  }

  private static long cpuNanos(File stat) {
    try {
      String s = Files.readString(stat.toPath(), StandardCharsets.US_ASCII);
      String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
      // After the command: state(0) ... utime(11) stime(12), in clock ticks of 10 ms.
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** @return true while the process runs */
  public boolean isAlive() {
    return process.isAlive();
  }

  /** Kills every child still alive, at once; for a shutdown hook. */
  public static void killAll() {
    for (ChildProcess c : LIVE) {
      c.process.destroyForcibly();
    }
  }

  /** Closes the child's standard input, waits up to {@code seconds} for it to exit, then kills it. */
  public void stop(long seconds) {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // Already gone.
    }
    try {
      if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    LIVE.remove(this);
  }

  @Override
  public void close() {
    stop(5);
  }
}
