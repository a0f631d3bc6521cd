package io.krill.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a crawling child JVM with SIGKILL ({@code destroyForcibly}) at random points, resumes
 * it with {@code --resume DIR} each time, and checks that the final result equals an
 * uninterrupted crawl's: the same URLs completed, none completed twice, every WARC record valid.
 */
class CrashResumeTest {
  @TempDir
  Path tmp;

  private static List<String> args(SmallWeb web, Path out) {
    return List.of("--out", out.toString(), "--dns", "127.0.0.1:" + web.dns.address().getPort(), "--allow-private",
        "--scope", "any", "--allow-domain", "test", "--max-depth", "100", "--delay", "20ms", "--per-host", "1",
        "--per-ip", "2", "--progress", "off", "--fsync", "never", "--checkpoint-lines", "60", "--carriers", "1",
        web.url("a.test", "/p0"));
  }

  private static Process start(List<String> crawlArgs, Path log) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("-Xss4m");
    cmd.add(CrawlMain.class.getName());
    cmd.addAll(crawlArgs);
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
  }

  /** "kind url" of every completed page line; asserts no page or sitemap URL was completed twice. */
  private static Set<String> completed(Path out) throws Exception {
    Map<String, Integer> counts = new HashMap<>();
    for (CrawlOutput.Line l : CrawlOutput.jsonl(out)) {
      if (!l.kind().equals("robots")) {
        counts.merge(l.kind() + " " + l.url() + " " + l.status() + " " + (l.error() == null ? "" : l.error().replaceAll(":.*", "")),
            1, Integer::sum);
      }
    }
    assertThat(counts).allSatisfy((k, n) -> assertThat(n).as("completed more than once: " + k).isEqualTo(1));
    return new TreeSet<>(counts.keySet());
  }

  private void killAndResume(int kills, int pages) throws Exception {
    try (SmallWeb web = new SmallWeb(pages, 10)) {
      Path reference = tmp.resolve("reference");
      Process ref = start(args(web, reference), tmp.resolve("reference.log"));
      assertThat(ref.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(ref.exitValue()).as("reference crawl exit, log:\n" + java.nio.file.Files.readString(tmp.resolve("reference.log"))).isZero();
      Set<String> expected = completed(reference);
      assertThat(expected).hasSizeGreaterThan(3 * pages);

      Path out = tmp.resolve("killed");
      Path log = tmp.resolve("killed.log");
      Random random = new Random(kills * 31L + pages);
      Process p = start(args(web, out), log);
      int killed = 0;
      for (int i = 0; i < kills; i++) {
        // kill at a random point of the crawl proper (after the JVM started and the journal exists)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!java.nio.file.Files.exists(out.resolve("frontier.journal")) && p.isAlive() && System.nanoTime() < deadline) {
          Thread.sleep(10);
        }
        if (p.waitFor(50 + random.nextInt(900), TimeUnit.MILLISECONDS)) {
          break; // finished before the kill
        }
        p.destroyForcibly().waitFor();
        killed++;
        p = start(List.of("--resume", out.toString()), log);
      }
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as("final resumed crawl exit, log:\n" + java.nio.file.Files.readString(log)).isZero();
      assertThat(killed).as("kills that hit a running crawl").isGreaterThan(0);
      assertThat(completed(out)).isEqualTo(expected);
      List<String> records = CrawlOutput.validateWarcs(out);
      Map<String, Long> responses = records.stream().filter(r -> r.startsWith("response ") && r.contains("/p"))
          .collect(Collectors.groupingBy(r -> r, Collectors.counting()));
      assertThat(responses).allSatisfy((r, n) -> assertThat(n).as(r).isEqualTo(1L));
      assertThat(responses).hasSize(3 * pages);
    }
  }

  @Test
  @Timeout(300)
  void resume_killedThreeTimes_sameResultAsUninterrupted() throws Exception {
    killAndResume(3, 25);
  }

  @Test
  @Tag("slow")
  @Timeout(900)
  void resume_killedTenTimes_sameResultAsUninterrupted() throws Exception {
    killAndResume(10, 60);
  }
}
