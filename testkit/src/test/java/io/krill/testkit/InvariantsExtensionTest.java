package io.krill.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** The extension fails a test after which an invariant is broken or a buffer leaked, and only then. */
class InvariantsExtensionTest {
  /** Broken while {@link #broken} is set; applies only to the fixture tests below. */
  public static final class SwitchableInvariant implements Invariant {
    static volatile boolean broken;

    @Override
    public boolean appliesTo(Class<?> testClass) {
      return testClass == Fixtures.class;
    }

    @Override
    public Duration grace() {
      return Duration.ofMillis(50);
    }

    @Override
    public List<String> problems() {
      return broken ? List.of("switched off by the test") : List.of();
    }
  }

  /** Run only through the launcher below (the name does not match surefire's patterns). */
  static class Fixtures {
    @Test
    void holds() {}

    @Test
    void breaksTheInvariant() {
      SwitchableInvariant.broken = true;
    }

    @Test
    void leaksABuffer() {
      ByteBuf b = PooledByteBufAllocator.DEFAULT.buffer(16);
      b.writeInt(42);
    }
  }

  private static TestExecutionSummary run(String method) {
    SwitchableInvariant.broken = false;
    LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
        .selectors(selectMethod(Fixtures.class, method))
        .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true").build();
    Launcher launcher = LauncherFactory.create();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    launcher.execute(request, listener);
    SwitchableInvariant.broken = false;
    return listener.getSummary();
  }

  @Test
  void afterEach_invariantsHold_testPasses() {
    TestExecutionSummary s = run("holds");
    assertThat(s.getTestsSucceededCount()).isEqualTo(1);
    assertThat(s.getTestsFailedCount()).isZero();
  }

  @Test
  void afterEach_invariantBroken_testFailsNamingTheProblem() {
    TestExecutionSummary s = run("breaksTheInvariant");
    assertThat(s.getTestsFailedCount()).isEqualTo(1);
    assertThat(s.getFailures().get(0).getException()).isInstanceOf(AssertionError.class)
        .hasMessageContaining("invariants broken after breaksTheInvariant()")
        .hasMessageContaining("switched off by the test");
  }

  @Test
  void afterEach_bufferLeaked_testFailsWithTheLeakRecord() {
    TestExecutionSummary s = run("leaksABuffer");
    assertThat(s.getTestsFailedCount()).isEqualTo(1);
    assertThat(s.getFailures().get(0).getException()).hasMessageContaining("LEAK: ByteBuf.release() was not called");
  }
}
