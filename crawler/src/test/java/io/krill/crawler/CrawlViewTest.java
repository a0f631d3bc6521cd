package io.krill.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CrawlViewTest {
  @TempDir
  Path tmp;

  @Test
  void view_beforeRun_hasEmptyNumbersAndTakesControls() {
    Crawler c = Crawler.create(CrawlConfig.builder().out(tmp.resolve("out")).seed("http://127.0.0.1:9/").maxPages(7).build());
    CrawlView v = c.view();
    CrawlView.Snapshot s = v.snapshot(10);
    assertThat(s.pages()).isZero();
    assertThat(s.hosts()).isEmpty();
    assertThat(s.nodes()).isEmpty();
    assertThat(s.ownership()).isEmpty();
    assertThat(s.maxPages()).isEqualTo(7);
    assertThat(s.stoppedBy()).isNull();
    assertThat(v.recent(false)).isEmpty();
    v.pause();
    assertThat(v.snapshot(0).paused()).isTrue();
    v.resume();
    assertThat(v.snapshot(0).paused()).isFalse();
    assertThat(v.addSeeds(List.of("http://a.test/x", "ftp://a.test/", "not a url", " https://b.test/ "))).isEqualTo(2);
  }

  @Test
  void recentOutput_keepsTheLastLinesNumberedFromTheFilesEnd_andErrorsApart() {
    RecentOutput r = new RecentOutput(1000);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < RecentOutput.CAPACITY + 5; i++) {
      lines.add(i % 10 == 0 ? "{\"url\":\"u" + i + "\",\"error\":\"dns: no\"}" : "{\"url\":\"u" + i + "\",\"error\":null}");
    }
    r.add(lines.subList(0, 3), "crawl-00000.warc.gz", 42);
    r.add(lines.subList(3, lines.size()), null, -1);
    List<CrawlView.Written> all = r.window(false);
    assertThat(all).hasSize(RecentOutput.CAPACITY);
    assertThat(all.get(all.size() - 1).line()).isEqualTo(1000 + lines.size());
    assertThat(all.get(all.size() - 1).json()).isEqualTo(lines.get(lines.size() - 1));
    assertThat(all.get(0).line()).isEqualTo(1000 + lines.size() - RecentOutput.CAPACITY + 1);
    List<CrawlView.Written> errors = r.window(true);
    assertThat(errors).hasSize(11).allSatisfy(w -> assertThat(w.error()).isTrue());
    assertThat(errors.get(0).warcFile()).isEqualTo("crawl-00000.warc.gz");
    assertThat(errors.get(0).warcOffset()).isEqualTo(42);
    assertThat(errors.get(1).warcOffset()).isEqualTo(-1);
  }
}
