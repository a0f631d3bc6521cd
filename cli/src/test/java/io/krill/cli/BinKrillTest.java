package io.krill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/krill before the jar exists, run in a copy of the launcher with a stand-in {@code mvn} on
 * the PATH: a usage error costs no build, the first-use build shows no raw escape codes, and
 * classes woven by another krill version are rebuilt clean once.
 */
@Timeout(60)
class BinKrillTest {
  private static final Path LAUNCHER = Path.of("..", "bin", "krill").toAbsolutePath().normalize();

  @TempDir
  Path root;
  private Path fakeBin;
  private String javaOpts;
  private String mallocArenaMax;
  private String glibcTunables;

  @BeforeEach
  void copyLauncher() throws IOException {
    Files.createDirectories(root.resolve("bin"));
    Files.copy(LAUNCHER, root.resolve("bin/krill"));
    fakeBin = Files.createDirectories(root.resolve("fake-bin"));
    // A Maven that, like Maven 3.8 with -B -q, prints colour resets, notes that it ran, and fails.
    Path mvn = fakeBin.resolve("mvn");
    Files.writeString(mvn, "#!/usr/bin/env bash\nprintf '\\033[0m\\033[0mmvn ran\\n'\ntouch \"" + root.resolve("mvn-ran")
        + "\"\nexit 1\n");
    Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private String[] run(String... args) throws IOException, InterruptedException {
    List<String> cmd = new java.util.ArrayList<>(List.of("bash", root.resolve("bin/krill").toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("PATH", fakeBin + ":" + System.getenv("PATH"));
    if (javaOpts != null) {
      pb.environment().put("KRILL_JAVA_OPTS", javaOpts);
    } else {
      pb.environment().remove("KRILL_JAVA_OPTS");
    }
    if (mallocArenaMax != null) {
      pb.environment().put("MALLOC_ARENA_MAX", mallocArenaMax);
    } else {
      pb.environment().remove("MALLOC_ARENA_MAX");
    }
    if (glibcTunables != null) {
      pb.environment().put("GLIBC_TUNABLES", glibcTunables);
    } else {
      pb.environment().remove("GLIBC_TUNABLES");
    }
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return new String[] {Integer.toString(p.exitValue()), out};
  }

  @Test
  void subcommandList_isTheLaunchersOwn() throws IOException {
    String line = Files.readAllLines(LAUNCHER).stream().filter(l -> l.startsWith("commands=")).findFirst().orElseThrow();
    List<String> listed = List.of(line.substring("commands=\"".length(), line.length() - 1).split(" "));
    assertThat(listed).containsExactlyInAnyOrderElementsOf(Krill.commandLine().getSubcommands().keySet());
  }

  @Test
  void unknownSubcommand_status2BeforeAnyBuild() throws Exception {
    String[] r = run("bogus");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[1]).contains("krill: Unmatched argument at index 0: 'bogus' (see krill --help)")
        .doesNotContain("building");
    assertThat(root.resolve("mvn-ran")).doesNotExist();
  }

  @Test
  void firstUseBuild_printsNoEscapeCodes_andKeepsMavensStatus() throws Exception {
    String[] r = run("demo");
    assertThat(root.resolve("mvn-ran")).exists();
    assertThat(r[1]).contains("krill: building").contains("mvn ran").doesNotContain("\u001b");
    assertThat(r[0]).isEqualTo("1");
  }

  @Test
  void buildMeetsClassesWovenByAnotherKrill_rebuildsCleanOnce() throws Exception {
    // A Maven whose plain build fails as the weaver does on a stale woven class, and whose clean build passes.
    Files.writeString(fakeBin.resolve("mvn"), "#!/usr/bin/env bash\n"
        + "if [ \"$*\" = \"${*/clean/}\" ]; then\n"
        + "  echo '[ERROR] app.Suspending: woven by another krill weaver (woven ABI 1, this weaver'\\''s is 2); rebuild clean (mvn clean)'\n"
        + "  exit 1\n"
        + "fi\n"
        + "touch \"" + root.resolve("clean-ran") + "\"\nexit 0\n");
    String[] r = run("demo");
    assertThat(root.resolve("clean-ran")).exists();
    assertThat(r[1]).contains("krill: building").contains("woven by another krill version; building clean")
        .doesNotContain("[ERROR]");
  }

  @Test
  void serve_jvmGivesMemoryBack_otherCommandsKeepTheJvmDefaults() throws Exception {
    fakeJava(true);
    assertThat(run("serve", "--port", "1")[1])
        .contains("java -Dkrill.fibers.track=true -XX:MinHeapFreeRatio=5 -XX:MaxHeapFreeRatio=10 -XX:G1HeapRegionSize=1m "
            + "-XX:G1PeriodicGCInterval=15000 -XX:TrimNativeHeapInterval=1000 -XX:+UseCompactObjectHeaders ")
        .endsWith("-jar " + root.resolve("cli/target/krill.jar") + " serve --port 1\n");
    assertThat(run("crawl", "x")[1]).doesNotContain("HeapFreeRatio").doesNotContain("G1PeriodicGCInterval").doesNotContain("G1HeapRegionSize")
        .doesNotContain("TrimNativeHeapInterval").doesNotContain("UseCompactObjectHeaders");
  }

  @Test
  void serve_cHeapInTwoArenasWithAFixedMmapThreshold_otherCommandsAndTheUsersOwnSettingsKeepTheirs() throws Exception {
    fakeJava(true);
    assertThat(run("serve")[1]).contains("malloc arenas 2 tunables glibc.malloc.mmap_threshold=131072\n");
    assertThat(run("crawl", "x")[1]).contains("malloc arenas unset tunables unset\n");
    mallocArenaMax = "8";
    glibcTunables = "glibc.malloc.trim_threshold=65536";
    assertThat(run("serve")[1]).contains("malloc arenas 8 tunables glibc.malloc.trim_threshold=65536\n");
  }

  @Test
  void serve_jvmWithoutCompactHeaders_startsWithTheTrimOnly() throws Exception {
    fakeJava(true, "UseCompactObjectHeaders"); // JDK 17 to 23, and 24 where the switch is experimental
    assertThat(run("serve")[1]).contains("-XX:TrimNativeHeapInterval=1000 -jar ").doesNotContain("CompactObjectHeaders");
  }

  @Test
  void serve_krillJavaOptsComeAfterTheServeFlags_soTheyOverrideThem() throws Exception {
    fakeJava(true);
    javaOpts = "-XX:G1PeriodicGCInterval=0 -XX:MaxHeapFreeRatio=70";
    String line = run("serve")[1];
    // The JVM takes the last of a repeated -XX option: the user's must follow the launcher's.
    assertThat(line.indexOf("-XX:G1PeriodicGCInterval=0")).isGreaterThan(line.indexOf("-XX:G1PeriodicGCInterval=15000"))
        .isGreaterThan(line.indexOf("-XX:TrimNativeHeapInterval=1000")).isGreaterThan(0);
    assertThat(line.indexOf("-XX:MaxHeapFreeRatio=70")).isGreaterThan(line.indexOf("-XX:MaxHeapFreeRatio=10"))
        .isLessThan(line.indexOf("-jar "));
  }

  @Test
  void serve_jvmWithoutTheTrimSwitch_startsWithoutIt() throws Exception {
    fakeJava(false, "UseCompactObjectHeaders");
    assertThat(run("serve")[1]).contains("-XX:MaxHeapFreeRatio=10").doesNotContain("TrimNativeHeapInterval")
        .doesNotContain("CompactObjectHeaders");
  }

  /*
   * A built jar (so no build runs) and a java that prints its malloc settings and how it was
   * started; an old one refuses the trim switch, and each of {@code refused} (a switch's name) too.
   */
  private void fakeJava(boolean knowsTrim, String... refused) throws IOException {
    Files.createDirectories(root.resolve("cli/target"));
    Files.writeString(root.resolve("cli/target/krill.jar"), "");
    Path java = fakeBin.resolve("java");
    StringBuilder refuse = new StringBuilder(knowsTrim ? "" : "[[ \" $* \" == *TrimNativeHeapInterval* ]] && exit 1\n");
    for (String r : refused) {
      refuse.append("[[ \" $* \" == *").append(r).append("* ]] && exit 1\n");
    }
    Files.writeString(java, "#!/usr/bin/env bash\n" + refuse + "echo \"malloc arenas ${MALLOC_ARENA_MAX:-unset} tunables ${GLIBC_TUNABLES:-unset}\"\necho \"java $*\"\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @Test
  void buildFailsForAnotherReason_showsMavensOutput_noCleanBuild() throws Exception {
    String[] r = run("demo");
    assertThat(r[1]).contains("mvn ran").doesNotContain("building clean");
    assertThat(r[0]).isEqualTo("1");
  }
}
