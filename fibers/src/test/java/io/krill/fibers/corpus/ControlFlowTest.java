package io.krill.fibers.corpus;

import static io.krill.fibers.corpus.Points.point;
import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.Suspendable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Loops, labeled jumps and switches with suspension points in conditions and bodies. */
class ControlFlowTest {
  static long loops(int n) throws Suspendable {
    long sum = 0;
    for (int i = 0; i < point(n); i++) {
      sum += point(i);
    }
    int j = 0;
    while (point(j < n)) {
      j += point(2);
    }
    do {
      sum += point(j--);
    } while (j > n);
    for (String s : point(List.of("a", "bb", "ccc"))) {
      sum += point(s).length() * 1000L;
    }
    for (int v : new int[] {point(7), 8}) {
      sum += point((long) v) * 100;
    }
    return sum + j;
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void loops_suspendInConditionsAndBodies_sameResult(Mode mode) {
    // for: 0+1+2+3+4 = 10; while: j = 6; do: 6 once (j = 5 ends it); for-each: 6000; array: 1500; j = 5
    assertThat(mode.call(() -> loops(5))).isEqualTo(10 + 6 + 6000 + 1500 + 5);
  }

  static String labeled(int n) throws Suspendable {
    StringBuilder out = new StringBuilder();
    outer:
    for (int i = 0; i < n; i++) {
      inner:
      for (int j = 0; j < n; j++) {
        if (point(j) == i) {
          continue outer;
        }
        if (point(i + j) > n) {
          break outer;
        }
        if (j == 2) {
          break inner;
        }
        out.append(point(i)).append(j).append(' ');
      }
      out.append('|');
    }
    block:
    {
      if (point(n > 3)) {
        break block;
      }
      out.append("unreached");
    }
    return out.toString();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void labeledJumps_breakAndContinueAcrossSuspension_sameResult(Mode mode) {
    assertThat(mode.call(() -> labeled(5))).isEqualTo("10 20 21 30 31 |40 41 ");
  }

  static int stringSwitch(String key) throws Suspendable {
    switch (point(key)) {
      case "alpha":
        return point(1);
      case "beta":
      case "gamma":
        int x = point(2);
        return x + key.length();
      case "Aa": // same hash code as "BB"
        return point(3);
      case "BB":
        return point(4);
      default:
        return point(-1);
    }
  }

  static int stringSwitchExpression(String key, int base) throws Suspendable {
    return base + switch (point(key)) {
      case "one" -> point(10);
      case "two" -> {
        long t = point(20L);
        yield (int) t + point(1);
      }
      default -> key.length();
    };
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void stringSwitch_suspendInSelectorAndCases_sameResult(Mode mode) {
    List<Integer> got = mode.call(() -> {
      List<Integer> out = new ArrayList<>();
      for (String k : new String[] {"alpha", "beta", "gamma", "Aa", "BB", "zeta"}) {
        out.add(stringSwitch(k));
      }
      out.add(stringSwitchExpression("one", 100));
      out.add(stringSwitchExpression("two", 100));
      out.add(stringSwitchExpression("other", 100));
      return out;
    });
    assertThat(got).containsExactly(1, 6, 7, 3, 4, -1, 110, 121, 105);
  }

  static long enumSwitch(TimeUnit unit) throws Suspendable {
    long r;
    switch (point(unit)) {
      case SECONDS:
        r = point(1L);
        break;
      case MINUTES:
        r = point(60L);
        break;
      case HOURS:
        r = 3600;
        break;
      default:
        r = -point(1);
    }
    int bonus = switch (unit) {
      case DAYS -> point(5);
      case MINUTES, HOURS -> 2;
      default -> 0;
    };
    return r * 10 + bonus;
  }

  enum Color { RED, GREEN, BLUE }

  static String ownEnumSwitch(Color c) throws Suspendable {
    return switch (point(c)) {
      case RED -> point("r");
      case GREEN -> "g" + point(c.ordinal());
      case BLUE -> {
        String s = point("b");
        yield s + s;
      }
    };
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void enumSwitch_suspendInSelectorAndCases_sameResult(Mode mode) {
    List<Object> got = mode.call(() -> {
      List<Object> out = new ArrayList<>();
      for (TimeUnit u : TimeUnit.values()) {
        out.add(enumSwitch(u));
      }
      for (Color c : Color.values()) {
        out.add(ownEnumSwitch(c));
      }
      return out;
    });
    assertThat(got).containsExactly(-10L, -10L, -10L, 10L, 602L, 36002L, -5L, "r", "g1", "bb");
  }

  static int intSwitches(int k) throws Suspendable {
    int dense = switch (point(k)) {
      case 0 -> 100;
      case 1 -> point(101);
      case 2 -> 102;
      case 3 -> point(103);
      default -> 0;
    };
    int sparse = switch (k * 1000) {
      case 0 -> point(1);
      case 3000 -> 3;
      case 1_000_000 -> 4;
      default -> point(-1);
    };
    boolean both = point(k > 0) && point(k < 3) || point(k == 3);
    return dense + sparse + (both ? 10000 : 0);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void intSwitchAndShortCircuit_suspendInArms_sameResult(Mode mode) {
    List<Integer> got = mode.call(() -> {
      List<Integer> out = new ArrayList<>();
      for (int k = 0; k < 5; k++) {
        out.add(intSwitches(k));
      }
      return out;
    });
    assertThat(got).containsExactly(101, 10100, 10101, 10106, -1);
  }
}
