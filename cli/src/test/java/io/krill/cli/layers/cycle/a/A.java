package io.krill.cli.layers.cycle.a;

/** One half of a package cycle. */
public final class A {
  /** @return the other half */
  public static Object other() {
    return new io.krill.cli.layers.cycle.b.B();
  }
}
