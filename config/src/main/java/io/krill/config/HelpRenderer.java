package io.krill.config;

/** Renders a schema as aligned help text or as a Markdown table. */
final class HelpRenderer {
  private HelpRenderer() {}

  static String text(ConfigSchema schema) {
    String[] head = {"SETTING", "TYPE", "DEFAULT", "DESCRIPTION"};
    int[] width = new int[3];
    for (int i = 0; i < 3; i++) {
      width[i] = head[i].length();
    }
    for (Setting<?> s : schema.settings()) {
      width[0] = Math.max(width[0], s.key().length());
      width[1] = Math.max(width[1], s.describeType().length());
      width[2] = Math.max(width[2], s.describeDefault().length());
    }
    StringBuilder sb = new StringBuilder();
    row(sb, width, head);
    for (Setting<?> s : schema.settings()) {
      row(sb, width, new String[] {s.key(), s.describeType(), s.describeDefault(), s.doc()});
    }
    String example = schema.settings().isEmpty() ? "a.b" : schema.settings().get(0).key();
    sb.append("Environment: ").append(schema.envPrefix())
        .append("<SETTING> in upper case with . and - as _ (")
        .append(example).append(" is ").append(ConfigSchema.envName(schema.envPrefix(), example))
        .append(").\n");
    return sb.toString();
  }

  private static void row(StringBuilder sb, int[] width, String[] cells) {
    sb.append("  ");
    for (int i = 0; i < 3; i++) {
      sb.append(cells[i]);
      sb.append(" ".repeat(width[i] - cells[i].length() + 2));
    }
    sb.append(cells[3]).append('\n');
  }

  static String markdown(ConfigSchema schema) {
    StringBuilder sb = new StringBuilder();
    sb.append("| Setting | Environment | Type | Default | Description |\n");
    sb.append("|---|---|---|---|---|\n");
    for (Setting<?> s : schema.settings()) {
      sb.append("| `").append(s.key()).append("` | `").append(schema.envName(s)).append("` | ")
          .append(cell(s.describeType())).append(" | `").append(cell(s.describeDefault())).append("` | ")
          .append(cell(s.doc())).append(" |\n");
    }
    return sb.toString();
  }

  private static String cell(String text) {
    return text.replace("|", "\\|");
  }
}
