package io.krill.fibers.serial;

import io.krill.fibers.Continuation;
import java.io.ObjectInputStream;
import java.nio.file.Files;
import java.nio.file.Paths;

/** Second-JVM half of the serialization test: reads a suspended continuation, finishes it, prints the result. */
public final class ResumeMain {
  private ResumeMain() {}

  /**
   * Runs.
   *
   * @param args the file with the serialized {continuation, workload} pair
   * @throws Exception on any failure, which fails the calling test
   */
  public static void main(String[] args) throws Exception {
    Object[] pair;
    try (ObjectInputStream in = new ObjectInputStream(Files.newInputStream(Paths.get(args[0])))) {
      pair = (Object[]) in.readObject();
    }
    Continuation c = (Continuation) pair[0];
    int runs = 0;
    while (!c.isDone()) {
      c.run();
      runs++;
    }
    System.out.println("result=" + pair[1].getClass().getField("result").get(pair[1]) + " runs=" + runs);
  }
}
