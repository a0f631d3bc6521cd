package io.krill.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.krill.broker.KafkaBroker;
import io.krill.testkit.Browser;
import io.krill.testweb.TestWeb;
import io.krill.testweb.TestWebConfig;
import java.io.File;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console of one node of a crawl across machines, on a real broker in this JVM: the node
 * with the console runs {@code krill crawl --kafka … --console …} here, a second node runs in a
 * JVM of its own and is killed with SIGKILL once it owns partitions; the console shows both
 * nodes, then the dead one silent and its partitions taken over, in its JSON and in headless
 * Chromium. With {@code -Dkrill.docs.update=true} it refreshes the cluster screenshot in docs/console/.
 */
@Timeout(300)
class ClusterConsoleTest {
  private static final int PARTITIONS = 6;
  private static final Pattern CONSOLE = Pattern.compile("console at (http://\\S+/) \\(control token: (\\S+)\\)");

  @TempDir
  Path tmp;

  private static List<String> crawlArgs(TestWeb web, String bootstrap, Path out) {
    List<String> a = new ArrayList<>(List.of("--kafka", bootstrap, "--crawl-id", "console", "--partitions",
        String.valueOf(PARTITIONS), "--out", out.toString(), "--dns", "127.0.0.1:" + web.dnsServer().getPort(),
        "--allow-private", "--scope", "any", "--max-depth", "8", "--delay", "100ms", "--per-host", "1",
        "--robots-retry", "300ms", "--robots-attempts", "2", "--progress", "off", "--fsync", "never"));
    a.addAll(web.seedUrls());
    return a;
  }

  @Test
  void clusterView_secondNodeKilled_consoleShowsItsPartitionsTakenOver() throws Exception {
    TestWebConfig webConfig = TestWebConfig.builder().hosts(12).pagesPerHost(20).latency(Duration.ofMillis(5))
        .crawlDelay(Duration.ZERO).slowDripRate(0).build();
    try (TestWeb web = TestWeb.start(webConfig); KafkaBroker broker = KafkaBroker.start(tmp.resolve("broker"), 0)) {
      List<String> args = new ArrayList<>(crawlArgs(web, broker.bootstrap(), tmp.resolve("a")));
      args.addAll(List.of("--console", "127.0.0.1:0"));
      CommandRun a = CommandRun.start(args);
      Matcher m = a.await(CONSOLE);
      URI console = URI.create(m.group(1));
      String token = m.group(2);
      // paused until the second node owns its share: the crawl cannot end before the kill
      assertThat(CommandRun.control(console, "pause", token)).isEqualTo(200);
      Process b = null;
      try (Tab tab = new Tab(console.getPort())) {
        JsonNode alone = tab.await(c -> owners(c).size() == 1 && partitions(c, true).size() == PARTITIONS);
        String self = alone.get("crawl").get("nodes").get(0).get("id").asText();
        assertThat(alone.get("crawl").get("nodes").get(0).get("self").asBoolean()).isTrue();

        b = startNode(crawlArgs(web, broker.bootstrap(), tmp.resolve("b")), tmp.resolve("b.log"));
        JsonNode both = tab.await(c -> owners(c).size() == 2 && partitions(c, false).size() > 0
            && partitions(c, true).size() + partitions(c, false).size() == PARTITIONS);
        Set<Integer> theirs = partitions(both.get("crawl"), false);
        String other = other(both.get("crawl"), self);
        assertThat(changes(both.get("crawl"), self, other)).as("moved to the new node").containsAll(theirs);

        b.destroyForcibly().waitFor();
        JsonNode after = tab.await(c -> partitions(c, true).size() == PARTITIONS
            && changes(c, other, self).containsAll(theirs));
        JsonNode dead = node(after.get("crawl"), other);
        assertThat(dead.get("alive").asBoolean()).isFalse();
        assertThat(dead.get("state").asText()).isEqualTo("silent");
        assertThat(dead.get("partitions")).isEmpty();
        assertThat(node(after.get("crawl"), self).get("alive").asBoolean()).isTrue();

        // what a person sees: the dead node silent, its partitions' moves to this one (still paused, so it stays)
        try (Browser browser = Browser.start(ConsoleBrowserTest.WINDOW)) {
          WebDriver d = browser.driver();
          d.get(console.toString());
          int moved = theirs.iterator().next();
          new WebDriverWait(d, Duration.ofSeconds(60)).ignoring(StaleElementReferenceException.class).until(x ->
              cells(x, "#nodes tr[data-node='" + other + "'] td").equals(List.of(other, "silent", ""))
              && rows(x, "#ownership tbody tr").contains(List.of(String.valueOf(moved), other, self)));
          ConsoleBrowserTest.screenshot(d.findElement(By.id("clusterBox")), "console-cluster.png");
        }
        assertThat(CommandRun.control(console, "resume", token)).isEqualTo(200);

        assertThat(a.code()).as(a.err::toString).isZero();
        JsonNode end = tab.await(c -> !c.get("stoppedBy").isNull());
        assertThat(end.get("crawl").get("stoppedBy").asText()).isEqualTo("done");
      } finally {
        if (b != null) {
          b.destroyForcibly();
        }
        if (!a.code.isDone()) {
          CommandRun.control(console, "stop", token);
        }
      }
    }
  }

