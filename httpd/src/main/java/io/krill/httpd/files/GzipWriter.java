package io.krill.httpd.files;

import io.krill.fibers.Suspendable;
import io.krill.netio.FiberOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Streams a file as a gzip member (RFC 1952) through a {@link FiberOutput}, a buffer at a time,
 * so memory stays bounded whatever the file's size. Used on one strand; not thread-safe.
 */
final class GzipWriter {
  static final int BUFFER_BYTES = 16 * 1024;
  private static final byte[] HEADER = {0x1f, (byte) 0x8b, Deflater.DEFLATED, 0, 0, 0, 0, 0, 0, (byte) 0xff};

  private GzipWriter() {}

  /** Writes the gzipped file; may suspend while the client does not read. */
  static void write(Path file, FiberOutput out) throws IOException, Suspendable {
    Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    CRC32 crc = new CRC32();
    byte[] in = new byte[BUFFER_BYTES];
    byte[] buf = new byte[BUFFER_BYTES];
    long total = 0;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      out.write(HEADER);
      ByteBuffer bb = ByteBuffer.wrap(in);
      int n;
      while ((n = ch.read(bb.clear())) >= 0) {
        crc.update(in, 0, n);
        total += n;
        deflater.setInput(in, 0, n);
        drain(deflater, buf, out);
      }
      finish(deflater, buf, out);
      long c = crc.getValue();
      byte[] trailer = {
        (byte) c, (byte) (c >> 8), (byte) (c >> 16), (byte) (c >> 24),
        (byte) total, (byte) (total >> 8), (byte) (total >> 16), (byte) (total >> 24)};
      out.write(trailer);
    } finally {
      deflater.end();
    }
  }

  private static void drain(Deflater deflater, byte[] buf, FiberOutput out) throws IOException, Suspendable {
    while (!deflater.needsInput()) {
      int m = deflater.deflate(buf);
      if (m > 0) {
        out.write(buf, 0, m);
      }
    }
  }

  private static void finish(Deflater deflater, byte[] buf, FiberOutput out) throws IOException, Suspendable {
    deflater.finish();
    while (!deflater.finished()) {
      int m = deflater.deflate(buf);
      if (m > 0) {
        out.write(buf, 0, m);
      }
    }
  }
}
