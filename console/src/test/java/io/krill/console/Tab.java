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

/**
 * A browser tab as the JDK's WebSocket client: collects every snapshot the console pushes, each
 * merged as the page merges it (a delta's missing host table and its new lines onto what came
 * before), so a test sees what the page would show.
 */
final class Tab implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(60);

  private final LinkedBlockingQueue<JsonNode> snapshots = new LinkedBlockingQueue<>();
  private final LinkedBlockingQueue<Integer> sizes = new LinkedBlockingQueue<>();
  private final WebSocket socket;
  private final StringBuilder partial = new StringBuilder();
  private final Merged merged = new Merged();
  /* The last snapshot a test took. */
  private JsonNode taken;

  Tab(int port) {
    socket = HttpClient.newHttpClient().newWebSocketBuilder()
        .buildAsync(URI.create("ws://127.0.0.1:" + port + WebConsole.SOCKET_PATH), new WebSocket.Listener() {
          @Override
          public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
              try {
                sizes.add(partial.length());
                snapshots.add(merged.add(JSON.readTree(partial.toString())));
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
      taken = n;
      if (crawl.test(n.get("crawl"))) {
        return n;
      }
    }
  }

  /** @return the snapshot of tick {@code seq}, merged, waiting at most a minute; fails if the tab skipped it */
  JsonNode atSeq(long seq) throws InterruptedException {
    JsonNode n = taken != null && taken.get("seq").asLong() >= seq ? taken : await(c -> true);
    while (n.get("seq").asLong() < seq) {
      n = await(c -> true);
    }
    if (n.get("seq").asLong() != seq) {
      throw new AssertionError("tick " + seq + " skipped: the next was " + n.get("seq") + (n.get("full").asBoolean()
          ? ", whole" : ", a delta"));
    }
    return n;
  }

  /** @return the next snapshot */
  JsonNode next() throws InterruptedException {
    return await(c -> true);
  }

  /** @return the lengths of the messages received since the last call, as sent (not merged) */
  java.util.List<Integer> dropSizes() {
    java.util.List<Integer> out = new java.util.ArrayList<>();
    sizes.drainTo(out);
    return out;
  }

  @Override
  public void close() {
    socket.abort();
  }

  /** What the page keeps between messages, and each message merged onto it. Not thread-safe. */
  static final class Merged {
    private static final int KEEP_LINES = 50;
    private JsonNode hosts;
    private final java.util.ArrayDeque<JsonNode> recent = new java.util.ArrayDeque<>();
    private final java.util.ArrayDeque<JsonNode> errors = new java.util.ArrayDeque<>();
    private boolean sawFull;

    /** @return the message as the page shows it: the host table and lines it kept filled in */
    JsonNode add(JsonNode msg) {
      boolean full = msg.get("full").asBoolean();
      if (!sawFull && !full) {
        throw new AssertionError("a tab's first message must be full: " + msg);
      }
      sawFull = true;
      com.fasterxml.jackson.databind.node.ObjectNode out = msg.deepCopy();
      com.fasterxml.jackson.databind.node.ObjectNode crawl = (com.fasterxml.jackson.databind.node.ObjectNode) out.get("crawl");
      if (crawl.has("hosts")) {
        hosts = crawl.get("hosts");
      } else if (full) {
        throw new AssertionError("a full message without hosts: " + msg);
      }
      crawl.set("hosts", hosts);
      out.set("recent", keep(recent, msg.get("recent"), full));
      out.set("errors", keep(errors, msg.get("errors"), full));
      return out;
    }

    private static JsonNode keep(java.util.ArrayDeque<JsonNode> kept, JsonNode add, boolean full) {
      if (full) {
        kept.clear();
      }
      add.forEach(kept::addLast);
      while (kept.size() > KEEP_LINES) {
        kept.removeFirst();
      }
      com.fasterxml.jackson.databind.node.ArrayNode a = JSON.createArrayNode();
      kept.forEach(a::add);
      return a;
    }
  }
}
