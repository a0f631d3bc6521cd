package io.krill.crawler.cli;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A Kafka broker that {@code krill crawl --demo --nodes N} runs in its own process for the
 * demo's nodes: the launcher fills this hook with the broker module, so the crawler never
 * depends on a broker.
 *
 * <p>Threading: the command calls every method from the thread that runs the demo.
 */
public interface DemoBroker extends AutoCloseable {
  /** Starts a demo broker; registered with {@link CrawlCommand#demoBroker(Starter)}. */
  @FunctionalInterface
  interface Starter {
    /**
     * Starts the broker.
     *
     * @param dir its data directory
     * @return the running broker, closed by the command after the demo
     * @throws IOException if it cannot start
     */
    DemoBroker start(Path dir) throws IOException;
  }

  /** @return host:port for the nodes */
  String bootstrap();

  /** Stops the broker. */
  @Override
  void close();
}
