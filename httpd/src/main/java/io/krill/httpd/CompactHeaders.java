package io.krill.httpd;

import io.netty.handler.codec.DefaultHeaders;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;

/**
 * Netty's header maps with fewer hash buckets than its default sixteen: a request head carries
 * a handful of fields and the server's response three or four, and each map is made per
 * message. Validation is that of the factory it copies.
 */
final class CompactHeaders implements HttpHeadersFactory {
  /*
   * Implementation notes.
   *
   * A DefaultHttpHeaders map allocates its bucket array when made: 16 buckets are 80 bytes, 8
   * are 48 and 4 are 32, per request and per response (a keep-alive connection's steady garbage,
   * and part of what each accepted connection leaves behind). Fewer buckets only mean longer
   * chains for a head with many fields, walked on lookups that are rare next to the map's
   * creation. The size is a hint; Netty rounds it to a power of two.
   */

  /** Request heads, validated as Netty's default factory validates them. */
  static final CompactHeaders REQUESTS = new CompactHeaders(DefaultHttpHeadersFactory.headersFactory(), 8, false);
  /**
   * Responses: names are not validated per set (the server's own names are constants and a
   * handler's names are checked where they enter); values are, except the server's own Date
   * value, valid by construction.
   */
  static final CompactHeaders RESPONSES =
      new CompactHeaders(DefaultHttpHeadersFactory.headersFactory().withNameValidation(false), 4, true);

  private final DefaultHeaders.NameValidator<CharSequence> names;
  private final DefaultHeaders.ValueValidator<CharSequence> values;
  private final int buckets;

  private CompactHeaders(DefaultHttpHeadersFactory like, int buckets, boolean trustServerValues) {
    this.names = like.getNameValidator();
    DefaultHeaders.ValueValidator<CharSequence> v = like.getValueValidator();
    this.values = trustServerValues ? value -> {
      if (!trusted(value)) {
        v.validate(value);
      }
    } : v;
    this.buckets = buckets;
  }

  /*
   * The value the server formats itself and sets on every response: the cached Date (29 bytes,
   * whose check was a scan of its bytes per response; a server's copy of an older second is
   * checked like any value until its next sweep). Compared by identity, so a handler's equal
   * value is still checked (it is a different object).
   */
  private static boolean trusted(CharSequence value) {
    return value == Dates.cachedValue();
  }

  @Override
  public HttpHeaders newHeaders() {
    return new Map(names, values, buckets);
  }

  @Override
  public HttpHeaders newEmptyHeaders() {
    return new Map(names, values, 2);
  }

  /* DefaultHttpHeaders' sizing constructor is protected. */
  private static final class Map extends DefaultHttpHeaders {
    Map(DefaultHeaders.NameValidator<CharSequence> names, DefaultHeaders.ValueValidator<CharSequence> values,
        int buckets) {
      super(names, values, buckets);
    }
  }
}
