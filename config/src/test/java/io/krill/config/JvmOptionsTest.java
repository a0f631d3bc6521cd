package io.krill.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The options krill gives the JVMs it starts: which JDKs get which, and that a JDK accepts them. */
class JvmOptionsTest {
  @Test
  void forJdk_beforeTheNettyOptions_onlyNativeAccess() {
    assertThat(JvmOptions.forJdk(17)).containsExactly("--enable-native-access=ALL-UNNAMED");
    assertThat(JvmOptions.forJdk(22)).containsExactly("--enable-native-access=ALL-UNNAMED");
  }

  @Test
  void forJdk_fromTheNettyOptionsOn_unsafeAndTheSelectorsKeySetToo() {
    List<String> expected = List.of("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
        "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "-Dio.netty.tryReflectionSetAccessible=true");
    assertThat(JvmOptions.forJdk(23)).isEqualTo(expected);
    assertThat(JvmOptions.forJdk(25)).isEqualTo(expected);
  }

  @Test
  void forJdk_unknownRelease_onlyWhatEveryJdkFromSeventeenAccepts() {
    assertThat(JvmOptions.forJdk(0)).containsExactly("--enable-native-access=ALL-UNNAMED");
  }

  @Test
  void javaCommand_startsAJvmOfThisJdkThatAcceptsTheOptionsAndWarnsOfNothing()
      throws IOException, InterruptedException {
    List<String> cmd = JvmOptions.javaCommand("-Xmx64m");
    assertThat(cmd.get(0)).endsWith("java");
    assertThat(cmd.subList(1, cmd.size() - 1)).isEqualTo(JvmOptions.forJdk(Runtime.version().feature()));
    assertThat(cmd.get(cmd.size() - 1)).isEqualTo("-Xmx64m");
    cmd.add("-version");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the child JVM ends").isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains(System.getProperty("java.specification.version")).doesNotContain("WARNING")
        .doesNotContainIgnoringCase("unrecognized");
  }
}
