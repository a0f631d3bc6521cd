package io.krill.crawler.frontier;

import io.krill.fibers.Checks;
import java.util.HashSet;
import java.util.Set;

/**
 * The URLs a crawl has seen, under a memory budget: an exact hash set until its estimated
 * size reaches the budget, then a Bloom filter sized for {@code bloomExpected} URLs at the
 * stated false-positive rate (a false positive makes the crawl skip a new URL, never fetch
 * one twice). Not thread-safe: the frontier guards it.
 */
public final class SeenSet {
  /** Default memory budget for the exact set. */
  public static final long DEFAULT_MEMORY_BUDGET = 64L * 1024 * 1024;
  /** Default URLs the Bloom filter is sized for. */
  public static final long DEFAULT_BLOOM_EXPECTED = 10_000_000L;
  /** Default false-positive rate of the Bloom filter. */
  public static final double DEFAULT_BLOOM_FPP = 0.001;

  /* A String of n chars: ~40 B object and array headers, 2n B of chars (Latin-1 strings take n, so this is an upper bound), ~40 B of HashMap node and table slot. */
  private static final int ENTRY_OVERHEAD = 80;

  private final long budget;
  private final long bloomExpected;
  private final double bloomFpp;
  private Set<String> exact = new HashSet<>();
  private long exactBytes;
  private BloomFilter bloom;
  private long count;

  /**
   * @param memoryBudget bytes the exact set may use before the switch
   * @param bloomExpected URLs the Bloom filter is sized for
   * @param bloomFpp its false-positive rate at that many URLs
   */
  public SeenSet(long memoryBudget, long bloomExpected, double bloomFpp) {
    this.budget = Checks.positive("seenMemory", memoryBudget);
    this.bloomExpected = Checks.positive("bloomExpected", bloomExpected);
    this.bloomFpp = Checks.probability("bloomFpp", bloomFpp);
  }

  /**
   * @param url a normalized URL
   * @return true if it was not seen before (and is now)
   */
  public boolean add(String url) {
    if (bloom != null) {
      boolean added = bloom.add(url);
      if (added) {
        count++;
      }
      return added;
    }
    if (!exact.add(url)) {
      return false;
    }
    count++;
    exactBytes += ENTRY_OVERHEAD + 2L * url.length();
    if (exactBytes > budget) {
      switchToBloom();
    }
    return true;
  }

  /**
   * Charges bytes held beside the exact set (the frontier's link graph) to the budget; past it
   * the set becomes a Bloom filter.
   */
  void charge(long bytes) {
    if (bloom == null) {
      exactBytes += bytes;
      if (exactBytes > budget) {
        switchToBloom();
      }
    }
  }

  /** @return true if {@code url} was (probably, once in Bloom mode) seen */
  public boolean contains(String url) {
    return bloom != null ? bloom.mightContain(url) : exact.contains(url);
  }

  private void switchToBloom() {
    BloomFilter b = new BloomFilter(Math.max(bloomExpected, exact.size() * 2L), bloomFpp);
    for (String s : exact) {
      b.add(s);
    }
    bloom = b;
    exact = null;
    exactBytes = 0;
  }

  /** @return the URLs while the set is exact, else null */
  Iterable<String> exactUrls() {
    return exact;
  }

  /** @return true once the set switched to the Bloom filter */
  public boolean isBloom() {
    return bloom != null;
  }

  /** @return URLs added */
  public long size() {
    return count;
  }

  /** @return estimated bytes held */
  public long memoryBytes() {
    return bloom != null ? bloom.sizeBytes() : exactBytes;
  }

  /** @return the false-positive rate at the Bloom filter's design size (0 while exact) */
  public double falsePositiveRate() {
    return bloom != null ? bloom.configuredFpp() : 0.0;
  }

  /** @return a one-line description for the summary */
  public String describe() {
    return bloom == null ? "exact (" + count + " URLs, ~" + exactBytes / 1024 + " KiB of " + budget / 1024 + " KiB)"
        : "bloom (" + count + " URLs, " + bloom.sizeBytes() / 1024 + " KiB, " + bloom.hashCount() + " hashes, fpp "
            + bloom.configuredFpp() + " at " + bloom.expected() + " URLs)";
  }
}
