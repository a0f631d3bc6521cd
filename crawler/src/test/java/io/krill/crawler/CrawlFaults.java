package io.krill.crawler;

import java.util.Set;
import java.util.function.Predicate;

/** Real crawls with a fault injected into their fetch path, for tests in other packages. */
public final class CrawlFaults {
  private CrawlFaults() {}

  /**
   * @param config the crawl
   * @param failing which page URLs the fetch path fails on, with an internal error (a bug's stand-in)
   * @param failed receives each URL failed
   * @return a crawler, not started, whose fetch of a matching page throws {@link IllegalStateException}
   */
  public static Crawler failingFetch(CrawlConfig config, Predicate<String> failing, Set<String> failed) {
    return Crawler.create(config).wrapFetch(real -> (uri, address, check) -> {
      if (failing.test(uri.toString())) {
        failed.add(uri.toString());
        throw new IllegalStateException("fault injected into the fetch path");
      }
      return real.fetch(uri, address, check);
    });
  }
}
