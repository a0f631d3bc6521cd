package io.krill.crawler.cluster;

import io.krill.broker.KafkaBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real in-process KRaft broker shared by the tests of one class: started in a fresh directory
 * before the first test, closed and its directory deleted after the last. Register it as
 * {@code @RegisterExtension static final ClusterBroker BROKER = new ClusterBroker();}.
 */
final class ClusterBroker implements BeforeAllCallback, AfterAllCallback {
  /** How long a node of these tests waits for the broker (an in-process one answers at once). */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  private Path dir;
  private KafkaBroker broker;

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    dir = Files.createTempDirectory("krill-broker-");
    broker = KafkaBroker.start(dir, 0);
  }

  @Override
  public void afterAll(ExtensionContext context) throws IOException {
    try {
      if (broker != null) {
        broker.close();
      }
    } finally {
      try (Stream<Path> paths = Files.walk(dir)) {
        for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  /** @return the broker's {@code host:port} */
  String bootstrap() {
    return broker.bootstrap();
  }

  /** @return the options of a node of crawl {@code crawlId}: partitions by host, topics created */
  ClusterCrawl.Options options(String crawlId, int partitions) {
    return options(crawlId, PartitionBy.HOST, partitions);
  }

  /** @return the options of a node of crawl {@code crawlId}, topics created */
  ClusterCrawl.Options options(String crawlId, PartitionBy partitionBy, int partitions) {
    return ClusterWeb.options(bootstrap(), crawlId, partitionBy, partitions, CONNECT_TIMEOUT);
  }
}
