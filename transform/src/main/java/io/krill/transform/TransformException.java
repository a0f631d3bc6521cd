package io.krill.transform;

import io.krill.transform.internal.WeaveFailure.Site;

/**
 * Weaving failed: a method breaks a rule of suspendable code, or its class could not be
 * analysed. Names the class, method, descriptor and source line, and says what to do.
 */
public final class TransformException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final Site site;

  /**
   * Creates the exception.
   *
   * @param className the internal name of the class, e.g. {@code com/example/Foo}
   * @param methodName the method's name, or null for a class-level failure
   * @param descriptor the method's descriptor, or null
   * @param line the source line, or -1 when unknown
   * @param reason what is wrong and what to do
   */
  public TransformException(String className, String methodName, String descriptor, int line, String reason) {
    this(new Site(className, methodName, descriptor, line, reason));
  }

  TransformException(Site site) {
    super(format(site.className(), site.methodName(), site.descriptor(), site.line(), site.reason()));
    this.site = site;
  }

  private static String format(String className, String methodName, String descriptor, int line, String reason) {
    StringBuilder sb = new StringBuilder();
    sb.append(className.replace('/', '.'));
    if (methodName != null) {
      sb.append('.').append(methodName).append(descriptor == null ? "" : descriptor);
    }
    if (line >= 0) {
      sb.append(" (line ").append(line).append(')');
    }
    return sb.append(": ").append(reason).toString();
  }

  /** @return the internal name of the class */
  public String className() {
    return site.className();
  }

  /** @return the method's name, or null */
  public String methodName() {
    return site.methodName();
  }

  /** @return the method's descriptor, or null */
  public String descriptor() {
    return site.descriptor();
  }

  /** @return the source line, or -1 when unknown */
  public int line() {
    return site.line();
  }

  /** @return what is wrong and what to do, without the location */
  public String reason() {
    return site.reason();
  }
}
