package io.krill.loadtest.harness;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Browser tabs on a crawl's web console, as the crawl scenario's {@code --console-tabs} opens
 * them: JDK WebSocket clients on the console's socket that read every snapshot it pushes (as a
 * page does), counting messages and characters. Thread-safe.
 */
final class ConsoleTabs implements AutoCloseable {
  /** The console's snapshot socket path (the console module's {@code WebConsole.SOCKET_PATH}). */
  static final String SOCKET_PATH = "/ws";
  /** How long opening one tab may take. */
  static final Duration OPEN_TIMEOUT = Duration.ofSeconds(30);

  private final List<WebSocket> sockets = new ArrayList<>();
  private final LongAdder messages = new LongAdder();
  private final LongAdder chars = new LongAdder();

  private ConsoleTabs() {}

  /**
   * Opens {@code n} tabs on a console.
   *
   * @param console the console's address, {@code http://HOST:PORT/}
   * @param n tabs to open
   * @return the open tabs
   * @throws java.io.IOException if a tab cannot be opened
   */
  static ConsoleTabs open(URI console, int n) throws java.io.IOException {
    ConsoleTabs tabs = new ConsoleTabs();
    HttpClient client = HttpClient.newHttpClient();
    URI ws = URI.create("ws://" + console.getHost() + ":" + console.getPort() + SOCKET_PATH);
    try {
      for (int i = 0; i < n; i++) {
        tabs.sockets.add(client.newWebSocketBuilder().buildAsync(ws, tabs.new Reader())
            .get(OPEN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
      }
    } catch (Exception e) {
      tabs.close();
      throw new java.io.IOException("cannot open a console tab on " + ws + ": " + e, e);
    }
    return tabs;
  }

  /** @return whole snapshots received by all tabs */
  long messages() {
    return messages.sum();
  }

  /** @return characters received by all tabs */
  long chars() {
    return chars.sum();
  }

  @Override
  public void close() {
    for (WebSocket s : sockets) {
      s.abort();
    }
  }

  /** Reads each message to its end and asks for the next, like a page's onmessage. */
  private final class Reader implements WebSocket.Listener {
    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      chars.add(data.length());
      if (last) {
        messages.increment();
      }
      ws.request(1);
      return null;
    }
  }
}
