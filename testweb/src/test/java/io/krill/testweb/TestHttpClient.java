package io.krill.testweb;

import io.krill.fibers.Continuation;
import io.krill.netio.dns.DnsResolver;
import io.krill.testkit.RawHttp;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * One GET at a time into the synthetic web: resolves the host through krill's
 * {@link DnsResolver} (so the web's DNS server answers), then sends the request with
 * krill-testkit's {@link RawHttp}, independent of the crawler's client on purpose.
 */
final class TestHttpClient implements AutoCloseable {
  /** One answer, with the address it came from and the time from connect to its last byte. */
  record Reply(int status, Map<String, String> headers, byte[] body, InetAddress address, long nanos) {
    String header(String name) {
      return headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }

    String text() {
      return new String(body, java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  private final DnsResolver resolver;
  private final Duration readTimeout;

  TestHttpClient(DnsResolver resolver, Duration readTimeout) {
    this.resolver = resolver;
    this.readTimeout = readTimeout;
  }

  /** @return the address DNS gives {@code host}; throws UnknownHostException when it gives none */
  InetAddress resolve(String host) {
    return Continuation.callOnThread(() -> resolver.resolve(host));
  }

  Reply get(String url) throws IOException {
    return request("GET", url);
  }

  /* A body that trickles in never trips the read timeout: the whole exchange has a deadline too. */
  Reply request(String method, String url) throws IOException {
    URI uri = URI.create(url);
    InetAddress address = resolve(uri.getHost());
    String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    long start = System.nanoTime();
    RawHttp.Response r = RawHttp.request(method, new InetSocketAddress(address, uri.getPort()),
        uri.getHost() + ":" + uri.getPort(), target, readTimeout, readTimeout.multipliedBy(3).plusSeconds(1));
    return new Reply(r.status(), r.headers(), r.body(), address, System.nanoTime() - start);
  }

  @Override
  public void close() {}
}
