package io.krill.crawler.fetch;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

/** Undoes gzip/deflate content coding with a cap on the output size (the bomb guard). */
final class ContentDecoding {
  private ContentDecoding() {}

  /**
   * @param encoding the Content-Encoding header, or null
   * @param body the body as received
   * @param maxBytes the most decoded bytes allowed
   * @return the decoded body
   * @throws FetchException BOMB if decoding would exceed {@code maxBytes}, PROTOCOL if the data is corrupt
   */
  static byte[] decode(URI uri, String encoding, byte[] body, long maxBytes) throws FetchException {
    String e = encoding == null ? "identity" : encoding.trim().toLowerCase(Locale.ROOT);
    if (e.isEmpty() || e.equals("identity")) {
      return body;
    }
    try {
      switch (e) {
        case "gzip":
        case "x-gzip":
          return drain(uri, new GZIPInputStream(new ByteArrayInputStream(body), 8192), maxBytes);
        case "deflate":
          try {
            return drain(uri, new InflaterInputStream(new ByteArrayInputStream(body)), maxBytes);
          } catch (java.util.zip.ZipException zlibFailed) {
            // Servers send raw deflate as often as the zlib format RFC 9110 asks for.
            return drain(uri, new InflaterInputStream(new ByteArrayInputStream(body), new Inflater(true)), maxBytes);
          }
        default:
          throw FetchException.of(FetchException.Kind.PROTOCOL, uri, "unsupported Content-Encoding: " + encoding);
      }
    } catch (FetchException fe) {
      throw fe;
    } catch (IOException io) {
      throw new FetchException(FetchException.Kind.PROTOCOL, uri.toString(), "corrupt " + e + " body: " + io.getMessage(), io);
    }
  }

  private static byte[] drain(URI uri, InputStream in, long maxBytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    long total = 0;
    try (in) {
      for (int n; (n = in.read(buf)) > 0; ) {
        total += n;
        if (total > maxBytes) {
          throw FetchException.of(FetchException.Kind.BOMB, uri,
              "decompressed body exceeds maxDecompressedBytes " + maxBytes);
        }
        out.write(buf, 0, n);
      }
    } catch (java.io.EOFException truncated) {
      // A body cut by the body cap still decodes up to the cut.
    }
    return out.toByteArray();
  }
}
