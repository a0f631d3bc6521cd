package io.krill.transform.internal;

/**
 * A class broke a rule of suspendable code or could not be analysed. The public facade turns it
 * into a {@code TransformException} carrying the same fields, so that this package depends on
 * nothing above it.
 */
public final class WeaveFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String className;
  private final String methodName;
  private final String descriptor;
  private final int line;
  private final String reason;

  WeaveFailure(String className, String methodName, String descriptor, int line, String reason) {
    super(reason);
    this.className = className;
    this.methodName = methodName;
    this.descriptor = descriptor;
    this.line = line;
    this.reason = reason;
  }

  /** @return the internal name of the class */
  public String className() {
    return className;
  }

  /** @return the method's name, or null for a class-level failure */
  public String methodName() {
    return methodName;
  }

  /** @return the method's descriptor, or null */
  public String descriptor() {
    return descriptor;
  }

  /** @return the source line, or -1 when unknown */
  public int line() {
    return line;
  }

  /** @return what is wrong and what to do */
  public String reason() {
    return reason;
  }
}
