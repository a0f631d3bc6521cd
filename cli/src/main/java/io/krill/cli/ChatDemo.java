package io.krill.cli;

import io.krill.fibers.Suspendable;
import io.krill.httpd.HttpServer;
import io.krill.httpd.websocket.WebSocket;
import io.krill.httpd.websocket.WebSocketMessage;
import io.krill.httpd.websocket.WebSocketRoute;
import io.krill.httpd.websocket.WebSocketSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The chat room {@code krill serve --demo} adds: a page at {@link #PAGE} and its WebSocket at
 * {@link #SOCKET}. Each browser tab is one socket served by one strand, which receives the tab's
 * lines and offers each to every socket in the room with {@code trySend}, so a tab that stopped
 * reading loses lines instead of holding up the others. Thread-safe.
 */
final class ChatDemo {
  /** Where the chat page is served. */
  static final String PAGE = "/chat";
  /** Where the chat's WebSocket is. */
  static final String SOCKET = "/chat/socket";
  /** The longest name kept; longer ones are cut. */
  private static final int MAX_NAME_CHARS = 32;

  private final Set<WebSocket> room = ConcurrentHashMap.newKeySet();
  private final AtomicInteger guests = new AtomicInteger();

  private ChatDemo() {}

  /**
   * Adds the page and the socket to a server.
   *
   * @param b the server's builder
   * @param settings the socket's limits
   * @return {@code b}
   */
  static HttpServer.Builder install(HttpServer.Builder b, WebSocketSettings settings) {
    byte[] page = page();
    ChatDemo room = new ChatDemo();
    return b.get(PAGE, (req, res) -> res.header("Content-Type", "text/html; charset=utf-8")
            .header("Cache-Control", "no-cache").send(page))
        .get(SOCKET, WebSocketRoute.of(settings, room::serve));
  }

  private static byte[] page() {
    try (InputStream in = ChatDemo.class.getResourceAsStream("chat.html")) {
      if (in == null) {
        throw new IllegalStateException("chat.html is missing from the launcher's jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /* One tab: joins, relays its lines to the room until it closes, leaves. */
  private void serve(WebSocket socket) throws Suspendable {
    String name = name(socket.request().queryParam("name"));
    room.add(socket);
    broadcast("* " + name + " joined (" + room.size() + " here)");
    try {
      for (WebSocketMessage m; (m = socket.receive()) != null; ) {
        if (m.isText() && !m.text().isBlank()) {
          broadcast(name + ": " + m.text());
        }
      }
    } finally {
      room.remove(socket);
      broadcast("* " + name + " left");
    }
  }

  private String name(String asked) {
    String n = asked == null ? "" : asked.strip();
    if (n.isEmpty()) {
      return "guest-" + guests.incrementAndGet();
    }
    return n.length() > MAX_NAME_CHARS ? n.substring(0, MAX_NAME_CHARS) : n;
  }

  private void broadcast(String line) {
    for (WebSocket s : room) {
      s.trySend(line);
    }
  }
}
