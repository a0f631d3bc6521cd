package io.krill.fibers.corpus;

import static io.krill.fibers.corpus.Points.point;
import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.Suspendable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Locals of every kind survive a suspension: wide, null-typed, uninitialized, reused slots. */
class LocalsTest {
  static long wideLocals(long a, double b, int c) throws Suspendable {
    long x = a * 3;
    double y = b / 2;
    float f = 1.25f;
    long big = Long.MIN_VALUE + 7;
    double nan = Double.NaN;
    double negZero = -0.0;
    point();
    long z = x + point(a) + (long) (y * point(b));
    double w = point(y) + f;
    return z + (long) w + big - Long.MIN_VALUE + (Double.isNaN(nan) ? 1 : 0) + (1 / negZero < 0 ? 10 : 0) + c;
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void wideLocals_longDoubleFloatAcrossSuspension_preservedBitExact(Mode mode) {
    // x = 30, y = 1.5, z = 30 + 10 + (long) 4.5 = 44, w = 2.75
    assertThat(mode.call(() -> wideLocals(10L, 3.0, 4))).isEqualTo(44L + 2 + 7 + 1 + 10 + 4);
  }

  static double wideArguments(long a, double b, long c, int d, double e) throws Suspendable {
    return wideReturn(point(a), b, point(c), d) + point(e) + wideDouble(a, point(b));
  }

  static long wideReturn(long a, double b, long c, int d) throws Suspendable {
    point();
    return a + (long) b + c + d;
  }

  static double wideDouble(long a, double b) throws Suspendable {
    double r = point(b) * a;
    return r;
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void wideArguments_passedAndReturnedThroughSuspendingFrames_sameResult(Mode mode) {
    long big = 1L << 40;
    assertThat(mode.call(() -> wideArguments(big, 2.5, -big + 1, 3, 0.125)))
        .isEqualTo((double) (big + 2 - big + 1 + 3) + 0.125 + 2.5 * big);
  }

  static String nullLocals() throws Suspendable {
    String s = null;
    Object o = null;
    int[] arr = null;
    point();
    String last = null;
    for (int i = 0; i < 3; i++) {
      int v = point(i);
      last = last == null ? "v" + v : last + v; // null on the first pass, a String afterwards
    }
    return s + "," + o + "," + arr + "," + last;
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void nullLocals_nullTypedAcrossSuspension_stayNull(Mode mode) {
    assertThat(mode.call(LocalsTest::nullLocals)).isEqualTo("null,null,null,v012");
  }

  static int uninitializedLocals(boolean flag) throws Suspendable {
    int x;
    long y;
    String s;
    if (flag) {
      x = point(1);
    } else {
      x = 2;
    }
    point(); // y and s are not yet assigned here
    y = point(3L) + x;
    s = point("s" + y);
    int z;
    switch (x) {
      case 1:
        z = point(10);
        break;
      default:
        z = 20;
    }
    return s.length() * 100 + (int) y + z;
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void uninitializedLocals_assignedAfterSuspension_sameResult(Mode mode) {
    assertThat(mode.call(() -> uninitializedLocals(true))).isEqualTo(200 + 4 + 10);
    assertThat(mode.call(() -> uninitializedLocals(false))).isEqualTo(200 + 5 + 20);
  }

  static String reusedSlots() throws Suspendable {
    StringBuilder out = new StringBuilder();
    {
      long wide = point(5L);
      out.append(wide);
    }
    {
      int a = point(1);
      int b = point(2); // a and b reuse the two halves of wide's slot
      out.append(a + b);
    }
    {
      String t = point("t");
      double d = point(0.5);
      out.append(t).append(d);
    }
    return out.toString();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void reusedSlots_differentTypesInOneSlot_restoredWithTheRightType(Mode mode) {
    assertThat(mode.call(LocalsTest::reusedSlots)).isEqualTo("53t0.5");
  }

  static int parameterWrites(int p, long q, String r) throws Suspendable {
    p = p * 2;
    q += 1;
    r = r + "!";
    point();
    return p + (int) q + r.length();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void parameters_reassignedBeforeSuspension_keepNewValues(Mode mode) {
    assertThat(mode.call(() -> parameterWrites(3, 4L, "ab"))).isEqualTo(6 + 5 + 3);
  }

  static int mergedTypes(boolean flag) throws Suspendable {
    CharSequence cs = flag ? "string" : new StringBuilder("builder!");
    Object[] arr = flag ? new String[] {"a"} : new Integer[] {1, 2};
    Number n = flag ? Integer.valueOf(3) : Long.valueOf(4L);
    point();
    return cs.length() * 100 + arr.length * 10 + point(n).intValue();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void mergedTypes_interfaceAndArrayLocals_restoredAndUsable(Mode mode) {
    assertThat(mode.call(() -> mergedTypes(true))).isEqualTo(600 + 10 + 3);
    assertThat(mode.call(() -> mergedTypes(false))).isEqualTo(800 + 20 + 4);
  }

  int field = 7;

  int instanceLocals(int k) throws Suspendable {
    int before = field;
    field = point(field + k);
    LocalsTest other = this;
    point();
    return before * 100 + other.field + point(this).field;
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void thisAndInstanceState_acrossSuspension_sameObject(Mode mode) {
    LocalsTest t = new LocalsTest();
    assertThat(mode.call(() -> t.instanceLocals(3))).isEqualTo(700 + 10 + 10);
    assertThat(t.field).isEqualTo(10);
  }
}
