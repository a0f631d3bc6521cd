package io.krill.fibers.serial;

import io.krill.fibers.Continuation;
import io.krill.fibers.SuspendableRunnable;

/** Child-JVM half of the runtime verification test: runs a body and prints how its suspension ended. */
public final class VerifyMain {
  private VerifyMain() {}

  /**
   * Runs.
   *
   * @param args the body's class name
   * @throws Exception when the body cannot be created
   */
  public static void main(String[] args) throws Exception {
    SuspendableRunnable body = (SuspendableRunnable) Class.forName(args[0]).getConstructor().newInstance();
    Continuation c = new Continuation(body);
    try {
      c.run();
      System.out.println("suspended=" + c.isSuspended());
    } catch (IllegalStateException e) {
      System.out.println("refused: " + e.getMessage());
    }
  }
}
