package io.krill.fibers.serial;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.fibers.Continuation;
import io.krill.fibers.SuspendableRunnable;
import io.krill.transform.MemoryClassLoader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContinuationSerializationTest {
  private static final String SOURCE = String.join("\n",
      "package serialtest;",
      "import io.krill.fibers.*;",
      "public class Workload implements SuspendableRunnable, java.io.Serializable {",
      "  private static final long serialVersionUID = 1L;",
      "  public long result;",
      "  public void run() throws Suspendable {",
      "    long acc = 7;",
      "    String s = \"k\";",
      "    double[] weights = {0.5, 1.5};",
      "    for (int i = 0; i < 5; i++) {",
      "      acc = step(acc, i, weights[i % 2]);",
      "      s = s + i;",
      "    }",
      "    result = acc * 31 + s.hashCode();",
      "  }",
      "  static long step(long acc, int i, double w) throws Suspendable {",
      "    double d = acc * w;",
      "    Continuation.suspend();",
      "    return (long) d + i + STEP;",
      "  }",
      "  static final int STEP = STEP_VALUE;",
      "}");

  private static Map<String, byte[]> version(int step) {
    return ChildJvm.weave(ChildJvm.compile(Map.of("serialtest.Workload", SOURCE.replace("STEP_VALUE", Integer.toString(step)))));
  }

  private static Object newWorkload(ClassLoader loader) throws Exception {
    return loader.loadClass("serialtest.Workload").getConstructor().newInstance();
  }

  private static long result(Object workload) throws Exception {
    return workload.getClass().getField("result").getLong(workload);
  }

  private static long runUninterrupted(Map<String, byte[]> classes) throws Exception {
    Object w = newWorkload(new MemoryClassLoader(ContinuationSerializationTest.class.getClassLoader(), classes));
    Continuation c = new Continuation((SuspendableRunnable) w);
    while (!c.isDone()) {
      c.run();
    }
    return result(w);
  }

  /** Runs a fresh workload in its own loader until it has suspended twice, then serializes it. */
  private static byte[] suspendAndWrite(Map<String, byte[]> classes) throws Exception {
    Object w = newWorkload(new MemoryClassLoader(ContinuationSerializationTest.class.getClassLoader(), classes));
    Continuation c = new Continuation((SuspendableRunnable) w);
    c.run();
    c.run();
    assertThat(c.isSuspended()).isTrue();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(new Object[] {c, w});
    }
    return bytes.toByteArray();
  }

  private static Object[] read(byte[] bytes, ClassLoader loader) throws Exception {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes)) {
      @Override
      protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
        return Class.forName(desc.getName(), false, loader);
      }
    }) {
      return (Object[]) in.readObject();
    }
  }

  @Test
  void readObject_freshClassLoader_resumesToSameResult() throws Exception {
    Map<String, byte[]> v1 = version(1);
    long expected = runUninterrupted(v1);
    byte[] state = suspendAndWrite(v1);

    ClassLoader fresh = new MemoryClassLoader(getClass().getClassLoader(), v1);
    Object[] pair = read(state, fresh);
    assertThat(pair[1].getClass().getClassLoader()).isSameAs(fresh);
    Continuation c = (Continuation) pair[0];
    int runs = 0;
    while (!c.isDone()) {
      c.run();
      runs++;
    }
    assertThat(runs).isEqualTo(4);
    assertThat(result(pair[1])).isEqualTo(expected);
  }

  @Test
  void readObject_secondJvm_resumesToSameResult(@TempDir Path dir) throws Exception {
    Map<String, byte[]> v1 = version(1);
    long expected = runUninterrupted(v1);
    Path state = dir.resolve("state.bin");
    Files.write(state, suspendAndWrite(v1));
    ChildJvm.Ran ran = ChildJvm.run(dir.resolve("classes"), v1, List.of(), ResumeMain.class, state.toString());
    assertThat(ran.output()).isEqualTo("result=" + expected + " runs=4");
    assertThat(ran.exitValue()).isZero();
  }

  @Test
  void readObject_classChanged_refusedWithClearError() throws Exception {
    byte[] state = suspendAndWrite(version(1));
    ClassLoader changed = new MemoryClassLoader(getClass().getClassLoader(), version(2));
    assertThatThrownBy(() -> read(state, changed))
        .isInstanceOf(InvalidClassException.class)
        .hasMessageContaining("serialtest.Workload")
        .hasMessageContaining("changed since the continuation was suspended")
        .hasMessageContaining("refusing to resume");
  }

  @Test
  void writeObject_whileRunning_refused() {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    Continuation[] self = new Continuation[1];
    Exception[] failure = new Exception[1];
    self[0] = new Continuation(() -> {
      try (ObjectOutputStream out = new ObjectOutputStream(sink)) {
        out.writeObject(self[0]);
      } catch (IOException e) {
        failure[0] = e;
      }
    });
    self[0].run();
    assertThat(failure[0]).isInstanceOf(IOException.class).hasMessageContaining("running");
  }
}
