package io.krill.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigValueType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Loads {@link Settings} from layers, lowest to highest: the schema's defaults, one optional
 * HOCON file, environment variables, then flags. A higher layer replaces a lower one's value
 * before checking, so a flag can override a bad value in the file. Unknown keys inside the
 * schema's namespaces are errors in every layer. All problems are collected into one
 * {@link ConfigException}. The schema's cross-setting rules run last, once every value passed
 * its own checks.
 *
 * <p>Typesafe Config parses the file (HOCON, with includes and substitutions resolved against
 * the file and the process environment), merges the layers and carries each value's origin.
 *
 * <p>Not thread-safe: configure and {@link #load()} on one thread.
 */
public final class ConfigLoader {
  /** The origin of a {@link #set(String)} assignment. */
  static final String SET_FLAG = "flag --set";

  private final ConfigSchema schema;
  private Path file;
  private Map<String, String> environment = System.getenv();
  private final List<Object[]> flags = new ArrayList<>();

  ConfigLoader(ConfigSchema schema) {
    this.schema = schema;
  }

  /**
   * Reads a HOCON file as the layer above the defaults. The file must exist.
   *
   * @param path the file, or {@code null} for none
   * @return this loader
   */
  public ConfigLoader file(Path path) {
    this.file = path;
    return this;
  }

  /**
   * Replaces the environment (default {@link System#getenv()}), e.g. with a map in tests.
   *
   * @param env variable names to values
   * @return this loader
   */
  public ConfigLoader environment(Map<String, String> env) {
    this.environment = Map.copyOf(Objects.requireNonNull(env, "env"));
    return this;
  }

  /**
   * Adds a {@code key=value} assignment from a {@code --set} flag. Flags apply in the order
   * added; a later one wins.
   *
   * @param assignment e.g. {@code httpd.port=9000}
   * @return this loader
   */
  public ConfigLoader set(String assignment) {
    Objects.requireNonNull(assignment, "assignment");
    int eq = assignment.indexOf('=');
    flags.add(eq < 0
        ? new Object[] {null, assignment, SET_FLAG}
        : new Object[] {assignment.substring(0, eq).trim(), assignment.substring(eq + 1), SET_FLAG});
    return this;
  }

  /**
   * Adds the value of a dedicated flag such as {@code --port}. Flags apply in the order added; a
   * later one wins.
   *
   * @param setting the setting the flag sets
   * @param value the flag's text, parsed like any other layer's
   * @param flagName the flag as the user typed it, e.g. {@code --port}; errors say
   *     {@code from flag --port}
   * @return this loader
   */
  public ConfigLoader flag(Setting<?> setting, String value, String flagName) {
    schema.requireMember(setting);
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(flagName, "flagName");
    flags.add(new Object[] {setting.key(), value, "flag " + flagName});
    return this;
  }

  /**
   * Sets a list setting from a repeated flag, one element per occurrence (no splitting at commas).
   *
   * @param setting a list setting of this schema
   * @param values the elements, in order
   * @param flagName the flag as typed, e.g. {@code --include}; errors name it as the origin
   * @return this loader
   */
  public ConfigLoader flag(Setting<List<String>> setting, List<String> values, String flagName) {
    schema.requireMember(setting);
    Objects.requireNonNull(flagName, "flagName");
    flags.add(new Object[] {setting.key(), List.copyOf(values), "flag " + flagName});
    return this;
  }

  /**
   * Loads and checks every setting.
   *
   * @return the settings
   * @throws ConfigException naming every bad value, unknown key or unreadable file
   */
  public Settings load() {
    List<ConfigException.Problem> problems = new ArrayList<>();
    Config file = fileLayer(problems);
    Config env = environmentLayer(problems);
    Config flagged = flagLayer(problems);
    Config merged = flagged.withFallback(env).withFallback(file);
    Map<Setting<?>, Object> values = new HashMap<>();
    Map<Setting<?>, String> origins = new HashMap<>();
    for (Setting<?> s : schema.settings()) {
      resolve(s, merged, values, origins, problems);
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    Settings settings = new Settings(schema, values, origins);
    for (ConfigSchema.Rule r : schema.rules()) {
      if (!r.test.test(settings)) {
        problems.add(new ConfigException.Problem(r.subject.key(), settings.describe(r.subject),
            settings.origin(r.subject), "expected: " + r.expectation));
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return settings;
  }

  private <T> void resolve(Setting<T> s, Config merged, Map<Setting<?>, Object> values,
      Map<Setting<?>, String> origins, List<ConfigException.Problem> problems) {
    ConfigValue v = lookup(merged, s.key());
    if (v == null) {
      s.defaultValue().ifPresent(d -> values.put(s, d));
      origins.put(s, "default");
      return;
    }
    String origin = describe(v.origin());
    T value = s.type().fromConfig(v);
    if (value == null) {
      problems.add(new ConfigException.Problem(s.key(), render(v), origin, "expected: " + s.type().expectation()));
      return;
    }
    String failed = s.failedExpectation(value);
    if (failed != null) {
      problems.add(new ConfigException.Problem(s.key(), render(v), origin, "expected: " + failed));
      return;
    }
    values.put(s, value);
    origins.put(s, origin);
  }

  private static ConfigValue lookup(Config config, String key) {
    try {
      return config.hasPath(key) ? config.getValue(key) : null;
    } catch (com.typesafe.config.ConfigException e) {
      return null; // a parent is not an object; the unknown-key check has reported it
    }
  }

  private Config fileLayer(List<ConfigException.Problem> problems) {
    if (file == null) {
      return ConfigFactory.empty();
    }
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      problems.add(new ConfigException.Problem(null, null, "file " + file,
          Files.exists(file) ? "not a readable regular file" : "no such file"));
      return ConfigFactory.empty();
    }
    Config config;
    try {
      config = ConfigFactory.parseFile(file.toFile(),
          ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF).setAllowMissing(false)).resolve();
    } catch (com.typesafe.config.ConfigException e) {
      problems.add(new ConfigException.Problem(null, null,
          e.origin() == null ? "file " + file : describe(e.origin()), "malformed HOCON: " + strip(e)));
      return ConfigFactory.empty();
    }
    for (Map.Entry<String, ConfigValue> e : new TreeMap<>(leaves(config)).entrySet()) {
      String path = e.getKey();
      if (schema.setting(path) == null) {
        String ns = namespaceOf(path);
        if (ns != null) {
          problems.add(unknown(path, render(e.getValue()), describe(e.getValue().origin()), ns));
        }
      }
    }
    return config;
  }

  /* Leaf values including nulls, which entrySet() leaves out: "httpd.prot = null" is still a typo. */
  private static Map<String, ConfigValue> leaves(Config config) {
    Map<String, ConfigValue> out = new HashMap<>();
    collect(config.root(), new ArrayList<>(), out);
    return out;
  }

  private static void collect(ConfigObject object, List<String> path, Map<String, ConfigValue> out) {
    for (Map.Entry<String, ConfigValue> e : object.entrySet()) {
      path.add(e.getKey());
      if (e.getValue() instanceof ConfigObject) {
        collect((ConfigObject) e.getValue(), path, out);
      } else {
        out.put(ConfigUtil.joinPath(path), e.getValue());
      }
      path.remove(path.size() - 1);
    }
  }

  private Config environmentLayer(List<ConfigException.Problem> problems) {
    Config config = ConfigFactory.empty();
    for (Map.Entry<String, String> e : new TreeMap<>(environment).entrySet()) {
      String name = e.getKey();
      Setting<?> s = schema.byEnv().get(name);
      String origin = "environment " + name;
      if (s != null) {
        config = config.withValue(s.key(), ConfigValueFactory.fromAnyRef(e.getValue(), origin));
      } else if (inEnvNamespace(name)) {
        String near = Suggestions.nearest(name, schema.byEnv().keySet(), '_');
        problems.add(new ConfigException.Problem(name, show(e.getValue()), origin,
            "unknown environment variable" + (near == null ? "" : "; did you mean " + near + "?")));
      }
    }
    return config;
  }

  private boolean inEnvNamespace(String name) {
    for (String ns : schema.namespaces()) {
      if (name.startsWith(ConfigSchema.envName(schema.envPrefix(), ns) + "_")) {
        return true;
      }
    }
    return false;
  }

  private Config flagLayer(List<ConfigException.Problem> problems) {
    Config config = ConfigFactory.empty();
    for (Object[] f : flags) {
      String key = (String) f[0];
      String origin = (String) f[2];
      if (key == null) {
        problems.add(new ConfigException.Problem(null, show(String.valueOf(f[1])), origin, "expected: key=value"));
      } else if (schema.setting(key) == null) {
        problems.add(unknown(key, show(String.valueOf(f[1])), origin, namespaceOf(key)));
      } else {
        config = config.withValue(key, ConfigValueFactory.fromAnyRef(f[1], origin));
      }
    }
    return config;
  }

  private ConfigException.Problem unknown(String key, String value, String origin, String namespace) {
    String candidate = key;
    int dot = key.indexOf('.');
    if (namespace != null && dot > 0) {
      candidate = namespace + key.substring(dot); // "htpd.port" is looked up as "httpd.port"
    }
    String near = Suggestions.nearest(candidate, schema.keys(), '.');
    return new ConfigException.Problem(key, value, origin,
        "unknown key" + (near == null ? "" : "; did you mean " + near + "?"));
  }

  /** The namespace a top-level key belongs to: itself, or one a typo away ("htpd"); else null. */
  private String namespaceOf(String path) {
    int dot = path.indexOf('.');
    String first = (dot < 0 ? path : path.substring(0, dot)).replace("\"", "");
    if (schema.namespaces().contains(first)) {
      return first;
    }
    for (String ns : schema.namespaces()) {
      if (Suggestions.distance(first, ns) <= Math.max(1, ns.length() / 4)) {
        return ns;
      }
    }
    return null;
  }

  static String describe(ConfigOrigin origin) {
    if (origin.filename() != null) {
      return "file " + origin.filename() + (origin.lineNumber() > 0 ? " line " + origin.lineNumber() : "");
    }
    return origin.description();
  }

  private static String strip(com.typesafe.config.ConfigException e) {
    String m = e.getMessage();
    if (e.origin() != null && m.startsWith(e.origin().description() + ": ")) {
      return m.substring(e.origin().description().length() + 2);
    }
    return m;
  }

  private static String render(ConfigValue v) {
    if (v.valueType() == ConfigValueType.STRING) {
      return show((String) v.unwrapped());
    }
    if (v.valueType() == ConfigValueType.NUMBER || v.valueType() == ConfigValueType.BOOLEAN) {
      return String.valueOf(v.unwrapped());
    }
    return v.render(ConfigRenderOptions.concise());
  }

  private static String show(String s) {
    return s.isEmpty() ? "\"\"" : s;
  }
}
