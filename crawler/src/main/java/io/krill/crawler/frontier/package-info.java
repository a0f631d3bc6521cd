/**
 * The frontier: per-host queues, crawl order, politeness gates (host delay, host and IP
 * concurrency, back-off), scope limits, URL normalization and the seen-set.
 *
 * <p>Entry class: {@link io.krill.crawler.frontier.Frontier}. Threading: the frontier's
 * methods are synchronized, short and never suspend; waiting for work is the caller's job.
 */
package io.krill.crawler.frontier;
