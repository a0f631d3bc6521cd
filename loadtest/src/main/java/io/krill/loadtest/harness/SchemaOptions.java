package io.krill.loadtest.harness;

import io.krill.config.ConfigException;
import io.krill.config.ConfigLoader;
import io.krill.config.ConfigSchema;
import io.krill.config.Setting;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A schema as picocli options: one flag per setting, {@code --} and the key's last segment
 * ({@code --no-} for a boolean that is on by default), its doc and default as the help line;
 * the matched flags become the flag layer of a {@link ConfigLoader}, so a bad value is reported
 * naming the flag as typed. A list setting (one with a list default) may repeat its flag or give
 * a comma-separated list.
 * Stateless; thread-safe.
 */
final class SchemaOptions {
  private SchemaOptions() {}

  /** @return the flag of a setting, e.g. {@code --max-pages} or {@code --no-wrk} */
  static String flag(Setting<?> s) {
    String last = s.key().substring(s.key().lastIndexOf('.') + 1);
    return (isSwitch(s) && Boolean.TRUE.equals(s.defaultValue().orElse(null)) ? "--no-" : "--") + last;
  }

  private static boolean isSwitch(Setting<?> s) {
    return s.defaultValue().orElse(null) instanceof Boolean;
  }

  /** Adds one option per setting of {@code schema} to {@code spec}. */
  static void addTo(CommandSpec spec, ConfigSchema schema) {
    for (Setting<?> s : schema.settings()) {
      OptionSpec.Builder o = OptionSpec.builder(flag(s)).description(description(s));
      if (isSwitch(s)) {
        spec.addOption(o.arity("0").type(boolean.class).build());
      } else if (isList(s)) {
        spec.addOption(o.paramLabel(label(s)).type(List.class).auxiliaryTypes(String.class).build());
      } else {
        spec.addOption(o.paramLabel(label(s)).type(String.class).build());
      }
    }
  }

  private static boolean isList(Setting<?> s) {
    return s.defaultValue().orElse(null) instanceof List;
  }

  private static String description(Setting<?> s) {
    return flag(s).startsWith("--no-") ? "Turns off: " + s.doc() : s.doc() + defaultNote(s);
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
   * Puts the options of {@code schema} that the last parse matched into the flag layer of {@code loader}.
   *
   * @return {@code loader}
   */
  @SuppressWarnings("unchecked")
  static ConfigLoader flags(CommandSpec spec, ConfigSchema schema, ConfigLoader loader) {
    for (Setting<?> s : schema.settings()) {
      OptionSpec o = spec.findOption(flag(s));
      Object value = o.getValue();
      if (isSwitch(s) && Boolean.TRUE.equals(value)) {
        loader.flag(s, String.valueOf(!Boolean.TRUE.equals(s.defaultValue().orElse(null))), flag(s));
      } else if (value instanceof List && !((List<String>) value).isEmpty()) {
        loader.flag(s, String.join(",", (List<String>) value), flag(s));
      } else if (value instanceof String) {
        loader.flag(s, (String) value, flag(s));
      }
    }
    return loader;
  }

  /** @return a problem as a command-line user reads it: {@code --rounds: 0 (expected: 1..20)} for a flag */
  static String describe(ConfigException.Problem p) {
    if (p.origin() != null && p.origin().startsWith("flag --") && p.value() != null) {
      return p.origin().substring("flag ".length()) + ": " + p.value() + " (" + p.reason() + ")";
    }
    return p.toString();
  }
}
