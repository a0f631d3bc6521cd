package io.krill.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The one {@code HOST:PORT} reader: the forms it takes, and the one message it refuses the rest with. */
class HostPortTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "127.0.0.1:8090 | 127.0.0.1 | 8090 | 127.0.0.1:8090",
      "localhost:0    | localhost | 0    | localhost:0",
      "[::1]:53       | ::1       | 53   | [::1]:53",
      "a.test:65535   | a.test    | 65535| a.test:65535"})
  void parse_portRequired_readsHostAndPort(String text, String host, int port, String back) {
    HostPort hp = HostPort.parse("--console", text);
    assertThat(hp.host()).isEqualTo(host);
    assertThat(hp.port()).isEqualTo(port);
    assertThat(hp).hasToString(back).isEqualTo(HostPort.parse("--console", back));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "10.0.0.53      | 10.0.0.53 | 53",
      "10.0.0.53:5353 | 10.0.0.53 | 5353",
      "::1            | ::1       | 53",
      "[::1]          | ::1       | 53",
      "[::1]:5353     | ::1       | 5353"})
  void parse_portOptional_takesTheDefault(String text, String host, int port) {
    HostPort hp = HostPort.parse("dns", text, 53);
    assertThat(hp.host()).isEqualTo(host);
    assertThat(hp.port()).isEqualTo(port);
  }

  @ParameterizedTest
  @ValueSource(strings = {"127.0.0.1", "", ":8090", "127.0.0.1:", "127.0.0.1:x", "127.0.0.1:65536", "127.0.0.1:-1",
      "::1:8090", "[::1", "[::1]8090", "bad_host:80", "256.1.1.1:80", "a..b:80", "127.0.0.1:+80"})
  void parse_malformedOrNoPort_namesTheFieldAndTheForm(String text) {
    assertThatThrownBy(() -> HostPort.parse("--console", text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--console: " + text + " (expected: HOST:PORT)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "10.0.0.53:", "10.0.0.53:x", "[::1]:99999", "a b"})
  void parse_portOptional_malformed_namesTheFieldAndTheForm(String text) {
    assertThatThrownBy(() -> HostPort.parse("dns", text, 53))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dns: " + text + " (expected: HOST or HOST:PORT)");
  }

  @Test
  void of_socketAddress_readsBack() throws Exception {
    HostPort v6 = HostPort.of(new InetSocketAddress(InetAddress.getByName("::1"), 8090));
    assertThat(v6.host()).isEqualTo("0:0:0:0:0:0:0:1");
    assertThat(HostPort.parse("--console", v6.toString())).isEqualTo(v6);
    assertThat(HostPort.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), 53))).hasToString("127.0.0.1:53");
    assertThat(HostPort.of(InetSocketAddress.createUnresolved("a.test", 80))).hasToString("a.test:80");
  }

  @ParameterizedTest
  @ValueSource(ints = {-2, 65536})
  void parse_badDefaultPort_refused(int port) {
    assertThatThrownBy(() -> HostPort.parse("dns", "a.test", port))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("defaultPort: " + port + " (expected: 0..65535)");
  }
}
