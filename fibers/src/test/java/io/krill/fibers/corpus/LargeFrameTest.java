package io.krill.fibers.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Frames far larger than usual: hundreds of locals and a hundred stacked arguments. */
class LargeFrameTest {
  @ParameterizedTest
  @EnumSource(Mode.class)
  void manyLocals_240LiveLocalsOfEveryType_matchUnwovenTwin(Mode mode) {
    String expected = LargeFrameShapes.manyLocalsPlain(17);
    assertThat(mode.call(() -> LargeFrameShapes.manyLocals(17))).isEqualTo(expected);
    if (mode.suspends) {
      assertThat(Mode.lastSuspensions).isGreaterThan(10);
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void manyArguments_100ValuesBelowCall_matchUnwovenTwin(Mode mode) {
    String expected = LargeFrameShapes.manyArgumentsPlain(5);
    assertThat(mode.call(() -> LargeFrameShapes.manyArguments(5))).isEqualTo(expected);
  }
}
