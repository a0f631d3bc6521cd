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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checks of a request head that RFC 9112 asks for and Netty's decoder leaves to us: one Host,
 * one valid framing (Transfer-Encoding or Content-Length), the version, the limits, Expect.
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
   * @param peer the client, for the log
   * @return {@link #NO_BODY}, {@link #BODY} or {@link #BODY_AFTER_CONTINUE} if the request is
   *     acceptable, else the status of the error response (400, 413, 414, 417, 431, 501, 505)
   */
  static int check(HttpRequest head, int maxHeaderCount, long maxBodyBytes, Object peer) {
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
    int hosts = hostCount(h);
    if (hosts > 1 || hosts == 0 && v.minorVersion() == 1) {
      return 400; // 3.2: exactly one Host in HTTP/1.1 (at most one in 1.0)
    }
    int body = framing(h, v, maxBodyBytes);
    if (body > BODY) {
      return body;
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

  /* 0, 1 or 2 (two or more) Host fields; walks the value iterator instead of building a list per request. */
  private static int hostCount(HttpHeaders h) {
    Iterator<? extends CharSequence> it = h.valueCharSequenceIterator(HttpHeaderNames.HOST);
    if (!it.hasNext()) {
      return 0;
    }
    it.next();
    return it.hasNext() ? 2 : 1;
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
