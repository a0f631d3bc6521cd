package io.krill.loadtest.launch;

import io.krill.config.ConfigException;
import io.krill.config.ConfigLoader;
import io.krill.config.ConfigSchema;
import io.krill.config.Setting;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A schema as picocli options: one flag per setting, {@code --} and the key's last segment
 * ({@code --no-} for a boolean that is on by default), its doc and default as the help line;
 * the matched flags become the flag layer of a {@link ConfigLoader}, so a bad value is reported
 * naming the flag as typed. A list setting (one with a list default) may repeat its flag or give
 * a comma-separated list.
 * A command may also give only some settings a flag, named as it likes ({@link #addTo(CommandSpec,
 * Map)}). Stateless; thread-safe.
 */
public final class SchemaOptions {
  private SchemaOptions() {}

  /**
   * The flag a setting gets by default.
   *
   * @param s a setting
   * @return e.g. {@code --max-pages}, or {@code --no-wrk} for a boolean that is on by default
   */
  public static String flag(Setting<?> s) {
    String last = s.key().substring(s.key().lastIndexOf('.') + 1);
    return (isSwitch(s) && Boolean.TRUE.equals(s.defaultValue().orElse(null)) ? "--no-" : "--") + last;
  }

  private static boolean isSwitch(Setting<?> s) {
    return s.defaultValue().orElse(null) instanceof Boolean;
  }

  /**
   * Adds one option per setting of {@code schema}, each named by {@link #flag(Setting)}.
   *
   * @param spec the command
   * @param schema the settings
   */
  public static void addTo(CommandSpec spec, ConfigSchema schema) {
    addTo(spec, defaultFlags(schema));
  }

  /**
   * Adds one option per entry: the setting and the flag that sets it.
   *
   * @param spec the command
   * @param flags settings and their flags, in help order
   */
  public static void addTo(CommandSpec spec, Map<Setting<?>, String> flags) {
    flags.forEach((s, flag) -> {
      OptionSpec.Builder o = OptionSpec.builder(flag).description(description(s, flag));
      if (isSwitch(s)) {
        spec.addOption(o.arity("0").type(boolean.class).build());
      } else if (isList(s)) {
        spec.addOption(o.paramLabel(label(s)).type(List.class).auxiliaryTypes(String.class).build());
      } else {
        spec.addOption(o.paramLabel(label(s)).type(String.class).build());
      }
    });
  }

  private static Map<Setting<?>, String> defaultFlags(ConfigSchema schema) {
    Map<Setting<?>, String> flags = new LinkedHashMap<>();
    for (Setting<?> s : schema.settings()) {
      flags.put(s, flag(s));
    }
    return flags;
  }

  private static boolean isList(Setting<?> s) {
    return s.defaultValue().orElse(null) instanceof List;
  }

  private static String description(Setting<?> s, String flag) {
    return flag.startsWith("--no-") ? "Turns off: " + s.doc() : s.doc() + defaultNote(s);
  }

  private static String label(Setting<?> s) {
    String last = s.key().substring(s.key().lastIndexOf('.') + 1);
    return last.replace('-', '_').toUpperCase(Locale.ROOT);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static String defaultNote(Setting<?> s) {
    if (isSwitch(s) || s.defaultValue().isEmpty()) {
      return "";
    }
    String d = ((Setting) s).format(s.defaultValue().get());
    return d.isEmpty() ? "" : " (default: " + d + ")";
  }

  /**
   * Puts the options of {@code schema} that the last parse matched into the flag layer of a loader.
   *
   * @param spec a command that {@link #addTo(CommandSpec, ConfigSchema)} was called on, after parsing
   * @param schema the same settings
   * @param loader a loader of that schema
   * @return {@code loader}
   */
  public static ConfigLoader flags(CommandSpec spec, ConfigSchema schema, ConfigLoader loader) {
    return flags(spec, defaultFlags(schema), loader);
  }

  /**
   * Puts the options of {@code flags} that the last parse matched into the flag layer of a loader.
   *
   * @param spec a command that {@link #addTo(CommandSpec, Map)} was called on, after parsing
   * @param flags the same settings and flags
   * @param loader a loader of a schema holding them
   * @return {@code loader}
   */
  @SuppressWarnings("unchecked")
  public static ConfigLoader flags(CommandSpec spec, Map<Setting<?>, String> flags, ConfigLoader loader) {
    flags.forEach((s, flag) -> {
      Object value = spec.findOption(flag).getValue();
      if (isSwitch(s) && Boolean.TRUE.equals(value)) {
        loader.flag(s, String.valueOf(!Boolean.TRUE.equals(s.defaultValue().orElse(null))), flag);
      } else if (value instanceof List && !((List<String>) value).isEmpty()) {
        loader.flag(s, String.join(",", (List<String>) value), flag);
      } else if (value instanceof String) {
        loader.flag(s, (String) value, flag);
      }
    });
    return loader;
  }

  /**
   * A problem as a command-line user reads it.
   *
   * @param p a problem of a {@link ConfigException}
   * @return {@code --rounds: 0 (expected: 1..20)} for a flag, the problem with its origin otherwise
   */
  public static String describe(ConfigException.Problem p) {
    if (p.origin() != null && p.origin().startsWith("flag --") && p.value() != null) {
      return p.origin().substring("flag ".length()) + ": " + p.value() + " (" + p.reason() + ")";
    }
    return p.toString();
  }
}
