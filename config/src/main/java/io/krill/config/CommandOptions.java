package io.krill.config;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A schema as picocli options: one flag per setting, with its help line and default, so that no
 * option is written twice. Values given on the command line become the flag layer of a
 * {@link ConfigLoader}; a bad one is reported naming the flag as typed.
 *
 * <pre>{@code
 * CommandLine cl = new CommandLine(command);
 * CommandOptions.addTo(cl.getCommandSpec(), SCHEMA);
 * ...
 * Settings s = CommandOptions.flags(cl.getCommandSpec(), SCHEMA, SCHEMA.loader()).load();
 * }</pre>
 *
 * <p>Stateless; thread-safe.
 */
public final class CommandOptions {
  /** The exit status of bad usage. */
  public static final int USAGE = 2;
  /** The launcher's name, first on every usage line. */
  private static final String LAUNCHER = "krill";

  private CommandOptions() {}

  /**
   * The spec of a command whose options are a schema's settings: its name, {@code --help} and
   * {@code --version}, its description and one option per setting.
   *
   * @param command the object whose {@code call()} runs the command
   * @param name the subcommand's name, as typed after {@code krill}
   * @param description the help's description
   * @param schema the settings
   * @return the spec
   */
  public static CommandSpec spec(Object command, String name, String description, ConfigSchema schema) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(command);
    spec.name(name).mixinStandardHelpOptions(true);
    spec.usageMessage().description(description);
    addTo(spec, schema);
    return spec;
  }

  /**
   * The command line of {@code spec}, writing to {@code out} and {@code err}; a flag picocli
   * cannot parse is one usage line (see {@link #usageError}) and exit status 2.
   *
   * @param spec the command
   * @param out where help and the command's output go
   * @param err where errors go
   * @return the command line
   */
  public static CommandLine commandLine(CommandSpec spec, PrintStream out, PrintStream err) {
    CommandLine cl = new CommandLine(spec);
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    cl.setParameterExceptionHandler((e, args) -> usageError(err, e));
    return cl;
  }

  /**
   * Prints the one usage line every krill command prints for bad input:
   * {@code krill NAME: MESSAGE (see krill NAME --help)}, or {@code krill: MESSAGE (see krill --help)}
   * for the launcher itself.
   *
   * @param err where it goes
   * @param name the subcommand as typed after {@code krill}, e.g. {@code crawl} or {@code fibers dump};
   *     empty for the launcher itself
   * @param message what is wrong, naming the flag as typed
   * @return {@link #USAGE}
   */
  public static int usageError(PrintStream err, String name, String message) {
    String command = name.isEmpty() ? LAUNCHER : LAUNCHER + " " + name;
    err.println(command + ": " + message + " (see " + command + " --help)");
    return USAGE;
  }

  /**
   * Makes sure a command can write where it was told to before it spends any time: creates the
   * directory if needed and checks that it is writable.
   *
   * @param option the option that named it, as typed (e.g. {@code --out})
   * @param dir the directory, as given or the default
   * @return {@code dir}
   * @throws IllegalArgumentException naming {@code option} and what went wrong if it cannot be
   *     created or written
   */
  public static Path writableDirectory(String option, Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new IllegalArgumentException(option + ": " + dir + " (expected: a directory krill can write; "
          + describe(e) + ")", e);
    }
    if (!Files.isWritable(dir)) {
      throw new IllegalArgumentException(option + ": " + dir + " (expected: a directory krill can write; it is read-only)");
    }
    return dir;
  }

  /** Exit status of a command that failed at run time (a file it could not write, a port in use). */
  public static final int FAILED = 1;

  /**
   * Prints the one line a krill command prints when a file or socket operation fails at run time:
   * {@code krill NAME: DOING: WHAT}, and returns {@link #FAILED}.
   *
   * @param err where it goes
   * @param name the subcommand as typed after {@code krill}
   * @param doing what the command was doing, e.g. {@code cannot start the output}; empty for none
   * @param e what failed
   * @return {@link #FAILED}
   */
  public static int ioError(PrintStream err, String name, String doing, IOException e) {
    err.println(LAUNCHER + " " + name + ": " + (doing.isEmpty() ? "" : doing + ": ") + describe(e));
    return FAILED;
  }

  /**
   * Says what an I/O failure was in words: a file system exception's message is often only the
   * path ({@code /proc/x}), so the path comes with what went wrong with it.
   *
   * @param e the failure
   * @return e.g. {@code /proc/x: no such file or directory}, or the message of another exception
   */
  public static String describe(IOException e) {
    if (e instanceof FileSystemException) {
      FileSystemException f = (FileSystemException) e;
      String what = f.getReason() != null ? f.getReason()
          : e instanceof NoSuchFileException ? "no such file or directory"
          : e instanceof AccessDeniedException ? "permission denied"
          : e instanceof FileAlreadyExistsException ? "already exists"
          : e instanceof NotDirectoryException ? "not a directory"
          : e instanceof DirectoryNotEmptyException ? "directory not empty"
          : e instanceof FileSystemLoopException ? "a loop of links"
          : e.getClass().getSimpleName();
      String file = f.getFile() == null ? "" : f.getFile();
      String other = f.getOtherFile() == null ? "" : " -> " + f.getOtherFile();
      return file.isEmpty() && other.isEmpty() ? what : file + other + ": " + what;
    }
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
  }

  /**
   * Prints one usage line (see {@link #usageError(PrintStream, String, String)}) per problem of
   * the settings, each {@link #describe described} as the user gave the value.
   *
   * @param err where they go
   * @param name the subcommand as typed after {@code krill}
   * @param e what loading or binding the settings refused
   * @return {@link #USAGE}
   */
  public static int usageError(PrintStream err, String name, ConfigException e) {
    for (ConfigException.Problem p : e.problems()) {
      usageError(err, name, describe(p));
    }
    return USAGE;
  }

  /**
   * Prints the usage line (see {@link #usageError(PrintStream, String, String)}) of a command line
   * picocli could not parse, naming the (sub)command the bad argument was given to.
   *
   * @param err where it goes
   * @param e what picocli refused; its message quotes the argument as typed
   * @return {@link #USAGE}
   */
  public static int usageError(PrintStream err, CommandLine.ParameterException e) {
    return usageError(err, nameAfterLauncher(e.getCommandLine().getCommandSpec()), e.getMessage());
  }

  /* "fibers dump" under the launcher, "" for the launcher itself; a command run alone, outside the
     launcher, is its own name. */
  private static String nameAfterLauncher(CommandSpec spec) {
    String qualified = spec.qualifiedName(" ");
    if (qualified.equals(LAUNCHER)) {
      return "";
    }
    return qualified.startsWith(LAUNCHER + " ") ? qualified.substring(LAUNCHER.length() + 1) : qualified;
  }

  /**
   * Adds one option per setting of {@code schema}: switches for booleans, repeatable options for
   * lists, a text value otherwise (read by the setting's own type when loading).
   *
   * @param spec the command
   * @param schema the settings
   */
  public static void addTo(CommandSpec spec, ConfigSchema schema) {
    for (Setting<?> s : schema.settings()) {
      spec.addOption(option(s));
    }
  }

  private static OptionSpec option(Setting<?> s) {
    OptionSpec.Builder o = OptionSpec.builder(s.flag()).description(s.doc() + defaultNote(s));
    if (s.isSwitch()) {
      return o.arity("0").type(boolean.class).build();
    }
    if (s.isList()) {
      return o.paramLabel(s.paramLabel()).type(List.class).auxiliaryTypes(String.class).build();
    }
    return o.paramLabel(s.paramLabel()).type(String.class).build();
  }

  /* An optional setting says in its doc what its absence means; a switch says what it turns off. */
  private static String defaultNote(Setting<?> s) {
    if (s.isSwitch()) {
      return s.defaultValue().map(Boolean.TRUE::equals).orElse(false) ? " (default: on; this flag turns it off)" : "";
    }
    if (s.isList() || s.defaultValue().isEmpty()) {
      return "";
    }
    return " (default: " + s.describeDefault() + ")";
  }

  /**
   * Puts the options of {@code schema} that the last parse matched into the flag layer of a
   * loader.
   *
   * @param spec a command that {@link #addTo} was called on, after parsing
   * @param schema the same settings
   * @param loader a loader of a schema holding them
   * @return {@code loader}
   */
  @SuppressWarnings("unchecked")
  public static ConfigLoader flags(CommandSpec spec, ConfigSchema schema, ConfigLoader loader) {
    for (Setting<?> s : schema.settings()) {
      OptionSpec o = spec.findOption(s.flag());
      Object value = o == null ? null : o.getValue();
      if (s.isSwitch() && Boolean.TRUE.equals(value)) {
        loader.flag(s, String.valueOf(!s.defaultValue().map(Boolean.TRUE::equals).orElse(false)), s.flag());
      } else if (s.isList() && value instanceof List && !((List<?>) value).isEmpty()) {
        loader.flag((Setting<List<String>>) s, (List<String>) value, s.flag());
      } else if (!s.isSwitch() && !s.isList() && value != null) {
        loader.flag(s, (String) value, s.flag());
      }
    }
    return loader;
  }

  /**
   * A problem as a command-line user reads it: {@code --max-pages: 0 (expected: >= 1)} for a
   * dedicated flag, the problem with its origin otherwise ({@code --set KEY=VALUE}, a file or the
   * environment need the key too).
   *
   * @param problem a problem of a {@link ConfigException}
   * @return one line
   */
  public static String describe(ConfigException.Problem problem) {
    String origin = problem.origin();
    if (origin.startsWith("flag --") && !origin.equals(ConfigLoader.SET_FLAG) && problem.value() != null) {
      return origin.substring("flag ".length()) + ": " + problem.value() + " (" + problem.reason() + ")";
    }
    return problem.toString();
  }
}
