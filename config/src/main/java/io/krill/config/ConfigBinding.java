package io.krill.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * A schema whose settings each stand for one property of a configuration object: how a loaded
 * {@link Settings} sets a builder, and how a built configuration reads back. The builder's own
 * checks stay the API boundary; a value they refuse is reported like any bad setting, naming the
 * key or flag it came from.
 *
 * <pre>{@code
 * static final ConfigBinding<CrawlConfig, CrawlConfig.Builder> BINDING = ConfigBinding
 *     .<CrawlConfig, CrawlConfig.Builder>builder()
 *     .bind(MAX_PAGES, CrawlConfig.Builder::maxPages)
 *     .build();
 * CrawlConfig.Builder b = BINDING.apply(settings, CrawlConfig.builder());
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param <C> the configuration type
 * @param <B> its builder type
 */
public final class ConfigBinding<C, B> {
  private final ConfigSchema schema;
  private final List<Property<C, B, ?>> properties;

  private ConfigBinding(Builder<C, B> b) {
    this.schema = b.schema.build();
    this.properties = List.copyOf(b.properties);
  }

  /**
   * Starts a binding.
   *
   * @param <C> the configuration type
   * @param <B> its builder type
   * @return a builder
   */
  public static <C, B> Builder<C, B> builder() {
    return new Builder<>();
  }

  /**
   * The schema of the bound settings, in binding order.
   *
   * @return the schema
   */
  public ConfigSchema schema() {
    return schema;
  }

  /**
   * Sets every property that has a value (a default, a file, the environment or a flag).
   *
   * @param settings settings loaded from {@link #schema()}
   * @param target the builder to set
   * @return {@code target}
   * @throws ConfigException naming the setting and its origin for each value the builder refuses
   */
  public B apply(Settings settings, B target) {
    List<ConfigException.Problem> problems = new ArrayList<>();
    for (Property<C, B, ?> p : properties) {
      p.apply(settings, target, problems);
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return target;
  }

  /**
   * Sets every property that has a value, then builds: a value the final cross-checks of
   * {@code build} refuse is reported against the setting its message names ({@code calendarHosts}
   * or {@code calendar-hosts} for {@code web.calendar-hosts}), with that setting's origin.
   *
   * @param settings settings loaded from {@link #schema()}
   * @param target the builder to set
   * @param build builds the configuration
   * @param <R> the built type
   * @return what {@code build} returns
   * @throws ConfigException naming the setting and its origin for each refused value
   * @throws IllegalArgumentException from {@code build} when its message names no setting
   */
  public <R> R build(Settings settings, B target, Function<? super B, ? extends R> build) {
    apply(settings, target);
    try {
      return build.apply(target);
    } catch (IllegalArgumentException e) {
      Setting<?> named = named(e.getMessage());
      if (named == null) {
        throw e;
      }
      String m = e.getMessage();
      int value = m.indexOf(": ") + 2;
      int open = m.indexOf(" (expected: ");
      throw new ConfigException(List.of(new ConfigException.Problem(named.key(),
          open > value ? m.substring(value, open) : null, settings.origin(named), reason(m))));
    }
  }

  /** The setting a house-format message {@code name: ...} names, or {@code null}. */
  private Setting<?> named(String message) {
    int colon = message == null ? -1 : message.indexOf(": ");
    if (colon <= 0) {
      return null;
    }
    String kebab = message.substring(0, colon).replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT);
    for (Property<C, B, ?> p : properties) {
      String key = p.setting.key();
      if (key.substring(key.lastIndexOf('.') + 1).equals(kebab)) {
        return p.setting;
      }
    }
    return null;
  }

  /**
   * Copies every readable property of a configuration into a builder.
   *
   * @param config a built configuration
   * @param target the builder to set
   * @return {@code target}
   */
  public B copy(C config, B target) {
    for (Property<C, B, ?> p : properties) {
      p.copy(config, target);
    }
    return target;
  }

  /**
   * The configuration as flags, e.g. {@code --hosts=20 --latency=20ms}, for logs.
   *
   * @param config a built configuration
   * @return one {@code flag=value} per readable property
   */
  public String describe(C config) {
    StringBuilder sb = new StringBuilder();
    for (Property<C, B, ?> p : properties) {
      p.describe(config, sb);
    }
    return sb.toString();
  }

  /**
   * The reason of a house-format message {@code name: value (expected: ...)}: the part in the
   * last brackets, or the whole message.
   */
  static String reason(String message) {
    int open = message == null ? -1 : message.indexOf(" (expected: ");
    if (open < 0 || !message.endsWith(")")) {
      return String.valueOf(message);
    }
    return message.substring(open + 2, message.length() - 1);
  }

  private static final class Property<C, B, T> {
    final Setting<T> setting;
    final Function<? super C, ? extends T> getter;
    final BiConsumer<? super B, ? super T> setter;

    Property(Setting<T> setting, Function<? super C, ? extends T> getter, BiConsumer<? super B, ? super T> setter) {
      this.setting = setting;
      this.getter = getter;
      this.setter = setter;
    }

    void apply(Settings settings, B target, List<ConfigException.Problem> problems) {
      T value = settings.find(setting).orElse(null);
      if (value == null) {
        return;
      }
      try {
        setter.accept(target, value);
      } catch (IllegalArgumentException e) {
        problems.add(new ConfigException.Problem(setting.key(), setting.format(value), settings.origin(setting),
            reason(e.getMessage())));
      }
    }

    void copy(C config, B target) {
      if (getter != null) {
        setter.accept(target, getter.apply(config));
      }
    }

    void describe(C config, StringBuilder sb) {
      if (getter != null) {
        sb.append(sb.length() == 0 ? "" : " ").append(setting.flag()).append('=').append(setting.format(getter.apply(config)));
      }
    }
  }

  /**
   * Collects bound settings.
   *
   * @param <C> the configuration type
   * @param <B> its builder type
   */
  public static final class Builder<C, B> {
    private final ConfigSchema.Builder schema = ConfigSchema.builder();
    private final List<Property<C, B, ?>> properties = new ArrayList<>();

    Builder() {}

    /**
     * Binds a setting to a builder setter and a configuration getter.
     *
     * @param setting the setting
     * @param getter reads the property of a built configuration
     * @param setter sets it on a builder; may throw {@link IllegalArgumentException} in the house
     *     format {@code name: value (expected: ...)}
     * @param <T> the value type
     * @return this builder
     */
    public <T> Builder<C, B> bind(Setting<T> setting, Function<? super C, ? extends T> getter,
        BiConsumer<? super B, ? super T> setter) {
      schema.add(setting);
      properties.add(new Property<>(setting, getter, Objects.requireNonNull(setter, "setter")));
      return this;
    }

    /**
     * Binds a setting to a builder setter alone.
     *
     * @param setting the setting
     * @param setter sets it on a builder
     * @param <T> the value type
     * @return this builder
     */
    public <T> Builder<C, B> bind(Setting<T> setting, BiConsumer<? super B, ? super T> setter) {
      return bind(setting, null, setter);
    }

    /**
     * Adds a setting the binding does not set (the program reads it from {@link Settings}).
     *
     * @param setting the setting
     * @return this builder
     */
    public Builder<C, B> add(Setting<?> setting) {
      schema.add(setting);
      return this;
    }

    /**
     * Builds the binding.
     *
     * @return the binding
     */
    public ConfigBinding<C, B> build() {
      return new ConfigBinding<>(this);
    }
  }
}
