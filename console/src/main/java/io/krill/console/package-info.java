/**
 * A live web console for a crawl, served by krill's own httpd: static pages, one WebSocket per
 * browser tab pushing snapshots of the crawl, and token-guarded controls (pause, resume, stop,
 * add seeds). The entry point is {@link io.krill.console.WebConsole}.
 *
 * <p>Threading: one pusher thread builds a snapshot per interval and offers it to every tab
 * without waiting ({@code trySend}), so a slow or never-reading tab never slows the crawl; the
 * HTTP handlers run on the server's strands.
 */
package io.krill.console;
