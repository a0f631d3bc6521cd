package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;

/**
 * The cold capture and restore variants: the same frame store work as {@code reserveFrame} and
 * {@code openFrame}, in methods too large for C2 to inline.
 */
class ColdFrameTest {
  /** C2's FreqInlineSize on x86: a callee with more bytecode than this is never inlined. */
  private static final int FREQ_INLINE_SIZE = 325;

  private static final String ID = "io/krill/Example.run()V#0123456789abcdef/abi3";

  private static long header(int index, int refs, int prims) {
    return index | ((long) refs << 16) | ((long) prims << 40);
  }

  @Test
  void coldVariants_largerThanC2Inlines_hotOnesSmallEnough() throws IOException {
    Map<String, Integer> sizes = codeSizes(Stack.class);
    assertThat(sizes.get("reserveColdFrame")).isGreaterThan(FREQ_INLINE_SIZE);
    assertThat(sizes.get("openColdFrame")).isGreaterThan(FREQ_INLINE_SIZE);
    assertThat(sizes.get("reserveFrame")).isLessThanOrEqualTo(FREQ_INLINE_SIZE);
    assertThat(sizes.get("openFrame")).isLessThanOrEqualTo(FREQ_INLINE_SIZE);
  }

  @Test
  void reserveColdThenOpenCold_frameRoundTrips_growingPastTheArrays() {
    Stack s = new Continuation(() -> {});
    s.flow = Stack.CAPTURING;
    s.prims = new long[1];
    s.refs = new Object[1];
    Stack.reserveColdFrame(header(7, 2, 3), ID, s); // grows: 3 > 1, 2 > 1
    assertThat(s.primTop).isEqualTo(3);
    assertThat(s.refTop).isEqualTo(2);
    s.prims[0] = 42;
    s.prims[1] = -1;
    s.refs[0] = "held";
    Stack.reserveColdFrame(header(2, 1, 1), ID, s); // a frame with nothing saved but its header and id
    assertThat(s.primTop).isEqualTo(4);
    assertThat(s.refTop).isEqualTo(3);

    s.flow = Stack.RESTORING;
    assertThat(Stack.openColdFrame(ID, s)).isEqualTo(2);
    assertThat(Stack.openColdFrame(new String(ID), s)).as("equal, not identical: deserialized").isEqualTo(7);
    assertThat(s.primTop).isZero();
    assertThat(s.refTop).isZero();
    assertThat(s.prims[0]).isEqualTo(42);
    assertThat(s.prims[1]).isEqualTo(-1);
    assertThat(s.refs[0]).isEqualTo("held");
    assertThat(s.refs[1]).as("the id's slot left for the next capture at the same place").isSameAs(ID);
    java.util.Arrays.fill(s.refs, null); // the thread's scratch arrays: leave them as a capture's end does
  }

  @Test
  void openCold_otherVersionOfTheMethod_saysTheClassChanged() {
    Stack s = frameOf(ID.replace("0123456789abcdef", "fedcba9876543210"));
    assertThatThrownBy(() -> Stack.openColdFrame(ID, s))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("re-entered by " + ID)
        .hasMessageContaining("the class changed since the continuation was suspended");
    assertThat(s.flow).isZero();
  }

  @Test
  void openCold_otherMethod_saysNotWoven() {
    Stack s = frameOf("io/krill/Example.other()V#0123456789abcdef/abi3");
    assertThatThrownBy(() -> Stack.openColdFrame(ID, s))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("a method on the suspended stack is not woven, or changed");
  }

  @Test
  void openCold_noSavedFrame_orNotRestoring_namesTheMethod() {
    Stack empty = new Continuation(() -> {});
    empty.flow = Stack.RESTORING;
    assertThatThrownBy(() -> Stack.openColdFrame(ID, empty))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(ID + " re-entered with no saved frame");
    Stack running = frameOf(ID);
    running.flow = 0;
    assertThatThrownBy(() -> Stack.openColdFrame(ID, running))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not restoring");
  }

  @Test
  void reserveCold_notCapturing_orBadHeader_throwsNamingTheFrame() {
    Stack s = new Continuation(() -> {});
    s.prims = new long[4];
    s.refs = new Object[4];
    assertThatThrownBy(() -> Stack.reserveColdFrame(header(0, 1, 1), ID, s))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("capture: frame of " + ID);
    s.flow = Stack.CAPTURING;
    assertThatThrownBy(() -> Stack.reserveColdFrame(header(0, 0, 1), ID, s))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("0 reference slots");
    assertThat(s.primTop).isZero();
  }

  private static Stack frameOf(String id) {
    Stack s = new Continuation(() -> {});
    s.prims = new long[] {header(0, 1, 1)};
    s.refs = new Object[] {id};
    s.primTop = 1;
    s.refTop = 1;
    s.flow = Stack.RESTORING;
    return s;
  }

  /* The Code attribute's code_length of each method of c, read from its class file. */
  private static Map<String, Integer> codeSizes(Class<?> c) throws IOException {
    byte[] b;
    try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
      b = in.readAllBytes();
    }
    ClassReader cr = new ClassReader(b);
    char[] buf = new char[cr.getMaxStringLength()];
    int o = cr.header + 6;
    o += 2 + 2 * cr.readUnsignedShort(o); // interfaces
    int fields = cr.readUnsignedShort(o);
    o += 2;
    for (int f = 0; f < fields; f++) {
      o = skipAttributes(cr, o + 6);
    }
    Map<String, Integer> out = new HashMap<>();
    int methods = cr.readUnsignedShort(o);
    o += 2;
    for (int m = 0; m < methods; m++) {
      String name = cr.readUTF8(o + 2, buf);
      int attrs = cr.readUnsignedShort(o + 6);
      o += 8;
      for (int a = 0; a < attrs; a++) {
        int len = cr.readInt(o + 2);
        if ("Code".equals(cr.readUTF8(o, buf))) {
          out.merge(name, cr.readInt(o + 10), Math::max);
        }
        o += 6 + len;
      }
    }
    return out;
  }

  private static int skipAttributes(ClassReader cr, int o) {
    int n = cr.readUnsignedShort(o);
    o += 2;
    for (int a = 0; a < n; a++) {
      o += 6 + cr.readInt(o + 2);
    }
    return o;
  }
}
