package io.krill.netio.dns;

/** Which address families {@link DnsResolver} looks up, and which it returns first. */
public enum IpPreference {
  /** A records only. */
  IPV4_ONLY,
  /** AAAA records only. */
  IPV6_ONLY,
  /** Both; IPv4 addresses first. */
  IPV4_FIRST,
  /** Both; IPv6 addresses first. */
  IPV6_FIRST
}
