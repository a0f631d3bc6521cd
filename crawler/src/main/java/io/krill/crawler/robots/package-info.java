/**
 * robots.txt (RFC 9309) and sitemaps, parsed by crawler-commons.
 *
 * <p>Entry classes: {@link io.krill.crawler.robots.RobotsPolicy} and
 * {@link io.krill.crawler.robots.Sitemaps}. Threading: stateless; any thread or fiber.
 */
package io.krill.crawler.robots;
