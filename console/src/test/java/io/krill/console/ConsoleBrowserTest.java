package io.krill.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.krill.crawler.CrawlSummary;
import io.krill.crawler.Crawler;
import io.krill.testkit.Browser;
import io.krill.testweb.TestWeb;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in headless Chromium during a crawl of the synthetic web: what a person sees.
 * With {@code -Dkrill.docs.update=true} it also refreshes the screenshot in docs/console/.
 */
@Timeout(300)
class ConsoleBrowserTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String WINDOW = "--window-size=1280,1500";

  @TempDir
  Path tmp;

  @Test
  void console_inChromium_showsTheCrawlPausesResumesAndEndsWithTheSummary() throws Exception {
    try (TestWeb web = TestWeb.start(WebConsoleTest.smallWeb().pagesPerHost(40).build())) {
      Path out = tmp.resolve("out");
      Crawler crawler = Crawler.create(WebConsoleTest.crawlOf(web, out, Duration.ofMillis(40)).build());
      try (WebConsole console = WebConsole.builder(crawler.view()).pushInterval(Duration.ofMillis(200)).start();
          Tab tab = new Tab(console.port());
          Browser browser = Browser.start(WINDOW)) {
        crawler.view().pause(); // so the page sees the crawl from its start
        CompletableFuture<CrawlSummary> run = WebConsoleTest.runInBackground(crawler);
        WebDriver d = browser.driver();
        d.get(console.url());
        // the page redraws every snapshot: an element may go stale between finding and reading it
        WebDriverWait wait = (WebDriverWait) new WebDriverWait(d, WAIT).ignoring(StaleElementReferenceException.class);
        wait.until(x -> text(x, "state").equals("paused"));

        // a stale token is refused and changes nothing
        d.findElement(By.id("token")).sendKeys("stale");
        d.findElement(By.id("resume")).click();
        wait.until(x -> text(x, "message").startsWith("403"));
        tab.next();
        tab.next();
        assertThat(text(d, "state")).isEqualTo("paused");

        d.findElement(By.id("token")).clear();
        d.findElement(By.id("token")).sendKeys(console.token());
        d.findElement(By.id("resume")).click();
        wait.until(x -> text(x, "state").equals("running") && number(x, "pages") >= 20);

        d.findElement(By.id("pause")).click();
        wait.until(x -> text(x, "state").equals("paused") && text(x, "inflight").equals("0"));
        tab.await(c -> c.get("paused").asBoolean() && c.get("inFlight").asInt() == 0);
        String requests = text(d, "requests");
        for (int i = 0; i < 5; i++) {
          tab.next();
        }
        assertThat(text(d, "requests")).as("requests while paused").isEqualTo(requests);
        assertThat(run).isNotDone();

        d.findElement(By.id("resume")).click();
        wait.until(x -> text(x, "state").equals("running") && !text(x, "requests").equals(requests));
        wait.until(x -> x.findElements(By.cssSelector("#recent tbody tr")).size() > 5);
        screenshot((TakesScreenshot) d, "console-running.png");

        CrawlSummary s = run.join();
        wait.until(x -> text(x, "state").equals("ended: " + s.stoppedBy()));
        JsonNode summary = JSON.readTree(Files.readString(out.resolve("summary.json")));
        assertThat(number(d, "pages")).isEqualTo(summary.get("pages").asLong());
        assertThat(number(d, "requests")).isEqualTo(summary.get("requests").asLong());
        assertThat(Long.parseLong(d.findElement(By.id("bytes")).getAttribute("data-exact")))
            .isEqualTo(summary.get("bytes").asLong());
        assertThat(pairs(d, "statuses")).isEqualTo(json(summary.get("statuses")));
        assertThat(pairs(d, "errorKinds")).isEqualTo(json(summary.get("errors")));

        // the host table lists every host the crawl wrote a line for
        Set<String> written = new TreeSet<>();
        for (String line : Files.readAllLines(out.resolve("crawl.jsonl"))) {
          URI u = URI.create(JSON.readTree(line).get("url").asText());
          written.add(u.getScheme() + "://" + u.getHost() + ":" + u.getPort());
        }
        assertThat(hostColumn(d)).isEqualTo(written);
        String one = written.iterator().next();
        d.findElement(By.id("filter")).sendKeys(URI.create(one).getHost());
        wait.until(x -> hostColumn(x).equals(Set.of(one)));
        d.findElement(By.id("filter")).clear();
        d.findElement(By.cssSelector("#hosts th[data-key=host]")).click();
        List<String> sorted = d.findElements(By.cssSelector("#hosts tbody tr td:first-child")).stream()
            .map(WebElement::getText).collect(Collectors.toList());
        assertThat(sorted).isSorted().hasSize(written.size());
      }
    }
  }

  @Test
  void tabLeftOpen_thousandsOfSnapshots_pageAndMessagesDoNotGrow() throws Exception {
    try (TestWeb web = TestWeb.start(WebConsoleTest.smallWeb().pagesPerHost(40).build())) {
      Crawler crawler = Crawler.create(WebConsoleTest.crawlOf(web, tmp.resolve("out"), Duration.ofMillis(5)).build());
      // a snapshot every 5 ms: an hour of a tab's life at the default second in a few seconds
      try (WebConsole console = WebConsole.builder(crawler.view()).pushInterval(Duration.ofMillis(5)).start();
          Tab tab = new Tab(console.port());
          Browser browser = Browser.start(WINDOW)) {
        CompletableFuture<CrawlSummary> run = WebConsoleTest.runInBackground(crawler);
        tab.await(c -> c.get("pages").asLong() >= 30);
        crawler.view().pause(); // running, not ended: the page keeps rendering every snapshot
        tab.await(c -> c.get("paused").asBoolean() && c.get("inFlight").asInt() == 0);
        WebDriver d = browser.driver();
        d.get(console.url());
        JavascriptExecutor js = (JavascriptExecutor) d;
        String points = "return document.getElementById('line').points.numberOfItems";
        String elements = "return document.getElementsByTagName('*').length";
        new WebDriverWait(d, WAIT).until(x -> ((Number) js.executeScript(points)).intValue() == 299);
        long before = ((Number) js.executeScript(elements)).longValue();
        int size = tab.next().toString().length();
        tab.dropSizes();
        for (int i = 0; i < 1000; i++) {
          tab.next();
        }
        assertThat(((Number) js.executeScript(points)).intValue()).as("chart points").isEqualTo(299);
        assertThat(((Number) js.executeScript(elements)).longValue()).as("page elements").isEqualTo(before);
        // what the page keeps is bounded: the last 50 lines and errors, the last table, the counters (a line the
        // writer flushed after the pause may still take an older one's place)
        JsonNode kept = tab.next();
        assertThat(kept.get("recent").size()).isLessThanOrEqualTo(50);
        assertThat(kept.get("errors").size()).isLessThanOrEqualTo(50);
        assertThat(kept.toString().length()).as("snapshot size, as the page keeps it").isLessThan(size + 2048);
        // what travels: a held crawl changes little, so the messages are deltas, far smaller than the whole
        int whole = WebConsoleTest.get(console, "api/snapshot").length();
        List<Integer> sent = tab.dropSizes();
        assertThat(sent).isNotEmpty().allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(whole + 64));
        assertThat(sent.stream().sorted().collect(Collectors.toList()).get(sent.size() / 2)).as("median message")
            .isLessThan(whole / 2);
        assertThat(console.tabs()).isEqualTo(2);
        crawler.view().stop();
        assertThat(run.join().stoppedBy()).isEqualTo("stopped");
      }
    }
  }

  private static String text(WebDriver d, String id) {
    return d.findElement(By.id(id)).getText();
  }

  private static long number(WebDriver d, String id) {
    return Long.parseLong(text(d, id));
  }

  private static Map<String, Long> pairs(WebDriver d, String id) {
    Map<String, Long> m = new TreeMap<>();
    for (WebElement dd : d.findElements(By.cssSelector("#" + id + " dd"))) {
      m.put(dd.getAttribute("data-key"), Long.parseLong(dd.getText()));
    }
    return m;
  }

  private static Map<String, Long> json(JsonNode o) {
    Map<String, Long> m = new TreeMap<>();
    o.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asLong()));
    return m;
  }

  private static Set<String> hostColumn(WebDriver d) {
    return d.findElements(By.cssSelector("#hosts tbody tr td:first-child")).stream().map(WebElement::getText)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /* Always into target/; into docs/console/ when the docs are being updated. */
  static void screenshot(TakesScreenshot what, String name) throws java.io.IOException {
    Path shot = what.getScreenshotAs(OutputType.FILE).toPath();
    Files.createDirectories(Path.of("target"));
    Files.copy(shot, Path.of("target", name), StandardCopyOption.REPLACE_EXISTING);
    if (Boolean.getBoolean("krill.docs.update")) {
      Path docs = Path.of("..", "docs", "console");
      Files.createDirectories(docs);
      Files.copy(shot, docs.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
