package io.krill.testkit;

import java.time.Duration;
import java.util.List;

/**
 * One check that {@link InvariantsExtension} makes after every test, such as "no fiber of the
 * test schedulers is left". Implementations are found with {@link java.util.ServiceLoader}
 * (list them in {@code META-INF/services/io.krill.testkit.Invariant} of the test resources); a
 * fresh instance serves each test, so it may record state in {@link #beforeTest()}.
 *
 * <p>Threading: each method is called on the thread that runs the test.
 */
public interface Invariant {
  /**
   * Records what the test starts from, before its instance is constructed (so that field
   * initializers count as part of the test).
   */
  default void beforeTest() {}

  /**
   * Whether this check applies to the tests of {@code testClass}; all by default.
   *
   * @param testClass the class whose test just ran
   * @return true to check after its tests
   */
  default boolean appliesTo(Class<?> testClass) {
    return true;
  }

  /**
   * What is broken now. Called repeatedly until it returns an empty list or {@link #grace()} has
   * passed, so that work the test started may end (fibers finish, connections close).
   *
   * @return one line (or block) per problem; empty when the invariant holds
   * @throws Exception if the check itself fails
   */
  List<String> problems() throws Exception;

  /**
   * How long problems may take to clear after the test.
   *
   * @return the grace period; five seconds by default
   */
  default Duration grace() {
    return Duration.ofSeconds(5);
  }
}
