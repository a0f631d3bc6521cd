package io.krill.cli.layers.cycle.b;

/** The other half of a package cycle. */
public final class B {
  /** @return the first half */
  public Object first() {
    return io.krill.cli.layers.cycle.a.A.class;
  }
}
