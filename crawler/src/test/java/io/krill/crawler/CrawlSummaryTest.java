package io.krill.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class CrawlSummaryTest {
  @Test
  void toJson_fieldsInTheFileFormatsOrder() {
    CrawlSummary s = new CrawlSummary(3, 4, 1000, new TreeMap<>(Map.of(200, 2L, 404, 1L)), Map.of("dns \"x\"", 1L), 1,
        2.0, "done", "exact", "dns 1 lookups", 1, Path.of("out"), "fibers", 2);

    assertThat(s.toJson()).isEqualTo("{\"stopped_by\":\"done\",\"mode\":\"fibers\",\"pages\":3,\"requests\":4,\"bytes\":1000,"
        + "\"seconds\":2.0,\"pages_per_second\":1.5,\"statuses\":{\"200\":2,\"404\":1},\"errors\":{\"dns \\\"x\\\"\":1},"
        + "\"robots_disallowed\":1,\"seen_set\":\"exact\",\"dns\":\"dns 1 lookups\",\"peak_in_flight\":2,\"warc_files\":1,"
        + "\"out\":\"out\"}");
  }
}
