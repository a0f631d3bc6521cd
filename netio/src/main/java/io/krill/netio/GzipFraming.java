package io.krill.netio;

/**
 * The framing of a gzip member (RFC 1952) around raw deflate data: the 10-byte header and the
 * 8-byte trailer (CRC-32 and input size, little-endian). Writers of {@code .warc.gz} records,
 * gzip-encoded responses and test data deflate with {@code new Deflater(level, true)} and frame
 * the output with these.
 *
 * <p>Stateless; thread-safe.
 */
public final class GzipFraming {
  /** Bytes of a member header. */
  public static final int HEADER_BYTES = 10;
  /** Bytes of a member trailer. */
  public static final int TRAILER_BYTES = 8;
  private static final int OS_UNKNOWN = 255;

  private GzipFraming() {}

  /**
   * A member header: deflate, no flags, no modification time, the extra flags of
   * {@code level} (2 for 9, the slowest; 4 for 1, the fastest; else 0), operating system unknown.
   *
   * @param level the deflate level the data is compressed at, -1 (default) to 9
   * @return a new 10-byte array
   */
  public static byte[] header(int level) {
    int xfl = level == 9 ? 2 : level == 1 ? 4 : 0;
    return new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, (byte) xfl, (byte) OS_UNKNOWN};
  }

  /**
   * Fills a member trailer: the CRC-32 of the uncompressed data and its size modulo 2^32.
   *
   * @param crc the CRC-32 value
   * @param size uncompressed bytes
   * @param into receives the 8 bytes at offset 0
   * @return {@code into}
   */
  public static byte[] trailer(long crc, long size, byte[] into) {
    for (int i = 0; i < 4; i++) {
      into[i] = (byte) (crc >>> (8 * i));
      into[4 + i] = (byte) (size >>> (8 * i));
    }
    return into;
  }
}