  private static Process startNode(List<String> args, Path log) throws java.io.IOException {
    List<String> cmd = new ArrayList<>(List.of(System.getProperty("java.home") + File.separator + "bin" + File.separator
        + "java", "-cp", System.getProperty("java.class.path"), "-Xmx256m", CrawlNode.class.getName()));
    cmd.addAll(args);
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
  }

  private static List<String> cells(WebDriver d, String css) {
    return d.findElements(By.cssSelector(css)).stream().map(WebElement::getText).toList();
  }

  /** Each row's cells after the first (the time). */
  private static List<List<String>> rows(WebDriver d, String css) {
    List<List<String>> out = new ArrayList<>();
    for (WebElement tr : d.findElements(By.cssSelector(css))) {
      List<String> c = tr.findElements(By.tagName("td")).stream().map(WebElement::getText).toList();
      out.add(c.subList(1, c.size()));
    }
    return out;
  }

  /** The nodes that own a partition. */
  private static Set<String> owners(JsonNode crawl) {
    Set<String> s = new TreeSet<>();
    for (JsonNode n : crawl.get("nodes")) {
      if (n.get("partitions").size() > 0) {
        s.add(n.get("id").asText());
      }
    }
    return s;
  }

  /** The partitions this node (self) or the others own. */
  private static Set<Integer> partitions(JsonNode crawl, boolean self) {
    Set<Integer> s = new TreeSet<>();
    for (JsonNode n : crawl.get("nodes")) {
      if (n.get("self").asBoolean() == self) {
        n.get("partitions").forEach(p -> s.add(p.asInt()));
      }
    }
    return s;
  }

  private static String other(JsonNode crawl, String self) {
    for (JsonNode n : crawl.get("nodes")) {
      if (!n.get("id").asText().equals(self) && n.get("partitions").size() > 0) {
        return n.get("id").asText();
      }
    }
    throw new AssertionError("no other node in " + crawl.get("nodes"));
  }

  private static JsonNode node(JsonNode crawl, String id) {
    for (JsonNode n : crawl.get("nodes")) {
      if (n.get("id").asText().equals(id)) {
        return n;
      }
    }
    throw new AssertionError("no node " + id + " in " + crawl.get("nodes"));
  }

  /** The partitions the ownership log shows moving from one node to another. */
  private static Set<Integer> changes(JsonNode crawl, String from, String to) {
    Set<Integer> s = new TreeSet<>();
    for (JsonNode c : crawl.get("ownership")) {
      if (from.equals(c.get("from").asText(null)) && to.equals(c.get("to").asText(null))) {
        s.add(c.get("partition").asInt());
      }
    }
    return s;
  }
}
