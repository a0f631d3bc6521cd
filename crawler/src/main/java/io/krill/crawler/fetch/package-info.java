/**
 * Fetching: a fiber HTTP/1.1 client on netio with Netty's HTTP codec, keep-alive reuse,
 * deadlines, caps and the address-safety check.
 *
 * <p>Entry class: {@link io.krill.crawler.fetch.HttpFetcher}. Threading: the fetcher is
 * thread-safe; its fetch and resolve calls suspend the calling fiber (or block the calling
 * platform or virtual thread), never an event-loop carrier.
 */
package io.krill.crawler.fetch;
