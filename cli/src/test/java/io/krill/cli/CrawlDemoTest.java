package io.krill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.testkit.CapturedRun;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class CrawlDemoTest {
  @TempDir
  Path tmp;


  @Test
  void demo_crawlsTheSyntheticWebAndReportsItsGroundTruth() {
    Path out = tmp.resolve("demo");
    CapturedRun r = Console.crawl("--demo", "--max-pages", "15", "--progress", "off", "--out", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).contains("krill crawl --demo: synthetic web of 20 hosts");
    assertThat(r.out()).startsWith("crawl max-pages").contains("15 pages").contains("ground truth (depth 8)")
        .containsPattern("checked against the web's access log: fetched \\d+ of \\d+ \\(not http://");
    assertThat(Files.exists(out.resolve("crawl.jsonl"))).isTrue();
  }

  @Test
  void demo_stoppedByALimit_resumesAgainstTheSameWeb() throws Exception {
    Path out = tmp.resolve("demo");
    CapturedRun first = Console.crawl("--demo", "--max-pages", "10", "--progress", "off", "--out", out.toString());
    assertThat(first.code()).as(first.err()).isZero();
    assertThat(first.err()).contains("krill crawl: max-pages; to continue: krill crawl --resume " + out);
    // --demo may be repeated with --resume (the saved arguments hold it anyway)
    CapturedRun resumed = Console.crawl("--demo", "--resume", out.toString(), "--max-pages", "25", "--progress", "off");
    assertThat(resumed.code()).as(resumed.err()).isZero();
    assertThat(resumed.err()).contains("krill crawl --demo: synthetic web of 20 hosts").contains("resuming " + out);
    // the journal's URLs name the first web's port: the same web answers them (no connection errors)
    java.util.regex.Matcher all = java.util.regex.Pattern.compile("(\\d+) pages in all, this run (\\d+) ").matcher(resumed.out());
    assertThat(all.find()).as(resumed.out()).isTrue();
    java.util.regex.Matcher before = java.util.regex.Pattern.compile(": (\\d+) pages ").matcher(first.out());
    assertThat(before.find()).as(first.out()).isTrue();
    assertThat(Long.parseLong(all.group(1))).isEqualTo(Long.parseLong(before.group(1)) + Long.parseLong(all.group(2)));
    assertThat(Long.parseLong(all.group(2))).isPositive(); // at most --max-pages 25: some dispatched work is not a page
    assertThat(resumed.out()).contains("ground truth (depth 8)");
    assertThat(Files.readString(out.resolve("summary.json"))).contains("\"this_run\"");
  }

  @Test
  @Timeout(300)
  void demoWithNodes_childNodesOneKilledWithSigkillOthersTakeOver_groundTruthAtTheEnd() {
    Path out = tmp.resolve("nodes");
    CapturedRun r = Console.crawl("--demo", "--nodes", "3", "--out", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).contains("a Kafka broker on 127.0.0.1:").contains("3 nodes crawling into")
        .contains("with SIGKILL after ");
    // a surviving node takes partitions after the kill
    String afterKill = r.err().substring(r.err().indexOf("with SIGKILL after "));
    assertThat(afterKill).contains("took partitions");
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(
        "cluster: 3 nodes \\(1 killed part-way\\) requested (\\d+) distinct URLs from the web").matcher(r.out());
    assertThat(m.find()).as(r.out()).isTrue();
    java.util.regex.Matcher truth = java.util.regex.Pattern.compile("ground truth \\(depth 8\\): (\\d+) URLs to fetch")
        .matcher(r.out());
    assertThat(truth.find()).as(r.out()).isTrue();
    assertThat(Long.parseLong(m.group(1))).isGreaterThanOrEqualTo(Long.parseLong(truth.group(1)));
    // the web saw every expected URL requested (a fetch in flight at the kill may be answered twice)
    assertThat(r.out()).contains("checked against the web's access log: fetched all " + truth.group(1));
  }

  @Test
  void demo_withSeeds_oneLineAndStatus2() {
    CapturedRun r = Console.crawl("--demo", "--out", tmp.resolve("d").toString(), "http://a.test/");
    assertThat(r.code()).isEqualTo(2);
    assertThat((r.err()).lines().count()).isEqualTo(1);
    assertThat(r.err()).startsWith("krill crawl: ").contains("give no seed URLs");
  }

  @Test
  void krill_crawlUsageErrors_nameTheFlagAsTypedAndTheSubcommandsHelp() {
    PrintStream err = System.err;
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
    int[] codes;
    try {
      codes = new int[] {Krill.run("crawl", "--max-pages", "0", "http://a.test/"), Krill.run("testweb", "--hosts", "0")};
    } finally {
      System.setErr(err);
    }
    assertThat(codes).containsExactly(2, 2);
    assertThat(e.toString(StandardCharsets.UTF_8).lines()).containsExactly(
        "krill crawl: --max-pages: 0 (expected: > 0) (see krill crawl --help)",
        "krill testweb: --hosts: 0 (expected: 1..100000) (see krill testweb --help)");
  }
}
