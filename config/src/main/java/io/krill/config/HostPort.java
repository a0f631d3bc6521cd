package io.krill.config;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * A network address as written on a command line or in a file: {@code HOST:PORT}, where HOST is
 * a host name, an IPv4 literal or an IPv6 literal in brackets ({@code [::1]:8090}). The one reader
 * of that form, so that every flag taking an address accepts the same text and refuses it with the
 * same message: {@code field: text (expected: HOST:PORT)}.
 *
 * <p>Nothing is resolved while parsing. Immutable and thread-safe.
 */
public final class HostPort {
  /** What a required port looks like, as the errors say it. */
  static final String WITH_PORT = "HOST:PORT";
  /** What an optional port looks like, as the errors say it. */
  static final String PORT_OPTIONAL = "HOST or HOST:PORT";
  private static final int MAX_PORT = 65535;

  private final String host;
  private final int port;

  private HostPort(String host, int port) {
    this.host = host;
    this.port = port;
  }

  /**
   * Reads {@code HOST:PORT}; the port is required.
   *
   * @param field what the text is, named first in the error, e.g. {@code --console}
   * @param text the text, e.g. {@code 127.0.0.1:8090} or {@code [::1]:0}
   * @return the address
   * @throws IllegalArgumentException {@code field: text (expected: HOST:PORT)} if the text is not
   *     a host and a port in 0..65535
   */
  public static HostPort parse(String field, String text) {
    return parse(field, text, -1);
  }

  /**
   * Reads {@code HOST} or {@code HOST:PORT}.
   *
   * @param field what the text is, named first in the error, e.g. {@code dns}
   * @param text the text, e.g. {@code 10.0.0.53}, {@code ::1} or {@code [::1]:5353}
   * @param defaultPort the port when the text gives none, 0..65535
   * @return the address
   * @throws IllegalArgumentException {@code field: text (expected: HOST or HOST:PORT)} if the text
   *     is not a host, optionally with a port in 0..65535
   */
  public static HostPort parse(String field, String text, int defaultPort) {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(text, "text");
    if (defaultPort < -1 || defaultPort > MAX_PORT) {
      throw new IllegalArgumentException("defaultPort: " + defaultPort + " (expected: 0.." + MAX_PORT + ")");
    }
    HostPort hp = read(text.trim(), defaultPort);
    if (hp == null) {
      throw new IllegalArgumentException(field + ": " + text + " (expected: "
          + (defaultPort < 0 ? WITH_PORT : PORT_OPTIONAL) + ")");
    }
    return hp;
  }

  /* HOST, HOST:PORT, [V6] or [V6]:PORT; a bare V6 literal (two or more colons) has no port, since
     its last group could not be told from one. Null when malformed or when a required port is missing. */
  private static HostPort read(String s, int defaultPort) {
    String hostText;
    String portText;
    if (s.startsWith("[")) {
      int close = s.indexOf(']');
      if (close < 0) {
        return null;
      }
      hostText = s.substring(0, close + 1);
      String rest = s.substring(close + 1);
      if (!rest.isEmpty() && !rest.startsWith(":")) {
        return null;
      }
      portText = rest.isEmpty() ? null : rest.substring(1);
    } else {
      int colon = s.indexOf(':');
      boolean onePort = colon >= 0 && s.indexOf(':', colon + 1) < 0;
      hostText = onePort ? s.substring(0, colon) : s;
      portText = onePort ? s.substring(colon + 1) : null;
    }
    String host = ValueType.HOST.parse(hostText);
    int port = portText == null ? defaultPort : port(portText);
    return host == null || port < 0 ? null : new HostPort(host, port);
  }

  /** The port, or -1 when the text is not a decimal number in range. */
  private static int port(String text) {
    if (text.isEmpty() || text.length() > 5) {
      return -1;
    }
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return -1;
      }
    }
    int p = Integer.parseInt(text);
    return p <= MAX_PORT ? p : -1;
  }

  /**
   * The address of a socket, e.g. to print where a server listens.
   *
   * @param address a socket address
   * @return its IP literal (or, unresolved, its host name) and port
   */
  public static HostPort of(InetSocketAddress address) {
    Objects.requireNonNull(address, "address");
    return new HostPort(address.isUnresolved() ? address.getHostString() : address.getAddress().getHostAddress(),
        address.getPort());
  }

  /**
   * The host, without brackets.
   *
   * @return e.g. {@code 127.0.0.1}, {@code ::1} or {@code localhost}
   */
  public String host() {
    return host;
  }

  /**
   * The port; 0 asks the system for a free one when listening.
   *
   * @return 0..65535
   */
  public int port() {
    return port;
  }

  /**
   * The address as a socket address; a host name is looked up here (and left unresolved if the
   * lookup fails).
   *
   * @return the socket address
   */
  public InetSocketAddress socketAddress() {
    return new InetSocketAddress(host, port);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HostPort && ((HostPort) o).host.equals(host) && ((HostPort) o).port == port;
  }

  @Override
  public int hashCode() {
    return host.hashCode() * 31 + port;
  }

  /** @return {@code HOST:PORT}, an IPv6 host in brackets, as {@link #parse(String, String)} reads it back */
  @Override
  public String toString() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}
