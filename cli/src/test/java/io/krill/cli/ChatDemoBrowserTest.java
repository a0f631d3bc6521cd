package io.krill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.httpd.HttpServer;
import io.krill.testkit.Browser;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import picocli.CommandLine;

/** {@code krill serve --demo} in two headless Chromium sessions: what one types, the other reads. */
@Timeout(300)
class ChatDemoBrowserTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  Path dir;

  @Test
  void chat_twoBrowsers_exchangeMessagesOverTheWebSocket() throws Exception {
    CommandLine cl = Krill.commandLine();
    ServeCommand cmd = (ServeCommand) cl.getSubcommands().get("serve").getCommand();
    cmd.environment = Map.of();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    cmd.out = new PrintStream(printed, true, StandardCharsets.UTF_8);
    cl.parseArgs("serve", "--demo", "--root", dir.toString(), "--port", "0");
    HttpServer server = cmd.start(cmd.settings());
    Browser bobsBrowser = null;
    try (Browser alicesBrowser = Browser.start()) {
      String page = "http://127.0.0.1:" + server.port() + ChatDemo.PAGE;
      assertThat(printed.toString(StandardCharsets.UTF_8)).contains("chat demo on " + page);
      WebDriver alice = alicesBrowser.driver();
      bobsBrowser = Browser.start();
      WebDriver bob = bobsBrowser.driver();
      join(alice, page, "alice");
      join(bob, page, "bob");
      awaitLog(alice, "* bob joined (2 here)");

      say(alice, "hello bob");
      awaitLog(bob, "alice: hello bob");
      say(bob, "hi alice <b>not bold</b>");
      awaitLog(alice, "bob: hi alice <b>not bold</b>");
      assertThat(alice.findElements(By.tagName("b"))).isEmpty(); // shown as text, never as markup

      bobsBrowser.close();
      bobsBrowser = null;
      awaitLog(alice, "* bob left");
    } finally {
      if (bobsBrowser != null) {
        bobsBrowser.close();
      }
      server.shutdown(Duration.ofSeconds(2));
    }
  }

  private static void join(WebDriver d, String page, String name) {
    d.get(page);
    d.findElement(By.id("name")).sendKeys(name);
    d.findElement(By.id("join")).click();
    new WebDriverWait(d, WAIT).until(x -> x.findElement(By.id("status")).getText().equals("connected as " + name));
  }

  private static void say(WebDriver d, String text) {
    d.findElement(By.id("text")).sendKeys(text);
    d.findElement(By.id("send")).click();
  }

  private static void awaitLog(WebDriver d, String line) {
    new WebDriverWait(d, WAIT).until(x -> x.findElements(By.cssSelector("#log li")).stream()
        .anyMatch(li -> li.getText().equals(line)));
  }
}
