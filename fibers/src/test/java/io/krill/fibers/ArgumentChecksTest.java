package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The CSP primitives reject a bad count in the house format: name, value, what was expected. */
class ArgumentChecksTest {
  static Stream<Arguments> badCounts() {
    return Stream.of(
        arguments("Barrier.create(-1)", call(() -> Barrier.create(-1)), "parties: -1 (expected: >= 0)"),
        arguments("Channel.create(-1)", call(() -> Channel.create(-1)), "capacity: -1 (expected: >= 0)"),
        arguments("FiberCountDownLatch.create(-1)", call(() -> FiberCountDownLatch.create(-1)), "count: -1 (expected: >= 0)"),
        arguments("FiberSemaphore.create(-1)", call(() -> FiberSemaphore.create(-1)), "permits: -1 (expected: >= 0)"),
        arguments("FiberSemaphore.release(0)", call(() -> FiberSemaphore.create(1).release(0)), "permits: 0 (expected: > 0)"));
  }

  private static ThrowingCallable call(ThrowingCallable c) {
    return c;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badCounts")
  void create_badCount_throwsWithHouseFormat(String call, ThrowingCallable body, String message) {
    assertThatThrownBy(body).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
  }
}
