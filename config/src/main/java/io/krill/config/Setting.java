package io.krill.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * One typed configuration key: a dotted name such as {@code httpd.limits.max-header-bytes}, a
 * type, a default, a one-line description and the checks a value must pass. Settings are
 * declared as constants and collected into a {@link ConfigSchema}; a loaded {@link Settings}
 * answers {@link Settings#get(Setting)}.
 *
 * <pre>{@code
 * static final Setting<Integer> PORT = Setting.ofInt("httpd.port")
 *     .defaultValue(8080).range(0, 65535)
 *     .doc("TCP port to listen on; 0 picks a free port")
 *     .build();
 * }</pre>
 *
 * <p>Instances are immutable and safe to share between threads. Identity is the key: two
 * settings with the same key are equal.
 *
 * @param <T> the value's Java type
 */
public final class Setting<T> {
  private static final Pattern KEY = Pattern.compile("[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?:\\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*)+");

  private final String key;
  private final ValueType<T> type;
  private final T defaultValue;
  private final String doc;
  private final List<Check<T>> checks;
  private final String flag;
  private final String paramLabel;

  private Setting(Builder<T> b) {
    this.key = b.key;
    this.type = b.type;
    this.defaultValue = b.defaultValue;
    this.doc = b.doc;
    this.checks = Collections.unmodifiableList(new ArrayList<>(b.checks));
    this.flag = b.flag != null ? b.flag : defaultFlag(b);
    this.paramLabel = b.paramLabel != null ? b.paramLabel : type.paramLabel(lastSegment(key));
  }

  /* A boolean that is on by default is switched off by its flag: crawl.sitemaps is --no-sitemaps. */
  private static String defaultFlag(Builder<?> b) {
    boolean negated = b.type == ValueType.BOOLEAN && Boolean.TRUE.equals(b.defaultValue);
    return (negated ? "--no-" : "--") + lastSegment(b.key);
  }

  private static String lastSegment(String key) {
    return key.substring(key.lastIndexOf('.') + 1);
  }

  /**
   * Starts a 32-bit integer setting.
   *
   * @param key the dotted key, e.g. {@code httpd.port}
   * @return a builder
   */
  public static Builder<Integer> ofInt(String key) {
    return new Builder<>(key, ValueType.INT);
  }

  /**
   * Starts a 64-bit integer setting.
   *
   * @param key the dotted key
   * @return a builder
   */
  public static Builder<Long> ofLong(String key) {
    return new Builder<>(key, ValueType.LONG);
  }

  /**
   * Starts a floating-point setting.
   *
   * @param key the dotted key
   * @return a builder
   */
  public static Builder<Double> ofDouble(String key) {
    return new Builder<>(key, ValueType.DOUBLE);
  }

  /**
   * Starts a boolean setting ({@code true/false}, {@code yes/no}, {@code on/off}).
   *
   * @param key the dotted key
   * @return a builder
   */
  public static Builder<Boolean> ofBoolean(String key) {
    return new Builder<>(key, ValueType.BOOLEAN);
  }

  /**
   * Starts a string setting.
   *
   * @param key the dotted key
   * @return a builder
   */
  public static Builder<String> ofString(String key) {
    return new Builder<>(key, ValueType.STRING);
  }

  /**
   * Starts an enum setting; values are the constants' names in lower case with {@code -} for
   * {@code _} (matched without regard to case).
   *
   * @param key the dotted key
   * @param type the enum class
   * @param <E> the enum type
   * @return a builder
   */
  public static <E extends Enum<E>> Builder<E> ofEnum(String key, Class<E> type) {
    Objects.requireNonNull(type, "type");
    return new Builder<>(key, ValueType.enumType(type));
  }

  /**
   * Starts a duration setting: a number and a unit ({@code ns, us, ms, s, m, h, d} or the
   * words), e.g. {@code 30s}, {@code 500ms}, {@code 1.5h}.
   *
   * @param key the dotted key
   * @return a builder
   */
  public static Builder<Duration> ofDuration(String key) {
    return new Builder<>(key, ValueType.DURATION);
  }

  /**
   * Starts a byte-size setting in HOCON units: a bare number is bytes, {@code k}/{@code K}/
   * {@code KiB} mean 1024, {@code kB} means 1000, and so on for M, G, T.
   *
   * @param key the dotted key
   * @return a builder
   */
  public static Builder<Long> ofBytes(String key) {
    return new Builder<>(key, ValueType.BYTES);
  }

  /**
   * Starts a file-system path setting; relative paths stay relative to the working directory.
   *
   * @param key the dotted key
   * @return a builder
   */
  public static Builder<Path> ofPath(String key) {
    return new Builder<>(key, ValueType.PATH);
  }

  /**
   * Starts a host setting: a host name (RFC 1123 labels) or an IPv4/IPv6 literal. Nothing is
   * resolved while loading.
   *
   * @param key the dotted key
   * @return a builder
   */
  public static Builder<String> ofHost(String key) {
    return new Builder<>(key, ValueType.HOST);
  }

  /**
   * Starts a list-of-strings setting: a HOCON list, or a comma-separated string from a file, the
   * environment or a flag.
   *
   * @param key the dotted key
   * @return a builder
   */
  public static Builder<List<String>> ofStringList(String key) {
    return new Builder<>(key, ValueType.STRING_LIST);
  }

  /**
   * The dotted key.
   *
   * @return the key, e.g. {@code httpd.port}
   */
  public String key() {
    return key;
  }

  /**
   * The one-line description shown in help.
   *
   * @return the description
   */
  public String doc() {
    return doc;
  }

  /**
   * The default value, empty for a setting declared {@link Builder#optional()}.
   *
   * @return the default
   */
  public Optional<T> defaultValue() {
    return Optional.ofNullable(defaultValue);
  }

  /**
   * The command-line flag that sets this setting: {@code --} and the key's last segment unless
   * declared with {@link Builder#flag(String)}; a boolean that defaults to {@code true} is a
   * switch named {@code --no-...}.
   *
   * @return e.g. {@code --max-pages}
   */
  public String flag() {
    return flag;
  }

  /**
   * The flag's parameter label in help, e.g. {@code N}, {@code TIME} or {@code SIZE}.
   *
   * @return the label
   */
  public String paramLabel() {
    return paramLabel;
  }

  /**
   * Whether the flag is a switch (a boolean: its presence sets the opposite of the default).
   *
   * @return {@code true} for a boolean setting
   */
  public boolean isSwitch() {
    return type == ValueType.BOOLEAN;
  }

  /**
   * Whether the flag may repeat (a list setting: each occurrence adds one element).
   *
   * @return {@code true} for a list setting
   */
  public boolean isList() {
    return type == ValueType.STRING_LIST;
  }

  /**
   * Reads one value of this setting from text and checks it, the way a file, the environment or
   * a flag is read.
   *
   * @param text the value's text, e.g. {@code 30s}
   * @return the value
   * @throws IllegalArgumentException {@code key: text (expected: ...)} if the text is not of this
   *     setting's type or the value fails a check
   */
  public T parse(String text) {
    T value = type.parse(Objects.requireNonNull(text, "text"));
    String failed = value == null ? type.expectation() : failedExpectation(value);
    if (failed != null) {
      throw new IllegalArgumentException(key + ": " + text + " (expected: " + failed + ")");
    }
    return value;
  }

  /**
   * Formats a value of this setting the way it is written in a file, e.g. {@code 30s}.
   *
   * @param value a value of this setting
   * @return its text form
   */
  public String format(T value) {
    return type.format(Objects.requireNonNull(value, "value"));
  }

  ValueType<T> type() {
    return type;
  }

  /** The type column of help: type name and the checks, e.g. {@code int, 0..65535}. */
  String describeType() {
    StringBuilder sb = new StringBuilder(type.describe());
    for (Check<T> c : checks) {
      sb.append(sb.length() == 0 ? "" : ", ").append(c.expectation);
    }
    return sb.toString();
  }

  String describeDefault() {
    return defaultValue == null ? "(none)" : type.format(defaultValue);
  }

  /** The first check the value fails, as its expectation, or {@code null} when it passes. */
  String failedExpectation(T value) {
    for (Check<T> c : checks) {
      if (!c.test.test(value)) {
        return c.expectation;
      }
    }
    return null;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Setting && ((Setting<?>) o).key.equals(key);
  }

  @Override
  public int hashCode() {
    return key.hashCode();
  }

  @Override
  public String toString() {
    return key + " (" + type.name() + ", default " + describeDefault() + ")";
  }

  private static final class Check<T> {
    final Predicate<? super T> test;
    final String expectation;

    Check(Predicate<? super T> test, String expectation) {
      this.test = test;
      this.expectation = expectation;
    }
  }

  /**
   * Declares a {@link Setting}. Not thread-safe; build once, typically into a constant.
   *
   * @param <T> the value's Java type
   */
  public static final class Builder<T> {
    private final String key;
    private final ValueType<T> type;
    private T defaultValue;
    private boolean optional;
    private String doc;
    private String flag;
    private String paramLabel;
    private final List<Check<T>> checks = new ArrayList<>();

    Builder(String key, ValueType<T> type) {
      Objects.requireNonNull(key, "key");
      if (!KEY.matcher(key).matches()) {
        throw new IllegalArgumentException("key: " + key
            + " (expected: two or more dot-separated lower-case words, e.g. httpd.limits.max-body-bytes)");
      }
      this.key = key;
      this.type = type;
    }

    /**
     * Sets the default, used when no layer gives a value. The default must pass the checks.
     *
     * @param value the default
     * @return this builder
     */
    public Builder<T> defaultValue(T value) {
      this.defaultValue = Objects.requireNonNull(value, "value");
      this.optional = false;
      return this;
    }

    /**
     * Declares the setting without a default: {@link Settings#find(Setting)} is empty unless a
     * layer sets it.
     *
     * @return this builder
     */
    public Builder<T> optional() {
      this.defaultValue = null;
      this.optional = true;
      return this;
    }

    /**
     * Sets the one-line description shown in help.
     *
     * @param text the description
     * @return this builder
     */
    public Builder<T> doc(String text) {
      Objects.requireNonNull(text, "text");
      if (text.isBlank() || text.indexOf('\n') >= 0) {
        throw new IllegalArgumentException("doc: " + text + " (expected: one non-blank line)");
      }
      this.doc = text;
      return this;
    }

    /**
     * Names the command-line flag, when {@code --} and the key's last segment would not do.
     *
     * @param name the flag, e.g. {@code --tls-cert}
     * @return this builder
     */
    public Builder<T> flag(String name) {
      Objects.requireNonNull(name, "name");
      if (!name.matches("--[a-z][a-z0-9-]*")) {
        throw new IllegalArgumentException("flag: " + name + " (expected: -- and lower-case words, e.g. --max-pages)");
      }
      this.flag = name;
      return this;
    }

    /**
     * Names the flag's parameter in help, when the type's label ({@code N}, {@code TIME},
     * {@code SIZE}, ...) would not do.
     *
     * @param label e.g. {@code HOST:PORT}
     * @return this builder
     */
    public Builder<T> paramLabel(String label) {
      this.paramLabel = Objects.requireNonNull(label, "label");
      return this;
    }

    /**
     * Requires {@code min <= value <= max}; only for ordered types (numbers, durations, sizes).
     *
     * @param min the smallest allowed value
     * @param max the largest allowed value
     * @return this builder
     */
    public Builder<T> range(T min, T max) {
      Comparator<? super T> order = order("range");
      if (order.compare(min, max) > 0) {
        throw new IllegalArgumentException("range: " + type.format(min) + ".." + type.format(max)
            + " (expected: min <= max)");
      }
      return add(v -> order.compare(v, min) >= 0 && order.compare(v, max) <= 0,
          type.format(min) + ".." + type.format(max));
    }

    /**
     * Requires {@code value >= min}; only for ordered types.
     *
     * @param min the smallest allowed value
     * @return this builder
     */
    public Builder<T> atLeast(T min) {
      Comparator<? super T> order = order("atLeast");
      return add(v -> order.compare(v, min) >= 0, ">= " + type.format(min));
    }

    /**
     * Requires {@code value <= max}; only for ordered types.
     *
     * @param max the largest allowed value
     * @return this builder
     */
    public Builder<T> atMost(T max) {
      Comparator<? super T> order = order("atMost");
      return add(v -> order.compare(v, max) <= 0, "<= " + type.format(max));
    }

    /**
     * Requires a non-empty string or list.
     *
     * @return this builder
     */
    public Builder<T> nonEmpty() {
      return add(v -> !type.isEmpty(v), "non-empty");
    }

    /**
     * Requires one of the given values.
     *
     * @param allowed the allowed values
     * @return this builder
     */
    public Builder<T> oneOf(List<T> allowed) {
      List<T> list = List.copyOf(allowed);
      List<String> names = new ArrayList<>();
      for (T a : list) {
        names.add(type.format(a));
      }
      return add(list::contains, "one of " + String.join(", ", names));
    }

    /**
     * Adds a custom check.
     *
     * @param test passes for good values
     * @param expectation what a good value looks like, e.g. {@code an existing directory}; it
     *     appears in errors as {@code (expected: ...)} and in help
     * @return this builder
     */
    public Builder<T> check(Predicate<? super T> test, String expectation) {
      Objects.requireNonNull(test, "test");
      Objects.requireNonNull(expectation, "expectation");
      return add(test, expectation);
    }

    /**
     * Builds the setting.
     *
     * @return the setting
     * @throws IllegalStateException if the doc or the default is missing
     * @throws IllegalArgumentException if the default fails a check
     */
    public Setting<T> build() {
      if (doc == null) {
        throw new IllegalStateException(key + ": no doc (call doc(..))");
      }
      if (defaultValue == null && !optional) {
        throw new IllegalStateException(key + ": no default (call defaultValue(..) or optional())");
      }
      Setting<T> s = new Setting<>(this);
      if (defaultValue != null) {
        String failed = s.failedExpectation(defaultValue);
        if (failed != null) {
          throw new IllegalArgumentException(key + ": default " + type.format(defaultValue)
              + " (expected: " + failed + ")");
        }
      }
      return s;
    }

    private Comparator<? super T> order(String method) {
      Comparator<? super T> order = type.order();
      if (order == null) {
        throw new IllegalStateException(key + ": " + method + " needs an ordered type, not " + type.name());
      }
      return order;
    }

    private Builder<T> add(Predicate<? super T> test, String expectation) {
      checks.add(new Check<>(test, expectation));
      return this;
    }
  }
}
