package io.krill.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.testkit.TestHttpServer.Response;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.Lookup;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

/** The test HTTP server answers as told and the raw client reads it; the DNS server answers by zone. */
class TestServersTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  @Test
  void request_chunkedAnswer_readWholeAndCounted() throws Exception {
    try (TestHttpServer server = TestHttpServer.start(r -> Response.ok("text/plain", "x".repeat(100)).chunked())) {
      RawHttp.Response r = RawHttp.request("GET", new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()),
          "a.test", "/p?q", TIMEOUT, TIMEOUT);
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.header("Transfer-Encoding")).isEqualTo("chunked");
      assertThat(r.text()).isEqualTo("x".repeat(100));
      assertThat(server.requests()).isEqualTo(1);
      assertThat(server.hits()).singleElement().satisfies(h -> {
        assertThat(h.host()).isEqualTo("a.test");
        assertThat(h.path()).isEqualTo("/p?q");
      });
    }
  }

  @Test
  void request_resetAnswer_failsAndConnectionIsCounted() throws Exception {
    try (TestHttpServer server = TestHttpServer.start(r -> Response.reset())) {
      assertThatThrownBy(() -> RawHttp.request("GET", new InetSocketAddress(InetAddress.getLoopbackAddress(),
          server.port()), "a.test", "/", TIMEOUT, TIMEOUT)).isInstanceOf(IOException.class);
      assertThat(server.connections()).isEqualTo(1);
    }
  }

  @Test
  void request_silentServer_totalDeadlineEndsTheExchange() throws Exception {
    try (TestHttpServer server = TestHttpServer.start(r -> Response.silent())) {
      assertThatThrownBy(() -> RawHttp.request("GET", new InetSocketAddress(InetAddress.getLoopbackAddress(),
          server.port()), "a.test", "/", TIMEOUT, Duration.ofMillis(100))).isInstanceOf(IOException.class);
    }
  }

  @Test
  void query_setNameZoneNameAndUnknownName_answeredEachWay() throws Exception {
    InetAddress nine = InetAddress.getByName("127.0.0.9");
    try (TestDnsServer dns = TestDnsServer.start(0, name -> name.equals("zone.test")
        ? new TestDnsServer.Entry(TestDnsServer.Mode.ANSWER, List.of(nine), 30, 0) : null)) {
      dns.answer("set.test", "127.0.0.8", "::8");
      SimpleResolver resolver = new SimpleResolver(dns.address());
      resolver.setTimeout(TIMEOUT);
      assertThat(a(resolver, "set.test", Type.A)).containsExactly("127.0.0.8");
      assertThat(a(resolver, "SET.test", Type.AAAA)).containsExactly("0:0:0:0:0:0:0:8");
      assertThat(a(resolver, "zone.test", Type.A)).containsExactly("127.0.0.9");
      Message missing = resolver.send(Message.newQuery(Record.newRecord(Name.fromString("no.test."), Type.A, 1)));
      assertThat(missing.getRcode()).isEqualTo(Rcode.NXDOMAIN);
      assertThat(dns.udpQueries("set.test")).isEqualTo(2);
      assertThat(dns.queries("zone.test")).isEqualTo(1);
    }
  }

  @Test
  void query_answerOver512Bytes_truncatedOverUdpWholeOverTcp() throws Exception {
    try (TestDnsServer dns = TestDnsServer.start()) {
      String[] many = new String[40];
      for (int i = 0; i < many.length; i++) {
        many[i] = "10.0.2." + i;
      }
      dns.answer("big.test", many);
      SimpleResolver resolver = new SimpleResolver(dns.address());
      resolver.setTimeout(TIMEOUT);
      assertThat(a(resolver, "big.test", Type.A)).hasSize(40);
      assertThat(dns.udpQueries("big.test")).isEqualTo(1);
      assertThat(dns.tcpQueries("big.test")).isEqualTo(1);
    }
  }

  private static List<String> a(SimpleResolver resolver, String name, int type) throws Exception {
    Lookup lookup = new Lookup(name + ".", type);
    lookup.setResolver(resolver);
    lookup.setCache(null);
    Record[] records = lookup.run();
    return java.util.Arrays.stream(records).map(Record::rdataToString).toList();
  }
}
