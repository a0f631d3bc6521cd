/**
 * krill-crawler: a Piranha-style web crawler, one fiber per fetch, polite, crash-safe, with
 * WARC and JSONL output.
 *
 * <p>Entry class: {@link io.krill.crawler.Crawler}, configured by
 * {@link io.krill.crawler.CrawlConfig#builder()}, whose settings as a schema (flags, environment,
 * docs) are {@link io.krill.crawler.CrawlSettings}. Threading: {@code Crawler.run()} blocks the
 * calling thread; fetches run as fibers (or platform/virtual threads) and one writer thread
 * owns the output files. The packages show the architecture: {@code fetch} (HTTP client),
 * {@code frontier} (queues, politeness, order, seen-set), {@code robots}, {@code links},
 * {@code output} (WARC, JSONL, progress, metrics), {@code journal} (crash safety) and
 * {@code cli} (the {@code krill crawl} command).
 */
package io.krill.crawler;
