package io.krill.cli.layers.netio;

/** A module's public class. */
public final class Api {
  /** @return a value of the internal package of the same module, which is allowed */
  public static int value() {
    return io.krill.cli.layers.netio.internal.Hidden.VALUE + 1;
  }
}
