package io.krill.cli.layers.netio;

import io.krill.cli.layers.httpd.UsesNetioInternal;

/** Closes a cycle between modules: netio uses httpd, which uses netio. */
public final class CallsBack {
  /** @return what httpd gives */
  public static Object call() {
    return UsesNetioInternal.hidden();
  }
}
