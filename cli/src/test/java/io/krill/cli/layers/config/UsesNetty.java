package io.krill.cli.layers.config;

/** config reaching beyond the JDK, Typesafe Config and picocli. */
public final class UsesNetty {
  /** @return a Netty type, which config must not use */
  public static Class<?> type() {
    return io.netty.buffer.ByteBuf.class;
  }
}
