package io.krill.crawler.frontier;

import java.nio.charset.StandardCharsets;

/**
 * A Bloom filter of strings sized for an expected count and false-positive rate. Not
 * thread-safe (the frontier guards it).
 */
final class BloomFilter {
  /*
   * Implementation notes. m = -n ln p / (ln 2)^2 bits and k = (m / n) ln 2 hash functions,
   * derived from two 64-bit hashes of the UTF-8 bytes as h1 + i * h2 (Kirsch and
   * Mitzenmacher), which keeps the false-positive rate of k independent hashes.
   */
  private final long[] bits;
  private final long bitCount;
  private final int hashes;
  private final double fpp;
  private final long expected;
  private long added;

  BloomFilter(long expected, double fpp) {
    this.expected = Math.max(1, expected);
    this.fpp = fpp;
    long m = (long) Math.ceil(-this.expected * Math.log(fpp) / (Math.log(2) * Math.log(2)));
    m = Math.max(64, m);
    this.bits = new long[(int) Math.min(Integer.MAX_VALUE - 8, (m + 63) / 64)];
    this.bitCount = (long) bits.length * 64;
    this.hashes = Math.max(1, (int) Math.round((double) bitCount / this.expected * Math.log(2)));
  }

  /** @return true if {@code s} was (probably) absent and is now present */
  boolean add(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    long h1 = mix(b, 0x9E3779B97F4A7C15L);
    long h2 = mix(b, 0xC2B2AE3D27D4EB4FL) | 1;
    boolean changed = false;
    for (int i = 0; i < hashes; i++) {
      long idx = Long.remainderUnsigned(h1 + i * h2, bitCount);
      int word = (int) (idx >>> 6);
      long mask = 1L << (idx & 63);
      if ((bits[word] & mask) == 0) {
        bits[word] |= mask;
        changed = true;
      }
    }
    if (changed) {
      added++;
    }
    return changed;
  }

  boolean mightContain(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    long h1 = mix(b, 0x9E3779B97F4A7C15L);
    long h2 = mix(b, 0xC2B2AE3D27D4EB4FL) | 1;
    for (int i = 0; i < hashes; i++) {
      long idx = Long.remainderUnsigned(h1 + i * h2, bitCount);
      if ((bits[(int) (idx >>> 6)] & (1L << (idx & 63))) == 0) {
        return false;
      }
    }
    return true;
  }

  private static long mix(byte[] b, long seed) {
    long h = seed ^ (b.length * 0xff51afd7ed558ccdL);
    for (byte x : b) {
      h ^= x & 0xff;
      h *= 0x100000001b3L;
      h = Long.rotateLeft(h, 31);
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h;
  }

  long sizeBytes() {
    return (long) bits.length * 8;
  }

  int hashCount() {
    return hashes;
  }

  double configuredFpp() {
    return fpp;
  }

  long expected() {
    return expected;
  }

  long added() {
    return added;
  }
}
