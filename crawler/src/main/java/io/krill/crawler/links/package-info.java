/**
 * Link extraction from HTML with jsoup ({@code <a>}, frames, canonical, {@code <base>}).
 *
 * <p>Entry class: {@link io.krill.crawler.links.LinkExtractor}. Threading: stateless; any
 * thread or fiber (CPU only, no suspension).
 */
package io.krill.crawler.links;
