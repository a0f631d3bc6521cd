package io.krill.crawler.cli;

import io.krill.crawler.CrawlView;
import java.io.IOException;

/**
 * A live console that {@code krill crawl --console HOST:PORT} serves for the crawl: the launcher
 * fills this hook with the web console, so the crawler never depends on the HTTP server.
 *
 * <p>Threading: the command starts and closes it on the thread that runs the crawl; the console
 * reads the {@link CrawlView} from its own threads.
 */
public interface CrawlConsole extends AutoCloseable {
  /** Starts a console; registered with {@link CrawlCommand#console(Starter)}. */
  @FunctionalInterface
  interface Starter {
    /**
     * Starts serving.
     *
     * @param view the crawl to show and control
     * @param host where to listen: the host of {@code --console HOST:PORT}, without brackets
     * @param port where to listen; 0 picks a free port
     * @param token the control token, or null for a random one
     * @return the running console
     * @throws IllegalArgumentException if the address is not loopback and no token is given
     * @throws java.net.BindException if the port is in use
     * @throws IOException if it cannot be served
     */
    CrawlConsole start(CrawlView view, String host, int port, String token) throws IOException;
  }

  /** @return the console's address, e.g. {@code http://127.0.0.1:8090/} */
  String url();

  /** @return the token the controls require */
  String token();

  /** Stops serving. */
  @Override
  void close();
}
