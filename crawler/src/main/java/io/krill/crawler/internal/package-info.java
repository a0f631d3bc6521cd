/**
 * Helpers shared by the crawler's packages (argument checks, JSON lines); not API.
 *
 * <p>Everything here is stateless or confined to the calling thread.
 */
package io.krill.crawler.internal;
