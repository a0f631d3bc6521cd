package io.krill.benchmarks.continuations;

import io.krill.benchmarks.internal.JmhDefaults;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What a call into a saved frame costs when the caller does not know the frame's method at
 * compile time. Today a resume re-enters each frame from its caller, with a call the caller's
 * code names; a runtime that re-enters frames itself (lazy restore: resume only the top frame,
 * re-enter a caller when its callee returns) must pick each frame's entry from the saved frame.
 * One operation is one call into one of {@link #KINDS} entries (static methods of different
 * classes, kept out of line as a resumed frame's method is), walking a "stack" of {@link #DEPTH}
 * frames of mixed kinds in a fixed order, as such a runtime would walk the same parked stack on
 * every hop.
 *
 * <p>{@code dispatch}: {@code static}, each call names its entry (the floor: what a caller's own
 * call costs); {@code virtual}, through one small object per kind, a subclass of an abstract
 * class (megamorphic: {@link #KINDS} receivers at one call site); {@code virtualOneKind}, the
 * same with every frame of one kind (one receiver class: a recursive stack); {@code handle}, a
 * {@link MethodHandle} per kind held in an array, {@code invokeExact} (not a constant to C2).
 */
@State(Scope.Thread)
public class ResumeDispatchBenchmark extends JmhDefaults {
  /** Kinds of frame (classes with an entry). */
  public static final int KINDS = 8;
  /** Frames walked per operation batch. */
  public static final int DEPTH = 20;

  @Param({"static", "virtual", "virtualOneKind", "handle"})
  public String dispatch;

  private int[] kinds;
  private Entry[] entries;
  private MethodHandle[] handles;
  private int seed;

  /** Builds the stack of frames and each kind's entry object and handle. */
  @Setup
  public void setUp() {
    boolean oneKind = "virtualOneKind".equals(dispatch);
    switch (dispatch) {
      case "static":
      case "virtual":
      case "virtualOneKind":
      case "handle":
        break;
      default:
        throw new IllegalArgumentException("dispatch: " + dispatch + " (expected: static, virtual, virtualOneKind or handle)");
    }
    kinds = new int[DEPTH];
    for (int i = 0; i < DEPTH; i++) {
      kinds[i] = oneKind ? 3 : (i * 5 + i / 3) % KINDS; // every kind, in no short cycle
    }
    Entry[] byKind = {new E0(), new E1(), new E2(), new E3(), new E4(), new E5(), new E6(), new E7()};
    entries = new Entry[DEPTH];
    handles = new MethodHandle[DEPTH];
    MethodHandles.Lookup lookup = MethodHandles.lookup();
    MethodType type = MethodType.methodType(int.class, int.class);
    try {
      for (int i = 0; i < DEPTH; i++) {
        entries[i] = byKind[kinds[i]];
        handles[i] = lookup.findStatic(ResumeDispatchBenchmark.class, "entry" + kinds[i], type);
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Calls into every frame of the stack once.
   *
   * @return a sum of the entries' results, so that no call is dead code
   * @throws Throwable never; {@code invokeExact} declares it
   */
  @Benchmark
  @OperationsPerInvocation(DEPTH)
  public int walk() throws Throwable {
    int x = ++seed;
    switch (dispatch) {
      case "static":
        for (int i = 0; i < DEPTH; i++) {
          x = staticCall(kinds[i], x);
        }
        return x;
      case "virtual":
      case "virtualOneKind":
        for (int i = 0; i < DEPTH; i++) {
          x = entries[i].resume(x);
        }
        return x;
      default:
        for (int i = 0; i < DEPTH; i++) {
          x = (int) handles[i].invokeExact(x);
        }
        return x;
    }
  }

  /* The floor: each call names its entry, as a caller's restore does; the switch stands for the caller's own code. */
  private static int staticCall(int kind, int x) {
    switch (kind) {
      case 0:
        return entry0(x);
      case 1:
        return entry1(x);
      case 2:
        return entry2(x);
      case 3:
        return entry3(x);
      case 4:
        return entry4(x);
      case 5:
        return entry5(x);
      case 6:
        return entry6(x);
      default:
        return entry7(x);
    }
  }

  /** One kind's entry, called through its object. */
  abstract static class Entry {
    abstract int resume(int x);
  }

  static final class E0 extends Entry {
    @Override
    int resume(int x) {
      return entry0(x);
    }
  }

  static final class E1 extends Entry {
    @Override
    int resume(int x) {
      return entry1(x);
    }
  }

  static final class E2 extends Entry {
    @Override
    int resume(int x) {
      return entry2(x);
    }
  }

  static final class E3 extends Entry {
    @Override
    int resume(int x) {
      return entry3(x);
    }
  }

  static final class E4 extends Entry {
    @Override
    int resume(int x) {
      return entry4(x);
    }
  }

  static final class E5 extends Entry {
    @Override
    int resume(int x) {
      return entry5(x);
    }
  }

  static final class E6 extends Entry {
    @Override
    int resume(int x) {
      return entry6(x);
    }
  }

  static final class E7 extends Entry {
    @Override
    int resume(int x) {
      return entry7(x);
    }
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int entry0(int x) {
    return x * 31 + 1;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int entry1(int x) {
    return x * 31 + 2;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int entry2(int x) {
    return x * 31 + 3;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int entry3(int x) {
    return x * 31 + 4;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int entry4(int x) {
    return x * 31 + 5;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int entry5(int x) {
    return x * 31 + 6;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int entry6(int x) {
    return x * 31 + 7;
  }

  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  static int entry7(int x) {
    return x * 31 + 8;
  }
}
