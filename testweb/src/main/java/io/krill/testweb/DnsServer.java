package io.krill.testweb;

import io.krill.fibers.Checks;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Opcode;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * The synthetic web's authoritative DNS server on 127.0.0.1, over UDP and TCP on one port, built
 * on dnsjava's message classes. It answers A queries for the web's hosts with their loopback
 * address, NODATA for other types of those names, and NXDOMAIN for every other name. Faults can
 * be configured ({@code dnsFailureHosts}, {@code dnsTimeoutHosts}) or injected per name with
 * {@link #inject}.
 *
 * <p>Point a resolver at it with
 * {@code DnsResolver.builder().servers(List.of(dns.address())).hostsFile(null).build()}.
 *
 * <p>Threading: thread-safe. It serves from its own daemon threads: one for UDP, one accepting
 * TCP, and one per TCP connection, at most {@value #MAX_TCP_CONNECTIONS}.
 */
public final class DnsServer implements AutoCloseable {
  /** The most TCP connections served at once; more are closed at once. */
  public static final int MAX_TCP_CONNECTIONS = 64;
  /** The largest UDP query read. */
  static final int MAX_UDP_QUERY = 4096;
  /**
   * The UDP receive buffer asked for (the kernel may give less): a crawl that resolves
   * thousands of hosts at once sends its queries in one burst, and a query the buffer cannot
   * hold is lost and retried only after the client's timeout.
   */
  static final int UDP_RECEIVE_BUFFER = 4 << 20;
  /** The largest UDP answer sent (the classic 512 bytes; longer ones are truncated so that clients retry over TCP). */
  static final int MAX_UDP_ANSWER = 512;

  private static final Logger log = LoggerFactory.getLogger(DnsServer.class);

  private final SyntheticWeb web;
  private final long ttlSeconds;
  private final Map<String, DnsFault> faults = new ConcurrentHashMap<>();
  private final DatagramSocket udp;
  private final ServerSocket tcp;
  private final List<Thread> threads = new ArrayList<>();
  private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
  private final Semaphore connectionSlots = new Semaphore(MAX_TCP_CONNECTIONS);
  private final AtomicLong udpQueries = new AtomicLong();
  private final AtomicLong tcpQueries = new AtomicLong();
  private final Map<String, AtomicLong> perName = new ConcurrentHashMap<>();
  private volatile boolean closed;

  private DnsServer(SyntheticWeb web, int port) throws IOException {
    this.web = web;
    this.ttlSeconds = web.config().dnsTtl.getSeconds();
    faults.putAll(web.dnsFaults());
    InetAddress loopback = InetAddress.getLoopbackAddress();
    DatagramSocket u = null;
    ServerSocket t = null;
    for (int attempt = 0; t == null; attempt++) {
      u = new DatagramSocket(new InetSocketAddress(loopback, port));
      u.setReceiveBufferSize(UDP_RECEIVE_BUFFER);
      try {
        t = new ServerSocket(u.getLocalPort(), 128, loopback);
      } catch (IOException e) {
        u.close();
        if (port != 0 || attempt == 20) {
          throw new IOException("dnsPort: cannot bind TCP " + loopback.getHostAddress() + ":" + u.getLocalPort() + " (" + e.getMessage() + ")", e);
        }
      }
    }
    udp = u;
    tcp = t;
    start("testweb-dns-udp", this::serveUdp);
    start("testweb-dns-tcp", this::serveTcp);
  }

  /**
   * Starts a DNS server for {@code web} on 127.0.0.1.
   *
   * @param web the web whose hosts it answers
   * @param port the port for UDP and TCP, 0 for a free one
   * @return the running server
   * @throws IOException if the port cannot be bound
   */
  public static DnsServer start(SyntheticWeb web, int port) throws IOException {
    return new DnsServer(Objects.requireNonNull(web, "web"), Checks.inRange("port", port, 0, 65535));
  }

  /** @return the address to send queries to (UDP and TCP) */
  public InetSocketAddress address() {
    return new InetSocketAddress(udp.getLocalAddress(), udp.getLocalPort());
  }

  /**
   * Makes queries for {@code name} fail from now on.
   *
   * @param name a host name, any case
   * @param fault how they fail
   */
  public void inject(String name, DnsFault fault) {
    faults.put(key(name), Objects.requireNonNull(fault, "fault"));
  }

  /**
   * Makes {@code name} answer normally again (also undoing a configured fault).
   *
   * @param name a host name, any case
   */
  public void clear(String name) {
    faults.remove(key(name));
  }

  /** @return queries received over UDP */
  public long udpQueries() {
    return udpQueries.get();
  }

  /** @return queries received over TCP */
  public long tcpQueries() {
    return tcpQueries.get();
  }

  /** @return queries received for {@code name}, over either transport */
  public long queries(String name) {
    AtomicLong n = perName.get(key(name));
    return n == null ? 0 : n.get();
  }

  private static String key(String name) {
    String k = name.toLowerCase(Locale.ROOT);
    return k.endsWith(".") ? k.substring(0, k.length() - 1) : k;
  }

  private void start(String name, Runnable r) {
    Thread th = new Thread(r, name);
    th.setDaemon(true);
    synchronized (threads) {
      threads.add(th);
    }
    th.start();
  }

  private void serveUdp() {
    byte[] buf = new byte[MAX_UDP_QUERY];
    while (!closed) {
      try {
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        udp.receive(p);
        udpQueries.incrementAndGet();
        byte[] answer = answer(Arrays.copyOf(p.getData(), p.getLength()), MAX_UDP_ANSWER);
        if (answer != null) {
          udp.send(new DatagramPacket(answer, answer.length, p.getSocketAddress()));
        }
      } catch (IOException e) {
        if (!closed) {
          log.debug("dns: udp: {}", e.toString());
        }
      }
    }
  }

  private void serveTcp() {
    while (!closed) {
      Socket s;
      try {
        s = tcp.accept();
      } catch (IOException e) {
        pauseAfterFailedAccept();
        continue;
      }
      if (!connectionSlots.tryAcquire()) {
        closeQuietly(s);
        continue;
      }
      connections.add(s);
      start("testweb-dns-tcp-" + s.getPort(), () -> {
        try {
          serveTcpConnection(s);
        } finally {
          connections.remove(s);
          closeQuietly(s);
          connectionSlots.release();
          synchronized (threads) {
            threads.remove(Thread.currentThread());
          }
        }
      });
    }
  }

  /* An accept that fails while open (out of file descriptors) must not spin. */
  private void pauseAfterFailedAccept() {
    if (!closed) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void serveTcpConnection(Socket s) {
    try {
      s.setSoTimeout(30_000);
      DataInputStream in = new DataInputStream(s.getInputStream());
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      for (;;) {
        int len = in.readUnsignedShort();
        byte[] query = new byte[len];
        in.readFully(query);
        tcpQueries.incrementAndGet();
        byte[] answer = answer(query, 65535);
        if (answer != null) {
          out.writeShort(answer.length);
          out.write(answer);
          out.flush();
        }
      }
    } catch (EOFException | SocketException e) {
      // the client closed, or we are closing
    } catch (IOException e) {
      if (!closed) {
        log.debug("dns: tcp: {}", e.toString());
      }
    }
  }

  /** @return the wire answer to a wire query, or null to stay silent */
  byte[] answer(byte[] wire, int maxLength) {
    Message query;
    try {
      query = new Message(wire);
    } catch (IOException e) {
      return formatError(wire);
    }
    Record question = query.getQuestion();
    Message response = new Message(query.getHeader().getID());
    response.getHeader().setFlag(Flags.QR);
    response.getHeader().setFlag(Flags.AA);
    if (query.getHeader().getFlag(Flags.RD)) {
      response.getHeader().setFlag(Flags.RD);
    }
    if (question == null || query.getHeader().getOpcode() != Opcode.QUERY) {
      response.getHeader().setRcode(question == null ? Rcode.FORMERR : Rcode.NOTIMP);
      return response.toWire();
    }
    response.addRecord(question, Section.QUESTION);
    String name = key(question.getName().toString(true));
    perName.computeIfAbsent(name, k -> new AtomicLong()).incrementAndGet();
    DnsFault fault = faults.get(name);
    InetAddress address = web.addressOf(name);
    if (fault == DnsFault.TIMEOUT) {
      return null;
    }
    if (fault == DnsFault.SERVFAIL) {
      response.getHeader().setRcode(Rcode.SERVFAIL);
    } else if (fault == DnsFault.NXDOMAIN || address == null) {
      response.getHeader().setRcode(Rcode.NXDOMAIN);
    } else if (question.getType() == Type.A || question.getType() == Type.ANY) {
      response.addRecord(new ARecord(question.getName(), DClass.IN, ttlSeconds, address), Section.ANSWER);
    }
    return response.toWire(maxLength);
  }

  private static byte[] formatError(byte[] wire) {
    if (wire.length < 2) {
      return null;
    }
    Message m = new Message(((wire[0] & 0xff) << 8) | (wire[1] & 0xff));
    m.getHeader().setFlag(Flags.QR);
    m.getHeader().setRcode(Rcode.FORMERR);
    return m.toWire();
  }

  /** Stops serving and closes every socket and connection; waits for the threads to end. */
  @Override
  public void close() {
    closed = true;
    udp.close();
    closeQuietly(tcp);
    for (Socket s : connections) {
      closeQuietly(s);
    }
    List<Thread> all;
    synchronized (threads) {
      all = new ArrayList<>(threads);
    }
    for (Thread t : all) {
      try {
        t.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static void closeQuietly(java.io.Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // closing anyway
    }
  }
}
