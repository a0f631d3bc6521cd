package io.krill.fibers.corpus;

import static io.krill.fibers.corpus.Points.point;
import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.Suspendable;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Values on the operand stack below a suspendable call are saved and restored. */
class OperandStackTest {
  static String combine(int i, long l, double d, float f, String s, Object o, int p, char c, byte b, short sh,
      boolean z, int[] arr) {
    return i + "," + l + "," + d + "," + f + "," + s + "," + o + "," + p + "," + c + "," + b + "," + sh + "," + z
        + "," + Arrays.toString(arr);
  }

  static String mixedTypes(int i, long l, double d, float f, String s) throws Suspendable {
    Object o = new StringBuilder("sb");
    return combine(i, l, point(d), f, s, point(o), point(7), point('c'), point((byte) 3), point((short) 4),
        point(true), point(new int[] {i, 9}));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void mixedTypes_suspendBetweenArguments_sameResult(Mode mode) {
    String r = mode.call(() -> mixedTypes(1, 2L, 3.5, 4.25f, "s"));
    assertThat(r).isEqualTo("1,2,3.5,4.25,s,sb,7,c,3,4,true,[1, 9]");
  }

  static String constantsUnderCall() throws Suspendable {
    return combine(1, 2L, 3.0, 0.5f, "k", null, point(4), 'x', (byte) -1, (short) 300, false, null);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void constants_nullAndLiteralsBelowCall_restored(Mode mode) {
    assertThat(mode.call(OperandStackTest::constantsUnderCall)).isEqualTo("1,2,3.0,0.5,k,null,4,x,-1,300,false,null");
  }

  int counter = 10;
  long total = 100L;

  static int duplicates(int[] a, long[] la, int idx) throws Suspendable {
    a[idx] += point(5); // aload, iload, dup2, iaload below the call
    la[idx] += point(7L); // dup2 of array and index, laload below
    a[idx++] *= point(2);
    OperandStackTest self = new OperandStackTest();
    self.counter += point(3); // aload, dup, getfield below
    self.total -= point(50L);
    int x;
    int y = x = point(idx) + a[0];
    return a[0] * 1000 + (int) la[0] * 100 + self.counter + (int) self.total + x + y + idx;
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void duplicates_dupAndDup2BelowCall_restored(Mode mode) {
    int r = mode.call(() -> duplicates(new int[] {1, 2}, new long[] {1L, 2L}, 0));
    // a[0] = (1 + 5) * 2 = 12, la[0] = 8, counter = 13, total = 50, idx = 1, x = y = 1 + 12
    assertThat(r).isEqualTo(12 * 1000 + 8 * 100 + 13 + 50 + 13 + 13 + 1);
  }

  static int add(int a, int b) {
    return a * 10 + b;
  }

  static long nestedResults() throws Suspendable {
    int r = add(point(point(1)), point(add(point(2), 3)));
    long w = point(point(4L) + point(r));
    return w + point(add(point(1), point(2)) + add(3, point(4)));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void resultAsArgument_nestedSuspendingCalls_sameResult(Mode mode) {
    assertThat(mode.call(OperandStackTest::nestedResults)).isEqualTo(4L + 33 + 12 + 34);
  }

  record Pair(Object left, Object right) {}

  static final class Inner {
    final int value;
    final long wide;

    Inner(int value) {
      this(value, -1L);
    }

    Inner(int value, long wide) {
      this.value = value;
      this.wide = wide;
    }

    @Override
    public String toString() {
      return "Inner(" + value + "," + wide + ")";
    }
  }

  final class Member {
    final String text;

    Member(String text) {
      this.text = text;
    }

    @Override
    public String toString() {
      return "Member(" + text + "," + counter + ")";
    }
  }

  static String newWithSuspendingArguments(boolean flag) throws Suspendable {
    Pair a = new Pair(point("a"), point(2));
    Inner b = new Inner(point(3), point(4L));
    Pair c = new Pair(new Inner(point(5)), new Pair(new Inner(6, point(7L)), point("x")));
    Pair d = new Pair(flag ? point("t") : "f", new Inner(flag ? 8 : point(9)));
    Object[] e = new Object[] {point("e0"), new Inner(point(10)), null};
    OperandStackTest outer = new OperandStackTest();
    Member m = outer.new Member(point("m"));
    return a + "|" + b + "|" + c + "|" + d + "|" + Arrays.toString(e) + "|" + m;
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void newObject_suspendingConstructorArguments_constructedOnce(Mode mode) {
    String expected = "Pair[left=a, right=2]|Inner(3,4)|Pair[left=Inner(5,-1), right=Pair[left=Inner(6,7), right=x]]"
        + "|Pair[left=t, right=Inner(8,-1)]|[e0, Inner(10,-1), null]|Member(m,10)";
    assertThat(mode.call(() -> newWithSuspendingArguments(true))).isEqualTo(expected);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void newObject_suspendInOtherBranch_constructedOnce(Mode mode) {
    assertThat(mode.call(() -> newWithSuspendingArguments(false)))
        .startsWith("Pair[left=a, right=2]")
        .contains("|Pair[left=f, right=Inner(9,-1)]|");
  }

  static double arithmeticOnStack(int i, long l, float f, double d) throws Suspendable {
    double r = i * (l + point(l) * (f - point(f) + (d / point(d)))) + (i > 0 ? point(d) : -d);
    int[] arr = {point(1), point(2), i};
    long shifted = (l << point(2)) | (point(l) >>> 1);
    return r + arr[0] + arr[1] + arr[2] + shifted;
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void arithmetic_partialExpressionsOnStack_sameResult(Mode mode) {
    double expected = 3 * (5L + 5L * (1.5f - 1.5f + (2.5 / 2.5))) + 2.5 + 1 + 2 + 3 + ((5L << 2) | (5L >>> 1));
    assertThat(mode.call(() -> arithmeticOnStack(3, 5L, 1.5f, 2.5))).isEqualTo(expected);
  }
}
