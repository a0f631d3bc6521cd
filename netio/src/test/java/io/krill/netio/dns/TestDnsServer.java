package io.krill.netio.dns;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.xbill.DNS.AAAARecord;
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
 * A small authoritative DNS server on 127.0.0.1, over UDP and TCP on one port, built with
 * dnsjava's message classes. Each name has a behaviour: answer with records and TTLs,
 * NXDOMAIN, SERVFAIL, a truncated UDP answer (the full one over TCP), or silence.
 */
final class TestDnsServer implements AutoCloseable {
  enum Mode { ANSWER, NXDOMAIN, SERVFAIL, TRUNCATE_UDP, SILENT }

  static final class Zone {
    final Mode mode;
    final List<InetAddress> addresses;
    final long ttl;

    Zone(Mode mode, List<InetAddress> addresses, long ttl) {
      this.mode = mode;
      this.addresses = addresses;
      this.ttl = ttl;
    }
  }

  private final Map<String, Zone> zones = new ConcurrentHashMap<>();
  private final Map<String, Long> delayMillis = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> udpQueries = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> tcpQueries = new ConcurrentHashMap<>();
  private final DatagramSocket udp;
  private final ServerSocket tcp;
  private final List<Thread> threads = new ArrayList<>();

  TestDnsServer() throws IOException {
    DatagramSocket u = null;
    ServerSocket t = null;
    for (int attempt = 0; t == null; attempt++) {
      u = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      try {
        t = new ServerSocket(u.getLocalPort(), 50, InetAddress.getLoopbackAddress());
      } catch (IOException e) {
        u.close();
        if (attempt == 20) {
          throw e;
        }
      }
    }
    udp = u;
    tcp = t;
    start("test-dns-udp", this::serveUdp);
    start("test-dns-tcp", this::serveTcp);
  }

  private void start(String name, Runnable r) {
    Thread th = new Thread(r, name);
    th.setDaemon(true);
    threads.add(th);
    th.start();
  }

  InetSocketAddress address() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), udp.getLocalPort());
  }

  void answer(String name, long ttl, String... addresses) throws IOException {
    List<InetAddress> list = new ArrayList<>();
    for (String a : addresses) {
      list.add(InetAddress.getByName(a)); // IP literals only: no lookup happens
    }
    zones.put(name, new Zone(Mode.ANSWER, list, ttl));
  }

  void mode(String name, Mode mode, long ttl, List<InetAddress> addresses) {
    zones.put(name, new Zone(mode, addresses, ttl));
  }

  /** Makes every answer for {@code name} wait {@code millis} (the server answers one query at a time). */
  void delay(String name, long millis) {
    delayMillis.put(name, millis);
  }

  int udpQueries(String name) {
    return udpQueries.getOrDefault(name, new AtomicInteger()).get();
  }

  int tcpQueries(String name) {
    return tcpQueries.getOrDefault(name, new AtomicInteger()).get();
  }

  int queries(String name) {
    return udpQueries(name) + tcpQueries(name);
  }

  private void serveUdp() {
    byte[] buf = new byte[4096];
    while (!udp.isClosed()) {
      try {
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        udp.receive(p);
        byte[] answer = respond(java.util.Arrays.copyOf(p.getData(), p.getLength()), false);
        if (answer != null) {
          udp.send(new DatagramPacket(answer, answer.length, p.getSocketAddress()));
        }
      } catch (IOException e) {
        // closed, or a malformed query: go on until closed
      }
    }
  }

  private void serveTcp() {
    while (!tcp.isClosed()) {
      try {
        Socket s = tcp.accept();
        start("test-dns-tcp-conn", () -> serveTcpConnection(s));
      } catch (IOException e) {
        // closed
      }
    }
  }

  private void serveTcpConnection(Socket s) {
    try (s; DataInputStream in = new DataInputStream(s.getInputStream());
        DataOutputStream out = new DataOutputStream(s.getOutputStream())) {
      for (;;) {
        int len = in.readUnsignedShort();
        byte[] q = new byte[len];
        in.readFully(q);
        byte[] answer = respond(q, true);
        if (answer != null) {
          out.writeShort(answer.length);
          out.write(answer);
          out.flush();
        }
      }
    } catch (IOException e) {
      // the client closed
    }
  }

  private byte[] respond(byte[] wire, boolean overTcp) throws IOException {
    Message query = new Message(wire);
    Record question = query.getQuestion();
    String name = question.getName().toString(true).toLowerCase(Locale.ROOT);
    (overTcp ? tcpQueries : udpQueries).computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
    Zone zone = zones.get(name);
    Long delay = delayMillis.get(name);
    if (delay != null) {
      try {
        Thread.sleep(delay);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    Message response = new Message(query.getHeader().getID());
    response.getHeader().setFlag(Flags.QR);
    response.getHeader().setFlag(Flags.AA);
    if (query.getHeader().getFlag(Flags.RD)) {
      response.getHeader().setFlag(Flags.RD);
    }
    response.addRecord(question, Section.QUESTION);
    if (zone == null || zone.mode == Mode.NXDOMAIN) {
      response.getHeader().setRcode(Rcode.NXDOMAIN);
      return response.toWire();
    }
    switch (zone.mode) {
      case SILENT:
        return null;
      case SERVFAIL:
        response.getHeader().setRcode(Rcode.SERVFAIL);
        return response.toWire();
      case TRUNCATE_UDP:
        if (!overTcp) {
          response.getHeader().setFlag(Flags.TC);
          return response.toWire();
        }
        break;
      default:
        break;
    }
    Name owner = question.getName();
    for (InetAddress a : zone.addresses) {
      if (question.getType() == Type.A && a.getAddress().length == 4) {
        response.addRecord(new ARecord(owner, DClass.IN, zone.ttl, a), Section.ANSWER);
      } else if (question.getType() == Type.AAAA && a.getAddress().length == 16) {
        response.addRecord(new AAAARecord(owner, DClass.IN, zone.ttl, a), Section.ANSWER);
      }
    }
    return response.toWire();
  }

  @Override
  public void close() throws IOException {
    udp.close();
    tcp.close();
  }
}
