package io.krill.crawler;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * A small authoritative DNS server on 127.0.0.1 over UDP, built with dnsjava's message
 * classes, for crawler tests: names answer with A records, unknown names get NXDOMAIN, and a
 * name may be set silent (no answer: a DNS timeout).
 */
public final class TestDnsServer implements AutoCloseable {
  private final Map<String, List<InetAddress>> zones = new ConcurrentHashMap<>();
  private final Map<String, Boolean> silent = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> queries = new ConcurrentHashMap<>();
  private final DatagramSocket udp;
  private final Thread thread;

  public TestDnsServer() throws IOException {
    udp = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    thread = new Thread(this::serve, "crawler-test-dns");
    thread.setDaemon(true);
    thread.start();
  }

  public InetSocketAddress address() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), udp.getLocalPort());
  }

  /** Maps {@code name} to IPv4 literals. */
  public TestDnsServer answer(String name, String... ips) throws IOException {
    InetAddress[] a = new InetAddress[ips.length];
    for (int i = 0; i < ips.length; i++) {
      a[i] = InetAddress.getByName(ips[i]);
    }
    zones.put(name.toLowerCase(Locale.ROOT), Arrays.asList(a));
    return this;
  }

  /** Makes {@code name} unanswered (the resolver times out). */
  public TestDnsServer silent(String name) {
    silent.put(name.toLowerCase(Locale.ROOT), true);
    return this;
  }

  public int queries(String name) {
    AtomicInteger n = queries.get(name.toLowerCase(Locale.ROOT));
    return n == null ? 0 : n.get();
  }

  private void serve() {
    byte[] buf = new byte[4096];
    while (!udp.isClosed()) {
      try {
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        udp.receive(p);
        byte[] answer = respond(Arrays.copyOf(p.getData(), p.getLength()));
        if (answer != null) {
          udp.send(new DatagramPacket(answer, answer.length, p.getSocketAddress()));
        }
      } catch (IOException e) {
        // closed, or a malformed query
      }
    }
  }

  private byte[] respond(byte[] wire) throws IOException {
    Message query = new Message(wire);
    Record question = query.getQuestion();
    String name = question.getName().toString(true).toLowerCase(Locale.ROOT);
    queries.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
    if (silent.containsKey(name)) {
      return null;
    }
    Message response = new Message(query.getHeader().getID());
    response.getHeader().setFlag(Flags.QR);
    response.getHeader().setFlag(Flags.AA);
    response.addRecord(question, Section.QUESTION);
    List<InetAddress> as = zones.get(name);
    if (as == null) {
      response.getHeader().setRcode(Rcode.NXDOMAIN);
      return response.toWire();
    }
    Name owner = question.getName();
    if (question.getType() == Type.A) {
      for (InetAddress a : as) {
        response.addRecord(new ARecord(owner, DClass.IN, 60, a), Section.ANSWER);
      }
    }
    return response.toWire();
  }

  @Override
  public void close() {
    udp.close();
  }
}
