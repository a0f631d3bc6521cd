package io.krill.transform.internal;

/** The runtime names that woven code refers to; transform never imports the runtime. */
public final class Names {
  /** The marker exception. */
  public static final String SUSPENDABLE = "io/krill/fibers/Suspendable";
  /** The annotation on hand-written primitives that must not be woven. */
  public static final String PRIMITIVE_DESC = "Lio/krill/fibers/Primitive;";
  /** The frame store that woven code calls. */
  public static final String STACK = "io/krill/fibers/Stack";
  /** Its descriptor. */
  public static final String STACK_DESC = "L" + STACK + ";";
  /** The field that marks a woven class: "version|name+desc|...". */
  public static final String WOVEN_FIELD = "$krill$woven";

  private Names() {}
}
