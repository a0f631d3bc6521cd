package io.krill.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ctrl-C (SIGINT) or SIGTERM to a crawling child JVM: the crawl drains, writes its summary and
 * {@code summary.json}, prints the command that continues it, and that command finishes the crawl.
 */
class StopSignalTest {
  @TempDir
  Path tmp;

  private static Process start(List<String> crawlArgs, Path log) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(CrawlMain.class.getName());
    cmd.addAll(crawlArgs);
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  @ParameterizedTest
  @ValueSource(strings = {"INT", "TERM"})
  @Timeout(420)
  void signal_midCrawl_drainsWritesSummaryAndPrintsTheResumeCommand(String signal) throws Exception {
    try (SmallWeb web = new SmallWeb(30, 20)) {
      Path out = tmp.resolve("out");
      Path log = tmp.resolve("crawl.log");
      Process p = start(List.of("--out", out.toString(), "--dns", "127.0.0.1:" + web.dns.address().getPort(),
          "--allow-private", "--scope", "any", "--allow-domain", "test", "--max-depth", "100", "--delay", "100ms",
          "--progress", "plain", "--progress-interval", "5s", web.url("a.test", "/p0")), log);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (web.hits().stream().filter(h -> h.path().startsWith("/p")).count() < 3 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(p.isAlive()).as("still crawling when signalled").isTrue();
      Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).inheritIO().start();
      assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
      // drained within --total-timeout plus the grace (a generous bound: only a hang fails it)
      assertThat(p.waitFor(150, TimeUnit.SECONDS)).as("exited after SIGINT/SIGTERM; log:%n%s", new Object() {
        @Override
        public String toString() {
          try {
            return Files.readString(log);
          } catch (java.io.IOException e) {
            return e.toString();
          }
        }
      }).isTrue();
      String text = Files.readString(log);
      assertThat(text).contains("crawl stopped in").contains("krill crawl: stopped; to continue: krill crawl --resume " + out);
      assertThat(Files.readString(out.resolve("summary.json"))).contains("\"stopped_by\":\"stopped\"");

      Process resumed = start(List.of("--resume", out.toString()), tmp.resolve("resume.log"));
      assertThat(resumed.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(resumed.exitValue()).as(Files.readString(tmp.resolve("resume.log"))).isZero();
      assertThat(Files.readString(out.resolve("summary.json"))).contains("\"stopped_by\":\"done\"").contains("\"this_run\"");
      // every page once over both runs
      List<String> pages = CrawlOutput.jsonl(out).stream().filter(l -> !l.kind().equals("robots")).map(CrawlOutput.Line::url).toList();
      assertThat(pages).doesNotHaveDuplicates();
    }
  }
}
