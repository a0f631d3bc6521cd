package io.krill.httpd;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The decoder alone, without sockets: every input is split into two fragments at every
 * position (and fed byte by byte), and must decode to the same requests each time.
 */
class RequestDecoderTest {
  /* A decoder channel that was given {@code input} in pieces ending at each split. */
  private static EmbeddedChannel fed(byte[] input, int... splits) {
    EmbeddedChannel ch = new EmbeddedChannel(new RequestDecoder(new HttpDecoderConfig().setStrictLineParsing(true),
        new HttpServerStats().cell()));
    int at = 0;
    for (int split : splits) {
      ch.writeInbound(Unpooled.wrappedBuffer(input, at, split - at));
      at = split;
    }
    ch.writeInbound(Unpooled.wrappedBuffer(input, at, input.length - at));
    return ch;
  }

  /* "GET /a", "POST /b ok(body)", or "400: reason" per decoded request. */
  private static List<String> decode(byte[] input, int... splits) {
    EmbeddedChannel ch = fed(input, splits);
    List<String> out = new ArrayList<>();
    StringBuilder body = new StringBuilder();
    for (Object o; (o = ch.readInbound()) != null; ) {
      try {
        HttpObject m = (HttpObject) o;
        if (m.decoderResult().isFailure()) {
          out.add("400: " + m.decoderResult().cause().getMessage());
        } else if (m instanceof HttpRequest) {
          out.add(((HttpRequest) m).method() + " " + ((HttpRequest) m).uri());
        }
        if (m instanceof HttpContent && !m.decoderResult().isFailure()) {
          body.append(((HttpContent) m).content().toString(StandardCharsets.ISO_8859_1));
          if (m instanceof LastHttpContent && body.length() > 0) {
            out.add("body " + body);
            body.setLength(0);
          }
        }
      } finally {
        ReferenceCountUtil.release(o);
      }
    }
    ch.finishAndReleaseAll();
    return out;
  }

  private static void assertSameAtEverySplit(String request, List<String> expected) {
    byte[] bytes = request.getBytes(StandardCharsets.ISO_8859_1);
    assertThat(decode(bytes)).as("whole").isEqualTo(expected);
    for (int i = 1; i < bytes.length; i++) {
      assertThat(decode(bytes, i)).as("split at " + i).isEqualTo(expected);
    }
    int[] every = new int[bytes.length - 1];
    for (int i = 0; i < every.length; i++) {
      every[i] = i + 1;
    }
    assertThat(decode(bytes, every)).as("byte by byte").isEqualTo(expected);
  }

  @Test
  void decode_pipelinedRequestsWithBodies_sameAtEverySplit() {
    assertSameAtEverySplit("GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\n"
        + "x: y\r\n z\n" + "GET /c HTTP/1.1\r\nHost: x\r\nX: 1\r\n\r\n",
        List.of("GET /a", "POST /b", "body x: y\r\n z\n", "GET /c"));
  }

  @Test
  void decode_obsFoldInSecondRequest_firstServedThenRefused() {
    assertSameAtEverySplit("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\nX: 1\r\n  2\r\n\r\n",
        List.of("GET /a", "400: obs-fold (a header line starting with whitespace)"));
  }

  /* Heads longer than the decoder's scan chunk (512 bytes): a violation past it is still found, and the scan position carries over. */
  @Test
  void decode_obsFoldAfterTheFirstScanChunk_refused() {
    String filler = "X-Filler: " + "a".repeat(700) + "\r\n";
    assertSameAtEverySplit("GET /a HTTP/1.1\r\nHost: x\r\n" + filler + "X: 1\r\n\t2\r\n\r\n",
        List.of("400: obs-fold (a header line starting with whitespace)"));
  }

  @Test
  void decode_longHeadsPipelined_bothServedThenLaterViolationRefused() {
    String filler = "X-Filler: " + "b".repeat(600) + "\r\n";
    assertSameAtEverySplit("GET /a HTTP/1.1\r\nHost: x\r\n" + filler + "\r\n"
        + "GET /b HTTP/1.1\r\nHost: x\r\n" + filler + filler + "\r\n"
        + "GET /c HTTP/1.1\r\nHost: x\r\n" + filler + "X-Y : 1\r\n\r\n",
        List.of("GET /a", "GET /b", "400: whitespace between a header name and the colon"));
  }

