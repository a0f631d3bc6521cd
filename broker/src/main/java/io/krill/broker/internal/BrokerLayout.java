package io.krill.broker.internal;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;

/**
 * The on-disk layout and the Kafka properties of a one-node KRaft cluster on loopback: the
 * log directory under {@code dir/data}, the ports in {@code dir/krill-broker.properties} (so a
 * restart listens where the clients point), and the format step a new directory needs once.
 */
public final class BrokerLayout {
  /** The file that keeps the cluster id and the ports across restarts. */
  public static final String PORTS_FILE = "krill-broker.properties";
  /* The log cleaner's dedupe buffer defaults to 128 MiB of heap: a small heap would fail at start. */
  private static final String DEDUPE_BUFFER = String.valueOf(4 * 1024 * 1024);

  private final Path dir;
  private final int port;
  private final int controllerPort;
  private final String clusterId;

  private BrokerLayout(Path dir, int port, int controllerPort, String clusterId) {
    this.dir = dir;
    this.port = port;
    this.controllerPort = controllerPort;
    this.clusterId = clusterId;
  }

  /**
   * Reads or creates the layout of {@code dir}.
   *
   * @param dir the broker's directory (created if missing)
   * @param port the client port, or 0 for the saved one (or a free one the first time)
   * @return the layout with both ports chosen
   * @throws IOException if the directory cannot be read or written
   */
  public static BrokerLayout open(Path dir, int port) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve(PORTS_FILE);
    Properties saved = new Properties();
    if (Files.exists(file)) {
      try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        saved.load(r);
      }
    }
    String clusterId = saved.getProperty("cluster.id", Uuid.randomUuid().toString());
    int chosen = port != 0 ? port : Integer.parseInt(saved.getProperty("port", "0"));
    if (chosen == 0) {
      chosen = freePort();
    }
    int controller = freePort(chosen);
    saved.setProperty("cluster.id", clusterId);
    saved.setProperty("port", String.valueOf(chosen));
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      saved.store(w, "krill broker: the cluster id and the client port a restart keeps");
    }
    return new BrokerLayout(dir, chosen, controller, clusterId);
  }

  /** @return the client (PLAINTEXT) port */
  public int port() {
    return port;
  }

  /** @return host:port for clients */
  public String bootstrap() {
    return "127.0.0.1:" + port;
  }

  /** @return the Kafka properties of this node */
  public Properties properties() {
    Properties p = new Properties();
    p.setProperty("process.roles", "broker,controller");
    p.setProperty("node.id", "1");
    p.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
    p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.setProperty("controller.listener.names", "CONTROLLER");
    p.setProperty("inter.broker.listener.name", "PLAINTEXT");
    p.setProperty("log.dirs", dir.resolve("data").toAbsolutePath().toString());
    p.setProperty("offsets.topic.replication.factor", "1");
    p.setProperty("offsets.topic.num.partitions", "4");
    p.setProperty("transaction.state.log.replication.factor", "1");
    p.setProperty("transaction.state.log.min.isr", "1");
    p.setProperty("share.coordinator.state.topic.replication.factor", "1");
    p.setProperty("share.coordinator.state.topic.min.isr", "1");
    p.setProperty("group.initial.rebalance.delay.ms", "0");
    p.setProperty("log.cleaner.dedupe.buffer.size", DEDUPE_BUFFER);
    p.setProperty("num.partitions", "1");
    // A restart after kill -9 waits out the old registration: short so a test or demo restarts in seconds.
    p.setProperty("broker.session.timeout.ms", "2000");
    p.setProperty("broker.heartbeat.interval.ms", "500");
    p.setProperty("auto.create.topics.enable", "false");
    return p;
  }

  /**
   * Formats the log directory unless it holds a formatted one.
   *
   * @param log where the formatter's lines go
   * @throws IOException if formatting fails
   */
  public void formatOnce(PrintStream log) throws IOException {
    Path data = dir.resolve("data");
    if (Files.exists(data.resolve("meta.properties"))) {
      return;
    }
    Files.createDirectories(data);
    Path config = dir.resolve("server.properties");
    try (Writer w = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
      properties().store(w, "krill broker: written for the storage formatter");
    }
    int status = StorageTool.execute(new String[] {"format", "-t", clusterId, "-c", config.toString(), "--ignore-formatted"}, log);
    if (status != 0) {
      throw new IOException("cannot format " + data + " (kafka-storage format exit " + status + ")");
    }
  }

  private static int freePort(int... avoid) throws IOException {
    for (;;) {
      try (ServerSocket s = new ServerSocket()) {
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        int p = s.getLocalPort();
        if (avoid.length == 0 || avoid[0] != p) {
          return p;
        }
      }
    }
  }
}
