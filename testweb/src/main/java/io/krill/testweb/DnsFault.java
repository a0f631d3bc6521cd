package io.krill.testweb;

/** A failure the synthetic web's DNS server answers a name with instead of its address. */
public enum DnsFault {
  /** Answer SERVFAIL. */
  SERVFAIL,
  /** Answer nothing, so that the client times out. */
  TIMEOUT,
  /** Answer NXDOMAIN, as for a name that does not exist. */
  NXDOMAIN
}
