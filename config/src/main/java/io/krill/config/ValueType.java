package io.krill.config;

import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How one kind of setting value is read from text or HOCON, written back for help, and ordered
 * for range checks. Every layer (file, environment, flag) goes through {@link #parse}, so a value
 * means the same wherever it comes from.
 *
 * @param <T> the Java type of the value
 */
abstract class ValueType<T> {
  private final String name;
  private final String expectation;
  private final String label;

  ValueType(String name, String expectation) {
    this(name, expectation, null);
  }

  /** @param label the flags' parameter label, e.g. {@code N}; {@code null}: the key's last segment in upper case */
  ValueType(String name, String expectation, String label) {
    this.name = name;
    this.expectation = expectation;
    this.label = label;
  }

  /** The short name shown in help, e.g. {@code int} or {@code duration}. */
  final String name() {
    return name;
  }

  /** The type column of help; enums list their values. */
  String describe() {
    return name;
  }

  /** The parameter label of a flag of this type in help; {@code name} is the key's last segment. */
  String paramLabel(String name) {
    return label != null ? label : name.toUpperCase(Locale.ROOT);
  }

  /** What a parse failure expected, e.g. {@code an integer}. */
  String expectation() {
    return expectation;
  }

  /** Parses a text value; returns {@code null} when it is not of this type. */
  abstract T parse(String text);

  /** Formats a value so that {@link #parse} reads it back. */
  String format(T value) {
    return String.valueOf(value);
  }

  /** The order used by range checks, or {@code null} for unordered types. */
  Comparator<? super T> order() {
    return null;
  }

  /** Whether the value is empty, for {@code nonEmpty()}; {@code false} for types without emptiness. */
  boolean isEmpty(T value) {
    return false;
  }

  /** Reads a HOCON value; returns {@code null} when it is not of this type. */
  T fromConfig(ConfigValue value) {
    ConfigValueType t = value.valueType();
    if (t == ConfigValueType.STRING || t == ConfigValueType.NUMBER || t == ConfigValueType.BOOLEAN) {
      return parse(String.valueOf(value.unwrapped()));
    }
    return null;
  }

  static final ValueType<Integer> INT = integral("int", Integer::valueOf);

  static final ValueType<Long> LONG = integral("long", Long::valueOf);

  /** A whole-number type read by {@code parser} (which throws NumberFormatException on a bad text), naturally ordered. */
  private static <T extends Comparable<T>> ValueType<T> integral(String name, Function<String, T> parser) {
    return new ValueType<>(name, "an integer", "N") {
      @Override
      T parse(String text) {
        try {
          return parser.apply(text.trim());
        } catch (NumberFormatException e) {
          return null;
        }
      }

      @Override
      Comparator<T> order() {
        return Comparator.naturalOrder();
      }
    };
  }

  static final ValueType<Double> DOUBLE = new ValueType<>("number", "a number", "X") {
    @Override
    Double parse(String text) {
      try {
        double d = Double.parseDouble(text.trim());
        return Double.isFinite(d) ? d : null;
      } catch (NumberFormatException e) {
        return null;
      }
    }

    @Override
    String format(Double value) {
      String s = Double.toString(value);
      return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }

    @Override
    Comparator<Double> order() {
      return Comparator.naturalOrder();
    }
  };

  static final ValueType<Boolean> BOOLEAN = new ValueType<>("boolean", "true or false") {
    @Override
    Boolean parse(String text) {
      switch (text.trim().toLowerCase(Locale.ROOT)) {
        case "true": case "yes": case "on":
          return Boolean.TRUE;
        case "false": case "no": case "off":
          return Boolean.FALSE;
        default:
          return null;
      }
    }
  };

  static final ValueType<String> STRING = new ValueType<>("string", "a string") {
    @Override
    String parse(String text) {
      return text;
    }

    @Override
    boolean isEmpty(String value) {
      return value.isEmpty();
    }
  };

  static final ValueType<Path> PATH = new ValueType<>("path", "a file system path") {
    @Override
    Path parse(String text) {
      if (text.isEmpty()) {
        return null;
      }
      try {
        return Path.of(text);
      } catch (InvalidPathException e) {
        return null;
      }
    }
  };

  static final ValueType<String> HOST = new ValueType<>("host", "a host name or IP address") {
    private final Pattern label = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?");
    private final Pattern ipv4 = Pattern.compile("[0-9]+(?:\\.[0-9]+){3}");

    @Override
    String parse(String text) {
      String s = text.trim();
      if (s.startsWith("[") && s.endsWith("]")) {
        s = s.substring(1, s.length() - 1);
      }
      if (s.isEmpty() || s.length() > 253) {
        return null;
      }
      if (s.indexOf(':') >= 0) {
        return isIpv6Literal(s) ? s : null;
      }
      if (ipv4.matcher(s).matches()) {
        for (String octet : s.split("\\.")) {
          if (octet.length() > 3 || Integer.parseInt(octet) > 255) {
            return null;
          }
        }
        return s;
      }
      for (String l : s.split("\\.", -1)) {
        if (!label.matcher(l).matches()) {
          return null;
        }
      }
      return s;
    }

    /* Only hex digits, colons and dots reach InetAddress, which then parses a literal and never
       looks anything up. */
    private boolean isIpv6Literal(String s) {
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (Character.digit(c, 16) < 0 && c != ':' && c != '.') {
          return false;
        }
      }
      try {
        InetAddress.getByName(s);
        return true;
      } catch (UnknownHostException e) {
        return false;
      }
    }
  };

  static final ValueType<List<String>> STRING_LIST =
      new ValueType<>("list", "a list of strings (HOCON list or comma-separated)") {
        @Override
        List<String> parse(String text) {
          List<String> out = new ArrayList<>();
          if (!text.trim().isEmpty()) {
            for (String part : text.split(",", -1)) {
              out.add(part.trim());
            }
          }
          return Collections.unmodifiableList(out);
        }

        @Override
        List<String> fromConfig(ConfigValue value) {
          if (value.valueType() != ConfigValueType.LIST) {
            return super.fromConfig(value);
          }
          List<String> out = new ArrayList<>();
          for (Object o : (List<?>) value.unwrapped()) {
            if (o instanceof List || o instanceof java.util.Map || o == null) {
              return null;
            }
            out.add(String.valueOf(o));
          }
          return Collections.unmodifiableList(out);
        }

        @Override
        String format(List<String> value) {
          return String.join(",", value);
        }

        @Override
        boolean isEmpty(List<String> value) {
          return value.isEmpty();
        }
      };

  static final ValueType<Duration> DURATION = new DurationType();
  static final ValueType<Long> BYTES = new ByteSizeType();

  static <E extends Enum<E>> ValueType<E> enumType(Class<E> type) {
    return new EnumType<>(type);
  }

  /** Text form of an enum constant: lower case, '-' for '_'. */
  static String enumText(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  private static final class EnumType<E extends Enum<E>> extends ValueType<E> {
    private final E[] constants;

    EnumType(Class<E> type) {
      super("enum", expectation(type.getEnumConstants()));
      this.constants = type.getEnumConstants();
    }

    private static String expectation(Enum<?>[] constants) {
      List<String> names = new ArrayList<>();
      for (Enum<?> c : constants) {
        names.add(enumText(c));
      }
      return "one of " + String.join(", ", names);
    }

    @Override
    String describe() {
      List<String> names = new ArrayList<>();
      for (E c : constants) {
        names.add(enumText(c));
      }
      return String.join("|", names);
    }

    @Override
    String paramLabel(String name) {
      return describe();
    }

    @Override
    E parse(String text) {
      String t = text.trim();
      for (E c : constants) {
        if (enumText(c).equalsIgnoreCase(t) || c.name().equalsIgnoreCase(t)) {
          return c;
        }
      }
      return null;
    }

    @Override
    String format(E value) {
      return enumText(value);
    }
  }

  /* Number and unit, e.g. "30s", "500 ms", "1.5h", "2 minutes". A bare number is refused (except 0)
     because "30" could mean seconds or milliseconds; HOCON's own default of milliseconds surprises. */
  private static final class DurationType extends ValueType<Duration> {
    private static final Pattern FORM = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-zµ]*)");
    private static final String[][] UNITS = {
      {"1", "ns", "nanos", "nanosecond", "nanoseconds"},
      {"1000", "us", "µs", "micros", "microsecond", "microseconds"},
      {"1000000", "ms", "millis", "millisecond", "milliseconds"},
      {"1000000000", "s", "second", "seconds"},
      {"60000000000", "m", "min", "mins", "minute", "minutes"},
      {"3600000000000", "h", "hour", "hours"},
      {"86400000000000", "d", "day", "days"},
    };

    DurationType() {
      super("duration", "a duration such as 30s or 500ms (units: ns, us, ms, s, m, h, d)", "TIME");
    }

    @Override
    Duration parse(String text) {
      Matcher m = FORM.matcher(text.trim());
      if (!m.matches()) {
        return null;
      }
      BigDecimal number = new BigDecimal(m.group(1));
      String unit = m.group(2);
      if (unit.isEmpty()) {
        return number.signum() == 0 ? Duration.ZERO : null;
      }
      for (String[] u : UNITS) {
        for (int i = 1; i < u.length; i++) {
          if (u[i].equals(unit)) {
            BigInteger nanos = number.multiply(new BigDecimal(u[0])).toBigInteger();
            return nanos.bitLength() < 63 ? Duration.ofNanos(nanos.longValueExact()) : null;
          }
        }
      }
      return null;
    }

    @Override
    String format(Duration value) {
      long nanos = value.toNanos();
      if (nanos == 0) {
        return "0s";
      }
      for (int i = UNITS.length - 1; i >= 0; i--) {
        long unit = Long.parseLong(UNITS[i][0]);
        if (nanos % unit == 0) {
          return nanos / unit + UNITS[i][1];
        }
      }
      return nanos + "ns";
    }

    @Override
    Comparator<Duration> order() {
      return Comparator.naturalOrder();
    }
  }

  /* HOCON's size units: k/K/Ki/KiB are 1024, kB is 1000, and so on up to T; a bare number is bytes. */
  private static final class ByteSizeType extends ValueType<Long> {
    private static final Pattern FORM = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z]*)");
    private static final String[] BINARY = {"KiB", "MiB", "GiB", "TiB"};

    ByteSizeType() {
      super("bytes", "a byte size such as 8k or 10MiB (k = 1024, kB = 1000)", "SIZE");
    }

    @Override
    Long parse(String text) {
      Matcher m = FORM.matcher(text.trim());
      if (!m.matches()) {
        return null;
      }
      BigInteger factor = factor(m.group(2));
      if (factor == null) {
        return null;
      }
      BigDecimal bytes = new BigDecimal(m.group(1)).multiply(new BigDecimal(factor));
      if (bytes.stripTrailingZeros().scale() > 0) {
        return null;
      }
      BigInteger n = bytes.toBigInteger();
      return n.bitLength() < 63 ? n.longValue() : null;
    }

    private static BigInteger factor(String unit) {
      switch (unit) {
        case "": case "B": case "b": case "byte": case "bytes":
          return BigInteger.ONE;
        default:
          break;
      }
      String[] prefixes = {"k", "m", "g", "t"};
      for (int i = 0; i < prefixes.length; i++) {
        String p = prefixes[i];
        String u = p.toUpperCase(Locale.ROOT);
        if (unit.equals(p) || unit.equals(u) || unit.equals(u + "i") || unit.equals(BINARY[i])) {
          return BigInteger.valueOf(1024).pow(i + 1);
        }
        if (unit.equals((i == 0 ? p : u) + "B")) {
          return BigInteger.valueOf(1000).pow(i + 1);
        }
      }
      return null;
    }

    @Override
    String format(Long value) {
      long v = value;
      for (int i = BINARY.length - 1; i >= 0; i--) {
        long unit = 1L << (10 * (i + 1));
        if (v != 0 && v % unit == 0) {
          return v / unit + BINARY[i];
        }
      }
      return v + "B";
    }

    @Override
    Comparator<Long> order() {
      return Comparator.naturalOrder();
    }
  }
}
