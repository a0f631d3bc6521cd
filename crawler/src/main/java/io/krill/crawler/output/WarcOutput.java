package io.krill.crawler.output;

import io.krill.fibers.Checks;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.List;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcCompression;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResource;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcTruncationReason;
import org.netpreserve.jwarc.WarcWriter;
import org.netpreserve.jwarc.Warcinfo;

/**
 * WARC files written with jwarc, rotated by size ({@code crawl-00000.warc.gz}, ...). A batch
 * of records is serialized in memory first and written with one positioned write; if that
 * fails, the file is truncated back, so a file never ends in a partial record. Every record
 * carries a SHA-1 block digest.
 *
 * <p>Threading: not thread-safe; the crawl's single output writer owns it.
 */
public final class WarcOutput implements AutoCloseable {
  /** Default size at which a new WARC file is started. */
  public static final long DEFAULT_MAX_FILE_BYTES = 1L << 30;
  /**
   * Default deflate level of {@code .warc.gz} records: zlib's default (jwarc's own gzip channel
   * always writes level 9). 1 costs about a third of 6's CPU for somewhat larger files (see
   * docs/crawler.md).
   */
  public static final int DEFAULT_GZIP_LEVEL = 6;
  /** File name prefix. */
  public static final String PREFIX = "crawl-";
  /** The WARC version of every record, the warcinfo's {@code format} field included. */
  public static final MessageVersion VERSION = MessageVersion.WARC_1_1;

  private static final long[] NO_OFFSETS = new long[0];
  private long[] lastOffsets = NO_OFFSETS;

  /** Where the last write ended: file name and byte offset. */
  public record Position(String file, long end) {}

  private static final java.time.format.DateTimeFormatter DNS_DATE =
      java.time.format.DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(java.time.ZoneOffset.UTC);
  private static final MediaType TEXT_DNS = MediaType.parse("text/dns");
  /** A SHA-1 digest to clone: cloning skips the provider lookup of MessageDigest.getInstance. */
  private static final MessageDigest SHA1 = sha1Prototype();

  private final Path dir;
  private final long maxFileBytes;
  private final boolean gzip;
  /* With gzip: each record is serialized here first, then compressed into the batch as one member. */
  private final GzipMembers members;
  private Batch record;
  /* One batch's serialized records; reused, so that a batch costs no new writer or buffer. */
  private Batch batch = new Batch();
  private WarcWriter writer;
  private int index;
  private FileChannel channel;
  private String fileName;

  /**
   * Opens the output, continuing {@code resumeAt} (truncated there) or starting file 0.
   *
   * @param dir the output directory
   * @param maxFileBytes the rotation size
   * @param gzip true for {@code .warc.gz} at {@link #DEFAULT_GZIP_LEVEL}, false for {@code .warc}
   * @param resumeAt where the last durable write ended, or null for a new crawl
   * @throws IOException if the file cannot be opened
   */
  public WarcOutput(Path dir, long maxFileBytes, boolean gzip, Position resumeAt) throws IOException {
    this(dir, maxFileBytes, gzip ? DEFAULT_GZIP_LEVEL : 0, resumeAt);
  }

