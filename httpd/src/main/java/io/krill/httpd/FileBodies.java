package io.krill.httpd;

import io.krill.fibers.Suspendable;
import io.netty.buffer.ByteBuf;
import io.netty.channel.DefaultFileRegion;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Writes a range of a file as a response body, zero-copy where the pipeline allows it. */
final class FileBodies {
  /** Bytes per file region: the write timeout then measures progress, not the whole file. */
  private static final long FILE_REGION = 1 << 20;
  /** Bytes per copied piece when TLS or HTTP/2 must see the bytes. */
  private static final int FILE_CHUNK = 16384;
  /**
   * Copied bytes written between two flushes: an HTTP/2 stream's default window (64 KiB less
   * one byte) rounded up. A flush per piece cost a flush task per 16 KiB on HTTP/2 and a
   * writability check each; the response's last write flushes what remains.
   */
  private static final int FLUSH_BYTES = 65536;

  private FileBodies() {}

  /**
   * Writes {@code length} bytes of {@code file} from {@code offset} to {@code conn}, parking while
   * the channel is full. May suspend.
   *
   * @param tls whether the bytes must pass through the SslHandler (then they are copied)
   */
  static void write(HttpConnection conn, boolean tls, Path file, long offset, long length)
      throws IOException, Suspendable {
    if (tls) {
      writeCopies(conn, file, offset, length);
    } else {
      writeRegions(conn, file, offset, length);
    }
  }

  private static void writeRegions(HttpConnection conn, Path file, long offset, long length)
      throws IOException, Suspendable {
    File f = file.toFile();
    for (long done = 0; done < length; ) {
      long n = Math.min(FILE_REGION, length - done);
      conn.write(new DefaultFileRegion(f, offset + done, n), false);
      done += n;
      if (done < length) {
        conn.flush();
        conn.awaitWritable();
      }
    }
  }

  private static void writeCopies(HttpConnection conn, Path file, long offset, long length)
      throws IOException, Suspendable {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long end = offset + length;
      int unflushed = 0;
      for (long pos = offset; pos < end; ) {
        ByteBuf buf = read(conn, ch, file, pos, (int) Math.min(FILE_CHUNK, end - pos), end);
        int n = buf.readableBytes();
        pos += n;
        unflushed += n;
        conn.write(buf, false);
        // Never wait for writability with bytes unflushed: they count as pending until flushed.
        if (unflushed >= FLUSH_BYTES && pos < end) {
          conn.flush();
          unflushed = 0;
          conn.awaitWritable();
        }
      }
    }
  }

  private static ByteBuf read(HttpConnection conn, FileChannel ch, Path file, long pos, int n, long end)
      throws IOException {
    ByteBuf buf = conn.channel().alloc().buffer(n);
    try {
      if (buf.writeBytes(ch, pos, n) <= 0) {
        throw new EOFException("File " + file + " ended at " + pos + " (expected: " + end + " bytes)");
      }
      return buf;
    } catch (IOException | RuntimeException e) {
      buf.release();
      throw e;
    }
  }
}
