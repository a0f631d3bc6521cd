package io.krill.testweb;

import io.krill.fibers.Checks;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/** IPv4 loopback addresses (127.0.0.0/8) as numbers, for spreading virtual hosts over them. Stateless. */
final class Loopback {
  private Loopback() {}

  /** @return the IPv4 address as an unsigned 32-bit number */
  static long ipv4(InetAddress a) {
    byte[] b = a.getAddress();
    return ((b[0] & 0xffL) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
  }

  /** @return the IPv4 address of an unsigned 32-bit number */
  static InetAddress ipv4(long value) {
    byte[] b = {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
    try {
      return InetAddress.getByAddress(b);
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  /** Reads a host address in 127.0.0.0/8, the first IP of a test web; errors name {@code firstIp}. */
  static InetAddress parse(String text) {
    Objects.requireNonNull(text, "firstIp");
    String[] parts = text.trim().split("\\.", -1);
    if (parts.length != 4) {
      throw Checks.bad("firstIp", text, "an IPv4 literal in 127.0.0.0/8 such as 127.0.1.1");
    }
    long value = 0;
    for (String p : parts) {
      if (!p.matches("\\d{1,3}") || Integer.parseInt(p) > 255) {
        throw Checks.bad("firstIp", text, "an IPv4 literal in 127.0.0.0/8 such as 127.0.1.1");
      }
      value = value << 8 | Integer.parseInt(p);
    }
    if ((value >>> 24) != 127 || (value & 0xff_ffffL) == 0 || (value & 0xff_ffffL) == 0xff_ffffL) {
      throw Checks.bad("firstIp", text, "a host address in 127.0.0.0/8 (loopback only)");
    }
    return ipv4(value);
  }
}