  /**
   * Opens the output, continuing {@code resumeAt} (truncated there) or starting file 0.
   *
   * @param dir the output directory
   * @param maxFileBytes the rotation size
   * @param gzipLevel 1..9 for {@code .warc.gz} with one gzip member per record at that deflate
   *     level, 0 for {@code .warc}
   * @param resumeAt where the last durable write ended, or null for a new crawl
   * @throws IOException if the file cannot be opened
   * @throws IllegalArgumentException naming {@code warcGzipLevel} if it is outside 0..9
   */
  public WarcOutput(Path dir, long maxFileBytes, int gzipLevel, Position resumeAt) throws IOException {
    this.dir = dir;
    this.maxFileBytes = Checks.positive("warcMaxSize", maxFileBytes);
    this.gzip = Checks.inRange("warcGzipLevel", gzipLevel, 0, 9) > 0;
    this.members = gzip ? new GzipMembers(gzipLevel) : null;
    this.record = gzip ? new Batch() : null;
    if (resumeAt == null) {
      open(0);
    } else {
      String f = resumeAt.file();
      index = Integer.parseInt(f.substring(PREFIX.length(), PREFIX.length() + 5));
      fileName = f;
      channel = FileChannel.open(dir.resolve(f), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      channel.truncate(resumeAt.end());
      channel.position(resumeAt.end());
      deleteLaterFiles();
    }
  }

  private void deleteLaterFiles() throws IOException {
    for (int i = index + 1; ; i++) {
      if (!Files.deleteIfExists(dir.resolve(name(i)))) {
        return;
      }
    }
  }

  private String name(int i) {
    return String.format("%s%05d.warc%s", PREFIX, i, gzip ? ".gz" : "");
  }

  private void open(int i) throws IOException {
    index = i;
    fileName = name(i);
    channel = FileChannel.open(dir.resolve(fileName), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING);
    byte[] fields = ("software: krill-crawler 0.1.0\r\nformat: WARC File Format " + VERSION.getMajor() + "." + VERSION.getMinor() + "\r\n")
        .getBytes(StandardCharsets.UTF_8);
    Warcinfo info = new Warcinfo.Builder().version(VERSION).filename(fileName).date(Instant.now()).blockDigest(sha1(fields))
        .body(MediaType.WARC_FIELDS, fields).build();
    append(List.of(info));
  }

  /**
   * Appends records as one unit: all are written, or none (the file is truncated back).
   *
   * @param records the records
   * @return where the write ended
   * @throws IOException if writing failed (nothing of this batch remains in the file)
   */
  public Position append(List<WarcRecord> records) throws IOException {
    lastOffsets = NO_OFFSETS;
    if (records.isEmpty()) {
      return position();
    }
    if (channel.position() >= maxFileBytes) {
      channel.force(true);
      channel.close();
      open(index + 1);
    }
    batch.reset();
    if (writer == null) {
      writer = new WarcWriter(Channels.newChannel(gzip ? record : batch), WarcCompression.NONE);
    }
    long[] starts = new long[records.size()];
    int n = 0;
    try {
      for (WarcRecord r : records) {
        starts[n++] = batch.size();
        if (gzip) {
          record.reset();
          writer.write(r);
          members.write(record.array(), 0, record.size(), batch);
        } else {
          writer.write(r);
        }
      }
    } catch (IOException | RuntimeException e) {
      writer = null; // its state after a failed record is unknown: the next batch gets a fresh one
      throw e;
    }
    ByteBuffer bytes = batch.view();
    if (batch.capacity() > Batch.RETAINED_BYTES) {
      batch = new Batch(); // bytes stays valid; a rare huge batch is not kept for the crawl's life
      writer = null;
    }
    if (gzip && record.capacity() > Batch.RETAINED_BYTES) {
      record = new Batch(); // likewise a huge record's buffer; the writer writes into it, so it goes too
      writer = null;
    }
    long base = channel.position();
    LineOutput.appendAll(channel, bytes);
    for (int i = 0; i < starts.length; i++) {
      starts[i] += base;
    }
    lastOffsets = starts;
    return position();
  }

  /**
   * Where each record of the last {@link #append} starts in {@link #fileName()}, for a live view
   * of the crawl. Called by the thread that appends.
   *
   * @return byte offsets, one per record of the last non-empty append
   */
  public long[] lastOffsets() {
    return lastOffsets;
  }

  /** @return the current file and end offset */
  public Position position() throws IOException {
    return new Position(fileName, channel.position());
  }

  /** @return the current file's name */
  public String fileName() {
    return fileName;
  }

  /** @return WARC files written so far (including the current one) */
  public int fileCount() {
    return index + 1;
  }

  /** Forces the current file to disk. */
  public void force() throws IOException {
    channel.force(false);
  }

  @Override
  public void close() throws IOException {
    try {
      channel.force(true);
      channel.close();
    } finally {
      if (members != null) {
        members.close();
      }
    }
  }

  // ------------------------------------------------------------------ record builders

  /**
   * @return a request record with the bytes as sent, digest, IP and date
   */
  public static WarcRequest request(URI uri, byte[] http, InetAddress ip, Instant date) throws IOException {
    WarcRequest.Builder b = new WarcRequest.Builder(uri).version(VERSION).date(date).blockDigest(sha1(http))
        .body(MediaType.HTTP_REQUEST, http);
    if (ip != null) {
      b.ipAddress(ip);
    }
    return b.build();
  }

  /**
   * @param truncation why the bytes stop early ({@code LENGTH} for a size cap, {@code TIME} for a
   *     deadline or the slow-drip guard), or null if they are whole
   * @return a response record with the bytes as received, concurrent to {@code request}
   */
  public static WarcResponse response(URI uri, byte[] http, InetAddress ip, Instant date, URI requestId,
      WarcTruncationReason truncation)
      throws IOException {
    WarcResponse.Builder b = new WarcResponse.Builder(uri).version(VERSION).date(date).blockDigest(sha1(http))
        .body(MediaType.HTTP_RESPONSE, http);
    if (ip != null) {
      b.ipAddress(ip);
    }
    if (requestId != null) {
      b.concurrentTo(requestId);
    }
    if (truncation != null) {
      b.truncated(truncation);
    }
    return b.build();
  }

  /**
   * @return a {@code resource} record for a DNS answer ({@code dns:host}, {@code text/dns}),
   *     in the form Heritrix writes: the date, then one zone-file line per address
   */
  public static WarcResource dns(String host, List<InetAddress> addresses, Instant date) throws IOException {
    StringBuilder sb = new StringBuilder();
    sb.append(DNS_DATE.format(date))
        .append('\n');
    for (InetAddress a : addresses) {
      sb.append(host).append(". IN ").append(a.getAddress().length == 4 ? "A " : "AAAA ").append(a.getHostAddress())
          .append('\n');
    }
    byte[] b = sb.toString().getBytes(StandardCharsets.US_ASCII);
    return new WarcResource.Builder(URI.create("dns:" + host)).version(VERSION).date(date).blockDigest(sha1(b))
        .body(TEXT_DNS, b).build();
  }

  private static WarcDigest sha1(byte[] b) {
    MessageDigest md;
    try {
      md = (MessageDigest) SHA1.clone();
    } catch (CloneNotSupportedException e) {
      md = sha1Prototype();
    }
    md.update(b);
    return new WarcDigest(md);
  }

  private static MessageDigest sha1Prototype() {
    try {
      return MessageDigest.getInstance("SHA-1");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 missing from the JDK", e);
    }
  }

  /** A byte buffer whose bytes can be written without a copy. */
  private static final class Batch extends ByteArrayOutputStream {
    /** Largest buffer kept between batches. */
    static final int RETAINED_BYTES = 1 << 20;

    Batch() {
      super(64 * 1024);
    }

    int capacity() {
      return buf.length;
    }

    byte[] array() {
      return buf;
    }

    ByteBuffer view() {
      return ByteBuffer.wrap(buf, 0, count);
    }
  }
}
