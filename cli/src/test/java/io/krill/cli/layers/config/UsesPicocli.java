package io.krill.cli.layers.config;

/** config reaching beyond the JDK and Typesafe Config. */
public final class UsesPicocli {
  /** @return a picocli type, which config must not use */
  public static Class<?> type() {
    return picocli.CommandLine.class;
  }
}
