package io.krill.httpd.files;

import io.krill.fibers.Blocking;
import io.krill.fibers.FiberSemaphore;
import io.krill.fibers.Suspendable;
import io.krill.netio.FiberOutput;
import io.krill.netio.GzipFraming;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Compresses a file as one gzip member (RFC 1952): whole into memory for the cache
 * ({@link #compress}, called on the blocking pool), or streamed through a {@link FiberOutput}
 * a slice at a time, each slice deflated on the blocking pool ({@link #write}). Stateless;
 * thread-safe.
 */
final class GzipWriter {
  /** Input bytes per streamed slice: one pool hand-over per slice, a fraction of a millisecond of deflate. */
  static final int SLICE_BYTES = 64 * 1024;

  /**
   * Streamed slices deflated at once, server-wide: one per two cores (at least one), so that
   * many large downloads share the pool's compression instead of taking every CPU from the
   * event loops; the others park (their clients wait, the loops do not).
   */
  static final int MAX_DEFLATING = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
  private static final FiberSemaphore DEFLATING = FiberSemaphore.create(MAX_DEFLATING);

  private GzipWriter() {}

  /**
   * Streams the gzipped file. Each slice is read and deflated on the blocking pool while the
   * strand parks, so compression never holds the event loop; may suspend also while the client
   * does not read.
   */
  static void write(Path file, int level, FiberOutput out) throws IOException, Suspendable {
    try (Slicer slicer = new Slicer(file, level)) {
      out.write(GzipFraming.header(level));
      for (;;) {
        byte[] piece;
        DEFLATING.acquire();
        try {
          piece = Blocking.call(slicer::next);
        } catch (IOException | RuntimeException e) {
          throw e;
        } catch (Exception e) {
          throw new IOException("gzip of " + file + " failed", e);
        } finally {
          DEFLATING.release();
        }
        if (piece == null) {
          return;
        }
        out.write(piece);
      }
    }
  }

  /*
   * One file's deflate state, advanced a slice per next() call. The calls come from pool threads
   * one after another; the pool's hand-over (FutureTask) orders them, so no lock is needed.
   */
  private static final class Slicer implements AutoCloseable {
    private final FileChannel ch;
    private final Deflater deflater;
    private final CRC32 crc = new CRC32();
    private final byte[] in = new byte[SLICE_BYTES];
    private final byte[] buf = new byte[SLICE_BYTES];
    private long total;
    private boolean done;

    Slicer(Path file, int level) throws IOException {
      this.ch = FileChannel.open(file, StandardOpenOption.READ);
      this.deflater = new Deflater(level, true);
    }

    /** @return the next piece of the member (the last one ends with the trailer), or null after it */
    byte[] next() throws IOException {
      if (done) {
        return null;
      }
      ByteArrayOutputStream piece = new ByteArrayOutputStream(SLICE_BYTES / 2);
      int n = ch.read(ByteBuffer.wrap(in));
      if (n >= 0) {
        crc.update(in, 0, n);
        total += n;
        deflater.setInput(in, 0, n);
        while (!deflater.needsInput()) {
          piece.write(buf, 0, deflater.deflate(buf));
        }
      } else {
        done = true;
        deflater.finish();
        while (!deflater.finished()) {
          piece.write(buf, 0, deflater.deflate(buf));
        }
        piece.write(GzipFraming.trailer(crc.getValue(), total, new byte[GzipFraming.TRAILER_BYTES]));
      }
      return piece.toByteArray();
    }

    @Override
    public void close() throws IOException {
      deflater.end();
      ch.close();
    }
  }

  /**
   * Compresses the whole file into memory. Blocks the calling thread: call it on the blocking pool.
   *
   * @return the gzip member, or null if it would be longer than {@code maxBytes}
   */
  static byte[] compress(Path file, int level, long maxBytes) throws IOException {
    Deflater deflater = new Deflater(level, true);
    CRC32 crc = new CRC32();
    byte[] in = new byte[SLICE_BYTES];
    byte[] buf = new byte[SLICE_BYTES];
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long total = 0;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      out.write(GzipFraming.header(level));
      ByteBuffer bb = ByteBuffer.wrap(in);
      int n;
      while ((n = ch.read(bb.clear())) >= 0) {
        crc.update(in, 0, n);
        total += n;
        deflater.setInput(in, 0, n);
        while (!deflater.needsInput()) {
          out.write(buf, 0, deflater.deflate(buf));
        }
        if (out.size() > maxBytes) {
          return null;
        }
      }
      deflater.finish();
      while (!deflater.finished()) {
        out.write(buf, 0, deflater.deflate(buf));
      }
      out.write(GzipFraming.trailer(crc.getValue(), total, new byte[GzipFraming.TRAILER_BYTES]));
      return out.size() > maxBytes ? null : out.toByteArray();
    } finally {
      deflater.end();
    }
  }
}
