/**
 * The embedded synthetic web: a deterministic, generated web of virtual hosts on loopback
 * addresses, with its own DNS server, robots.txt, sitemaps, faults and crawler traps, and the
 * exact ground truth of what a crawl within a scope must fetch. {@code krill crawl --demo}
 * crawls it (the launcher joins the two), and the crawler's tests and benchmarks measure against
 * it.
 *
 * <p>Entry points: {@link io.krill.testweb.TestWeb#start(TestWebConfig)} serves a web
 * described by {@link io.krill.testweb.TestWebConfig}, which composes one record per concern
 * ({@link io.krill.testweb.WebShape}, {@link io.krill.testweb.WebSpeed}, {@link
 * io.krill.testweb.WebFaults}, {@link io.krill.testweb.WebRobots}, {@link
 * io.krill.testweb.WebTraps}, {@link io.krill.testweb.WebDns}); {@link
 * io.krill.testweb.SyntheticWeb#of(TestWebConfig)} is the model alone, and {@link
 * io.krill.testweb.GroundTruth} what a crawl of it within a {@link
 * io.krill.testweb.Scope} fetches. {@code krill testweb} runs it in the foreground; its flags
 * derive from {@link io.krill.testweb.TestWebSettings}.
 *
 * <p>Threading: the model, configurations, scopes and ground truths are immutable and
 * thread-safe. The HTTP servers run one fiber per connection on krill's httpd; the latency and
 * bandwidth of each response are {@code Fiber.sleep}s of that fiber. The DNS server runs on its
 * own daemon threads. {@code close()} stops everything.
 */
package io.krill.testweb;
