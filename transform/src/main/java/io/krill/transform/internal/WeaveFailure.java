package io.krill.transform.internal;

/**
 * A class broke a rule of suspendable code or could not be analysed. The public facade turns it
 * into a {@code TransformException} with the same {@link Site}, so that this package depends on
 * nothing above it.
 */
public final class WeaveFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Where weaving failed and why.
   *
   * @param className the internal name of the class, e.g. {@code com/example/Foo}
   * @param methodName the method's name, or null for a class-level failure
   * @param descriptor the method's descriptor, or null
   * @param line the source line, or -1 when unknown
   * @param reason what is wrong and what to do
   */
  public record Site(String className, String methodName, String descriptor, int line, String reason)
      implements java.io.Serializable {}

  private final Site site;

  WeaveFailure(String className, String methodName, String descriptor, int line, String reason) {
    super(reason);
    this.site = new Site(className, methodName, descriptor, line, reason);
  }

  /** @return where weaving failed and why */
  public Site site() {
    return site;
  }
}
