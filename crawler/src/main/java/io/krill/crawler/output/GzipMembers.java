package io.krill.crawler.output;

import io.krill.fibers.Checks;
import io.krill.netio.GzipFraming;
import java.io.ByteArrayOutputStream;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Writes byte ranges as gzip members (RFC 1952), one member per call, at a chosen deflate level.
 * A {@code .warc.gz} file is a series of such members, one per record, so that a reader can start
 * at any record's offset. One {@link Deflater} is reset and reused for every member.
 *
 * <p>Threading: not thread-safe; its {@link WarcOutput} owns it.
 */
final class GzipMembers implements AutoCloseable {
  private final Deflater deflater;
  private final CRC32 crc = new CRC32();
  private final byte[] out = new byte[16 * 1024];
  private final byte[] header;
  private final byte[] trailer = new byte[GzipFraming.TRAILER_BYTES];

  /** @param level deflate level, 1 (fastest) to 9 (smallest) */
  GzipMembers(int level) {
    this.deflater = new Deflater(Checks.inRange("warcGzipLevel", level, 1, 9), true);
    this.header = GzipFraming.header(level);
  }

  /** Appends {@code buf[off, off + len)} to {@code to} as one gzip member. */
  void write(byte[] buf, int off, int len, ByteArrayOutputStream to) {
    to.write(header, 0, header.length);
    crc.reset();
    crc.update(buf, off, len);
    deflater.reset();
    deflater.setInput(buf, off, len);
    deflater.finish();
    while (!deflater.finished()) {
      int n = deflater.deflate(out);
      to.write(out, 0, n);
    }
    to.write(GzipFraming.trailer(crc.getValue(), len, trailer), 0, GzipFraming.TRAILER_BYTES);
  }

  @Override
  public void close() {
    deflater.end();
  }
}
