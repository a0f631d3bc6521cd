package io.krill.fibers.corpus;

import static io.krill.fibers.corpus.Points.point;
import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.Suspendable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Records with suspendable methods, and indy string concatenation with operands on the stack. */
class RecordAndConcatTest {
  interface Shape {
    double area() throws Suspendable;
  }

  record Rect(long width, double height, String name) implements Shape {
    Rect {
      if (width < 0) {
        throw new IllegalArgumentException("width: " + width + " (expected: >= 0)");
      }
    }

    static Rect of(String name) throws Suspendable {
      return new Rect(point(2L), point(1.5), point(name));
    }

    @Override
    public double area() throws Suspendable {
      return point(width) * point(height);
    }

    Rect scaled(int k) throws Suspendable {
      return new Rect(width * point(k), height * k, name + point(k));
    }
  }

  record Holder<T>(T value) {
    <R> R map(LambdaTest.SuspendableFunction<T, R> f) throws Suspendable {
      return f.apply(point(value));
    }
  }

  static String records() throws Suspendable {
    Rect r = Rect.of("r");
    Shape s = r.scaled(3);
    Holder<Rect> h = new Holder<>(r);
    return r + "|" + s.area() + "|" + h.map(Rect::area) + "|" + r.equals(Rect.of("r")) + "|"
        + (r.hashCode() == point(new Rect(2L, 1.5, "r")).hashCode());
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void records_suspendingFactoryAndMethods_sameResult(Mode mode) {
    assertThat(mode.call(RecordAndConcatTest::records))
        .isEqualTo("Rect[width=2, height=1.5, name=r]|27.0|3.0|true|true");
  }

  static String concat(int x, int y, long z, double d, char c, Object o, String s) throws Suspendable {
    String a = "a" + x + point(y) + z;
    String b = s + c + d + point(o) + point(z) + x + (s == null) + point(c) + point(d);
    String e = "" + point(1) + point(2L) + point("3") + point(4.0f) + point(true) + point('6') + point((byte) 7);
    String nested = "<" + ("[" + point(s) + "]") + point(x + "" + y) + ">";
    return a + "|" + b + "|" + e + "|" + nested;
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void stringConcat_indyOperandsBelowCall_sameResult(Mode mode) {
    assertThat(mode.call(() -> concat(1, 2, 3L, 0.5, 'q', java.util.List.of(9), "s")))
        .isEqualTo("a123|sq0.5[9]31falseq0.5|1234.0true67|<[s]12>");
  }
}
