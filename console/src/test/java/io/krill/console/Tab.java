package io.krill.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** A browser tab as the JDK's WebSocket client: collects every snapshot the console pushes. */
final class Tab implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(60);

  private final LinkedBlockingQueue<JsonNode> snapshots = new LinkedBlockingQueue<>();
  private final WebSocket socket;
  private final StringBuilder partial = new StringBuilder();

  Tab(int port) {
    socket = HttpClient.newHttpClient().newWebSocketBuilder()
        .buildAsync(URI.create("ws://127.0.0.1:" + port + WebConsole.SOCKET_PATH), new WebSocket.Listener() {
          @Override
          public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
              try {
                snapshots.add(JSON.readTree(partial.toString()));
              } catch (java.io.IOException e) {
                throw new AssertionError("not JSON: " + partial, e);
              }
              partial.setLength(0);
            }
            ws.request(1);
            return null;
          }
        }).join();
  }

  /** @return the next snapshot whose crawl part matches, waiting at most a minute */
  JsonNode await(Predicate<JsonNode> crawl) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    JsonNode seen = null;
    for (;;) {
      JsonNode n = snapshots.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (n == null) {
        throw new AssertionError("no matching snapshot within " + WAIT + "; the last one: "
            + (seen == null ? "none" : seen.get("crawl").toString()));
      }
      seen = n;
      if (crawl.test(n.get("crawl"))) {
        return n;
      }
    }
  }

  /** @return the next snapshot */
  JsonNode next() throws InterruptedException {
    return await(c -> true);
  }

  @Override
  public void close() {
    socket.abort();
  }
}
