package io.krill.fibers;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Looks up the {@link VarHandle} of a field for a {@code static final} constant, failing class
 * initialization if the field is missing. For library code (fibers, netio, httpd), not
 * application code.
 */
public final class VarHandles {
  private VarHandles() {}

  /**
   * @param lookup the owner class's lookup ({@code MethodHandles.lookup()} in it)
   * @param owner the class declaring the field
   * @param name the field's name
   * @param type the field's type
   * @return the handle of that field
   * @throws ExceptionInInitializerError if there is no such field
   */
  public static VarHandle field(MethodHandles.Lookup lookup, Class<?> owner, String name, Class<?> type) {
    try {
      return lookup.findVarHandle(owner, name, type);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }
}
