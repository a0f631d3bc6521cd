package io.krill.crawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.crawler.SmallWeb;
import io.krill.testkit.CapturedRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class CrawlCommandTest {
  @TempDir
  Path tmp;

  /** Runs the command; returns exit code and captured stderr. */
  private static CapturedRun run(String... args) {
    return CapturedRun.of((out, err) -> new CrawlCommand().streams(out, err).commandLine().execute(args));
  }

  private static void assertUsageError(CapturedRun r, String message) {
    assertThat(r.code()).isEqualTo(2);
    String err = r.err();
    assertThat(err.lines().count()).as("one line: " + err).isEqualTo(1);
    assertThat(err).startsWith("krill crawl: ").contains(message).endsWith("(see krill crawl --help)" + System.lineSeparator());
  }

  @Test
  void call_invalidUrl_exit2() {
    assertUsageError(run("--out", tmp.resolve("o").toString(), "not-a-url"), "seed: \"not-a-url\"");
    assertUsageError(run("--out", tmp.resolve("o").toString(), "ftp://a.test/"), "expected: an absolute http or https URL");
  }

  @Test
  void call_unknownFlag_exit2() {
    assertUsageError(run("--frobnicate", "http://a.test/"), "--frobnicate");
  }

  @Test
  void call_unreadableSeedFile_exit2() {
    assertUsageError(run("--seeds", tmp.resolve("missing.txt").toString()), "--seeds: cannot read");
  }

  @Test
  void call_noSeeds_exit2() {
    assertUsageError(run("--out", tmp.resolve("o").toString()), "no seed URLs");
  }

  @Test
  void call_badValues_exit2NamingTheFlag() {
    assertUsageError(run("--max-pages", "0", "http://a.test/"), "krill crawl: --max-pages: 0 (expected: > 0)");
    assertUsageError(run("--delay", "soon", "http://a.test/"), "krill crawl: --delay: soon (expected: a duration such as 30s");
    assertUsageError(run("--order", "sideways", "http://a.test/"), "--order: sideways (expected: one of bfs, dfs, random)");
    assertUsageError(run("--include", "([", "http://a.test/"), "--include: ([ (expected: a regular expression");
    assertUsageError(run("--warc-gzip-level", "0", "http://a.test/"), "--warc-gzip-level: 0 (expected: 1..9)");
    assertUsageError(run("--warc-gzip-level", "10", "http://a.test/"), "--warc-gzip-level: 10 (expected: 1..9)");
    assertUsageError(run("--max-bytes", "lots", "http://a.test/"), "--max-bytes: lots (expected: a byte size");
    assertUsageError(run("--dns", "127.0.0.1:x", "--out", tmp.resolve("d").toString(), "http://a.test/"),
        "krill crawl: --dns: 127.0.0.1:x (expected: HOST or HOST:PORT)");
    assertUsageError(run("--console", "127.0.0.1", "--out", tmp.resolve("c").toString(), "http://a.test/"),
        "krill crawl: --console: 127.0.0.1 (expected: HOST:PORT)");
    assertUsageError(run("--kafka", "127.0.0.1:9092,broker", "--crawl-id", "c", "http://a.test/"),
        "krill crawl: --kafka: broker (expected: HOST:PORT)");
    assertUsageError(run("--connect-timeout", "0s", "http://a.test/"), "--connect-timeout: 0s (expected: > 0)");
    assertUsageError(run("--mode", "quantum", "http://a.test/"), "--mode: quantum (expected: one of fibers, threads, virtual)");
  }

  @Test
  void call_loopbackSeedWithoutAllowPrivate_exit1SayingToAddIt() throws Exception {
    try (SmallWeb web = new SmallWeb(1, 0)) {
      CapturedRun r = run("--out", tmp.resolve("out").toString(), "--progress", "off",
          "--dns", "127.0.0.1:" + web.dns.address().getPort(), web.url("a.test", "/p0"));
      assertThat(r.code()).as(r.err()).isEqualTo(1);
      assertThat(r.err()).contains("krill crawl: failed: no seed could be fetched: " + web.url("a.test", "/p0"))
          .contains("use --allow-private");
    }
  }

  @Test
  void call_outputUnderARegularFile_exit2OneLineNamingTheFlagAndWhatFailed() throws Exception {
    Path file = Files.writeString(tmp.resolve("plain.txt"), "x");
    CapturedRun r = run("--out", file.resolve("out").toString(), "--progress", "off", "http://a.test/");
    assertThat(r.code()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("krill crawl: --out: " + file.resolve("out") + " (expected: a directory krill can write; "
        + file.resolve("out") + ": Not a directory) (see krill crawl --help)" + System.lineSeparator());
  }

  @Test
  void call_resumeOfEmptyDirectory_exit2() {
    assertUsageError(run("--resume", tmp.toString()), "holds no crawl");
  }

  @Test
  void call_virtualModeOnOldJdk_exit2WithReason() throws Exception {
    try (SmallWeb web = new SmallWeb(1, 0)) {
      CapturedRun r = run("--mode", "virtual", "--allow-private", "--progress", "off", "--out", tmp.resolve("v").toString(),
          "--dns", "127.0.0.1:" + web.dns.address().getPort(), web.url("a.test", "/p0"));
      if (Runtime.version().feature() >= 21) {
        assertThat(r.code()).isZero();
      } else {
        assertUsageError(r, "--mode virtual needs JDK 21");
      }
    }
  }

  @Test
  void call_seedFileCrawl_exit0SummaryAndSavedArguments() throws Exception {
    try (SmallWeb web = new SmallWeb(2, 0)) {
      Path seeds = tmp.resolve("seeds.txt");
      Files.writeString(seeds, "# seeds\n" + web.url("a.test", "/p0") + "\n\n");
      Path out = tmp.resolve("out");
      CapturedRun r = run("--seeds", seeds.toString(), "--out", out.toString(), "--allow-private", "--scope", "any",
          "--allow-domain", "test", "--delay", "10ms", "--progress", "off",
          "--dns", "127.0.0.1:" + web.dns.address().getPort());
      assertThat(r.code()).as(r.err()).isZero();
      assertThat(r.out()).startsWith("crawl done").contains("6 pages");
      assertThat(Files.readAllLines(out.resolve(CrawlCommand.ARGS_FILE))).contains("--seeds", "--allow-private", "10ms");
      // a second run into the same directory is refused; --resume of a finished crawl is a no-op
      assertUsageError(run("--out", out.toString(), web.url("a.test", "/p0")), "holds a crawl already");
      CapturedRun resumed = run("--resume", out.toString());
      assertThat(resumed.code()).as(resumed.err()).isZero();
      assertThat(resumed.out()).contains("6 pages in all, this run 0 ");
    }
  }

  @Test
  void call_resumeWithFlags_limitsAppliedSeedsScopeAndOutputRefused() throws Exception {
    try (SmallWeb web = new SmallWeb(2, 0)) {
      Path out = tmp.resolve("out");
      CapturedRun first = run("--out", out.toString(), "--allow-private", "--scope", "any", "--allow-domain", "test",
          "--delay", "10ms", "--progress", "off", "--max-pages", "2",
          "--dns", "127.0.0.1:" + web.dns.address().getPort(), web.url("a.test", "/p0"));
      assertThat(first.code()).as(first.err()).isZero();
      assertThat(pages(out)).isEqualTo(2);

      CapturedRun refused = run("--resume", out.toString(), "--scope", "host", "--max-pages", "100", "--out",
          tmp.resolve("elsewhere").toString(), web.url("b.test", "/p0"));
      assertUsageError(refused, "--resume continues a crawl with its own URL, --scope, --out;");
      assertThat(pages(out)).as("a refused resume fetches nothing").isEqualTo(2);

      CapturedRun resumed = run("--resume", out.toString(), "--max-pages", "100", "--delay", "1ms");
      assertThat(resumed.code()).as(resumed.err()).isZero();
      assertThat(pages(out)).as("the new --max-pages applies").isEqualTo(6);
    }
  }

  private static long pages(Path out) throws Exception {
    return io.krill.crawler.CrawlOutput.jsonl(out).stream().filter(l -> l.kind().equals("page") && l.status() == 200)
        .count();
  }

  @Test
  void call_demoWithoutADemoWeb_exit2() {
    assertUsageError(run("--demo", "--out", tmp.resolve("d").toString()), "--demo: no demo web");
  }

  @Test
  void help_listsEveryFlagWithItsDefault() {
    String usage = new CrawlCommand().commandLine().getUsageMessage();
    for (String flag : List.of("--mode", "--threads", "--naive", "--order", "--scope", "--max-depth", "--max-pages",
        "--max-bytes", "--max-duration", "--delay", "--per-host", "--per-ip", "--max-crawl-delay", "--insecure",
        "--allow-private", "--resume", "--metrics-port", "--seeds", "--fsync", "--seen-memory", "--bloom-fpp")) {
      assertThat(usage).contains(flag);
    }
    assertThat(usage).contains("default: bfs", "default: 10000", "default: 1s", "default: 1GiB", "--no-sitemaps");
  }
}
