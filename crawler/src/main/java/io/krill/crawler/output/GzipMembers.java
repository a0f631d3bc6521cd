package io.krill.crawler.output;

import io.krill.fibers.Checks;
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
  private static final int OS_UNKNOWN = 255;
  private final Deflater deflater;
  private final CRC32 crc = new CRC32();
  private final byte[] out = new byte[16 * 1024];
  private final byte[] header;
  private final byte[] trailer = new byte[8];

  /** @param level deflate level, 1 (fastest) to 9 (smallest) */
  GzipMembers(int level) {
    this.deflater = new Deflater(Checks.inRange("warcGzipLevel", level, 1, 9), true);
    // ID1 ID2, CM = deflate, no flags, MTIME unknown (0), XFL (2: slowest, 4: fastest), OS.
    int xfl = level == 9 ? 2 : level == 1 ? 4 : 0;
    this.header = new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, (byte) xfl, (byte) OS_UNKNOWN};
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
    // CRC-32 and the input size, little-endian.
    int sum = (int) crc.getValue();
    for (int i = 0; i < 4; i++) {
      trailer[i] = (byte) (sum >>> (8 * i));
      trailer[4 + i] = (byte) (len >>> (8 * i));
    }
    to.write(trailer, 0, 8);
  }

  @Override
  public void close() {
    deflater.end();
  }
}
