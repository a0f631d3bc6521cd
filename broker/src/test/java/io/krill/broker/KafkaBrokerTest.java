package io.krill.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(180)
class KafkaBrokerTest {
  @TempDir Path dir;

  @Test
  void start_produceConsume_restartKeepsDataAndPort() throws Exception {
    int port;
    try (KafkaBroker broker = KafkaBroker.start(dir, 0)) {
      port = broker.port();
      assertThat(broker.bootstrap()).isEqualTo("127.0.0.1:" + port);
      createTopic(broker.bootstrap());
      produce(broker.bootstrap(), "a", "b", "c");
      assertThat(consumeAll(broker.bootstrap(), 3)).containsExactly("a", "b", "c");
    }
    try (KafkaBroker broker = KafkaBroker.start(dir, 0)) {
      assertThat(broker.port()).isEqualTo(port);
      produce(broker.bootstrap(), "d");
      assertThat(consumeAll(broker.bootstrap(), 4)).containsExactly("a", "b", "c", "d");
    }
  }

  @Test
  void childProcess_killedAndRestarted_keepsData() throws Exception {
    String bootstrap;
    BrokerProcess child = BrokerProcess.start(dir, 0);
    try {
      bootstrap = child.bootstrap();
      createTopic(bootstrap);
      produce(bootstrap, "x", "y");
    } finally {
      child.kill();
    }
    try (BrokerProcess again = BrokerProcess.start(dir, 0)) {
      assertThat(again.bootstrap()).isEqualTo(bootstrap);
      assertThat(consumeAll(bootstrap, 2)).containsExactly("x", "y");
    }
  }

  @Test
  void start_badPort_namesTheField() {
    assertThatThrownBy(() -> KafkaBroker.start(dir, 70000)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("port: 70000 (expected: 0..65535)");
  }

  @Test
  void command_badPort_oneLineExit2() {
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    int status = BrokerCommand.commandLine(System.out, new java.io.PrintStream(err, true))
        .execute("--dir", dir.toString(), "--port", "99999");
    assertThat(status).isEqualTo(2);
    assertThat(err.toString()).startsWith("krill broker: ").contains("--port").hasLineCount(1);
  }

  private static void createTopic(String bootstrap) throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
      admin.createTopics(List.of(new NewTopic("t", 1, (short) 1))).all().get();
    }
  }

  private static void produce(String bootstrap, String... values) throws Exception {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("acks", "all");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      for (String v : values) {
        producer.send(new ProducerRecord<>("t", v)).get();
      }
    }
  }

  private static List<String> consumeAll(String bootstrap, int expected) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    List<String> out = new ArrayList<>();
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
      TopicPartition tp = new TopicPartition("t", 0);
      c.assign(Set.of(tp));
      c.seekToBeginning(Set.of(tp));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (out.size() < expected && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
          out.add(r.value());
        }
      }
    }
    return out;
  }
}
