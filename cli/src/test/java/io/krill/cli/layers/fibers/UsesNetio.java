package io.krill.cli.layers.fibers;

import io.krill.cli.layers.netio.Api;

/** The upward dependency: fibers sits below netio and uses it. */
public final class UsesNetio {
  /** @return netio's value */
  public static int value() {
    return Api.value();
  }
}
