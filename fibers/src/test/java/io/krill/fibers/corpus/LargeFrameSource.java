package io.krill.fibers.corpus;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Writes the source of {@code LargeFrameShapes}: methods with 240 locals and 100 call arguments.
 * The shapes are generated at test time rather than written out, because each comes twice,
 * suspendable (values pass through {@link Points#point}) and plain (not woven), so that the test
 * compares the woven method with a ground truth that no weaver touched.
 *
 * <p>A woven method saves and restores every live local at every suspendable call site, so its
 * code grows with sites x live locals (about 20 bytes of bytecode per saved value and site: a
 * store at capture, a load at restore); the shapes stay at eleven sites with all 240 locals live,
 * which fits the JVM's 64 KiB method limit with room to spare.
 */
final class LargeFrameSource {
  /** The generated class's binary name. */
  static final String NAME = "io.krill.fibers.corpus.LargeFrameShapes";

  private static final int LOCALS = 240;
  private static final int ARGS = 100;
  /** Local and argument {@code i} has type {@code TYPES[i % 12]} and initial value {@code INITS[i % 12](i)}. */
  private static final String[] TYPES = {
      "int", "long", "double", "float", "String", "boolean", "char", "Object", "short", "byte", "int[]", "Object"};
  private static final List<IntFunction<String>> INITS = List.of(
      i -> "seed + " + i, i -> "seed * " + i + "L + 8589934592L", i -> "seed / 4.0 + " + i + ".5",
      i -> "seed + " + i + ".25f", i -> "\"s" + i + ":\" + seed", i -> "(seed + " + i + ") % 3 == 0",
      i -> "(char) ('a' + (seed + " + i + ") % 26)", i -> "Integer.valueOf(seed - " + i + ")",
      i -> "(short) (seed * " + i + ")", i -> "(byte) (seed + " + i + ")", i -> "new int[] {seed, " + i + "}",
      i -> "null");

  private LargeFrameSource() {}

  /**
   * @return the source of a class implementing {@link LargeFrameTest.Shapes}, whose static methods
   *     {@code locals}, {@code arguments} and their {@code Plain} twins hold the large frames
   */
  static String generate() {
    List<String> out = new ArrayList<>(List.of(
        "package io.krill.fibers.corpus;",
        "import static io.krill.fibers.corpus.Points.point;",
        "import io.krill.fibers.Suspendable;",
        "final class LargeFrameShapes implements LargeFrameTest.Shapes {"));
    for (String shape : List.of("Locals", "Arguments")) {
      for (boolean suspend : List.of(true, false)) {
        String name = shape.toLowerCase() + (suspend ? "" : "Plain");
        out.add("  @Override public String many" + shape + (suspend ? "" : "Plain") + "(int seed)"
            + (suspend ? " throws Suspendable" : "") + " { return " + name + "(seed); }");
        out.add("  static String " + name + "(int seed)" + (suspend ? " throws Suspendable" : "") + " {");
        out.addAll(shape.equals("Locals") ? manyLocals(suspend) : manyArguments(suspend));
        out.add("  }");
      }
    }
    out.addAll(sink());
    out.add("}");
    return String.join("\n", out) + "\n";
  }

  private static String init(int i) {
    return INITS.get(i % TYPES.length).apply(i);
  }

  private static String wrap(String expr, boolean suspend) {
    return (suspend ? "point(" : "(") + expr + ")";
  }

  private static String render(String value, int i) {
    return (TYPES[i % TYPES.length].equals("int[]") ? "java.util.Arrays.toString(" : "String.valueOf(") + value + ")";
  }

  private static List<String> manyLocals(boolean suspend) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < LOCALS; i++) {
      boolean point = i % 48 == 3 && !init(i).equals("null");
      out.add("    " + TYPES[i % TYPES.length] + " v" + i + " = " + (point ? wrap(init(i), suspend) : init(i)) + ";");
      if (suspend && i % 60 == 59) {
        out.add("    Points.point();");
      }
    }
    // Update some locals after all are live, then read every one.
    for (int i = 0; i < LOCALS; i += 61) {
      String t = TYPES[i % TYPES.length];
      if (t.equals("int") || t.equals("long")) {
        out.add("    v" + i + " += " + wrap("v" + i + " * 2", suspend) + ";");
      } else if (t.equals("String")) {
        out.add("    v" + i + " = v" + i + " + " + wrap("v" + i + ".length()", suspend) + ";");
      }
    }
    out.add("    StringBuilder sb = new StringBuilder();");
    for (int i = 0; i < LOCALS; i++) {
      out.add("    sb.append(" + render("v" + i, i) + ").append(',');");
    }
    out.add("    return sb.toString();");
    return out;
  }

  private static List<String> sink() {
    List<String> params = new ArrayList<>();
    List<String> out = new ArrayList<>();
    for (int i = 0; i < ARGS; i++) {
      params.add(TYPES[i % TYPES.length] + " a" + i);
      out.add("    sb.append(" + render("a" + i, i) + ").append(';');");
    }
    out.add(0, "  static String sink(" + String.join(", ", params) + ") {");
    out.add(1, "    StringBuilder sb = new StringBuilder();");
    out.addAll(List.of("    return sb.toString();", "  }"));
    return out;
  }

  private static List<String> manyArguments(boolean suspend) {
    List<String> args = new ArrayList<>();
    for (int i = 0; i < ARGS; i++) {
      args.add(i % 5 == 4 && !init(i).equals("null") ? wrap(init(i), suspend) : init(i));
    }
    return List.of("    return sink(\n        " + String.join(",\n        ", args) + ");");
  }
}
