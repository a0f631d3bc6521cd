package io.krill.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.krill.testweb.TestWeb;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code krill crawl --resume DIR --console …}: the whole crawl's numbers, and a token never on disk. */
@Timeout(300)
class ResumeConsoleTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern CONSOLE = Pattern.compile("console at (http://\\S+/) \\(control token: ([^)]+)\\)");
  private static final String SECRET = "s3cret-console-token";

  @TempDir
  Path tmp;

  @Test
  void resume_withConsole_countsEarlierRunsLikeSummaryJson_tokenNeverWrittenToDisk() throws Exception {
    try (TestWeb web = TestWeb.start(WebConsoleTest.smallWeb().build())) {
      Path out = tmp.resolve("out");
      List<String> first = new ArrayList<>(List.of("--out", out.toString(), "--dns", "127.0.0.1:"
          + web.dnsServer().getPort(), "--allow-private", "--scope", "any", "--max-depth", "8", "--delay", "20ms",
          "--per-host", "1", "--max-pages", "15", "--progress", "off", "--fsync", "never", "--console", "127.0.0.1:0",
          "--console-token", SECRET));
      first.addAll(web.seedUrls());
      CommandRun one = CommandRun.start(first);
      assertThat(one.code()).as(one.err::toString).isZero();
      assertThat(one.err.toString()).doesNotContain(SECRET)
          .contains("(control token: the one given with --console-token)");
      try (Stream<Path> files = Files.walk(out)) {
        for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
          assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)).as(f.toString()).doesNotContain(SECRET);
        }
      }
      long firstPages = JSON.readTree(Files.readString(out.resolve("summary.json"))).get("pages").asLong();
      assertThat(firstPages).isPositive();

      // the resume takes a new random token; the first run's is stale
      CommandRun two = CommandRun.start(List.of("--resume", out.toString(), "--console", "127.0.0.1:0", "--max-pages", "15",
          "--delay", "300ms"));
      Matcher m = two.await(CONSOLE);
      URI console = URI.create(m.group(1));
      String token = m.group(2);
      assertThat(token).isNotEqualTo(SECRET).doesNotContain(" ");
      assertThat(CommandRun.control(console, "pause", token)).isEqualTo(200);
      try (Tab tab = new Tab(console.getPort())) {
        tab.await(c -> c.get("paused").asBoolean() && c.get("inFlight").asInt() == 0);
        assertThat(CommandRun.control(console, "resume", SECRET)).isEqualTo(403);
        assertThat(tab.next().get("crawl").get("paused").asBoolean()).isTrue();
        assertThat(CommandRun.control(console, "resume", token)).isEqualTo(200);
        JsonNode end = tab.await(c -> !c.get("stoppedBy").isNull()).get("crawl");
        assertThat(two.code()).as(two.err::toString).isZero();
        JsonNode summary = JSON.readTree(Files.readString(out.resolve("summary.json")));
        assertThat(end.get("pages").asLong()).isEqualTo(summary.get("pages").asLong()).isGreaterThan(firstPages);
        assertThat(end.get("runPages").asLong()).isEqualTo(summary.get("this_run").get("pages").asLong())
            .isEqualTo(end.get("pages").asLong() - firstPages);
        assertThat(end.get("statuses")).isEqualTo(summary.get("statuses"));
        assertThat(end.get("errors")).isEqualTo(summary.get("errors"));
        assertThat(end.get("robotsDisallowed").asLong()).isEqualTo(summary.get("robots_disallowed").asLong());
      }
    }
  }
}
