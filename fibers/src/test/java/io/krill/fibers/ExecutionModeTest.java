package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ExecutionModeTest {
  @Test
  void parse_namesAndCrawlerWords_bothAccepted() {
    assertThat(ExecutionMode.parse("fiber")).isEqualTo(ExecutionMode.FIBER);
    assertThat(ExecutionMode.parse("Fibers")).isEqualTo(ExecutionMode.FIBER);
    assertThat(ExecutionMode.parse("threads")).isEqualTo(ExecutionMode.PLATFORM);
    assertThat(ExecutionMode.parse("PLATFORM")).isEqualTo(ExecutionMode.PLATFORM);
    assertThat(ExecutionMode.parse("virtual")).isEqualTo(ExecutionMode.VIRTUAL);
  }

  @Test
  void parse_unknown_namesTheAcceptedWords() {
    assertThatThrownBy(() -> ExecutionMode.parse("green"))
        .hasMessage("mode: green (expected: fiber, virtual or platform (or fibers, threads))");
  }

  @Test
  void alias_isTheCrawlersWord() {
    assertThat(ExecutionMode.PLATFORM.alias()).isEqualTo("threads");
    assertThat(ExecutionMode.FIBER.alias()).isEqualTo("fibers");
  }

  @Test
  void virtualThreads_availableExactlyOnJdk21Plus() throws Exception {
    assertThat(VirtualThreads.available()).isEqualTo(Runtime.version().feature() >= 21);
    if (!VirtualThreads.available()) {
      assertThatThrownBy(() -> VirtualThreads.start(() -> {})).isInstanceOf(UnsupportedOperationException.class)
          .hasMessageStartingWith("needs JDK 21+");
      return;
    }
    boolean[] ran = new boolean[1];
    VirtualThreads.start(() -> ran[0] = true).join();
    assertThat(ran[0]).isTrue();
  }
}
