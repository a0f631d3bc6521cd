package io.krill.testweb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.fibers.Continuation;
import io.krill.netio.dns.DnsResolver;
import io.krill.testkit.TestDnsServer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

@Timeout(60)
class DnsServerTest {
  private SyntheticWeb web;
  private DnsServer dns;

  @BeforeEach
  void start() throws Exception {
    web = SyntheticWeb.of(TestWebConfig.builder().hosts(12).ips(4).dnsTtl(Duration.ofSeconds(77)).dnsFailureHosts(1)
        .dnsTimeoutHosts(1).build());
    dns = DnsServer.start(web, 0);
  }

  @AfterEach
  void stop() {
    dns.close();
  }

  private DnsResolver resolver(Duration timeout) {
    return DnsResolver.builder().servers(List.of(dns.address())).hostsFile(null).timeout(timeout).retries(0)
        .negativeTtl(Duration.ZERO).build();
  }

  private static InetAddress resolve(DnsResolver r, String host) {
    return Continuation.callOnThread(() -> r.resolve(host));
  }

  private static Message query(SimpleResolver r, String name, int type) throws Exception {
    return r.send(Message.newQuery(Record.newRecord(Name.fromString(name + "."), type, DClass.IN)));
  }

  @Test
  void udp_throughDnsResolver_answersEveryHostWithItsAddress() {
    DnsResolver r = resolver(Duration.ofSeconds(2));
    for (String host : web.hosts()) {
      if (web.dnsFaults().containsKey(host)) {
        continue;
      }
      assertThat(resolve(r, host)).isEqualTo(web.addressOf(host));
      assertThat(dns.queries(host)).isPositive();
    }
    assertThat(dns.udpQueries()).isPositive();
    assertThat(dns.tcpQueries()).isZero();
  }

  @Test
  void tcp_answersWithTheAddressAndTtl() throws Exception {
    SimpleResolver r = new SimpleResolver(dns.address());
    r.setTCP(true);
    r.setTimeout(Duration.ofSeconds(5));

    String host = web.hosts().stream().filter(h -> !web.dnsFaults().containsKey(h)).reduce((a, b) -> b).orElseThrow();

    Message answer = query(r, host, Type.A);

    assertThat(answer.getRcode()).isEqualTo(Rcode.NOERROR);
    List<Record> records = answer.getSection(Section.ANSWER);
    assertThat(records).singleElement().isInstanceOfSatisfying(ARecord.class, a -> {
      assertThat(a.getAddress()).isEqualTo(web.addressOf(host));
      assertThat(a.getTTL()).isEqualTo(77);
    });
    assertThat(query(r, host, Type.AAAA).getSection(Section.ANSWER)).isEmpty();
    assertThat(query(r, "nothing.krill.test", Type.A).getRcode()).isEqualTo(Rcode.NXDOMAIN);
    assertThat(dns.tcpQueries()).isEqualTo(3);
  }

  @Test
  void resolve_unknownName_isNxdomain() {
    assertThatThrownBy(() -> resolve(resolver(Duration.ofSeconds(2)), "h999.krill.test"))
        .isInstanceOf(UnknownHostException.class).hasMessageContaining("NXDOMAIN");
  }

  @Test
  void configuredFaults_failAsConfigured() {
    DnsResolver r = resolver(Duration.ofMillis(300));
    String servfail = null;
    String timeout = null;
    for (var e : web.dnsFaults().entrySet()) {
      if (e.getValue() == DnsFault.SERVFAIL) {
        servfail = e.getKey();
      } else {
        timeout = e.getKey();
      }
    }
    String failing = servfail;
    String silent = timeout;

    assertThatThrownBy(() -> resolve(r, failing)).isInstanceOf(UnknownHostException.class).hasMessageContaining("SERVFAIL");
    assertThatThrownBy(() -> resolve(r, silent)).isInstanceOf(UnknownHostException.class).hasMessageContaining("timed out");
    assertThat(dns.queries(silent)).isPositive();
  }

  @Test
  void inject_thenClear_failsThenAnswersAgain() {
    DnsResolver r = resolver(Duration.ofSeconds(2));
    dns.inject("H0.KRILL.TEST", DnsFault.NXDOMAIN);
    assertThatThrownBy(() -> resolve(r, "h0.krill.test")).hasMessageContaining("NXDOMAIN");

    dns.inject("h0.krill.test", DnsFault.SERVFAIL);
    assertThatThrownBy(() -> resolve(r, "h0.krill.test")).hasMessageContaining("SERVFAIL");

    dns.clear("h0.krill.test");
    assertThat(resolve(r, "h0.krill.test")).isEqualTo(web.addressOf("h0.krill.test"));
  }

  @Test
  void malformedQuery_getsFormErrWithItsId() throws Exception {
    try (DatagramSocket s = new DatagramSocket()) {
      s.setSoTimeout(5_000);
      byte[] junk = {0x12, 0x34, 1, 2, 3};
      s.send(new DatagramPacket(junk, junk.length, dns.address()));
      DatagramPacket p = new DatagramPacket(new byte[512], 512);
      s.receive(p);
      Message m = new Message(java.util.Arrays.copyOf(p.getData(), p.getLength()));
      assertThat(m.getHeader().getID()).isEqualTo(0x1234);
      assertThat(m.getRcode()).isEqualTo(Rcode.FORMERR);
    }
  }

  @Test
  void close_endsOpenTcpConnections() throws Exception {
    try (Socket s = new Socket(dns.address().getAddress(), dns.address().getPort())) {
      s.setSoTimeout(10_000);
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      byte[] q = Message.newQuery(Record.newRecord(Name.fromString("h0.krill.test."), Type.A, DClass.IN)).toWire();
      out.writeShort(q.length);
      out.write(q);
      out.flush();
      DataInputStream in = new DataInputStream(s.getInputStream());
      byte[] answer = new byte[in.readUnsignedShort()];
      in.readFully(answer);
      assertThat(new Message(answer).getSection(Section.ANSWER)).hasSize(1);

      dns.close();

      assertThat(in.read()).isEqualTo(-1);
    }
  }

  @Test
  void udp_burstOfQueries_answersEveryOne() throws Exception {
    int queries = 3000;
    List<String> answering = web.hosts().stream().filter(h -> web.dnsFaults().get(h) != DnsFault.TIMEOUT).toList();
    try (DatagramSocket s = new DatagramSocket()) {
      s.setReceiveBufferSize(TestDnsServer.UDP_RECEIVE_BUFFER);
      s.setSoTimeout(5_000);
      for (int i = 0; i < queries; i++) {
        Message q = Message.newQuery(Record.newRecord(Name.fromString(answering.get(i % answering.size()) + "."), Type.A, DClass.IN));
        q.getHeader().setID(i % 65536);
        byte[] wire = q.toWire();
        s.send(new DatagramPacket(wire, wire.length, dns.address()));
      }
      java.util.Set<Integer> ids = new java.util.HashSet<>();
      DatagramPacket p = new DatagramPacket(new byte[512], 512);
      while (ids.size() < queries) {
        s.receive(p);
        ids.add(new Message(java.util.Arrays.copyOf(p.getData(), p.getLength())).getHeader().getID());
      }
      assertThat(ids).hasSize(queries);
    }
  }
}
