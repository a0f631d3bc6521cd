package io.krill.httpd;

import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checks of a request head that RFC 9112 asks for and Netty's decoder leaves to us: one valid
 * Host, a request target in one of the four forms, one valid framing (Transfer-Encoding or
 * Content-Length), the version, the limits, Expect, and a method the server implements.
 * Stateless; any thread.
 */
final class Conformance {
  /** {@link #check}: acceptable, no body follows. */
  static final int NO_BODY = 0;
  /** {@link #check}: acceptable, a body follows. */
  static final int BODY = 1;
  /** {@link #check}: acceptable, a body follows once the client gets 100 Continue. */
  static final int BODY_AFTER_CONTINUE = 2;

  private static final Logger LOG = LoggerFactory.getLogger(HttpServer.class);

  private Conformance() {}

  /**
   * Checks a decoded head.
   *
   * @param head the head
   * @param maxHeaderCount the most header fields allowed
   * @param maxBodyBytes the longest body allowed
   * @param router the routes, whose methods count as implemented besides the standard ones
   * @param peer the client, for the log
   * @return {@link #NO_BODY}, {@link #BODY} or {@link #BODY_AFTER_CONTINUE} if the request is
   *     acceptable, else the status of the error response (400, 413, 414, 417, 431, 501, 505)
   */
  static int check(HttpRequest head, int maxHeaderCount, long maxBodyBytes, Router router, Object peer) {
    if (head.decoderResult().isFailure()) {
      return decoderFailure(head.decoderResult().cause(), peer);
    }
    HttpHeaders h = head.headers();
    if (h.size() > maxHeaderCount) {
      return 431;
    }
    HttpVersion v = head.protocolVersion();
    if (v.majorVersion() != 1 || v.minorVersion() > 1) {
      return 505;
    }
    if (!hostAcceptable(h, v)) {
      return 400; // 3.2: exactly one valid Host in HTTP/1.1 (at most one in 1.0)
    }
    String method = head.method().name();
    if (!validTarget(method, head.uri())) {
      return 400; // 3.2: none of origin-, absolute-, authority- (CONNECT) or asterisk-form (OPTIONS)
    }
    int body = framing(h, v, maxBodyBytes);
    if (body > BODY) {
      return body;
    }
    if (!implemented(method, router)) {
      return 501; // RFC 9110 9.1
    }
    String expect = h.get(HttpHeaderNames.EXPECT);
    if (expect == null) {
      return body;
    }
    if (!expect.equalsIgnoreCase("100-continue")) {
      return 417;
    }
    return body == BODY && v.minorVersion() == 1 ? BODY_AFTER_CONTINUE : body;
  }

  private static int decoderFailure(Throwable cause, Object peer) {
    LOG.debug("bad request from {}: {}", peer, cause.toString());
    if (cause instanceof TooLongHttpLineException) {
      return 414;
    }
    if (cause instanceof TooLongHttpHeaderException || cause instanceof TooLongFrameException) {
      return 431;
    }
    return 400;
  }

  /* NO_BODY or BODY, or an error status: Transfer-Encoding (6.1) and Content-Length (6.2). */
  private static int framing(HttpHeaders h, HttpVersion v, long maxBodyBytes) {
    int body = NO_BODY;
    if (h.contains(HttpHeaderNames.TRANSFER_ENCODING)) {
      List<String> te = h.getAll(HttpHeaderNames.TRANSFER_ENCODING);
      if (v.minorVersion() == 0 || te.size() > 1) {
        return 400; // HTTP/1.0 with Transfer-Encoding is faulty framing
      }
      String coding = te.get(0).trim();
      if (!coding.equalsIgnoreCase("chunked")) {
        return coding.toLowerCase(Locale.ROOT).endsWith("chunked") ? 501 : 400;
      }
      body = BODY;
    }
    String cl = h.get(HttpHeaderNames.CONTENT_LENGTH); // Netty refused differing duplicates already
    if (cl != null) {
      String value = cl.trim();
      if (!isDigits(value)) {
        return 400;
      }
      long length = Long.parseLong(value);
      if (length > maxBodyBytes) {
        return 413;
      }
      body = length > 0 ? BODY : NO_BODY;
    }
    return body;
  }

