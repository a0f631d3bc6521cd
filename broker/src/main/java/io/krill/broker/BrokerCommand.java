package io.krill.broker;

import io.krill.config.CommandOptions;
import io.krill.config.ConfigException;
import io.krill.config.Settings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code krill broker}: a single-node Kafka broker on 127.0.0.1 in the foreground, for a local
 * crawl cluster ({@code krill crawl --kafka 127.0.0.1:PORT}). Its flags derive from
 * {@link BrokerSettings}; a bad value prints one line naming the flag and exits 2. It prints
 * {@link #READY} and the bootstrap address once it serves, and stops cleanly on Ctrl-C or SIGTERM.
 *
 * <p>Threading: {@link #call()} blocks the calling thread until the JVM is asked to stop.
 */
public final class BrokerCommand implements Callable<Integer> {
  /** The start of the line printed once the broker serves; the bootstrap address follows. */
  public static final String READY = "krill broker: serving on";

  private final PrintStream out;
  private final PrintStream err;
  private CommandSpec spec;

  private BrokerCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /**
   * Builds the command line of {@code krill broker} for the launcher to register.
   *
   * @param out where the ready line goes
   * @param err where errors go
   * @return the command line; {@code execute(args)} returns 0, 1 (the broker failed) or 2 (bad usage)
   */
  public static CommandLine commandLine(PrintStream out, PrintStream err) {
    BrokerCommand command = new BrokerCommand(out, err);
    command.spec = CommandOptions.spec(command, "broker", "Run a single-node Apache Kafka broker (KRaft) on 127.0.0.1"
        + " in the foreground, for krill crawl --kafka. The directory is formatted on first use and kept across restarts."
        + " Ctrl-C stops it.", BrokerSettings.SCHEMA);
    return CommandOptions.commandLine(command.spec, out, err);
  }

  /**
   * Runs {@code krill broker} on its own (a child JVM of {@link BrokerProcess}).
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    System.exit(commandLine(System.out, System.err).execute(args));
  }

  @Override
  public Integer call() {
    Settings settings;
    try {
      settings = CommandOptions.flags(spec, BrokerSettings.SCHEMA, BrokerSettings.SCHEMA.loader()).load();
    } catch (ConfigException e) {
      return CommandOptions.usageError(err, "broker", e);
    }
    Path dir = settings.get(BrokerSettings.DIR);
    KafkaBroker broker;
    try {
      broker = KafkaBroker.start(dir, settings.get(BrokerSettings.PORT));
    } catch (IOException e) {
      return CommandOptions.ioError(err, "broker", "cannot start", e); // a path the message names, or the port
    } catch (RuntimeException e) {
      err.println("krill broker: cannot start in " + dir + ": " + e.getMessage());
      return CommandOptions.FAILED;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      broker.close();
      stopped.countDown();
    }, "krill-broker-shutdown"));
    out.println(READY + " " + broker.bootstrap() + " (data in " + dir.toAbsolutePath() + "; Ctrl-C stops)");
    out.flush();
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 0;
  }
}
