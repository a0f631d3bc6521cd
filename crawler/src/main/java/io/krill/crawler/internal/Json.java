package io.krill.crawler.internal;

/** A minimal JSON object writer for flat log lines (no library needed for output-only JSON). Not API. */
public final class Json {
  private final StringBuilder sb = new StringBuilder(256).append('{');
  private boolean first = true;

  /** @return this, with {@code "name": value} added; null values become JSON null */
  public Json put(String name, String value) {
    key(name);
    if (value == null) {
      sb.append("null");
    } else {
      quote(sb, value);
    }
    return this;
  }

  /** @return this, with a number added */
  public Json put(String name, long value) {
    key(name);
    sb.append(value);
    return this;
  }

  /** @return this, with a number added; NaN becomes null */
  public Json put(String name, double value) {
    key(name);
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      sb.append("null");
    } else {
      sb.append(value);
    }
    return this;
  }

  /** @return this, with a boolean added */
  public Json put(String name, boolean value) {
    key(name);
    sb.append(value);
    return this;
  }

  /** @return this, with {@code raw} (already JSON) added */
  public Json putRaw(String name, String raw) {
    key(name);
    sb.append(raw);
    return this;
  }

  private void key(String name) {
    if (!first) {
      sb.append(',');
    }
    first = false;
    quote(sb, name);
    sb.append(':');
  }

  @Override
  public String toString() {
    return sb + "}";
  }

  /** Appends {@code s} as a JSON string literal. */
  public static void quote(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"': sb.append("\\\""); break;
        case '\\': sb.append("\\\\"); break;
        case '\n': sb.append("\\n"); break;
        case '\r': sb.append("\\r"); break;
        case '\t': sb.append("\\t"); break;
        default:
          if (c < 0x20 || c == 0x2028 || c == 0x2029) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
      }
    }
    sb.append('"');
  }
}
