package io.krill.testkit;

import java.io.DataInputStream;
import java.io.Closeable;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Opcode;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * A small authoritative DNS server on 127.0.0.1, over UDP and TCP on one port, built with
 * dnsjava's message classes. Each name has an {@link Entry}: answer with A/AAAA records and a
 * TTL, NXDOMAIN, SERVFAIL, a truncated UDP answer (the full one over TCP), or silence (the
 * resolver times out); any answer may be delayed, and a UDP answer over {@value #MAX_UDP_ANSWER}
 * bytes goes out truncated, as a real server's would. Names set on the server come first; the rest
 * are asked of a {@link Zone} (by default none: NXDOMAIN), so that a server of generated names
 * needs no table. Names are case-insensitive and written without the final dot. A query that
 * cannot be parsed gets FORMERR with its ID, an opcode other than QUERY gets NOTIMP, and ANY is
 * answered with every address.
 *
 * <p>Point a resolver at {@link #address()}. Threading: thread-safe; it serves from its own
 * daemon threads (one for UDP, one accepting TCP, one per TCP connection, at most
 * {@value #MAX_TCP_CONNECTIONS}) and answers one UDP query at a time, so a delay holds back the
 * queries behind it. {@link #close()} ends every connection and waits for the threads.
 */
public final class TestDnsServer implements AutoCloseable {
  /** The largest UDP answer sent (the classic 512 bytes); a longer one goes out truncated, so that clients ask over TCP. */
  public static final int MAX_UDP_ANSWER = 512;
  /**
   * The UDP receive buffer asked for (the kernel may give less): a client that resolves
   * thousands of names at once sends its queries in one burst.
   */
  public static final int UDP_RECEIVE_BUFFER = 4 << 20;
  /** The most TCP connections served at once; more are closed at once. */
  public static final int MAX_TCP_CONNECTIONS = 64;
  /** The largest UDP query read. */
  static final int MAX_UDP_QUERY = 4096;
  /** How long an idle TCP connection is kept. */
  static final int TCP_IDLE_MILLIS = 30_000;

  /** The default TTL of {@link #answer(String, String...)}. */
  public static final long DEFAULT_TTL_SECONDS = 60;

  /** How a name is answered. */
  public enum Mode {
    /** The entry's addresses, A for IPv4 and AAAA for IPv6 (none of the asked type: NODATA). */
    ANSWER,
    /** No such name. */
    NXDOMAIN,
    /** The server failed. */
    SERVFAIL,
    /** Over UDP an empty answer with the truncation flag; over TCP the full answer. */
    TRUNCATE_UDP,
    /** No answer at all. */
    SILENT
  }

  /**
   * How one name is answered.
   *
   * @param mode what kind of answer
   * @param addresses the addresses of an answer
   * @param ttlSeconds the records' TTL
   * @param delayMillis how long to wait before answering
   */
  public record Entry(Mode mode, List<InetAddress> addresses, long ttlSeconds, long delayMillis) {
    /** @return the same entry answered after {@code millis} */
    public Entry delayed(long millis) {
      return new Entry(mode, addresses, ttlSeconds, millis);
    }
  }

  /** The names the server answers beyond those set on it. */
  @FunctionalInterface
  public interface Zone {
    /**
     * @param name the asked name, lower case, without the final dot
     * @return how to answer it, or null for NXDOMAIN
     */
    Entry lookup(String name);
  }

  private final Zone zone;
  private final Map<String, Entry> entries = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> udpQueries = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> tcpQueries = new ConcurrentHashMap<>();
  private final AtomicLong udpTotal = new AtomicLong();
  private final AtomicLong tcpTotal = new AtomicLong();
  private final DatagramSocket udp;
  private final ServerSocket tcp;
  private final List<Thread> threads = new ArrayList<>();
  private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
  private final Semaphore connectionSlots = new Semaphore(MAX_TCP_CONNECTIONS);
  private volatile boolean closed;

  private TestDnsServer(int port, Zone zone) throws IOException {
    this.zone = zone;
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
          throw new IOException("cannot bind TCP " + loopback.getHostAddress() + ":" + u.getLocalPort() + " (" + e.getMessage() + ")", e);
        }
      }
    }
    udp = u;
    tcp = t;
    daemon("test-dns-udp", this::serveUdp);
    daemon("test-dns-tcp", this::serveTcp);
  }

  /** Starts a server on a free port that knows no name until told. */
  public static TestDnsServer start() throws IOException {
    return start(0, name -> null);
  }

  /**
   * Starts a server.
   *
   * @param port the port for UDP and TCP, 0 for a free one
   * @param zone answers the names not set on the server
   * @return the running server
   * @throws IOException if the port cannot be bound
   */
  public static TestDnsServer start(int port, Zone zone) throws IOException {
    return new TestDnsServer(port, zone);
  }

  private void daemon(String name, Runnable r) {
    Thread th = new Thread(r, name);
    th.setDaemon(true);
    synchronized (threads) {
      threads.add(th);
    }
    th.start();
  }

  /** @return where to send queries, over UDP or TCP */
  public InetSocketAddress address() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), udp.getLocalPort());
  }

  /** Answers {@code name} with IP literals and the {@linkplain #DEFAULT_TTL_SECONDS default TTL}. */
  public TestDnsServer answer(String name, String... addresses) throws IOException {
    return answer(name, DEFAULT_TTL_SECONDS, addresses);
  }

  /** Answers {@code name} with IP literals (no lookup happens) and {@code ttl} seconds. */
  public TestDnsServer answer(String name, long ttl, String... addresses) throws IOException {
    List<InetAddress> list = new ArrayList<>();
    for (String a : addresses) {
      list.add(InetAddress.getByName(a));
    }
    return mode(name, Mode.ANSWER, ttl, list);
  }

  /** Answers {@code name} the way {@code mode} says. */
  public TestDnsServer mode(String name, Mode mode, long ttl, List<InetAddress> addresses) {
    long delay = entry(key(name)) == null ? 0 : entry(key(name)).delayMillis();
    entries.put(key(name), new Entry(mode, List.copyOf(addresses), ttl, delay));
    return this;
  }

  /** Leaves {@code name} unanswered (the resolver times out). */
  public TestDnsServer silent(String name) {
    return mode(name, Mode.SILENT, 0, List.of());
  }

  /** Makes every answer for {@code name} wait {@code millis}. */
  public TestDnsServer delay(String name, long millis) {
    Entry e = entry(key(name));
    entries.put(key(name), (e == null ? new Entry(Mode.NXDOMAIN, List.of(), 0, 0) : e).delayed(millis));
    return this;
  }

  /** @return UDP queries for {@code name} so far */
  public int udpQueries(String name) {
    return count(udpQueries, name);
  }

  /** @return TCP queries for {@code name} so far */
  public int tcpQueries(String name) {
    return count(tcpQueries, name);
  }

  /** @return UDP queries so far, for every name */
  public long udpQueries() {
    return udpTotal.get();
  }

  /** @return TCP queries so far, for every name */
  public long tcpQueries() {
    return tcpTotal.get();
  }

  /** @return queries for {@code name} so far, both transports */
  public int queries(String name) {
    return udpQueries(name) + tcpQueries(name);
  }

  private static int count(Map<String, AtomicInteger> counts, String name) {
    AtomicInteger n = counts.get(key(name));
    return n == null ? 0 : n.get();
  }

  private static String key(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return n.endsWith(".") ? n.substring(0, n.length() - 1) : n;
  }

  private Entry entry(String name) {
    Entry e = entries.get(name);
    return e != null ? e : zone.lookup(name);
  }

  private void serveUdp() {
    byte[] buf = new byte[MAX_UDP_QUERY];
    while (!closed) {
      try {
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        udp.receive(p);
        udpTotal.incrementAndGet();
        byte[] answer = respond(Arrays.copyOf(p.getData(), p.getLength()), false);
        if (answer != null) {
          udp.send(new DatagramPacket(answer, answer.length, p.getSocketAddress()));
        }
      } catch (IOException e) {
        // closed, or the client went away: go on until closed
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
      daemon("test-dns-tcp-" + s.getPort(), () -> {
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
      s.setSoTimeout(TCP_IDLE_MILLIS);
      DataInputStream in = new DataInputStream(s.getInputStream());
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      for (;;) {
        byte[] q = new byte[in.readUnsignedShort()];
        in.readFully(q);
        tcpTotal.incrementAndGet();
        byte[] answer = respond(q, true);
        if (answer != null) {
          out.writeShort(answer.length);
          out.write(answer);
          out.flush();
        }
      }
    } catch (IOException e) {
      // the client closed, or we are closing
    }
  }

  private byte[] respond(byte[] wire, boolean overTcp) throws IOException {
    byte[] answer = answer(wire, overTcp);
    if (overTcp || answer == null || answer.length <= MAX_UDP_ANSWER) {
      return answer;
    }
    Message full = new Message(answer);
    Message truncated = new Message(full.getHeader().getID());
    truncated.getHeader().setFlag(Flags.QR);
    truncated.getHeader().setFlag(Flags.AA);
    truncated.getHeader().setFlag(Flags.TC);
    truncated.addRecord(full.getQuestion(), Section.QUESTION);
    return truncated.toWire();
  }

  private byte[] answer(byte[] wire, boolean overTcp) {
    Message query;
    try {
      query = new Message(wire);
    } catch (IOException e) {
      return formatError(wire);
    }
    Record question = query.getQuestion();
    if (question == null || query.getHeader().getOpcode() != Opcode.QUERY) {
      Message response = reply(query);
      response.getHeader().setRcode(question == null ? Rcode.FORMERR : Rcode.NOTIMP);
      return response.toWire();
    }
    String name = key(question.getName().toString(true));
    (overTcp ? tcpQueries : udpQueries).computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
    Entry entry = entry(name);
    if (entry != null && entry.delayMillis() > 0) {
      try {
        Thread.sleep(entry.delayMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    Message response = reply(query);
    response.addRecord(question, Section.QUESTION);
    Mode mode = entry == null ? Mode.NXDOMAIN : entry.mode();
    switch (mode) {
      case SILENT:
        return null;
      case NXDOMAIN:
        response.getHeader().setRcode(Rcode.NXDOMAIN);
        return response.toWire();
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
    addAnswers(response, question, entry);
    return response.toWire();
  }

  private static Message reply(Message query) {
    Message response = new Message(query.getHeader().getID());
    response.getHeader().setFlag(Flags.QR);
    response.getHeader().setFlag(Flags.AA);
    if (query.getHeader().getFlag(Flags.RD)) {
      response.getHeader().setFlag(Flags.RD);
    }
    return response;
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

  private static void addAnswers(Message response, Record question, Entry entry) {
    Name owner = question.getName();
    int type = question.getType();
    for (InetAddress a : entry.addresses()) {
      if ((type == Type.A || type == Type.ANY) && a.getAddress().length == 4) {
        response.addRecord(new ARecord(owner, DClass.IN, entry.ttlSeconds(), a), Section.ANSWER);
      } else if ((type == Type.AAAA || type == Type.ANY) && a.getAddress().length == 16) {
        response.addRecord(new AAAARecord(owner, DClass.IN, entry.ttlSeconds(), a), Section.ANSWER);
      }
    }
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

  private static void closeQuietly(Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // closing anyway
    }
  }
}
