package io.krill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.crawler.journal.Journal;
import io.krill.testkit.CapturedRun;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code krill crawl --console}: started with the crawl, and its usage errors. */
@Timeout(120)
class CrawlConsoleCliTest {
  @TempDir
  Path tmp;


  @Test
  void console_withDemo_printsItsAddressAndTokenAndTheCrawlRuns() {
    CapturedRun r = Console.crawl("--demo", "--max-pages", "10", "--progress", "off", "--out", tmp.resolve("d").toString(),
        "--console", "127.0.0.1:0");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).containsPattern("krill crawl: console at http://127\\.0\\.0\\.1:\\d+/ \\(control token: \\S{16,}\\)");
    assertThat(r.out()).contains("10 pages");
  }

  @Test
  void console_nonLoopbackWithoutToken_oneLineAndStatus2() {
    CapturedRun r = Console.crawl("--console", "0.0.0.0:0", "--out", tmp.resolve("d").toString(), "http://127.0.0.1:9/");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err().lines()).containsExactly("krill crawl: --console 0.0.0.0:0: a console on the non-loopback "
        + "address 0.0.0.0 needs an explicit token (--console-token) (see krill crawl --help)");
  }

  @Test
  void console_onAUsedPort_oneLineAndStatus2() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String where = "127.0.0.1:" + taken.getLocalPort();
      CapturedRun r = Console.crawl("--console", where, "--out", tmp.resolve("d").toString(), "http://127.0.0.1:9/");
      assertThat(r.code()).isEqualTo(2);
      assertThat(r.err().lines()).hasSize(1);
      assertThat(r.err()).startsWith("krill crawl: --console " + where + ": ");
      // refused before the crawl starts: nothing fetched, nothing journaled, the same command may run again
      assertThat(tmp.resolve("d").resolve(Journal.FILE)).doesNotExist();
      assertThat(tmp.resolve("d").resolve("crawl.jsonl")).doesNotExist();
    }
  }
}