  /*
   * Exactly one Host field with a valid value (HTTP/1.0: none is fine too). One walk of the
   * value iterator both counts the fields and yields the value, so a request pays one lookup of
   * the name and builds no list.
   */
  private static boolean hostAcceptable(HttpHeaders h, HttpVersion v) {
    Iterator<? extends CharSequence> it = h.valueCharSequenceIterator(HttpHeaderNames.HOST);
    if (!it.hasNext()) {
      return v.minorVersion() == 0;
    }
    CharSequence host = it.next();
    return !it.hasNext() && validHost(host.toString());
  }

  /* The standard methods an origin server answers itself (CONNECT only when a route takes it). */
  private static final Set<String> STANDARD_METHODS =
      Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "TRACE", "PATCH");

  /* Method names are case-sensitive (RFC 9110 9.1): "get" is not GET. */
  private static boolean implemented(String method, Router router) {
    return STANDARD_METHODS.contains(method) || router.hasMethod(method);
  }

  /**
   * Whether {@code uri} is a request target of a form RFC 9112 section 3.2 allows for {@code
   * method}: origin-form ({@code /path?query}), absolute-form ({@code scheme:...}),
   * authority-form ({@code host:port}, CONNECT only, and CONNECT takes nothing else) or
   * asterisk-form ({@code *}, OPTIONS only).
   */
  static boolean validTarget(String method, String uri) {
    if (method.equals("CONNECT")) {
      int colon = uri.lastIndexOf(':');
      return colon > 0 && colon < uri.length() - 1 && validHost(uri) && uri.charAt(0) != ':';
    }
    if (uri.startsWith("/")) {
      return true;
    }
    if (uri.equals("*")) {
      return method.equals("OPTIONS");
    }
    return isScheme(uri);
  }

  /* scheme ":" with scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) (RFC 3986 3.1) */
  private static boolean isScheme(String uri) {
    int colon = uri.indexOf(':');
    if (colon <= 0 || !isAlpha(uri.charAt(0))) {
      return false;
    }
    for (int i = 1; i < colon; i++) {
      char c = uri.charAt(i);
      if (!isAlpha(c) && !isDigit(c) && c != '+' && c != '-' && c != '.') {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code value} is a valid Host field value: {@code uri-host [ ":" port ]} (RFC 9112
   * section 3.2, RFC 3986 section 3.2.2), where the host is an IP literal in brackets, or a
   * reg-name of unreserved characters, percent-encodings and sub-delims (which covers IPv4 and
   * the empty host). {@code x/y} and {@code a b} are not.
   */
  static boolean validHost(String value) {
    int n = value.length();
    int i = 0;
    if (n > 0 && value.charAt(0) == '[') {
      int close = value.indexOf(']');
      if (close < 2) {
        return false;
      }
      for (i = 1; i < close; i++) {
        char c = value.charAt(i);
        if (!isUnreserved(c) && !isSubDelim(c) && c != ':') {
          return false;
        }
      }
      i = close + 1;
    } else {
      for (; i < n && value.charAt(i) != ':'; i++) {
        char c = value.charAt(i);
        if (c == '%') {
          if (i + 2 >= n || !isHex(value.charAt(i + 1)) || !isHex(value.charAt(i + 2))) {
            return false;
          }
          i += 2;
        } else if (!isUnreserved(c) && !isSubDelim(c)) {
          return false;
        }
      }
    }
    if (i == n) {
      return true;
    }
    if (value.charAt(i) != ':') {
      return false;
    }
    for (i++; i < n; i++) {
      if (!isDigit(value.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isUnreserved(char c) {
    return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~';
  }

  private static boolean isSubDelim(char c) {
    return "!$&'()*+,;=".indexOf(c) >= 0;
  }

  private static boolean isAlpha(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isHex(char c) {
    return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
  }

  private static boolean isDigits(String s) {
    if (s.isEmpty() || s.length() > 18) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }
}
