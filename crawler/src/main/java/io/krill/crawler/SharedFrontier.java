package io.krill.crawler;

import io.krill.crawler.frontier.Frontier;
import java.util.function.IntSupplier;

/**
 * The plug point of a crawl whose frontier is shared by several nodes (see
 * {@code io.krill.crawler.cluster}): it feeds the node's frontier with the URLs of the partitions
 * it owns, decides which work may start here, and says when the whole crawl is drained. A plain
 * crawl has none.
 *
 * <p>Threading: {@link #admit} and {@link #drained} are called by the dispatcher, {@link #finished}
 * by the strand that ran the work; implementations are thread-safe.
 */
public interface SharedFrontier {
  /**
   * Called once before the crawl starts.
   *
   * @param frontier this node's frontier (its offered URLs go to the shared frontier from now on)
   * @param wake wakes the dispatcher (new work was queued)
   * @param pendingCommits outputs handed to the writer and not yet journaled
   */
  void attach(Frontier frontier, Runnable wake, IntSupplier pendingCommits);

  /**
   * The crawl's DNS resolver (with its cache), for a shared frontier that keys hosts by address;
   * called once before {@link #attach}.
   *
   * @param resolver the resolver the fetches use
   */
  default void resolver(io.krill.netio.dns.DnsResolver resolver) {}

  /**
   * Decides whether {@code work}, just handed out by the frontier, may start on this node.
   *
   * @return true to start it; false if its host is no longer this node's (the implementation
   *     has given the host's slot back to the frontier)
   */
  boolean admit(Frontier.Work work);

  /** Called when admitted work has ended and its output has been handed to the writer. */
  void finished(Frontier.Work work);

  /**
   * Fetches that have ended here but whose outcome is not durable in the shared frontier yet: the
   * dispatcher counts them against {@code --max-in-flight} with the work in flight, so that a node
   * that dies has at most that many pages whose fetch another node repeats.
   *
   * @return how many; the implementation wakes the dispatcher when the count drops
   */
  int unsettled();

  /** @return true once the whole crawl, on every node, has nothing left to do */
  boolean drained();

  /** @return the cluster's figures in Prometheus text format, for the metrics endpoint (may be empty) */
  String metrics();
}
