package io.krill.fibers.corpus;

import static io.krill.fibers.corpus.Points.point;
import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.Suspendable;
import io.krill.fibers.SuspendableCallable;
import io.krill.fibers.SuspendableRunnable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Lambdas and method references that suspend, through krill's and user-defined interfaces. */
class LambdaTest {
  /** A user-defined suspendable functional interface with primitive and wide parameters. */
  @FunctionalInterface
  interface LongOp {
    long apply(long a, int b) throws Suspendable;
  }

  @FunctionalInterface
  interface SuspendableFunction<A, R> {
    R apply(A a) throws Suspendable;
  }

  @FunctionalInterface
  interface Combiner {
    String combine(Item item, String suffix) throws Suspendable;
  }

  static final class Item {
    final String name;

    Item(String name) {
      this.name = name;
    }

    String label(String suffix) throws Suspendable {
      return point(name) + suffix;
    }

    String plain() throws Suspendable {
      return point(name.toUpperCase());
    }
  }

  static <A, R> List<R> map(List<A> in, SuspendableFunction<A, R> f) throws Suspendable {
    List<R> out = new ArrayList<>();
    for (A a : in) {
      out.add(f.apply(a));
    }
    return out;
  }

  static int inc(int x) throws Suspendable {
    return point(x) + 1;
  }

  static String lambdas(int base) throws Suspendable {
    List<String> log = new ArrayList<>();
    String captured = "c" + base;
    SuspendableRunnable r = () -> log.add(point(captured) + point(base));
    r.run();
    SuspendableCallable<Long> call = () -> point((long) base) * 1000;
    long fromCallable;
    try {
      fromCallable = call.call();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    LongOp op = (a, b) -> {
      long t = point(a) * b;
      return t + point(base);
    };
    LongOp nested = (a, b) -> op.apply(op.apply(a, b), point(b));
    List<Integer> mapped = map(List.of(1, 2, 3), x -> x * point(base));
    List<List<Integer>> deep = map(List.of(1, 2), x -> map(List.of(x, x + 1), y -> point(y) * 10));
    return log + "," + fromCallable + "," + op.apply(3L, 4) + "," + nested.apply(1L, 2) + "," + mapped + "," + deep;
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void lambdas_capturingAndNested_sameResult(Mode mode) {
    // op(3,4) = 12 + 5; nested(1,2) = op(op(1,2)=7, 2) = 14 + 5
    assertThat(mode.call(() -> lambdas(5))).isEqualTo("[c55],5000,17,19,[5, 10, 15],[[10, 20], [20, 30]]");
  }

  static String methodReferences() throws Suspendable {
    Item item = new Item("it");
    SuspendableFunction<Integer, Integer> boxedStatic = LambdaTest::inc; // unboxes its argument
    SuspendableFunction<String, String> bound = item::label; // receiver held by the lambda object
    SuspendableFunction<Item, String> unbound = Item::plain; // receiver passed as the argument
    Combiner unboundTwoArgs = Item::label;
    SuspendableCallable<String> boundNoArgs = item::plain;
    String viaCallable;
    try {
      viaCallable = boundNoArgs.call();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return boxedStatic.apply(point(41)) + "," + bound.apply("!") + "," + unbound.apply(new Item("u")) + ","
        + unboundTwoArgs.combine(point(new Item("v")), point("?")) + "," + viaCallable + ","
        + map(List.of(new Item("a"), new Item("b")), Item::plain) + "," + map(List.of(1, 2), LambdaTest::inc);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void methodReferences_staticBoundUnbound_sameResult(Mode mode) {
    assertThat(mode.call(LambdaTest::methodReferences)).isEqualTo("42,it!,U,v?,IT,[A, B],[2, 3]");
  }

  static int narrowSum(long a, int b) throws Suspendable {
    return (int) point(a) + b;
  }

  interface Namer {
    String name(Item item) throws Suspendable;

    default String both(Item a, Item b) throws Suspendable {
      SuspendableFunction<Item, String> f = Item::plain; // a reference inside an interface
      return f.apply(a) + map(List.of(b), this::name);
    }
  }

  private String privateLabel(String s) throws Suspendable {
    return point(s) + field;
  }

  String moreReferences() throws Suspendable {
    LongOp widened = LambdaTest::narrowSum; // int result widened to long
    SuspendableFunction<String, String> priv = this::privateLabel;
    DispatchTest.Stepper stepper = x -> point(x) * 2;
    SuspendableFunction<Integer, Integer> viaInterface = stepper::step; // bound interface receiver
    Namer namer = item -> point(item.name) + "?";
    return widened.apply(40L, 2) + "," + priv.apply("p") + "," + viaInterface.apply(21) + ","
        + namer.both(new Item("x"), new Item("y"));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void methodReferences_privateWidenedAndInInterface_sameResult(Mode mode) {
    LambdaTest t = new LambdaTest();
    assertThat(mode.call(t::moreReferences)).isEqualTo("42,p3,42,X[y?]");
  }

  int field = 3;

  SuspendableFunction<Integer, Integer> adder() {
    return x -> point(x) + field; // an instance lambda: captures this
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void instanceLambda_capturesThis_sameResult(Mode mode) {
    LambdaTest t = new LambdaTest();
    assertThat(mode.call(() -> t.adder().apply(4) + t.adder().apply(point(5)))).isEqualTo(15);
  }
}
