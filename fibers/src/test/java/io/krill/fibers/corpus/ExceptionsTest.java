package io.krill.fibers.corpus;

import static io.krill.fibers.corpus.Points.point;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.krill.fibers.Suspendable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Suspension inside try, catch and finally blocks, and exceptions thrown after a resume. */
class ExceptionsTest {
  static final class Failure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int code;

    Failure(String message, int code) {
      super(message);
      this.code = code;
    }
  }

  static void failIf(boolean cond, String message) {
    if (cond) {
      throw new Failure(message, 42);
    }
  }

  static String suspendInTry(List<String> log, boolean fail) throws Suspendable {
    String s = "start";
    try {
      s = point(s + ":try");
      failIf(fail, "boom");
      s = s + point(":after");
    } catch (Failure e) {
      s = s + ":caught(" + e.getMessage() + ")";
    } finally {
      log.add("finally " + s);
    }
    return s;
  }

  /** Every mode, with the try block ending normally and by a throw caught after the resume. */
  static Stream<Arguments> modesAndEndings() {
    return Arrays.stream(Mode.values()).flatMap(m -> Stream.of(
        arguments(m, false, "start:try:after"), arguments(m, true, "start:try:caught(boom)")));
  }

  @ParameterizedTest
  @MethodSource("modesAndEndings")
  void tryBlock_suspendThenThrowOrNot_finallyRunsOnce(Mode mode, boolean throwIt, String result) {
    List<String> log = new ArrayList<>();
    assertThat(mode.call(() -> suspendInTry(log, throwIt))).isEqualTo(result);
    assertThat(log).containsExactly("finally " + result);
  }

  static String suspendInCatch(int n) throws Suspendable {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < n; i++) {
      try {
        failIf(i % 2 == 0, "e" + i);
        out.append(point(i));
      } catch (Failure | IllegalStateException e) {
        long code = point((long) ((Failure) e).code);
        out.append('[').append(point(e.getMessage())).append(code).append(']');
        try {
          failIf(true, "inner" + point(i));
        } catch (RuntimeException inner) {
          out.append(point(inner).getMessage());
        }
      }
    }
    return out.toString();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void catchBlock_suspendWithExceptionLive_exceptionKept(Mode mode) {
    assertThat(mode.call(() -> suspendInCatch(4))).isEqualTo("[e042]inner01[e242]inner23");
  }

  static String suspendInFinally(List<String> log, int mode) throws Suspendable {
    try {
      try {
        log.add(point("body"));
        if (mode == 1) {
          throw new IOException("io");
        }
        if (mode == 2) {
          return point("early");
        }
      } finally {
        log.add(point("finally") + mode);
        double d = point(1.5);
        log.add("d" + d);
      }
    } catch (IOException e) {
      return "caught " + e.getMessage();
    }
    return "normal";
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void finallyBlock_suspendOnEveryExitPath_sameResult(Mode mode) {
    List<String> log = new ArrayList<>();
    assertThat(mode.call(() -> suspendInFinally(log, 0))).isEqualTo("normal");
    assertThat(mode.call(() -> suspendInFinally(log, 1))).isEqualTo("caught io");
    assertThat(mode.call(() -> suspendInFinally(log, 2))).isEqualTo("early");
    assertThat(log).containsExactly("body", "finally0", "d1.5", "body", "finally1", "d1.5", "body", "finally2",
        "d1.5");
  }

  static final class Resource implements AutoCloseable {
    final String name;
    final List<String> log;
    final boolean failOnClose;

    Resource(String name, List<String> log, boolean failOnClose) {
      this.name = name;
      this.log = log;
      this.failOnClose = failOnClose;
      log.add("open " + name);
    }

    static Resource open(String name, List<String> log, boolean failOnClose) throws Suspendable {
      return new Resource(point(name), log, point(failOnClose));
    }

    String read() throws Suspendable {
      return point(name.toUpperCase());
    }

    @Override
    public void close() {
      log.add("close " + name);
      if (failOnClose) {
        throw new IllegalStateException("close " + name);
      }
    }
  }

  static String tryWithResources(List<String> log, boolean failBody, boolean failClose) throws Suspendable {
    try (Resource a = Resource.open("a", log, false); Resource b = Resource.open(point("b"), log, failClose)) {
      String s = a.read() + point("+") + b.read();
      failIf(failBody, "body");
      return s;
    } catch (RuntimeException e) {
      String suppressed = e.getSuppressed().length == 0 ? "" : " suppressed " + e.getSuppressed()[0].getMessage();
      return point("failed ") + e.getMessage() + suppressed;
    }
  }

  /** Every mode, with the body succeeding, and with body and close both failing. */
  static Stream<Arguments> modesAndResourceFailures() {
    return Arrays.stream(Mode.values()).flatMap(m -> Stream.of(
        arguments(m, false, "A+B"), arguments(m, true, "failed body suppressed close b")));
  }

  @ParameterizedTest
  @MethodSource("modesAndResourceFailures")
  void tryWithResources_suspendInInitializerAndBody_closedInOrderFailureOfCloseSuppressed(Mode mode, boolean fail,
      String result) {
    List<String> log = new ArrayList<>();
    assertThat(mode.call(() -> tryWithResources(log, fail, fail))).isEqualTo(result);
    assertThat(log).containsExactly("open a", "open b", "close b", "close a");
  }

  static int throwAfterResume(int v) throws Suspendable {
    int w = point(v) + 1;
    if (w > 0) {
      throw new Failure("after resume " + w, w);
    }
    return w;
  }

  static int throughFrames(int v) throws Suspendable {
    long wide = point(7L);
    return throwAfterResume(v) + (int) wide;
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void exception_thrownAfterResume_propagatesWithOriginalTrace(Mode mode) {
    assertThatThrownBy(() -> mode.call(() -> throughFrames(4)))
        .isExactlyInstanceOf(Failure.class)
        .hasMessage("after resume 5")
        .satisfies(e -> {
          assertThat(((Failure) e).code).isEqualTo(5);
          StackTraceElement[] trace = e.getStackTrace();
          assertThat(trace[0].getClassName()).isEqualTo(ExceptionsTest.class.getName());
          assertThat(trace[0].getMethodName()).isEqualTo("throwAfterResume");
          assertThat(trace[1].getMethodName()).isEqualTo("throughFrames");
          assertThat(trace[0].getLineNumber()).isPositive();
        });
    if (mode.suspends) {
      assertThat(Mode.lastSuspensions).isEqualTo(2);
    }
  }

  static String caughtByOuterFrame(int v) throws Suspendable {
    String s = point("s");
    try {
      return s + throughFrames(v);
    } catch (Failure e) {
      return point(s) + ":" + e.getMessage();
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void exception_thrownAfterResumeInCallee_caughtByRestoredCaller(Mode mode) {
    assertThat(mode.call(() -> caughtByOuterFrame(1))).isEqualTo("s:after resume 2");
  }

  static void checkedAfterResume() throws IOException, Suspendable {
    point();
    throw new IOException("checked");
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void exception_checkedThrownAfterResume_propagatesUnwrapped(Mode mode) {
    assertThatThrownBy(() -> mode.run(() -> {
      try {
        checkedAfterResume();
      } catch (IOException e) {
        throw new IllegalStateException("wrapped", e);
      }
    })).isExactlyInstanceOf(IllegalStateException.class)
        .cause().isExactlyInstanceOf(IOException.class).hasMessage("checked");
  }
}
