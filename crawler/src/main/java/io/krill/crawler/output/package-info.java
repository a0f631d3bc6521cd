/**
 * Crawl output: WARC files (jwarc) rotated by size and written record-batch-atomically, the
 * JSONL log, the progress line, the OpenMetrics endpoint.
 *
 * <p>Entry classes: {@link io.krill.crawler.output.WarcOutput},
 * {@link io.krill.crawler.output.LineOutput}. Threading: the file writers are owned by one
 * writer thread; the metrics server answers on its own thread.
 */
package io.krill.crawler.output;
