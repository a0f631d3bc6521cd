package io.krill.config;

import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * Loaded, checked settings: one value (or none, for an optional setting left unset) and one
 * origin per setting of the schema. Immutable and thread-safe.
 */
public final class Settings {
  private final ConfigSchema schema;
  private final Map<Setting<?>, Object> values;
  private final Map<Setting<?>, String> origins;

  Settings(ConfigSchema schema, Map<Setting<?>, Object> values, Map<Setting<?>, String> origins) {
    this.schema = schema;
    this.values = Map.copyOf(values);
    this.origins = Map.copyOf(origins);
  }

  /**
   * The value of a setting.
   *
   * @param setting a setting of this schema
   * @param <T> the value type
   * @return the value
   * @throws IllegalArgumentException if the setting is not in the schema
   * @throws NoSuchElementException if the setting is optional and no layer set it
   */
  public <T> T get(Setting<T> setting) {
    return find(setting).orElseThrow(() -> new NoSuchElementException(setting.key() + ": not set (no default)"));
  }

  /**
   * The value of a setting, empty for an optional setting no layer set.
   *
   * @param setting a setting of this schema
   * @param <T> the value type
   * @return the value, if any
   * @throws IllegalArgumentException if the setting is not in the schema
   */
  @SuppressWarnings("unchecked")
  public <T> Optional<T> find(Setting<T> setting) {
    schema.requireMember(setting);
    return Optional.ofNullable((T) values.get(setting));
  }

  /**
   * Where a setting's value came from.
   *
   * @param setting a setting of this schema
   * @return {@code default}, {@code file PATH line N}, {@code environment NAME} or
   *     {@code flag NAME}
   */
  public String origin(Setting<?> setting) {
    schema.requireMember(setting);
    return origins.get(setting);
  }

  /**
   * The schema these settings were loaded for.
   *
   * @return the schema
   */
  public ConfigSchema schema() {
    return schema;
  }

  /** One line per setting: {@code key = value (origin)}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (Setting<?> s : schema.settings()) {
      sb.append(s.key()).append(" = ").append(describe(s)).append(" (").append(origins.get(s)).append(")\n");
    }
    return sb.toString();
  }

  <T> String describe(Setting<T> s) {
    return find(s).map(s::format).orElse("(none)");
  }
}
