package io.krill.cli;

import io.krill.netio.Tls;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Server TLS from PEM files, or from a throw-away self-signed certificate made by the JDK's keytool. */
final class TlsFiles {
  private static final String BEGIN_KEY = "-----BEGIN PRIVATE KEY-----";
  private static final String END_KEY = "-----END PRIVATE KEY-----";

  private TlsFiles() {}

  /** A file could not be used; the message says what was expected. */
  static final class BadFileException extends Exception {
    private static final long serialVersionUID = 1L;

    BadFileException(String message) {
      super(message);
    }
  }

  /** For the settings check: a readable file of PEM certificates. */
  static boolean isCertificateFile(Path file) {
    try {
      return !certificates(file).isEmpty();
    } catch (BadFileException | IOException e) {
      return false;
    }
  }

  /** For the settings check: a readable PEM PKCS#8 private key. */
  static boolean isPrivateKeyFile(Path file) {
    try {
      return privateKey(file) != null;
    } catch (BadFileException | IOException e) {
      return false;
    }
  }

  static Tls fromPem(Path certFile, Path keyFile) throws BadFileException, IOException {
    List<X509Certificate> chain = certificates(certFile);
    return Tls.server(privateKey(keyFile), chain.toArray(new X509Certificate[0]));
  }

  static List<X509Certificate> certificates(Path certFile) throws BadFileException, IOException {
    List<X509Certificate> chain = new ArrayList<>();
    try (InputStream in = Files.newInputStream(certFile)) {
      for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        chain.add((X509Certificate) c);
      }
    } catch (GeneralSecurityException e) {
      throw new BadFileException("expected: PEM X.509 certificates (" + e.getMessage() + ")");
    }
    if (chain.isEmpty()) {
      throw new BadFileException("expected: PEM X.509 certificates (found none)");
    }
    return chain;
  }

  static PrivateKey privateKey(Path keyFile) throws BadFileException, IOException {
    String pem = Files.readString(keyFile, StandardCharsets.US_ASCII);
    int begin = pem.indexOf(BEGIN_KEY);
    int end = pem.indexOf(END_KEY);
    if (begin < 0 || end < begin) {
      throw new BadFileException("expected: a PEM PKCS#8 private key (BEGIN PRIVATE KEY; convert others with"
          + " openssl pkcs8 -topk8 -nocrypt)");
    }
    byte[] der;
    try {
      der = Base64.getMimeDecoder().decode(pem.substring(begin + BEGIN_KEY.length(), end));
    } catch (IllegalArgumentException e) {
      throw new BadFileException("expected: a PEM PKCS#8 private key (bad base64)");
    }
    for (String algorithm : new String[] {"RSA", "EC", "Ed25519", "Ed448"}) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        // try the next algorithm
      }
    }
    throw new BadFileException("expected: a PEM PKCS#8 RSA, EC or EdDSA private key");
  }

  /**
   * A self-signed certificate for localhost, 127.0.0.1 and ::1, valid for 30 days, made by the
   * running JDK's keytool in a temporary directory that is deleted afterwards.
   */
  static Tls selfSigned() throws IOException, GeneralSecurityException, InterruptedException {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    if (!Files.isExecutable(keytool)) {
      throw new IOException("no keytool at " + keytool + " (a JDK is needed for httpd.tls.self-signed)");
    }
    Path dir = Files.createTempDirectory("krill-tls");
    Path store = dir.resolve("self-signed.p12");
    char[] password = "krill-dev".toCharArray();
    try {
      Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "krill", "-keyalg", "EC",
          "-groupname", "secp256r1", "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1,ip:::1",
          "-validity", "30", "-storetype", "PKCS12", "-keystore", store.toString(),
          "-storepass", new String(password), "-keypass", new String(password))
          .redirectErrorStream(true).start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IOException("keytool failed: " + output.trim());
      }
      KeyStore ks = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(store)) {
        ks.load(in, password);
      }
      PrivateKey key = (PrivateKey) ks.getKey("krill", password);
      Certificate[] chain = ks.getCertificateChain("krill");
      List<X509Certificate> certs = new ArrayList<>();
      for (Certificate c : chain) {
        certs.add((X509Certificate) c);
      }
      return Tls.server(key, certs.toArray(new X509Certificate[0]));
    } finally {
      Files.deleteIfExists(store);
      Files.deleteIfExists(dir);
    }
  }
}
