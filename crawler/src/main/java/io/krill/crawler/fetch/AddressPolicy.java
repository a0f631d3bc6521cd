package io.krill.crawler.fetch;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * Which resolved addresses a crawl may connect to. By default private (RFC 1918, RFC 4193),
 * loopback, link-local (including the 169.254.169.254 cloud metadata address), carrier-grade
 * NAT, multicast and unspecified addresses are refused, so that a public page cannot steer the
 * crawler into an internal network (SSRF). {@link #allowPrivate()} lifts that for tests and the
 * demo. Immutable and thread-safe.
 */
public final class AddressPolicy {
  private static final AddressPolicy PUBLIC_ONLY = new AddressPolicy(false);
  private static final AddressPolicy ANY = new AddressPolicy(true);
  private final boolean allowPrivate;

  private AddressPolicy(boolean allowPrivate) {
    this.allowPrivate = allowPrivate;
  }

  /** @return the default: only public unicast addresses */
  public static AddressPolicy publicOnly() {
    return PUBLIC_ONLY;
  }

  /** @return a policy that allows every address ({@code --allow-private}) */
  public static AddressPolicy allowPrivate() {
    return ANY;
  }

  /** @return true if private addresses are allowed */
  public boolean allowsPrivate() {
    return allowPrivate;
  }

  /**
   * @param address a resolved address
   * @return null if the crawler may connect to it, else why not
   */
  public String refusal(InetAddress address) {
    if (allowPrivate) {
      return null;
    }
    String why = classify(address);
    return why == null ? null : address.getHostAddress() + " is a " + why + " address (use --allow-private to crawl it)";
  }

  /** @return the kind of non-public address, or null for a public one */
  static String classify(InetAddress a) {
    if (a.isLoopbackAddress()) {
      return "loopback";
    }
    if (a.isLinkLocalAddress()) {
      return "link-local";
    }
    if (a.isSiteLocalAddress()) {
      return "private";
    }
    if (a.isAnyLocalAddress()) {
      return "unspecified";
    }
    if (a.isMulticastAddress()) {
      return "multicast";
    }
    byte[] b = a.getAddress();
    if (a instanceof Inet4Address) {
      int b0 = b[0] & 0xff;
      int b1 = b[1] & 0xff;
      if (b0 == 100 && b1 >= 64 && b1 < 128) {
        return "carrier-grade NAT";
      }
      if (b0 == 0 || b0 >= 240) {
        return "reserved";
      }
    } else if (a instanceof Inet6Address) {
      if ((b[0] & 0xfe) == 0xfc) {
        return "unique-local (private)";
      }
      boolean mapped = true;
      for (int i = 0; i < 10; i++) {
        mapped &= b[i] == 0;
      }
      if (mapped && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
        try {
          return classify(InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]}));
        } catch (java.net.UnknownHostException e) {
          return "reserved";
        }
      }
      if (b[0] == (byte) 0xfd && b[1] == 0 && b[2] == (byte) 0x0e && b[3] == (byte) 0xc2) {
        return "metadata";
      }
    }
    return null;
  }
}
