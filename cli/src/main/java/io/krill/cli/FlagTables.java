package io.krill.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The flag tables of the docs, generated: for {@code serve} (whose settings are keys) the
 * settings table of its schema, for every other subcommand a table of the options picocli holds
 * for it (for {@code loadtest}, derived from its schema). A page marks a
 * table with {@code <!-- flags:NAME -->} and {@code <!-- /flags:NAME -->}; {@link #rewrite}
 * replaces what lies between. Stateless; thread-safe.
 */
final class FlagTables {
  /** A marked section: group 1 the command, group 2 the table. */
  static final Pattern SECTION = Pattern.compile("(?s)<!-- flags:([a-z-]+) -->\\n(.*?)<!-- /flags:\\1 -->");

  /* A help line's trailing "(default: X)", which becomes the default column. */
  private static final Pattern DEFAULT_NOTE = Pattern.compile("\\s*\\(default: ([^()]*)\\)$");

  private FlagTables() {}

  /**
   * The table of one command.
   *
   * @param command a subcommand of krill
   * @return its Markdown table, ending with a newline
   * @throws IllegalArgumentException if krill has no such subcommand
   */
  static String markdown(String command) {
    if (command.equals("serve")) {
      return ServeSettings.SCHEMA.markdownTable();
    }
    CommandLine sub = Krill.commandLine().getSubcommands().get(command);
    if (sub == null) {
      throw new IllegalArgumentException("--flags: " + command + " (expected: one of "
          + Krill.commandLine().getSubcommands().keySet() + ")");
    }
    StringBuilder b = new StringBuilder("| flag | default | meaning |\n|---|---|---|\n");
    for (OptionSpec o : sub.getCommandSpec().options()) {
      if (o.hidden() || o.usageHelp() || o.versionHelp()) {
        continue;
      }
      String flag = o.longestName() + (o.arity().max() > 0 ? " " + o.paramLabel() : "");
      String def = o.defaultValue() == null ? "" : o.defaultValue();
      String meaning = String.join(" ", o.description()).replace("${DEFAULT-VALUE}", def);
      Matcher m = DEFAULT_NOTE.matcher(meaning);
      if (m.find()) {
        def = m.group(1);
        meaning = meaning.substring(0, m.start());
      }
      b.append("| `").append(cell(flag)).append("` | ").append(def.isEmpty() ? "" : "`" + cell(def) + "`").append(" | ")
          .append(cell(meaning)).append(" |\n");
    }
    return b.toString();
  }

  /* A table cell's text; a '|' is escaped in code spans too, or GitHub splits the cell there. */
  private static String cell(String s) {
    return s.replace("|", "\\|").replace("\n", " ");
  }

  /**
   * Replaces every marked table in a page with the generated one.
   *
   * @param page a Markdown page
   * @return the page with every marked section regenerated
   */
  static String rewrite(String page) {
    Matcher m = SECTION.matcher(page);
    StringBuilder b = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(b, Matcher.quoteReplacement("<!-- flags:" + m.group(1) + " -->\n" + markdown(m.group(1))
          + "<!-- /flags:" + m.group(1) + " -->"));
    }
    m.appendTail(b);
    return b.toString();
  }

  /** @return the commands whose tables a page marks, in order */
  static List<String> marked(String page) {
    List<String> names = new ArrayList<>();
    Matcher m = SECTION.matcher(page);
    while (m.find()) {
      names.add(m.group(1).toLowerCase(Locale.ROOT));
    }
    return names;
  }
}
