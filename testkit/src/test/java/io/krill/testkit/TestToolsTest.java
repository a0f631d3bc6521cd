package io.krill.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The installer runs and leaves a working tool behind; a name it does not know is refused. */
class TestToolsTest {
  @Test
  void require_nghttp_installedAndRuns() throws Exception {
    Path nghttp = TestTools.require("nghttp");
    assertThat(Files.isExecutable(nghttp)).isTrue();
    Process p = new ProcessBuilder(nghttp.toString(), "--version").redirectErrorStream(true).start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).contains("nghttp");
  }

  @Test
  void require_secondCall_samePathWithoutReinstalling() {
    assertThat(TestTools.require("wrk")).isEqualTo(TestTools.require("wrk"));
  }

  @Test
  void require_unknownTool_namesTheField() {
    assertThatThrownBy(() -> TestTools.require("lynx")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("tool: lynx (expected: one of [nginx");
  }
}
