package io.krill.transform.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.transform.internal.MethodWeaver.ColdFrames;
import org.junit.jupiter.api.Test;

/** The build-time choice of which woven sites call the runtime's cold capture and restore. */
class ColdFramesTest {
  @Test
  void parse_namesInLowerCaseWithDashes_anyCase() {
    assertThat(ColdFrames.parse("none")).isEqualTo(ColdFrames.NONE);
    assertThat(ColdFrames.parse("loop-restore")).isEqualTo(ColdFrames.LOOP_RESTORE);
    assertThat(ColdFrames.parse("No-Loop")).isEqualTo(ColdFrames.NO_LOOP);
    assertThat(ColdFrames.parse("ALL")).isEqualTo(ColdFrames.ALL);
  }

  @Test
  void parse_unknownValue_namesTheProperty() {
    assertThatThrownBy(() -> ColdFrames.parse("some"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("krill.weave.coldFrames: some (expected: none, restore, loop-restore, loops, no-loop or all)");
    assertThatThrownBy(() -> ColdFrames.parse("loop_restore")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void choices_whichCaptureAndRestoreGoCold() {
    // coldCapture(site in a loop, method has a site in a loop); coldRestore(method has a site in a loop)
    assertThat(ColdFrames.NONE.coldCapture(true, true) || ColdFrames.NONE.coldRestore(true)).isFalse();
    assertThat(ColdFrames.ALL.coldCapture(false, false) && ColdFrames.ALL.coldRestore(false)).isTrue();
    assertThat(ColdFrames.RESTORE.coldCapture(true, true)).isFalse();
    assertThat(ColdFrames.RESTORE.coldRestore(false)).isTrue();
    assertThat(ColdFrames.LOOP_RESTORE.coldRestore(true)).isTrue();
    assertThat(ColdFrames.LOOP_RESTORE.coldRestore(false)).isFalse();
    assertThat(ColdFrames.LOOPS.coldCapture(true, true)).isTrue();
    assertThat(ColdFrames.LOOPS.coldCapture(false, true)).isFalse();
    assertThat(ColdFrames.NO_LOOP.coldCapture(false, false) && ColdFrames.NO_LOOP.coldRestore(false)).isTrue();
    assertThat(ColdFrames.NO_LOOP.coldCapture(false, true) || ColdFrames.NO_LOOP.coldRestore(true)).isFalse();
  }
}
