/**
 * Crash safety: the append-only journal of queued and completed URLs and of where the durable
 * WARC and JSONL output ends, with checkpoints, from which {@code krill crawl --resume DIR}
 * continues after {@code kill -9}.
 *
 * <p>Entry class: {@link io.krill.crawler.journal.Journal}. Threading: owned by the crawl's
 * single output writer thread.
 */
package io.krill.crawler.journal;
