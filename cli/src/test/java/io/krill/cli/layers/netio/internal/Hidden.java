package io.krill.cli.layers.netio.internal;

/** A module's internal class. */
public final class Hidden {
  public static final int VALUE = 1;

  /** @return a fresh instance */
  public static Hidden create() {
    return new Hidden();
  }
}
