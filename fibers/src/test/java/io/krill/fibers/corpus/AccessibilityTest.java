package io.krill.fibers.corpus;

import static io.krill.fibers.corpus.Points.point;
import static org.assertj.core.api.Assertions.assertThat;

import io.krill.fibers.Suspendable;
import io.krill.fibers.corpus.hidden.Animals;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Values whose verifier type is the merge of two classes, where the common superclass is not
 * accessible from the woven class (java.lang.AbstractStringBuilder, a package-private class of
 * another package): restoring them must not name that class.
 */
class AccessibilityTest {
  static String mergedLocal(boolean flag) throws Suspendable {
    Object sb = flag ? new StringBuilder("builder") : new StringBuffer("buffer");
    point();
    return sb.toString();
  }

  static String mergedOnStack(boolean flag) throws Suspendable {
    return String.join("+", flag ? new StringBuilder("b") : new StringBuffer("f"), point("x"));
  }

  static String mergedReceiver(boolean flag) throws Suspendable {
    Animals.Speaker speaker = flag ? new Animals.Dog() : new Animals.Cat(); // verifier type: the hidden class
    String s = speaker.speak(point(2));
    Object pet = flag ? new Animals.Cat() : new Animals.Dog();
    return s + point("|") + pet.getClass().getSimpleName();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void mergedTypes_inaccessibleCommonSuperclass_restoredAsAccessibleType(Mode mode) {
    assertThat(mode.call(() -> mergedLocal(true) + mergedLocal(false))).isEqualTo("builderbuffer");
    assertThat(mode.call(() -> mergedOnStack(true) + mergedOnStack(false))).isEqualTo("b+xf+x");
    assertThat(mode.call(() -> mergedReceiver(true) + mergedReceiver(false))).isEqualTo("woofwoof|Catmeowmeow|Dog");
  }
}
