/**
 * The {@code krill crawl} command line (picocli): flags, their defaults and exit codes.
 *
 * <p>Entry class: {@link io.krill.crawler.cli.CrawlCommand}. Threading: the command runs the
 * crawl on the calling thread; a shutdown hook asks the crawl to stop.
 */
package io.krill.crawler.cli;
