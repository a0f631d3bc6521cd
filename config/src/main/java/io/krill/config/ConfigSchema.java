package io.krill.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The settings a program understands: their keys, types, defaults, checks and docs, in the order
 * help lists them. A schema loads {@link Settings} through {@link #loader()} and renders its own
 * help ({@link #helpText()}, {@link #markdownTable()}).
 *
 * <pre>{@code
 * ConfigSchema schema = ConfigSchema.builder().add(PORT, ADDRESS, IDLE_TIMEOUT).build();
 * Settings s = schema.loader().file(Path.of("krill.conf")).set("httpd.port=9000").load();
 * int port = s.get(PORT);
 * }</pre>
 *
 * <p>The first segment of every key is a <em>namespace</em> ({@code httpd} in
 * {@code httpd.port}). A config file or environment variable inside a namespace must name a known
 * key; outside every namespace it is ignored, so one file can hold several programs' settings.
 *
 * <p>Environment variables: the prefix ({@code KRILL_} by default) followed by the key in upper
 * case with {@code .} and {@code -} replaced by {@code _}: {@code httpd.limits.max-header-bytes}
 * is {@code KRILL_HTTPD_LIMITS_MAX_HEADER_BYTES}.
 *
 * <p>Immutable and thread-safe.
 */
public final class ConfigSchema {
  /** The default environment variable prefix. */
  public static final String DEFAULT_ENV_PREFIX = "KRILL_";

  private static final Pattern ENV_PREFIX = Pattern.compile("[A-Z][A-Z0-9_]*_|");

  private final Map<String, Setting<?>> byKey;
  private final List<Rule> rules;
  private final Map<String, Setting<?>> byEnv;
  private final Set<String> namespaces;
  private final String envPrefix;

  private ConfigSchema(Builder b) {
    this.envPrefix = b.envPrefix;
    Map<String, Setting<?>> keys = new LinkedHashMap<>();
    Map<String, Setting<?>> envs = new LinkedHashMap<>();
    Set<String> ns = new LinkedHashSet<>();
    for (Setting<?> s : b.settings) {
      if (keys.putIfAbsent(s.key(), s) != null) {
        throw new IllegalArgumentException("setting: " + s.key() + " (expected: each key once)");
      }
      Setting<?> clash = envs.putIfAbsent(envName(envPrefix, s.key()), s);
      if (clash != null) {
        throw new IllegalArgumentException("setting: " + s.key() + " (expected: an environment name different from "
            + clash.key() + "'s " + envName(envPrefix, s.key()) + ")");
      }
      ns.add(s.key().substring(0, s.key().indexOf('.')));
    }
    this.byKey = Collections.unmodifiableMap(keys);
    this.byEnv = Collections.unmodifiableMap(envs);
    this.namespaces = Collections.unmodifiableSet(ns);
    for (Rule r : b.rules) {
      requireMember(r.subject);
    }
    this.rules = List.copyOf(b.rules);
  }

  /**
   * Starts a schema.
   *
   * @return a builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Every setting, in declaration order.
   *
   * @return the settings
   */
  public List<Setting<?>> settings() {
    return List.copyOf(byKey.values());
  }

  /**
   * The environment variable that sets a setting, e.g. {@code KRILL_HTTPD_PORT}.
   *
   * @param setting a setting of this schema
   * @return the variable's name
   */
  public String envName(Setting<?> setting) {
    requireMember(setting);
    return envName(envPrefix, setting.key());
  }

  /**
   * Starts loading settings: defaults, then an optional HOCON file, then the environment
   * ({@link System#getenv()} unless replaced), then flags.
   *
   * @return a new loader; not thread-safe
   */
  public ConfigLoader loader() {
    return new ConfigLoader(this);
  }

  /**
   * The defaults alone, with no file, environment or flags.
   *
   * @return the default settings
   */
  public Settings defaults() {
    return loader().environment(Map.of()).load();
  }

  /**
   * Every setting as aligned text for {@code --help}: key, type and checks, default, and doc,
   * followed by a note on environment variables.
   *
   * @return the help text, ending with a newline
   */
  public String helpText() {
    return HelpRenderer.text(this);
  }

  /**
   * Every setting as a Markdown table (key, environment variable, type, default, doc) for a
   * guide (the flag tables of docs/*.md are generated this way).
   *
   * @return the table, ending with a newline
   */
  public String markdownTable() {
    return HelpRenderer.markdown(this);
  }

  @Override
  public String toString() {
    return "ConfigSchema" + byKey.keySet();
  }

  Setting<?> setting(String key) {
    return byKey.get(key);
  }

  Map<String, Setting<?>> byEnv() {
    return byEnv;
  }

  List<Rule> rules() {
    return rules;
  }

  Set<String> keys() {
    return byKey.keySet();
  }

  Set<String> namespaces() {
    return namespaces;
  }

  String envPrefix() {
    return envPrefix;
  }

  void requireMember(Setting<?> setting) {
    Objects.requireNonNull(setting, "setting");
    if (byKey.get(setting.key()) != setting) {
      throw new IllegalArgumentException("setting: " + setting.key() + " (expected: a setting of this schema)");
    }
  }

  static String envName(String prefix, String key) {
    return prefix + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  /** A check across settings, reported against one of them. */
  static final class Rule {
    final Setting<?> subject;
    final Predicate<Settings> test;
    final String expectation;

    Rule(Setting<?> subject, Predicate<Settings> test, String expectation) {
      this.subject = subject;
      this.test = test;
      this.expectation = expectation;
    }
  }

  /** Collects settings for a {@link ConfigSchema}. Not thread-safe. */
  public static final class Builder {
    private final List<Setting<?>> settings = new ArrayList<>();
    private final List<Rule> rules = new ArrayList<>();
    private String envPrefix = DEFAULT_ENV_PREFIX;

    Builder() {}

    /**
     * Sets the environment variable prefix.
     *
     * @param prefix upper case, ending with {@code _}, or empty; default {@value #DEFAULT_ENV_PREFIX}
     * @return this builder
     */
    public Builder envPrefix(String prefix) {
      Objects.requireNonNull(prefix, "prefix");
      if (!ENV_PREFIX.matcher(prefix).matches()) {
        throw new IllegalArgumentException("envPrefix: " + prefix + " (expected: upper case ending with _, or empty)");
      }
      this.envPrefix = prefix;
      return this;
    }

    /**
     * Adds settings; help lists them in this order.
     *
     * @param more the settings
     * @return this builder
     */
    public Builder add(Setting<?>... more) {
      for (Setting<?> s : more) {
        settings.add(Objects.requireNonNull(s, "setting"));
      }
      return this;
    }

    /**
     * Adds a check across settings, run once every value passed its own checks. A failure is
     * reported against {@code subject}: its key, value and origin, and {@code expectation}.
     *
     * <pre>{@code
     * .rule(KEY_FILE, s -> s.find(KEY_FILE).isPresent() == s.find(CERT_FILE).isPresent(),
     *     "set together with httpd.tls.cert-file")
     * }</pre>
     *
     * @param subject the setting the problem is reported against; must be added to this schema
     * @param test passes for good settings
     * @param expectation what good settings look like
     * @return this builder
     */
    public Builder rule(Setting<?> subject, Predicate<Settings> test, String expectation) {
      rules.add(new Rule(Objects.requireNonNull(subject, "subject"), Objects.requireNonNull(test, "test"),
          Objects.requireNonNull(expectation, "expectation")));
      return this;
    }

    /**
     * Adds every setting and rule of another schema (not its prefix).
     *
     * @param other a schema
     * @return this builder
     */
    public Builder addAll(ConfigSchema other) {
      settings.addAll(other.byKey.values());
      rules.addAll(other.rules);
      return this;
    }

    /**
     * Builds the schema.
     *
     * @return the schema
     * @throws IllegalArgumentException if a key repeats or two keys map to one environment name
     */
    public ConfigSchema build() {
      return new ConfigSchema(this);
    }
  }
}
