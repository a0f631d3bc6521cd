package io.krill.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Settings could not be loaded. Holds every {@link Problem} found, not just the first; the
 * message has one line per problem, each naming the key, the bad value, what was expected and
 * where the value came from:
 *
 * <pre>
 * httpd.port: 70000 (expected: 0..65535) from file /etc/krill.conf line 3
 * httpd.limits.max-body-bytes: lots (expected: a byte size such as 8k or 10MiB ...) from environment KRILL_HTTPD_LIMITS_MAX_BODY_BYTES
 * httpd.prot: 80 (unknown key; did you mean httpd.port?) from flag --set
 * </pre>
 *
 * <p>{@link #key()}, {@link #value()}, {@link #origin()} and {@link #reason()} describe the first
 * problem.
 */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient List<Problem> problems;

  ConfigException(List<Problem> problems) {
    super(message(problems));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("problems: [] (expected: at least one)");
    }
    this.problems = Collections.unmodifiableList(new ArrayList<>(problems));
  }

  private static String message(List<Problem> problems) {
    StringBuilder sb = new StringBuilder();
    for (Problem p : problems) {
      sb.append(sb.length() == 0 ? "" : "\n").append(p);
    }
    return sb.toString();
  }

  /**
   * Every problem found, in layer order (file, environment, flags).
   *
   * @return the problems, never empty
   */
  public List<Problem> problems() {
    return problems;
  }

  /**
   * The first problem's key.
   *
   * @return the dotted key, or {@code null} for a problem with no key (a malformed file)
   */
  public String key() {
    return problems.get(0).key();
  }

  /**
   * The first problem's value as written.
   *
   * @return the bad value, or {@code null} when there is none
   */
  public String value() {
    return problems.get(0).value();
  }

  /**
   * Where the first problem's value came from.
   *
   * @return e.g. {@code file /etc/krill.conf line 3}, {@code environment KRILL_HTTPD_PORT} or
   *     {@code flag --port}
   */
  public String origin() {
    return problems.get(0).origin();
  }

  /**
   * What was wrong with the first problem's value.
   *
   * @return e.g. {@code expected: 0..65535}
   */
  public String reason() {
    return problems.get(0).reason();
  }

  /**
   * One bad value, unknown key or unreadable file. Immutable.
   */
  public static final class Problem {
    private final String key;
    private final String value;
    private final String origin;
    private final String reason;

    Problem(String key, String value, String origin, String reason) {
      this.key = key;
      this.value = value;
      this.origin = Objects.requireNonNull(origin, "origin");
      this.reason = Objects.requireNonNull(reason, "reason");
    }

    /**
     * The dotted key.
     *
     * @return the key, or {@code null} for a problem with no key
     */
    public String key() {
      return key;
    }

    /**
     * The value as written.
     *
     * @return the value, or {@code null} when there is none
     */
    public String value() {
      return value;
    }

    /**
     * Where the value came from.
     *
     * @return e.g. {@code environment KRILL_HTTPD_PORT}
     */
    public String origin() {
      return origin;
    }

    /**
     * What was wrong.
     *
     * @return e.g. {@code expected: 0..65535}
     */
    public String reason() {
      return reason;
    }

    /**
     * {@code key: value (reason) from origin}, leaving out what is absent; a problem with neither
     * key nor value reads {@code origin: reason}.
     */
    @Override
    public String toString() {
      if (key == null && value == null) {
        return origin + ": " + reason;
      }
      StringBuilder sb = new StringBuilder();
      if (key != null) {
        sb.append(key).append(": ");
      }
      if (value != null) {
        sb.append(value).append(" (").append(reason).append(')');
      } else {
        sb.append(reason);
      }
      return sb.append(" from ").append(origin).toString();
    }
  }
}
