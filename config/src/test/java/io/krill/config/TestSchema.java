package io.krill.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** A schema with one setting of every type, shaped like httpd's. */
final class TestSchema {
  enum Mode { FIBER, VIRTUAL, PLATFORM }

  static final Setting<Integer> PORT = Setting.ofInt("httpd.port")
      .defaultValue(8080).range(0, 65535).doc("TCP port; 0 picks a free one").build();
  static final Setting<String> ADDRESS = Setting.ofHost("httpd.address")
      .defaultValue("127.0.0.1").doc("Address to bind").build();
  static final Setting<Long> MAX_BODY = Setting.ofBytes("httpd.limits.max-body-bytes")
      .defaultValue(10L << 20).range(0L, 1L << 40).doc("Largest request body").build();
  static final Setting<Long> MAX_CONNECTIONS = Setting.ofLong("httpd.limits.max-connections")
      .defaultValue(10_000L).atLeast(1L).doc("Connections held at once").build();
  static final Setting<Duration> IDLE = Setting.ofDuration("httpd.timeouts.idle")
      .defaultValue(Duration.ofSeconds(60)).atLeast(Duration.ofMillis(1)).doc("Idle keep-alive timeout").build();
  static final Setting<Mode> MODE = Setting.ofEnum("httpd.execution-mode", Mode.class)
      .defaultValue(Mode.FIBER).doc("What runs a connection").build();
  static final Setting<Boolean> GZIP = Setting.ofBoolean("httpd.gzip")
      .defaultValue(true).doc("Compress text responses").build();
  static final Setting<Path> ROOT = Setting.ofPath("httpd.root")
      .defaultValue(Path.of(".")).doc("Directory served").build();
  static final Setting<String> NAME = Setting.ofString("httpd.server-name")
      .defaultValue("krill").nonEmpty().doc("Server header").build();
  static final Setting<List<String>> INDEX = Setting.ofStringList("httpd.index-files")
      .defaultValue(List.of("index.html")).nonEmpty().doc("Files served for a directory").build();
  static final Setting<Path> CERT = Setting.ofPath("httpd.tls.cert-file")
      .optional().doc("PEM certificate chain").build();
  static final Setting<Integer> WORKERS = Setting.ofInt("httpd.workers")
      .defaultValue(2).check(v -> v % 2 == 0, "an even number").doc("Worker count").build();

  static final ConfigSchema SCHEMA = ConfigSchema.builder()
      .add(PORT, ADDRESS, MAX_BODY, MAX_CONNECTIONS, IDLE, MODE, GZIP, ROOT, NAME, INDEX, CERT, WORKERS)
      .build();

  private TestSchema() {}
}
