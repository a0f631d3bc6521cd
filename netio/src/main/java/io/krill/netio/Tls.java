package io.krill.netio;

import io.krill.fibers.Checks;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Objects;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * TLS settings for a socket: a client that verifies the server, or a server with its key and
 * certificate chain. Immutable and thread-safe; build the Netty context once and share it.
 *
 * <p>Clients send SNI and verify the server's hostname (endpoint identification "HTTPS") by
 * default. {@link #insecureClientTrustingAnyCertificate()} turns both off and is for tests only.
 */
public final class Tls {
  /** Default: how long a TLS handshake may take. */
  public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

  private final SslContext context;
  private final boolean verifyHostname;
  private final Duration handshakeTimeout;

  private Tls(SslContext context, boolean verifyHostname, Duration handshakeTimeout) {
    this.context = context;
    this.verifyHostname = verifyHostname;
    this.handshakeTimeout = handshakeTimeout;
  }

  /**
   * A client that trusts the JDK's default certificate authorities.
   *
   * @return the settings
   * @throws SSLException if the JDK's TLS cannot be set up
   */
  public static Tls client() throws SSLException {
    return new Tls(SslContextBuilder.forClient().sslProvider(SslProvider.JDK).build(), true, DEFAULT_HANDSHAKE_TIMEOUT);
  }

  /**
   * A client that trusts only the given certificates (a private CA, a test root).
   *
   * @param trusted the trust anchors
   * @return the settings
   * @throws SSLException if the context cannot be built
   */
  public static Tls client(X509Certificate... trusted) throws SSLException {
    if (trusted.length == 0) {
      throw new IllegalArgumentException("trusted: 0 certificates (expected: > 0)");
    }
    return new Tls(SslContextBuilder.forClient().sslProvider(SslProvider.JDK).trustManager(trusted).build(), true,
        DEFAULT_HANDSHAKE_TIMEOUT);
  }

  /**
   * UNSAFE, for tests only: a client that accepts any certificate for any hostname, so anyone
   * on the path can read and change the traffic.
   *
   * @return the settings
   * @throws SSLException if the context cannot be built
   */
  public static Tls insecureClientTrustingAnyCertificate() throws SSLException {
    return new Tls(SslContextBuilder.forClient().sslProvider(SslProvider.JDK)
        .trustManager(InsecureTrustManagerFactory.INSTANCE).build(), false, DEFAULT_HANDSHAKE_TIMEOUT);
  }

  /**
   * A server presenting {@code chain} (leaf first) with {@code key}.
   *
   * @param key the leaf's private key
   * @param chain the certificate chain, leaf first
   * @return the settings
   * @throws SSLException if the context cannot be built
   */
  public static Tls server(PrivateKey key, X509Certificate... chain) throws SSLException {
    Objects.requireNonNull(key, "key");
    if (chain.length == 0) {
      throw new IllegalArgumentException("chain: 0 certificates (expected: > 0)");
    }
    return new Tls(SslContextBuilder.forServer(key, chain).sslProvider(SslProvider.JDK).build(), false,
        DEFAULT_HANDSHAKE_TIMEOUT);
  }

  /**
   * @param timeout how long a handshake may take
   * @return a copy with that handshake timeout
   */
  public Tls handshakeTimeout(Duration timeout) {
    return new Tls(context, verifyHostname, Checks.positive("handshakeTimeout", timeout));
  }

  /** @return the handshake timeout */
  public Duration handshakeTimeout() {
    return handshakeTimeout;
  }

  /** @return true for server settings */
  public boolean isServer() {
    return context.isServer();
  }

  /** @return the Netty context, for pipelines built by hand */
  public SslContext context() {
    return context;
  }

  /**
   * Creates the handler for one connection.
   *
   * @param alloc the channel's allocator
   * @param host the peer's hostname (SNI, verification); ignored by servers
   * @param port the peer's port
   * @return a new handler
   */
  public SslHandler newHandler(ByteBufAllocator alloc, String host, int port) {
    SslHandler handler = context.isServer() ? context.newHandler(alloc) : context.newHandler(alloc, host, port);
    handler.setHandshakeTimeout(handshakeTimeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    if (!context.isServer()) {
      SSLEngine engine = handler.engine();
      SSLParameters p = engine.getSSLParameters();
      p.setEndpointIdentificationAlgorithm(verifyHostname ? "HTTPS" : null);
      engine.setSSLParameters(p);
    }
    return handler;
  }
}
