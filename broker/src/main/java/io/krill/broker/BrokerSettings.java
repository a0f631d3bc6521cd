package io.krill.broker;

import io.krill.config.ConfigSchema;
import io.krill.config.Setting;
import java.nio.file.Path;

/** The settings of {@code krill broker}: its directory and client port. Immutable; thread-safe. */
public final class BrokerSettings {
  /** The default client port: Kafka's own. */
  public static final int DEFAULT_PORT = 9092;

  /** The broker's directory: formatted on first use, its topics kept across restarts. */
  public static final Setting<Path> DIR = Setting.ofPath("broker.dir").flag("--dir")
      .defaultValue(Path.of("krill-broker"))
      .doc("Directory of the broker's data and saved ports; formatted on first use, kept across restarts").build();
  /** The client port on 127.0.0.1. */
  public static final Setting<Integer> PORT = Setting.ofInt("broker.port").flag("--port")
      .defaultValue(DEFAULT_PORT).range(0, 65535)
      .doc("Client port on 127.0.0.1; 0 keeps the directory's saved port or picks a free one").build();

  /** Every setting of {@code krill broker}. */
  public static final ConfigSchema SCHEMA = ConfigSchema.builder().add(DIR, PORT).build();

  private BrokerSettings() {}
}
