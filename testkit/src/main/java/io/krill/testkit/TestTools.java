package io.krill.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Debian tools that tests drive ({@code nginx}, {@code wrk}, {@code nghttp}, {@code h2load},
 * {@code chromium}, {@code chromedriver}), installed on demand by the project's one installer,
 * {@code bin/install-test-tools.sh}.
 *
 * <p>The first {@link #require} in a JVM runs the installer once for every tool (it is
 * idempotent and fetches nothing when all are present); later calls reuse that run. A tool that
 * is still missing afterwards fails the calling test with the installer's output: a test that
 * needs a tool is never skipped. Thread-safe.
 */
public final class TestTools {
  /** How long the installer may run (a first Chromium install downloads ~150 MB). */
  private static final long INSTALL_TIMEOUT_MINUTES = 20;

  private static final List<String> KNOWN = List.of("nginx", "wrk", "nghttp", "h2load", "chromium", "chromedriver");

  private static String installerOutput;

  private TestTools() {}

  /**
   * Returns the executable of {@code tool}, installing the missing test tools first (once per
   * JVM). Blocks while the installer runs.
   *
   * @param tool one of {@code nginx}, {@code wrk}, {@code nghttp}, {@code h2load}, {@code chromium}
   *     (the real binary, {@code /usr/lib/chromium/chromium}) and {@code chromedriver}
   * @return the absolute path of the tool's executable
   * @throws IllegalArgumentException if {@code tool} is not one of those
   * @throws AssertionError if the tool is still missing after the installer ran; its message holds
   *     the installer's output
   */
  public static Path require(String tool) {
    if (!KNOWN.contains(tool)) {
      throw new IllegalArgumentException("tool: " + tool + " (expected: one of " + KNOWN + ")");
    }
    String output = installOnce();
    Path found = locate(tool);
    if (found == null) {
      throw new AssertionError("test tool '" + tool + "' is missing after bin/install-test-tools.sh ran; its output:\n"
          + output);
    }
    return found;
  }

  private static synchronized String installOnce() {
    if (installerOutput == null) {
      installerOutput = runInstaller();
    }
    return installerOutput;
  }

  private static String runInstaller() {
    Path script = findScript();
    if (script == null) {
      return "bin/install-test-tools.sh not found above " + Paths.get("").toAbsolutePath();
    }
    try {
      Process process = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true).start();
      process.getOutputStream().close();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Thread reader = new Thread(() -> copy(process.getInputStream(), out), "install-test-tools-output");
      reader.setDaemon(true);
      reader.start();
      if (!process.waitFor(INSTALL_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        reader.join(TimeUnit.SECONDS.toMillis(5));
        return out.toString(StandardCharsets.UTF_8) + "\n(stopped after " + INSTALL_TIMEOUT_MINUTES + " minutes)";
      }
      reader.join(TimeUnit.SECONDS.toMillis(5));
      return out.toString(StandardCharsets.UTF_8) + "\n(exit code " + process.exitValue() + ")";
    } catch (IOException e) {
      return "could not run " + script + ": " + e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted while running " + script;
    }
  }

  private static void copy(InputStream in, ByteArrayOutputStream out) {
    try (in) {
      in.transferTo(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The installer, found by walking up from the working directory (a module's or the root). */
  private static Path findScript() {
    for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path script = dir.resolve("bin").resolve("install-test-tools.sh");
      if (Files.isRegularFile(script)) {
        return script;
      }
    }
    return null;
  }

  /** Where the installer's checks look, so a tool it calls present is found here too. */
  private static Path locate(String tool) {
    switch (tool) {
      case "chromium":
        return executable(Paths.get("/usr/lib/chromium/chromium"));
      case "nginx":
        Path sbin = executable(Paths.get("/usr/sbin/nginx"));
        return sbin != null ? sbin : onPath(tool);
      default:
        return onPath(tool);
    }
  }

  private static Path onPath(String command) {
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (!dir.isEmpty()) {
        Path candidate = executable(Paths.get(dir, command));
        if (candidate != null) {
          return candidate;
        }
      }
    }
    return null;
  }

  private static Path executable(Path candidate) {
    return Files.isRegularFile(candidate) && Files.isExecutable(candidate) ? candidate.toAbsolutePath() : null;
  }
}
