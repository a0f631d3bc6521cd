package io.krill.fibers.corpus;

import static io.krill.fibers.corpus.Points.point;
import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.Suspendable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every kind of call instruction reaches a suspendable method and is re-entered on resume. */
class DispatchTest {
  interface Stepper {
    int step(int x) throws Suspendable;

    default int twice(int x) throws Suspendable {
      int once = step(x);
      return step(point(once));
    }

    private int privateHelper(int x) throws Suspendable {
      return point(x) * 3;
    }

    default int viaPrivate(int x) throws Suspendable {
      return privateHelper(x) + 1;
    }

    static int staticInInterface(Stepper s, int x) throws Suspendable {
      return s.step(point(x)) - 1;
    }
  }

  abstract static class Base implements Stepper {
    final String name;

    Base(String name) {
      this.name = name;
    }

    @Override
    public int step(int x) throws Suspendable {
      return point(x) + 1;
    }

    abstract long wide(long a, double b) throws Suspendable;
  }

  static final class Doubler extends Base {
    Doubler() {
      super("doubler");
    }

    @Override
    public int step(int x) throws Suspendable {
      int base = super.step(x); // invokespecial Base.step
      return point(base) * 2;
    }

    @Override
    long wide(long a, double b) throws Suspendable {
      return point(a) + (long) point(b);
    }
  }

  static final class Adder extends Base {
    Adder() {
      super("adder");
    }

    @Override
    long wide(long a, double b) throws Suspendable {
      return a - (long) point(b);
    }
  }

  static String calls(Base b, Stepper s, boolean pick) throws Suspendable {
    List<Object> out = new ArrayList<>();
    out.add(b.step(1)); // invokevirtual
    out.add(s.step(2)); // invokeinterface
    out.add(s.twice(3)); // default method
    out.add(s.viaPrivate(4)); // private interface method
    out.add(Stepper.staticInInterface(s, 5)); // static interface method
    out.add(b.wide(1L << 33, 2.5)); // long and double arguments through a virtual call
    Stepper merged = pick ? new Doubler() : new Adder(); // receiver typed by a merge of two classes
    out.add(merged.step(6));
    Stepper lambda = x -> point(x) - 100;
    Stepper either = pick ? lambda : s; // merge of two interface implementations
    out.add(either.step(7));
    return out.toString();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void virtualInterfaceDefaultSuper_suspendInCallee_sameResult(Mode mode) {
    assertThat(mode.call(() -> calls(new Doubler(), new Adder(), true)))
        .isEqualTo("[4, 3, 5, 13, 5, " + ((1L << 33) + 2) + ", 14, -93]");
    assertThat(mode.call(() -> calls(new Adder(), new Doubler(), false)))
        .isEqualTo("[2, 6, 18, 13, 11, " + ((1L << 33) - 2) + ", 7, 16]");
  }

  private int secret = 5;

  private int privateStep(int x) throws Suspendable {
    return point(x) + secret;
  }

  final class Nestmate {
    private long inner = 11;

    int callOuterPrivate(int x) throws Suspendable {
      return privateStep(point(x)) + (int) privateInner();
    }

    private long privateInner() throws Suspendable {
      return point(inner);
    }
  }

  static final class StaticNestmate {
    private static int hidden(DispatchTest outer, int x) throws Suspendable {
      return outer.privateStep(x) * 10;
    }
  }

  int nestmates(int x) throws Suspendable {
    Nestmate n = new Nestmate();
    return n.callOuterPrivate(x) + (int) n.privateInner() + StaticNestmate.hidden(this, point(x)) + privateStep(x);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void privateNestmates_callsAcrossNestMembers_sameResult(Mode mode) {
    DispatchTest t = new DispatchTest();
    assertThat(mode.call(() -> t.nestmates(2))).isEqualTo((7 + 11) + 11 + 70 + 7);
  }

  enum Op {
    ADD {
      @Override
      long apply(long a, long b) throws Suspendable {
        return point(a) + b;
      }
    },
    MUL {
      @Override
      long apply(long a, long b) throws Suspendable {
        long r = a * point(b);
        return r;
      }
    };

    abstract long apply(long a, long b) throws Suspendable;

    long twice(long a) throws Suspendable {
      return apply(apply(a, a), point(a));
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void enumConstantBodies_abstractMethodPerConstant_sameResult(Mode mode) {
    assertThat(mode.call(() -> Op.ADD.twice(3) * 1000 + Op.MUL.twice(3))).isEqualTo(9 * 1000 + 27L);
  }

  interface Source<T> {
    T next() throws Suspendable;
  }

  static final class Counter implements Source<Integer> {
    private int n;

    @Override
    public Integer next() throws Suspendable { // javac adds a bridge Object next()
      n = point(n + 1);
      return n;
    }
  }

  abstract static class Transformer<A, B> {
    abstract B apply(A a) throws Suspendable;
  }

  static final class Lengths extends Transformer<String, Integer> {
    @Override
    Integer apply(String s) throws Suspendable { // bridge Object apply(Object)
      return point(s).length();
    }
  }

  static class Animal {
    Animal self() throws Suspendable {
      return point(this);
    }

    String name() {
      return "animal";
    }
  }

  static final class Cat extends Animal {
    @Override
    Cat self() throws Suspendable { // covariant return: bridge Animal self()
      point();
      return this;
    }

    @Override
    String name() {
      return "cat";
    }
  }

  static <T extends Comparable<T>> T max(T a, T b) throws Suspendable {
    return point(a).compareTo(point(b)) >= 0 ? a : b;
  }

  static <T> List<T> collect(Source<T> source, int n) throws Suspendable {
    List<T> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(source.next());
    }
    return out;
  }

  static String bridgesAndGenerics() throws Suspendable {
    Source<Integer> s = new Counter();
    Transformer<String, Integer> t = new Lengths();
    Animal a = new Cat();
    return collect(s, 3) + "," + t.apply("four") + "," + a.self().name() + "," + max("pear", "apple") + ","
        + max(point(3), 9) + "," + new Counter().next();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void bridgeAndGenericCalls_throughErasedSignatures_sameResult(Mode mode) {
    assertThat(mode.call(DispatchTest::bridgesAndGenerics)).isEqualTo("[1, 2, 3],4,cat,pear,9,1");
  }
}