  @Test
  void decode_whitespaceBeforeColon_refused() {
    assertSameAtEverySplit("GET /a HTTP/1.1\r\nHost: x\r\nX-Y : 1\r\n\r\n",
        List.of("400: whitespace between a header name and the colon"));
  }

  @Test
  void decode_whitespaceInsideValue_accepted() {
    assertSameAtEverySplit("GET /a HTTP/1.1\r\nHost: x\r\nX-Y: a b\t c\r\n\r\n", List.of("GET /a"));
  }

  @Test
  void decode_contentLengthWithTransferEncoding_refused() {
    List<String> out = decode(("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
    assertThat(out).containsExactly("400: both Transfer-Encoding and Content-Length (request smuggling shape)");
  }

  /* The messages themselves: "GET /a" per head, "end N" per LastHttpContent (N: body bytes since the head). */
  private static List<String> messages(byte[] input, int... splits) {
    EmbeddedChannel ch = fed(input, splits);
    List<String> out = new ArrayList<>();
    int body = 0;
    for (Object o; (o = ch.readInbound()) != null; ) {
      try {
        if (o instanceof HttpRequest) {
          out.add(((HttpRequest) o).method() + " " + ((HttpRequest) o).uri());
          body = 0;
        } else if (o instanceof HttpContent) {
          body += ((HttpContent) o).content().readableBytes();
          if (o instanceof LastHttpContent) {
            out.add("end " + body);
          }
        }
      } finally {
        ReferenceCountUtil.release(o);
      }
    }
    ch.finishAndReleaseAll();
    return out;
  }

  @Test
  void decode_requestWithoutBody_noEndMarkerButChunkedBodyKeepsIt() {
    String input = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
        + "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
        + "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        + "POST /d HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok"
        + "GET /e HTTP/1.0\r\n\r\n";
    byte[] bytes = input.getBytes(StandardCharsets.ISO_8859_1);
    List<String> expected = List.of("GET /a", "POST /b", "POST /c", "end 0", "POST /d", "end 2", "GET /e");
    assertThat(messages(bytes)).as("whole").isEqualTo(expected);
    for (int i = 1; i < bytes.length; i++) {
      assertThat(messages(bytes, i)).as("split at " + i).isEqualTo(expected);
    }
  }
  @Test
  void headStart_stampedOnlyWhileARequestIsInPieces() {
    byte[] whole = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
    RequestDecoder d = new RequestDecoder(new HttpDecoderConfig(), new HttpServerStats().cell());
    EmbeddedChannel ch = new EmbeddedChannel(d);
    ch.writeInbound(Unpooled.wrappedBuffer(whole));
    assertThat(d.headStartNanos).as("a head that came whole is begun and ended in one step").isZero();
    ch.writeInbound(Unpooled.wrappedBuffer("\r\n".getBytes(StandardCharsets.ISO_8859_1)));
    assertThat(d.headStartNanos).as("an empty line between requests starts no head").isZero();
    long before = System.nanoTime();
    ch.writeInbound(Unpooled.wrappedBuffer(whole, 0, 10));
    long stamped = d.headStartNanos;
    assertThat(stamped).as("half a head").isNotZero();
    assertThat(stamped - before).as("stamped at the read that brought its first byte").isGreaterThanOrEqualTo(0);
    ch.writeInbound(Unpooled.wrappedBuffer(whole, 10, 5));
    assertThat(d.headStartNanos).as("more of the head keeps the first stamp").isEqualTo(stamped);
    ch.writeInbound(Unpooled.wrappedBuffer(whole, 15, whole.length - 15));
    assertThat(d.headStartNanos).as("the head completed").isZero();
    byte[] post = "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab".getBytes(StandardCharsets.ISO_8859_1);
    ch.writeInbound(Unpooled.wrappedBuffer(post));
    assertThat(d.headStartNanos).as("a whole head whose body is still coming").isNotZero();
    ch.writeInbound(Unpooled.wrappedBuffer("cd".getBytes(StandardCharsets.ISO_8859_1)));
    assertThat(d.headStartNanos).as("the request ended").isZero();
    ch.finishAndReleaseAll();
  }
}
