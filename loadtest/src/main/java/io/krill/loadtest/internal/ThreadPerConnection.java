package io.krill.loadtest.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The classic blocking server's accept loop, shared by the thread-per-connection HTTP and echo
 * servers: a {@link ServerSocket} on a free loopback port and a daemon acceptor thread that hands
 * each connection ({@code TCP_NODELAY} on) to a new thread. Stateless; thread-safe.
 */
public final class ThreadPerConnection {
  private ThreadPerConnection() {}

  /**
   * Binds and starts accepting; closing the returned socket stops the acceptor.
   *
   * @param backlog the listen backlog
   * @param threads makes the unstarted thread of one connection (platform or virtual)
   * @param serve serves one connection on that thread and closes it
   * @return the bound server socket
   * @throws IOException if binding fails
   */
  public static ServerSocket listen(int backlog, Function<Runnable, Thread> threads, Consumer<Socket> serve)
      throws IOException {
    ServerSocket server = new ServerSocket();
    server.setReuseAddress(true);
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), backlog);
    Thread acceptor = new Thread(() -> {
      while (!server.isClosed()) {
        try {
          Socket s = server.accept();
          s.setTcpNoDelay(true);
          threads.apply(() -> serve.accept(s)).start();
        } catch (IOException | RuntimeException | OutOfMemoryError e) {
          // Out of threads or files under load: report it and keep accepting.
          if (!server.isClosed()) {
            System.err.println("accept failed: " + e);
          }
        }
      }
    }, "acceptor");
    acceptor.setDaemon(true);
    acceptor.start();
    return server;
  }
}
