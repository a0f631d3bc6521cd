package io.krill.crawler.output;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * An append-only text file of whole lines (the JSONL log, the journal): a batch of lines is
 * written with one call and rolled back (truncated) if the write fails, and on open a partial
 * last line, or anything past a given end, is cut off.
 *
 * <p>Threading: not thread-safe; the crawl's single output writer owns it.
 */
public final class LineOutput implements AutoCloseable {
  private final FileChannel channel;

  /**
   * @param file the file, created if absent
   * @param truncateAt cut the file to this length first, or -1 to keep it (after dropping a
   *     partial last line)
   * @throws IOException if it cannot be opened
   */
  public LineOutput(Path file, long truncateAt) throws IOException {
    channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ);
    long end = truncateAt >= 0 ? Math.min(truncateAt, channel.size()) : lastNewline(channel);
    channel.truncate(end);
    channel.position(end);
  }

  /** @return the offset just past the last {@code '\n'}, 0 if none */
  static long lastNewline(FileChannel ch) throws IOException {
    long size = ch.size();
    ByteBuffer buf = ByteBuffer.allocate(8192);
    for (long pos = size; pos > 0; ) {
      int n = (int) Math.min(buf.capacity(), pos);
      pos -= n;
      buf.clear().limit(n);
      while (buf.hasRemaining()) {
        if (ch.read(buf, pos + buf.position()) < 0) {
          break;
        }
      }
      for (int i = n - 1; i >= 0; i--) {
        if (buf.get(i) == '\n') {
          return pos + i + 1;
        }
      }
    }
    return 0;
  }

  /**
   * Appends lines (each gets a {@code '\n'}) as one unit.
   *
   * @return the end offset after the write
   * @throws IOException if writing failed (nothing of this batch remains)
   */
  public long append(List<String> lines) throws IOException {
    if (lines.isEmpty()) {
      return channel.position();
    }
    StringBuilder sb = new StringBuilder();
    for (String l : lines) {
      sb.append(l).append('\n');
    }
    ByteBuffer b = ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.UTF_8));
    appendAll(channel, b);
    return channel.position();
  }

  /**
   * Writes all of {@code bytes} at the channel's position, or nothing: a failed write is cut off
   * again, so a crash or a full disk never leaves half a batch behind.
   */
  static void appendAll(FileChannel channel, ByteBuffer bytes) throws IOException {
    long start = channel.position();
    try {
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
    } catch (IOException e) {
      try {
        channel.truncate(start);
        channel.position(start);
      } catch (IOException rollback) {
        e.addSuppressed(rollback);
      }
      throw e;
    }
  }

  /**
   * Counts the lines of a file (its {@code '\n'} bytes), for numbering lines appended after it.
   *
   * @param file the file
   * @return its lines, 0 if it does not exist
   * @throws IOException if it cannot be read
   */
  public static long countLines(Path file) throws IOException {
    if (!Files.exists(file)) {
      return 0;
    }
    long n = 0;
    byte[] buf = new byte[1 << 16];
    try (java.io.InputStream in = Files.newInputStream(file)) {
      for (int r; (r = in.read(buf)) > 0; ) {
        for (int i = 0; i < r; i++) {
          if (buf[i] == '\n') {
            n++;
          }
        }
      }
    }
    return n;
  }

  /** @return the end offset */
  public long position() throws IOException {
    return channel.position();
  }

  /** Forces the file to disk. */
  public void force() throws IOException {
    channel.force(false);
  }

  @Override
  public void close() throws IOException {
    channel.force(true);
    channel.close();
  }
}
