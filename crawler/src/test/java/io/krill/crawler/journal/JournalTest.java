package io.krill.crawler.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.crawler.frontier.CrawlUrl;
import io.krill.crawler.output.WarcOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalTest {
  @TempDir
  Path dir;

  private static CrawlUrl url(long seq, String u) {
    return new CrawlUrl(u, 1, "http://a.test/", 0, seq);
  }

  @Test
  void replay_commits_pendingAreQueuedMinusCompleted() throws IOException {
    try (Journal j = new Journal(dir)) {
      j.commit(List.of(url(1, "http://a.test/1"), url(2, "http://a.test/2")), List.of(), new WarcOutput.Position("crawl-00000.warc.gz", 100), 0);
      j.commit(List.of(url(3, "http://a.test/3")), List.of("http://a.test/1"), new WarcOutput.Position("crawl-00000.warc.gz", 250), 80);
    }
    Journal.Replay r = Journal.replay(dir);
    assertThat(r.pending()).extracting(CrawlUrl::url).containsExactly("http://a.test/2", "http://a.test/3");
    assertThat(r.completed()).containsExactly("http://a.test/1");
    assertThat(r.warc()).isEqualTo(new WarcOutput.Position("crawl-00000.warc.gz", 250));
    assertThat(r.jsonlEnd()).isEqualTo(80);
    assertThat(r.lastSeq()).isEqualTo(3);
  }

  @Test
  void replay_depthLowered_keepsPlaceAndLowerDepth_completedStaysDone() throws IOException {
    try (Journal j = new Journal(dir)) {
      j.commit(List.of(new CrawlUrl("http://a.test/t", 4, "http://a.test/c3", 0, 1), url(2, "http://a.test/2"),
          url(3, "http://a.test/3")), List.of(), new WarcOutput.Position("crawl-00000.warc.gz", 10), 0);
      j.commit(List.of(), List.of("http://a.test/3"), new WarcOutput.Position("crawl-00000.warc.gz", 20), 5);
      j.commit(List.of(new CrawlUrl("http://a.test/t", 2, "http://c.test/x", 0, 1),
          new CrawlUrl("http://a.test/3", 0, "http://c.test/x", 0, 3)), List.of(),
          new WarcOutput.Position("crawl-00000.warc.gz", 30), 9);
    }
    Journal.Replay r = Journal.replay(dir);
    assertThat(r.pending()).containsExactly(new CrawlUrl("http://a.test/t", 2, "http://c.test/x", 0, 1),
        url(2, "http://a.test/2"));
    assertThat(r.completed()).containsExactly("http://a.test/3");
  }

  @Test
  void replay_partialLastLine_ignoredAndCutOnOpen() throws IOException {
    try (Journal j = new Journal(dir)) {
      j.commit(List.of(url(1, "http://a.test/1")), List.of(), new WarcOutput.Position("crawl-00000.warc.gz", 10), 5);
    }
    Path f = dir.resolve(Journal.FILE);
    Files.write(f, "C\thttp://a.test/1\nW\tcrawl-00000.warc.gz\t99".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
    Journal.Replay r = Journal.replay(dir);
    assertThat(r.completed()).containsExactly("http://a.test/1");
    assertThat(r.warc().end()).isEqualTo(10);
    try (Journal j = new Journal(dir)) {
      j.commit(List.of(), List.of(), new WarcOutput.Position("crawl-00000.warc.gz", 20), 7);
    }
    assertThat(Files.readString(f)).doesNotContain("\t99").endsWith("W\tcrawl-00000.warc.gz\t20\t7\n");
  }

  @Test
  void checkpoint_rewritesCompactlyWithSameReplay() throws IOException {
    try (Journal j = new Journal(dir)) {
      for (int i = 0; i < 50; i++) {
        j.commit(List.of(url(i + 1, "http://a.test/" + i)), i > 0 ? List.of("http://a.test/" + (i - 1)) : List.of(),
            new WarcOutput.Position("crawl-00000.warc.gz", i), i);
      }
      Journal.Replay before = Journal.replay(dir);
      j.checkpoint(before.completed(), before.pending(), before.warc(), before.jsonlEnd());
      assertThat(j.linesSinceCheckpoint()).isZero();
      Journal.Replay after = Journal.replay(dir);
      assertThat(after.completed()).isEqualTo(before.completed());
      assertThat(after.pending()).isEqualTo(before.pending());
      assertThat(after.warc()).isEqualTo(before.warc());
      assertThat(Files.readAllLines(dir.resolve(Journal.FILE))).hasSize(49 + 1 + 1);
      j.commit(List.of(), List.of("http://a.test/49"), new WarcOutput.Position("crawl-00000.warc.gz", 60), 60);
    }
    assertThat(Journal.replay(dir).pending()).isEmpty();
  }

  @Test
  void replay_unknownRecord_namesFileAndLine() throws IOException {
    Files.writeString(dir.resolve(Journal.FILE), "X\tnonsense\n");
    assertThatThrownBy(() -> Journal.replay(dir)).isInstanceOf(IOException.class).hasMessageContaining(":1: unknown record type X");
  }
}
