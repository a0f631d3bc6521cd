package io.krill.broker;

import io.krill.config.JvmOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A {@link KafkaBroker} in a child JVM started from this JVM's class path: a test or a demo can
 * kill it with SIGKILL ({@link #kill()}) and start it again on the same directory, and a fatal
 * broker error cannot end the parent. The child's console goes to {@code dir/broker.log}.
 *
 * <p>Threading: every method blocks the calling thread; any thread.
 */
public final class BrokerProcess implements AutoCloseable {
  /** How long {@link #start} waits for the child to report that it serves. */
  public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final String bootstrap;

  private BrokerProcess(Process process, String bootstrap) {
    this.process = process;
    this.bootstrap = bootstrap;
  }

  /**
   * Starts {@code krill broker --dir DIR --port PORT} in a child JVM and waits until it serves.
   *
   * @param dir the broker's directory
   * @param port the client port; 0 keeps the saved one or picks a free one
   * @return the running child
   * @throws IOException if the child cannot start or does not report ready within the timeout
   */
  public static BrokerProcess start(Path dir, int port) throws IOException {
    Objects.requireNonNull(dir, "dir");
    Files.createDirectories(dir);
    List<String> cmd = JvmOptions.javaCommand("-Xmx256m");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(BrokerCommand.class.getName());
    cmd.add("--dir");
    cmd.add(dir.toString());
    cmd.add("--port");
    cmd.add(String.valueOf(port));
    Path log = dir.resolve("broker.log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(false)
        .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    String ready = awaitReady(p, DEFAULT_START_TIMEOUT);
    if (ready == null) {
      p.destroyForcibly();
      throw new IOException("broker child did not start within " + DEFAULT_START_TIMEOUT.toSeconds() + " s (see " + log + ")");
    }
    return new BrokerProcess(p, ready);
  }

  /* Reads the child's stdout for the ready line; a reader thread keeps draining it afterwards. */
  private static String awaitReady(Process p, Duration timeout) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String[] found = new String[1];
    Thread reader = new Thread(() -> {
      try {
        for (String line; (line = in.readLine()) != null;) {
          synchronized (found) {
            if (found[0] == null && line.startsWith(BrokerCommand.READY)) {
              found[0] = line.substring(BrokerCommand.READY.length()).trim().split(" ", 2)[0];
              found.notifyAll();
            }
          }
        }
      } catch (IOException e) {
        // the child ended
      }
      synchronized (found) {
        found.notifyAll();
      }
    }, "krill-broker-child-out");
    reader.setDaemon(true);
    reader.start();
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (found) {
      while (found[0] == null && p.isAlive() && System.nanoTime() < deadline) {
        try {
          found.wait(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return null;
        }
      }
      return found[0];
    }
  }

  /** @return {@code 127.0.0.1:PORT}, the bootstrap address for clients */
  public String bootstrap() {
    return bootstrap;
  }

  /** @return the child's process id */
  public long pid() {
    return process.pid();
  }

  /** Kills the child with SIGKILL (no shutdown at all) and waits for it to end. */
  public void kill() {
    process.destroyForcibly();
    waitFor();
  }

  /** Stops the child gracefully (SIGTERM: the broker shuts down cleanly) and waits for it. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    waitFor();
  }

  private void waitFor() {
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
