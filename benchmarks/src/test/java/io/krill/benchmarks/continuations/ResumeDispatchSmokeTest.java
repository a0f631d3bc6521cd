package io.krill.benchmarks.continuations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Runs the resume-dispatch benchmark once per dispatch, outside JMH: not a measurement. */
@Timeout(60)
class ResumeDispatchSmokeTest {
  private static int walkOnce(String dispatch) throws Throwable {
    ResumeDispatchBenchmark b = new ResumeDispatchBenchmark();
    b.dispatch = dispatch;
    b.setUp();
    return b.walk();
  }

  @Test
  void walk_everyMixedDispatch_callsTheSameEntriesInTheSameOrder() throws Throwable {
    Set<Integer> results = new HashSet<>();
    for (String d : new String[] {"static", "virtual", "handle"}) {
      results.add(walkOnce(d));
    }
    assertThat(results).hasSize(1);
    // one kind for every frame is another stack: another result
    assertThat(walkOnce("virtualOneKind")).isNotIn(results);
  }

  @Test
  void setUp_unknownDispatch_rejectedByName() {
    ResumeDispatchBenchmark b = new ResumeDispatchBenchmark();
    b.dispatch = "reflection";
    assertThatThrownBy(b::setUp).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dispatch: reflection (expected: static, virtual, virtualOneKind or handle)");
  }
}
