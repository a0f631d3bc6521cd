package io.krill.cli.layers.httpd;

import io.krill.cli.layers.netio.internal.Hidden;

/** The forbidden import: httpd reaches into netio's internal package. */
public final class UsesNetioInternal {
  /** @return what it should not have */
  public static Object hidden() {
    return Hidden.create();
  }
}
