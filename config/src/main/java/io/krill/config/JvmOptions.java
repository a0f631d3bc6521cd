package io.krill.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The JVM options krill runs every JVM with on a given JDK: the ones it starts (a cluster demo's
 * nodes, a broker, load-test servers and generators, benchmark forks) and, through the launcher,
 * its own.
 *
 * <ul>
 *   <li>{@code --enable-native-access=ALL-UNNAMED}: Netty loads its epoll transport with
 *       {@code System.loadLibrary}, a restricted method JDK 22+ warns about on every run
 *       otherwise (JDK 17 accepts the option).
 *   <li>On JDK 23+, {@code --sun-misc-unsafe-memory-access=allow},
 *       {@code --add-opens=java.base/sun.nio.ch=ALL-UNNAMED} and
 *       {@code -Dio.netty.tryReflectionSetAccessible=true}: without them Netty runs without
 *       {@code sun.misc.Unsafe} and without its selected-key set, and Kafka's buffer unmapping
 *       warns; with them krill runs as a tuned Netty deployment does, and as it is measured.
 * </ul>
 *
 * <p>{@code bin/krill} adds the same options (it reads the JDK's version from its release file;
 * the jar's manifest grants the native access).
 */
public final class JvmOptions {
  /** The first JDK that needs the Netty options: it runs without {@code sun.misc.Unsafe} unless allowed. */
  public static final int NETTY_OPTIONS_FROM = 23;

  private JvmOptions() {}

  /**
   * The options for a JVM of the given feature release.
   *
   * @param javaFeature the JDK's feature release (17, 21, 25 ...), or 0 when it is not known (a JDK
   *     without a release file): then only the option that every JDK krill runs on (17+) accepts
   * @return the options, unmodifiable
   */
  public static List<String> forJdk(int javaFeature) {
    List<String> o = new ArrayList<>();
    o.add("--enable-native-access=ALL-UNNAMED");
    if (javaFeature >= NETTY_OPTIONS_FROM) {
      o.add("--sun-misc-unsafe-memory-access=allow");
      o.add("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED");
      o.add("-Dio.netty.tryReflectionSetAccessible=true");
    }
    return Collections.unmodifiableList(o);
  }

  /**
   * The start of a command that runs another JVM of this one's JDK: its {@code java}, then
   * {@link #forJdk} of this JDK, then {@code options}.
   *
   * @param options further JVM options (a heap size, properties), in order
   * @return a new, modifiable list: append {@code -cp}, the main class and its arguments
   */
  public static List<String> javaCommand(String... options) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(forJdk(Runtime.version().feature()));
    cmd.addAll(List.of(options));
    return cmd;
  }
}
