package io.krill.console;

import io.krill.crawler.cli.CrawlCommand;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code krill crawl ARGS} with the console, on a thread of its own, its error stream readable as it comes. */
final class CommandRun {
  final StringBuffer err = new StringBuffer();
  final CompletableFuture<Integer> code = new CompletableFuture<>();

  static CommandRun start(List<String> args) {
    CommandRun r = new CommandRun();
    PrintStream e = new PrintStream(new OutputStream() {
      @Override
      public void write(int b) {
        r.err.append((char) b);
      }
    }, true, StandardCharsets.ISO_8859_1);
    PrintStream o = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    Thread t = new Thread(() -> {
      try {
        r.code.complete(new CrawlCommand().streams(o, e).console(WebConsole::start).commandLine()
            .execute(args.toArray(new String[0])));
      } catch (Throwable x) {
        r.code.completeExceptionally(x);
      }
    }, "test-crawl-command");
    t.setDaemon(true);
    t.start();
    return r;
  }

  /**
   * Sends a control to a console.
   *
   * @return the HTTP status
   */
  static int control(URI console, String action, String token) throws Exception {
    HttpRequest r = HttpRequest.newBuilder(console.resolve("api/" + action)).header(WebConsole.TOKEN_HEADER, token)
        .POST(HttpRequest.BodyPublishers.noBody()).build();
    return HttpClient.newHttpClient().send(r, HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  int code() throws Exception {
    return code.get(240, TimeUnit.SECONDS);
  }

  Matcher await(Pattern p) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      Matcher m = p.matcher(err);
      if (m.find()) {
        return m;
      }
      Thread.sleep(5);
    }
    throw new AssertionError("no " + p + " in: " + err);
  }
}
