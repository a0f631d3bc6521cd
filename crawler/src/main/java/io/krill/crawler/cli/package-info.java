/**
 * The {@code krill crawl} command line (picocli): flags derived from the crawl settings, and exit
 * codes.
 *
 * <p>Entry class: {@link io.krill.crawler.cli.CrawlCommand}; {@link io.krill.crawler.cli.DemoWeb}
 * is the hook through which the launcher gives {@code --demo} a web to crawl. Threading: the command runs the
 * crawl on the calling thread; a shutdown hook asks the crawl to stop.
 */
package io.krill.crawler.cli;
