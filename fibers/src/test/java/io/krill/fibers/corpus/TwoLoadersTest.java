package io.krill.fibers.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.Continuation;
import io.krill.fibers.SuspendableCallable;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One woven class defined by two class loaders runs as two interleaved continuations. */
class TwoLoadersTest {
  /** Defines {@link TwiceLoaded} itself from the woven class file; delegates everything else. */
  static final class ChildFirstLoader extends ClassLoader {
    private final byte[] bytes;

    ChildFirstLoader(byte[] bytes) {
      super("child-first", TwoLoadersTest.class.getClassLoader());
      this.bytes = bytes;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!TwiceLoaded.class.getName().equals(name)) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        return c != null ? c : defineClass(name, bytes, 0, bytes.length);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static SuspendableCallable<String> instance(ClassLoader loader, String name) throws Exception {
    Class<?> c = Class.forName(TwiceLoaded.class.getName(), true, loader);
    assertThat(c.getClassLoader()).isSameAs(loader);
    assertThat(c.getDeclaredField("$krill$woven")).isNotNull();
    return (SuspendableCallable<String>) c.getConstructor(String.class).newInstance(name);
  }

  @Test
  void twoLoaders_sameWovenClassInterleaved_independentFramesAndStatics() throws Exception {
    byte[] bytes;
    try (InputStream in = TwiceLoaded.class.getResourceAsStream("TwiceLoaded.class")) {
      bytes = in.readAllBytes();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    SuspendableCallable<String> a = instance(new ChildFirstLoader(bytes), "a");
    SuspendableCallable<String> b = instance(new ChildFirstLoader(bytes), "b");
    assertThat(a.getClass()).isNotSameAs(b.getClass());

    List<String> results = new ArrayList<>();
    Continuation ca = new Continuation(() -> results.add(call(a)));
    Continuation cb = new Continuation(() -> results.add(call(b)));
    int suspensions = 0;
    while (!ca.isDone() || !cb.isDone()) {
      for (Continuation c : List.of(ca, cb)) {
        if (!c.isDone()) {
          c.run();
          suspensions += c.isDone() ? 0 : 1;
        }
      }
    }
    // Each copy counts its own calls (1, 2, 3): step i returns i + i + calls * 10.
    assertThat(results).containsExactly("a102234#3", "b102234#3");
    assertThat(suspensions).isEqualTo(6);
    // And plain code in this loader sees a third, untouched copy of the statics.
    assertThat(TwiceLoaded.calls).isZero();
  }

  private static String call(SuspendableCallable<String> c) throws io.krill.fibers.Suspendable {
    try {
      return c.call();
    } catch (RuntimeException | io.krill.fibers.Suspendable e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
