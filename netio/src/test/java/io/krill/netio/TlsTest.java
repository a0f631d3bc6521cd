package io.krill.netio;

import static io.krill.netio.TestLoops.inFiber;
import static io.krill.netio.TestLoops.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import java.time.Duration;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** TLS with certificates generated at test time by netty-pkitesting. */
class TlsTest {
  private static X509Bundle root;
  private static X509Bundle localhost;
  private static X509Bundle otherName;

  @BeforeAll
  static void certificates() throws Exception {
    root = new CertificateBuilder().subject("CN=krill test root").setIsCertificateAuthority(true).buildSelfSigned();
    localhost = new CertificateBuilder().subject("CN=localhost").addSanDnsName("localhost")
        .addSanIpAddress("127.0.0.1").addExtendedKeyUsageServerAuth().buildIssuedBy(root);
    otherName = new CertificateBuilder().subject("CN=other.test").addSanDnsName("other.test")
        .addExtendedKeyUsageServerAuth().buildIssuedBy(root);
  }

  private static FiberServerSocket server(X509Bundle cert) throws Exception {
    Tls tls = Tls.server(cert.getKeyPair().getPrivate(), cert.getCertificatePath());
    return TestLoops.serve(options().tls(tls).build(), FiberSocketTest.LINE_ECHO);
  }

  private static FiberServerSocket server(X509Bundle cert, TestLoops.Carriers c) throws Exception {
    Tls tls = Tls.server(cert.getKeyPair().getPrivate(), cert.getCertificatePath());
    return c.serve(c.options().tls(tls).build(), FiberSocketTest.LINE_ECHO);
  }

  @EveryTransport
  void connect_trustedCertificateMatchingHost_echoesOverTls(Transport transport) throws Exception {
    TestLoops.Carriers c = TestLoops.on(transport);
    try (FiberServerSocket server = server(localhost, c)) {
      SocketOptions o = c.options().tls(Tls.client(root.getCertificate())).build();
      String echoed = c.inFiber(() -> TestLoops.echoLine("localhost", server.port(), o, "secret"));
      assertThat(echoed).isEqualTo("secret");
    }
  }

  @EveryTransport
  void connect_certificateNotTrusted_handshakeFailureNamesPeerAndCause(Transport transport) throws Exception {
    TestLoops.Carriers c = TestLoops.on(transport);
    try (FiberServerSocket server = server(localhost, c)) {
      SocketOptions o = c.options().tls(Tls.client()).build();
      assertHandshakeFails(() -> c.inFiber(() -> FiberSocket.connect("localhost", server.port(), o)), server.port(), "PKIX");
    }
  }

  @Test
  void connect_certificateForAnotherHost_hostnameVerificationFails() throws Exception {
    try (FiberServerSocket server = server(otherName)) {
      SocketOptions o = options().tls(Tls.client(root.getCertificate())).build();
      assertHandshakeFails(() -> inFiber(() -> FiberSocket.connect("localhost", server.port(), o)), server.port(), "localhost");
    }
  }

  @Test
  void connect_insecureClient_acceptsCertificateForAnotherHost() throws Exception {
    try (FiberServerSocket server = server(otherName)) {
      SocketOptions o = options().tls(Tls.insecureClientTrustingAnyCertificate()).build();
      String echoed = inFiber(() -> TestLoops.echoLine("127.0.0.1", server.port(), o, "anyway"));
      assertThat(echoed).isEqualTo("anyway");
    }
  }

  @Test
  void connect_plainServer_handshakeTimesOutOrFailsClearly() throws Exception {
    try (FiberServerSocket server = TestLoops.serve(options().build(), s -> s.input().read())) {
      SocketOptions o = options().tls(Tls.client(root.getCertificate()).handshakeTimeout(Duration.ofMillis(300))).build();
      assertThatThrownBy(() -> inFiber(() -> FiberSocket.connect("localhost", server.port(), o)))
          .isInstanceOf(java.io.IOException.class)
          .hasMessageContaining("localhost:" + server.port());
    }
  }

  @Test
  void handshakeTimeout_zero_rejectedInHouseFormat() throws Exception {
    assertThatThrownBy(() -> Tls.client().handshakeTimeout(Duration.ZERO))
        .hasMessage("handshakeTimeout: 0s (expected: > 0)");
  }

  /** Asserts that {@code connect} fails the handshake with localhost, naming the peer and {@code cause}. */
  private static void assertHandshakeFails(ThrowingCallable connect, int port, String cause) {
    assertThatThrownBy(connect)
        .isInstanceOf(SSLHandshakeException.class)
        .hasMessageStartingWith("TLS handshake with localhost:" + port + " failed: ")
        .hasMessageContaining(cause);
  }
}
