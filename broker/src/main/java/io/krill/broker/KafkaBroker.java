package io.krill.broker;

import io.krill.broker.internal.BrokerLayout;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Objects;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;

/**
 * A single-node Apache Kafka broker (KRaft, broker and controller in one) on 127.0.0.1,
 * running in this JVM. Its directory is formatted on the first start; a restart on the same
 * directory keeps the topics, the data and the client port.
 *
 * <pre>{@code
 * try (KafkaBroker broker = KafkaBroker.start(Path.of("broker"), 0)) {
 *   String bootstrap = broker.bootstrap(); // "127.0.0.1:PORT"
 * }
 * }</pre>
 *
 * <p>Caution: Kafka ends its JVM on a fatal broker error; a test that must survive one runs the
 * broker as a {@link BrokerProcess}. Threading: {@link #start} and {@link #close} block the
 * calling thread; any thread.
 */
public final class KafkaBroker implements AutoCloseable {
  private final KafkaRaftServer server;
  private final BrokerLayout layout;
  private boolean closed;

  private KafkaBroker(KafkaRaftServer server, BrokerLayout layout) {
    this.server = server;
    this.layout = layout;
  }

  /**
   * Formats {@code dir} if new, starts the broker and returns once it serves clients.
   *
   * @param dir the broker's directory (created if missing)
   * @param port the client port; 0 keeps the directory's saved port, or picks a free one
   * @return the running broker
   * @throws IOException if the directory cannot be prepared or the broker does not start
   */
  public static KafkaBroker start(Path dir, int port) throws IOException {
    Objects.requireNonNull(dir, "dir");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port: " + port + " (expected: 0..65535)");
    }
    BrokerLayout layout = BrokerLayout.open(dir, port);
    layout.formatOnce(new PrintStream(OutputStream.nullOutputStream()));
    KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(layout.properties(), false), Time.SYSTEM);
    try {
      server.startup();
    } catch (RuntimeException e) {
      server.shutdown();
      throw new IOException("broker did not start on " + layout.bootstrap() + ": " + e.getMessage(), e);
    }
    return new KafkaBroker(server, layout);
  }

  /** @return {@code 127.0.0.1:PORT}, the bootstrap address for clients */
  public String bootstrap() {
    return layout.bootstrap();
  }

  /** @return the client port */
  public int port() {
    return layout.port();
  }

  /** Stops the broker and waits for it; idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    server.shutdown();
    server.awaitShutdown();
  }
}
