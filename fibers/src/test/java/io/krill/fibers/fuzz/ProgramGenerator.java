package io.krill.fibers.fuzz;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;

/**
 * Generates one random, always terminating Java program as source: a class that implements
 * {@code SuspendableRunnable} and {@code Supplier<Object>} (its result), with suspendable
 * helper methods that call each other and the points of {@link FuzzRuntime}.
 *
 * <p>What the programs contain:
 * <ul>
 *   <li>expressions over int, long, double, String and boolean (arithmetic, shifts, casts,
 *       float intermediates, string concatenation, conditionals, && and ||, switch
 *       expressions, assignments to locals, array elements and fields as values);
 *   <li>suspension points anywhere in an expression (operands, arguments, conditions,
 *       receivers computed by a suspendable call, loop bounds, switch selectors), as
 *       statements, and direct {@code Continuation.suspend()} calls;
 *   <li>static, instance, private and recursive helpers with up to six parameters of all the
 *       types and arrays, some unmarked (never suspend), called on {@code this} and on another
 *       instance; suspendable lambdas of a plain and a generic interface and a default method;
 *   <li>for, while, do-while and for-each loops, labeled break and continue, if/else, switch
 *       on ints and strings with fall-through, try/catch/finally and multi-catch with thrown,
 *       rethrown and runtime exceptions (division by zero, index out of bounds),
 *       try-with-resources, synchronized blocks, returns from inside finally;
 *   <li>locals of every type: arrays, locals declared without a value, Object locals holding
 *       null, catch parameters, fields and statics.
 * </ul>
 *
 * <p>Not thread-safe; one generator per program.
 */
final class ProgramGenerator {
  /*
   * Implementation notes.
   *
   * Termination: methods only call methods with a higher index, except a recursive method,
   * which calls itself only under `depth > 0` with `depth - 1` (depth is a read-only
   * parameter, entered with at most 3). Loops count a read-only index up to a constant <= 4,
   * and each loop body starts with tick(), which spends fuel, so the total work is bounded.
   *
   * Compilability: every local is initialized where it is declared and goes out of scope with
   * its block, so definite assignment always holds. Jumps (return, throw, break, continue)
   * are only generated as `if (cond) jump;`, which can always complete normally, so no
   * statement is ever unreachable. Unlabeled break targets the innermost loop or switch,
   * unlabeled continue the innermost loop, labeled ones any enclosing labeled loop; none
   * crosses a switch expression, whose arms only hold expressions and declarations.
   * Catch clauses are drawn in an order where subclasses come first, and multi-catch only
   * joins unrelated types.
   *
   * Compile time: no calls to overloaded methods of the same arity. javac attributes poly
   * expression arguments (conditionals, switch expressions) once per candidate overload, so
   * nesting them under overloads costs exponential time.
   *
   * Determinism: no nulls (helpful NullPointerException messages depend on the bytecode),
   * no hash codes of objects, double arithmetic only with exactly rounded operators, strings
   * that loops grow are bounded by cut().
   */
  enum Type {
    INT("int", 'I'),
    LONG("long", 'L'),
    DOUBLE("double", 'D'),
    STRING("String", 'S'),
    BOOLEAN("boolean", 'Z'),
    /** Locals that hold null or a String: null-typed values in frames. */
    OBJECT("Object", '-'),
    /** Locals that hold a suspendable lambda of the program's interface Fn. */
    FN("Fn", '-'),
    /** Locals that hold a suspendable lambda of the program's generic interface G, as G<String>. */
    GEN("G<String>", '-');

    final String java;
    /** Suffix of the FuzzRuntime point method for this type. */
    final char point;

    Type(String java, char point) {
      this.java = java;
      this.point = point;
    }
  }

  private static final Type[] VALUE_TYPES = {Type.INT, Type.LONG, Type.DOUBLE, Type.STRING};
  private static final Type[] ARRAY_TYPES = {Type.INT, Type.LONG, Type.DOUBLE, Type.STRING};
  private static final Type[] NUMERIC_TYPES = {Type.INT, Type.LONG, Type.DOUBLE};
  private static final Type[] SCALAR_TYPES = {Type.INT, Type.LONG, Type.DOUBLE, Type.STRING, Type.BOOLEAN};
  /** Catchable types, each listed before its supertypes. */
  private static final String[] CATCHABLE = {
    "Boom", "ArithmeticException", "ArrayIndexOutOfBoundsException", "IndexOutOfBoundsException",
    "IllegalStateException", "RuntimeException"
  };

  private record Var(String name, Type type, boolean array, boolean assignable) {}

  private static final class Method {
    final int index;
    final String name;
    final Type ret; // null: void
    final List<Type> params = new ArrayList<>();
    final List<Boolean> arrayParams = new ArrayList<>();
    final boolean isStatic;
    final boolean suspendable;
    final boolean recursive;
    boolean isPrivate;

    Method(int index, Type ret, boolean isStatic, boolean suspendable, boolean recursive) {
      this.index = index;
      this.name = "m" + index;
      this.ret = ret;
      this.isStatic = isStatic;
      this.suspendable = suspendable;
      this.recursive = recursive;
    }
  }

  /** An enclosing break/continue target; {@code label} is null when unlabeled. */
  private record Target(String label, boolean loop) {}

  private final Random rnd;
  private final String className;
  private final StringBuilder out = new StringBuilder();
  private final List<Method> methods = new ArrayList<>();
  private int nextPoint;
  private int nextName;
  private int indent;

  private Method current;
  private final Deque<List<Var>> scopes = new ArrayDeque<>();
  private final Deque<Target> targets = new ArrayDeque<>();
  private final Deque<String> caught = new ArrayDeque<>();
  private int nesting;
  private int synchronizedDepth;
  private int statementBudget;

  ProgramGenerator(long seed, String className) {
    this.rnd = new Random(seed);
    this.className = className;
  }

  /** @return the source of the program's compilation unit, package {@code fuzz} */
  String generate() {
    int count = 2 + rnd.nextInt(5);
    for (int i = 0; i < count; i++) {
      boolean last = i == count - 1;
      Type ret = i == 0 ? pick(VALUE_TYPES) : rnd.nextInt(6) == 0 ? null : pick(VALUE_TYPES);
      boolean isStatic = rnd.nextBoolean();
      // Plain (unmarked) methods may only call plain methods, so make them the deepest.
      boolean suspendable = i == 0 || !(last && rnd.nextInt(3) == 0);
      boolean recursive = i > 0 && suspendable && rnd.nextInt(4) == 0;
      Method m = new Method(i, ret, isStatic, suspendable, recursive);
      m.isPrivate = rnd.nextInt(4) == 0;
      if (recursive) {
        m.params.add(Type.INT);
        m.arrayParams.add(false);
      }
      int params = rnd.nextInt(6);
      for (int p = 0; p < params; p++) {
        boolean array = rnd.nextInt(8) == 0;
        m.params.add(array ? pick(ARRAY_TYPES) : pick(VALUE_TYPES));
        m.arrayParams.add(array);
      }
      methods.add(m);
    }

    line("package fuzz;");
    line("");
    line("import io.krill.fibers.Continuation;");
    line("import io.krill.fibers.Suspendable;");
    line("import io.krill.fibers.SuspendableRunnable;");
    line("import io.krill.fibers.fuzz.FuzzRuntime;");
    line("import io.krill.fibers.fuzz.FuzzRuntime.Res;");
    line("import java.util.function.Supplier;");
    line("import static io.krill.fibers.fuzz.FuzzRuntime.*;");
    line("");
    line("public final class " + className + " implements SuspendableRunnable, Supplier<Object> {");
    indent++;
    line("static final class Boom extends RuntimeException {");
    line("  private static final long serialVersionUID = 1L;");
    line("  Boom(String message) { super(message); }");
    line("}");
    line("");
    line("interface Fn {");
    line("  long apply(long x) throws Suspendable;");
    line("");
    line("  default long twice(long x) throws Suspendable {");
    line("    return apply(spL(" + (nextPoint++) + ", apply(x)));");
    line("  }");
    line("}");
    line("");
    line("interface G<T> {");
    line("  T get(T x) throws Suspendable;");
    line("}");
    line("");
    line("static int si;");
    line("static long sl;");
    line("static double sd;");
    line("static String ss;");
    line("static " + className + " other;");
    line("int fi;");
    line("long fl;");
    line("String fs = \"f\";");
    line("private Object result;");
    line("");
    line("@Override");
    line("public Object get() { return result; }");
    line("");
    line("@Override");
    line("public void run() throws Suspendable {");
    line("  si = 0; sl = 0L; sd = 0.0; ss = \"s\";");
    line("  other = new " + className + "();");
    current = methods.get(0);
    scopes.push(new ArrayList<>());
    String call = callExpression(methods.get(0), 1);
    scopes.pop();
    line("  result = " + call + " + \"|\" + si + \"|\" + sl + \"|\" + sd + \"|\" + ss + \"|\" + fi + \"|\" + fl"
        + " + \"|\" + fs + \"|\" + other.fi + \"|\" + other.fl + \"|\" + other.fs;");
    line("}");
    line("");
    line("/** A receiver that a suspendable call computes. */");
    line("static " + className + " self(int k) throws Suspendable {");
    line("  sp(" + (nextPoint++) + ");");
    line("  return other;");
    line("}");
    for (Method m : methods) {
      line("");
      method(m);
    }
    indent--;
    line("}");
    return out.toString();
  }

  // ---------------------------------------------------------------- methods

  private void method(Method m) {
    current = m;
    scopes.clear();
    targets.clear();
    caught.clear();
    nesting = 0;
    statementBudget = 6 + rnd.nextInt(16);
    List<Var> params = new ArrayList<>();
    StringBuilder sig = new StringBuilder();
    for (int p = 0; p < m.params.size(); p++) {
      Type t = m.params.get(p);
      boolean array = m.arrayParams.get(p);
      String name = m.recursive && p == 0 ? "depth" : "p" + p;
      params.add(new Var(name, t, array, !(m.recursive && p == 0)));
      if (p > 0) {
        sig.append(", ");
      }
      sig.append(t.java).append(array ? "[] " : " ").append(name);
    }
    String ret = m.ret == null ? "void" : m.ret.java;
    line((m.isPrivate ? "private " : "") + (m.isStatic ? "static " : "") + ret + " " + m.name + "(" + sig + ")"
        + (m.suspendable ? " throws Suspendable" : "") + " {");
    indent++;
    scopes.push(params);
    int n = 1 + rnd.nextInt(5);
    for (int i = 0; i < n; i++) {
      statement();
    }
    if (m.ret != null) {
      line("return " + expr(m.ret, 3) + ";");
    }
    scopes.pop();
    indent--;
    line("}");
  }

  // ---------------------------------------------------------------- statements

  private void block() {
    scopes.push(new ArrayList<>());
    nesting++;
    int n = 1 + rnd.nextInt(nesting > 2 ? 2 : 4);
    for (int i = 0; i < n; i++) {
      statement();
    }
    nesting--;
    scopes.pop();
  }

  private void statement() {
    statementBudget--;
    boolean compound = nesting < 4 && statementBudget > 0;
    int r = rnd.nextInt(compound ? 100 : 55);
    if (r < 12) {
      declare();
    } else if (r < 22) {
      assign();
    } else if (r < 28) {
      pointStatement();
    } else if (r < 33) {
      callStatement();
    } else if (r < 37) {
      arrayStatement();
    } else if (r < 40) {
      Var o = variable(Type.OBJECT, false);
      line("log(" + (nextPoint++) + ", " + (o != null && rnd.nextBoolean() ? o.name : expr(pick(VALUE_TYPES), 2)) + ");");
    } else if (r < 46) {
      jump();
    } else if (r < 50) {
      fieldStatement();
    } else if (r < 55) {
      declare();
    } else if (r < 66) {
      ifStatement();
    } else if (r < 78) {
      loop();
    } else if (r < 86) {
      switchStatement();
    } else if (r < 95) {
      tryStatement();
    } else if (r < 98) {
      tryWithResources();
    } else {
      synchronizedStatement();
    }
  }

  private void declare() {
    if (rnd.nextInt(6) == 0) {
      Type t = pick(ARRAY_TYPES);
      String name = fresh("a");
      int length = 3 + rnd.nextInt(2);
      if (rnd.nextBoolean()) {
        line(t.java + "[] " + name + " = new " + t.java + "[" + length + "];");
        if (t == Type.STRING) {
          line("java.util.Arrays.fill(" + name + ", \"\");");
        }
      } else {
        StringBuilder init = new StringBuilder();
        for (int i = 0; i < length; i++) {
          init.append(i == 0 ? "" : ", ").append(expr(t, 2));
        }
        line(t.java + "[] " + name + " = {" + init + "};");
      }
      scopes.peek().add(new Var(name, t, true, true));
      return;
    }
    int r = rnd.nextInt(16);
    if (r == 0) {
      String name = fresh("o");
      line("Object " + name + " = " + (rnd.nextBoolean() ? "null" : objectExpr(2)) + ";");
      scopes.peek().add(new Var(name, Type.OBJECT, false, true));
      return;
    }
    if (r == 1 && canSuspend()) {
      if (rnd.nextBoolean()) {
        lambda();
      } else {
        genericLambda();
      }
      return;
    }
    Type t = r < 4 ? Type.BOOLEAN : pick(VALUE_TYPES);
    String name = fresh("v");
    if (r == 4) {
      // Declared without a value: unset (not saved) at the points in the first branch.
      line(t.java + " " + name + ";");
      line("if (" + expr(Type.BOOLEAN, 2) + ") {");
      line("  " + name + " = " + expr(t, 2) + ";");
      line("} else {");
      line("  " + name + " = " + expr(t, 2) + ";");
      line("}");
      scopes.peek().add(new Var(name, t, false, true));
      return;
    }
    line(t.java + " " + name + " = " + expr(t, 3) + ";");
    scopes.peek().add(new Var(name, t, false, true));
  }

  /**
   * Declares a suspendable lambda. Its body sees only its parameter: the locals around it are
   * not effectively final.
   */
  private void lambda() {
    String name = fresh("f");
    String x = fresh("x");
    Deque<List<Var>> saved = new ArrayDeque<>(scopes);
    scopes.clear();
    scopes.push(new ArrayList<>(List.of(new Var(x, Type.LONG, false, false))));
    String body;
    if (rnd.nextBoolean()) {
      body = expr(Type.LONG, 2);
    } else {
      String y = fresh("y");
      String init = expr(Type.LONG, 2);
      scopes.peek().add(new Var(y, Type.LONG, false, false));
      body = "{ long " + y + " = " + init + "; if (" + expr(Type.BOOLEAN, 1) + ") return " + y + "; sp(" + (nextPoint++)
          + "); return " + expr(Type.LONG, 2) + "; }";
    }
    scopes.clear();
    for (java.util.Iterator<List<Var>> it = saved.descendingIterator(); it.hasNext(); ) {
      scopes.push(it.next());
    }
    line("Fn " + name + " = " + x + " -> " + body + ";");
    scopes.peek().add(new Var(name, Type.FN, false, false));
  }

  /** Declares a lambda of the generic interface: erased calls, a checkcast after each. */
  private void genericLambda() {
    String name = fresh("g");
    String x = fresh("x");
    Deque<List<Var>> saved = new ArrayDeque<>(scopes);
    scopes.clear();
    scopes.push(new ArrayList<>(List.of(new Var(x, Type.STRING, false, false))));
    String body = expr(Type.STRING, 2);
    scopes.clear();
    for (java.util.Iterator<List<Var>> it = saved.descendingIterator(); it.hasNext(); ) {
      scopes.push(it.next());
    }
    line("G<String> " + name + " = " + x + " -> cut(" + body + ");");
    scopes.peek().add(new Var(name, Type.GEN, false, false));
  }

  private String objectExpr(int depth) {
    Var o = variable(Type.OBJECT, false);
    int r = rnd.nextInt(4);
    if (r == 0 && o != null) {
      return o.name;
    } else if (r == 1) {
      return "(" + expr(Type.BOOLEAN, depth - 1) + " ? null : " + expr(Type.STRING, depth - 1) + ")";
    }
    return expr(Type.STRING, depth);
  }

  private void assign() {
    Var v = assignable(null);
    if (v == null) {
      declare();
      return;
    }
    line(assignment(v, 3) + ";");
  }

  private String assignment(Var v, int depth) {
    switch (v.type) {
      case STRING:
        return rnd.nextBoolean()
            ? v.name + " = cut(" + expr(Type.STRING, depth) + ")"
            : v.name + " = cut(" + v.name + " + " + expr(pick(VALUE_TYPES), depth) + ")";
      case BOOLEAN:
        return v.name + (rnd.nextBoolean() ? " = " : rnd.nextBoolean() ? " &= " : " ^= ") + expr(Type.BOOLEAN, depth);
      case OBJECT:
        return v.name + " = " + (rnd.nextInt(3) == 0 ? "null" : objectExpr(depth));
      default:
        int r = rnd.nextInt(6);
        if (r == 0) {
          return v.name + "++";
        } else if (r == 1) {
          return "--" + v.name;
        }
        if (r == 2) {
          return v.name + " = " + expr(v.type, depth);
        }
        // compound assignment narrows implicitly, so any numeric operand type works
        String op = pick(new String[] {" += ", " -= ", " *= "});
        return v.name + op + expr(rnd.nextInt(4) == 0 ? pick(NUMERIC_TYPES) : v.type, depth);
    }
  }

  private void pointStatement() {
    if (!canSuspend()) {
      line("log(" + (nextPoint++) + ", \"plain\");");
      return;
    }
    if (rnd.nextInt(4) == 0) {
      line("if (here(" + (nextPoint++) + ")) Continuation.suspend();");
    } else {
      line("sp(" + (nextPoint++) + ");");
    }
  }

  private void callStatement() {
    List<Method> callees = callees(null, true);
    if (callees.isEmpty()) {
      pointStatement();
      return;
    }
    Method m = pick(callees);
    if (m == current) {
      line("if (depth > 0) " + callExpression(m, 2) + ";");
    } else {
      line(callExpression(m, 2) + ";");
    }
  }

  private void arrayStatement() {
    Var a = variable(null, true);
    if (a == null) {
      declare();
      return;
    }
    String index = a.name + "[" + index(a) + "]";
    if (a.type == Type.STRING) {
      line(index + " = cut(" + index + " + " + expr(pick(VALUE_TYPES), 2) + ");");
    } else {
      line(index + (rnd.nextBoolean() ? " = " : " += ") + expr(a.type, 2) + ";");
    }
  }

  private String index(Var array) {
    int r = rnd.nextInt(4);
    if (r == 0) {
      return Integer.toString(rnd.nextInt(3));
    }
    // & 3 is in 0..3, so arrays of length 3 sometimes throw; & 1 never does.
    return "(" + expr(Type.INT, 1) + (r == 1 ? ") & 3" : ") & 1");
  }

  private void fieldStatement() {
    String[] fields = current.isStatic
        ? new String[] {"si", "sl", "sd", "ss", "other.fi", "other.fl", "other.fs"}
        : new String[] {"si", "sl", "sd", "ss", "other.fi", "other.fl", "other.fs", "fi", "fl", "fs", "this.fi"};
    String f = pick(fields);
    Type t = f.endsWith("i") ? Type.INT : f.endsWith("l") ? Type.LONG : f.endsWith("d") ? Type.DOUBLE : Type.STRING;
    if (t == Type.STRING) {
      line(f + " = cut(" + f + " + " + expr(pick(VALUE_TYPES), 2) + ");");
    } else {
      line(f + (rnd.nextBoolean() ? " += " : " = ") + expr(t, 2) + ";");
    }
  }

  private void jump() {
    String cond = expr(Type.BOOLEAN, 2);
    int r = rnd.nextInt(10);
    if (r < 3 && !targets.isEmpty()) {
      List<String> options = new ArrayList<>();
      Target innermost = targets.peek();
      options.add("break");
      boolean inLoop = false;
      for (Target t : targets) {
        if (t.loop) {
          inLoop = true;
          if (t.label != null) {
            options.add("break " + t.label);
            options.add("continue " + t.label);
          }
        }
      }
      if (inLoop) {
        options.add("continue");
      }
      if (innermost == null) {
        return;
      }
      line("if (" + cond + ") " + pick(options) + ";");
    } else if (r < 5) {
      line("if (" + cond + ") throw " + exception() + ";");
    } else if (r < 7 && !caught.isEmpty()) {
      line("if (" + cond + ") throw " + caught.peek() + ";");
    } else if (current.ret == null) {
      line("if (" + cond + ") return;");
    } else {
      line("if (" + cond + ") return " + expr(current.ret, 2) + ";");
    }
  }

  private String exception() {
    String message = expr(Type.STRING, 2);
    switch (rnd.nextInt(4)) {
      case 0:
        return "new IllegalStateException(\"ise\" + " + message + ")";
      case 1:
        return "new ArithmeticException(\"ae\" + " + message + ")";
      default:
        return "new Boom(\"boom\" + " + message + ")";
    }
  }

  private void ifStatement() {
    line("if (" + expr(Type.BOOLEAN, 3) + ") {");
    indented(this::block);
    if (rnd.nextBoolean()) {
      line("} else {");
      indented(this::block);
    }
    line("}");
  }

  private void loop() {
    String label = rnd.nextInt(3) == 0 ? fresh("L") : null;
    String prefix = label == null ? "" : label + ": ";
    String i = fresh("i");
    int bound = 1 + rnd.nextInt(4);
    targets.push(new Target(label, true));
    scopes.push(new ArrayList<>());
    switch (rnd.nextInt(4)) {
      case 0:
        line(prefix + "for (int " + i + " = 0; " + i + " < " + limit(bound) + "; " + i + "++) {");
        scopes.peek().add(new Var(i, Type.INT, false, false));
        loopBody();
        line("}");
        break;
      case 1:
        line("int " + i + " = 0;");
        line(prefix + "while (" + i + "++ < " + limit(bound) + ") {");
        scopes.peek().add(new Var(i, Type.INT, false, false));
        loopBody();
        line("}");
        break;
      case 2:
        line("int " + i + " = 0;");
        line(prefix + "do {");
        scopes.peek().add(new Var(i, Type.INT, false, false));
        loopBody();
        line("} while (++" + i + " < " + limit(bound) + ");");
        break;
      default:
        Var a = variable(null, true);
        if (a == null) {
          line(prefix + "for (long " + i + " : new long[] {" + expr(Type.LONG, 2) + ", " + expr(Type.LONG, 1) + "}) {");
          scopes.peek().add(new Var(i, Type.LONG, false, false));
        } else {
          line(prefix + "for (" + a.type.java + " " + i + " : " + a.name + ") {");
          scopes.peek().add(new Var(i, a.type, false, false));
        }
        loopBody();
        line("}");
        break;
    }
    scopes.pop();
    targets.pop();
  }

  /** @return a loop bound, sometimes passed through a suspension point in the condition */
  private String limit(int bound) {
    return canSuspend() && rnd.nextInt(3) == 0 ? "spI(" + (nextPoint++) + ", " + bound + ")" : Integer.toString(bound);
  }

  private void loopBody() {
    indented(() -> {
      line("tick();");
      block();
    });
  }

  private void switchStatement() {
    boolean strings = rnd.nextInt(3) == 0;
    String selector = strings ? "Integer.toString(" + expr(Type.INT, 2) + " & 3)" : "(" + expr(Type.INT, 2) + ") & 3";
    if (strings && rnd.nextBoolean()) {
      Var s = variable(Type.STRING, false);
      if (s != null) {
        selector = s.name;
      }
    }
    line("switch (" + selector + ") {");
    targets.push(new Target(null, false));
    int cases = 1 + rnd.nextInt(3);
    for (int c = 0; c < cases; c++) {
      line(strings ? "case \"" + c + "\": {" : "case " + c + ": {");
      indented(this::block);
      line(rnd.nextInt(3) == 0 ? "}" : "} break;"); // fall through sometimes
    }
    if (rnd.nextBoolean()) {
      line("default: {");
      indented(this::block);
      line("}");
    }
    targets.pop();
    line("}");
  }

  private void tryStatement() {
    line("try {");
    indented(this::block);
    int first = rnd.nextInt(CATCHABLE.length + 1);
    boolean any = false;
    for (int c = first; c < CATCHABLE.length; c++) {
      if (rnd.nextInt(3) != 0) {
        continue;
      }
      String type = CATCHABLE[c];
      // Multi-catch of two unrelated types: Boom | ArithmeticException | IllegalStateException.
      if ((c == 0 || c == 1) && rnd.nextBoolean()) {
        type = type + " | IllegalStateException";
        c = 4;
      }
      String e = fresh("e");
      line("} catch (" + type + " " + e + ") {");
      caught.push(e);
      indented(() -> {
        scopes.push(new ArrayList<>());
        scopes.peek().add(new Var(e + ".getMessage()", Type.STRING, false, false));
        block();
        scopes.pop();
      });
      caught.pop();
      any = true;
    }
    if (!any || rnd.nextBoolean()) {
      line("} finally {");
      indented(this::block);
    }
    line("}");
  }

  /** A monitor region in suspendable code; nothing inside it may suspend. */
  private void synchronizedStatement() {
    line("synchronized (" + (current.isStatic || rnd.nextBoolean() ? "other" : "this") + ") {");
    synchronizedDepth++;
    indented(this::block);
    synchronizedDepth--;
    line("}");
  }

  private void tryWithResources() {
    String r = fresh("r");
    line("try (Res " + r + " = new Res(" + (nextPoint++) + ")) {");
    indented(() -> {
      scopes.push(new ArrayList<>());
      scopes.peek().add(new Var(r + ".value()", Type.INT, false, false));
      block();
      scopes.pop();
    });
    if (rnd.nextBoolean()) {
      String e = fresh("e");
      line("} catch (RuntimeException " + e + ") {");
      caught.push(e);
      indented(() -> {
        scopes.push(new ArrayList<>());
        scopes.peek().add(new Var(e + ".getMessage()", Type.STRING, false, false));
        block();
        scopes.pop();
      });
      caught.pop();
    }
    line("}");
  }

  // ---------------------------------------------------------------- expressions

  /** @return an expression of type t whose nesting is at most depth (calls and points aside) */
  private String expr(Type t, int depth) {
    if (depth <= 0) {
      return leaf(t);
    }
    int r = rnd.nextInt(100);
    if (r < 14) {
      return leaf(t);
    }
    if (r < 30 && canSuspend()) {
      return "sp" + t.point + "(" + (nextPoint++) + ", " + expr(t, depth - 1) + ")";
    }
    if (r < 40) {
      String call = call(t, depth);
      if (call != null) {
        return call;
      }
    }
    if (r < 44) {
      return "(" + expr(Type.BOOLEAN, depth - 1) + " ? " + expr(t, depth - 1) + " : " + expr(t, depth - 1) + ")";
    }
    if (r < 47) {
      Var v = assignable(t == Type.BOOLEAN ? Type.BOOLEAN : null);
      if (v != null && (v.type == t || widens(v.type, t))) {
        return "(" + assignment(v, depth - 1) + ")";
      }
    }
    if (r < 48 && numeric(t)) {
      Var a = variable(t, true);
      if (a != null) {
        return "(" + a.name + "[" + index(a) + "] = " + expr(t, depth - 1) + ")";
      }
      String f = t == Type.INT ? pick(new String[] {"si", "other.fi"})
          : t == Type.LONG ? pick(new String[] {"sl", "other.fl"}) : "sd";
      return "(" + f + (rnd.nextBoolean() ? " = " : " += ") + expr(t, depth - 1) + ")";
    }
    if (r < 50 && t != Type.BOOLEAN && t != Type.STRING) {
      return switchExpression(t, depth);
    }
    switch (t) {
      case INT:
        return intExpr(depth);
      case LONG:
        return longExpr(depth);
      case DOUBLE:
        return doubleExpr(depth);
      case STRING:
        return stringExpr(depth);
      default:
        return boolExpr(depth);
    }
  }

  private static boolean widens(Type from, Type to) {
    return numeric(from) && numeric(to) && from.ordinal() <= to.ordinal();
  }

  private static boolean numeric(Type t) {
    return t == Type.INT || t == Type.LONG || t == Type.DOUBLE;
  }

  private String intExpr(int depth) {
    int r = rnd.nextInt(12);
    switch (r) {
      case 0:
      case 1:
      case 2:
        return "(" + expr(Type.INT, depth - 1) + " " + pick(new String[] {"+", "-", "*", "+", "^", "&", "|"}) + " "
            + expr(Type.INT, depth - 1) + ")";
      case 3:
        return "(" + expr(Type.INT, depth - 1) + " " + pick(new String[] {"/", "%"}) + " "
            + (rnd.nextInt(4) != 0 ? "(" + expr(Type.INT, depth - 1) + " | 1)" : expr(Type.INT, depth - 1)) + ")";
      case 4:
        return "(" + expr(Type.INT, depth - 1) + " " + pick(new String[] {"<<", ">>", ">>>"}) + " "
            + expr(Type.INT, depth - 1) + ")";
      case 5:
        return "(int) " + (rnd.nextBoolean() ? "(" + expr(Type.LONG, depth - 1) + ")" : "(" + expr(Type.DOUBLE, depth - 1) + ")");
      case 6:
        return expr(Type.STRING, depth - 1) + ".length()";
      case 7: {
        Var a = variable(null, true);
        if (a != null) {
          if (a.type == Type.INT) {
            return a.name + "[" + index(a) + "]";
          }
          return a.name + ".length";
        }
        return "-(" + expr(Type.INT, depth - 1) + ")";
      }
      case 8:
        return rnd.nextBoolean() ? "~" + expr(Type.INT, depth - 1) : "new Res(" + expr(Type.INT, depth - 1) + ").value()";
      case 9:
        return "Integer.compare(" + expr(Type.INT, depth - 1) + ", " + expr(Type.INT, depth - 1) + ")";
      default:
        return "(" + expr(Type.INT, depth - 1) + " + " + expr(Type.INT, depth - 1) + ")";
    }
  }

  private String longExpr(int depth) {
    int r = rnd.nextInt(9);
    switch (r) {
      case 0:
      case 1:
      case 2:
        return "(" + expr(Type.LONG, depth - 1) + " " + pick(new String[] {"+", "-", "*", "^", "|"}) + " "
            + expr(rnd.nextInt(3) == 0 ? Type.INT : Type.LONG, depth - 1) + ")";
      case 3:
        return "(" + expr(Type.LONG, depth - 1) + " " + pick(new String[] {"/", "%"}) + " "
            + (rnd.nextInt(4) != 0 ? "(" + expr(Type.LONG, depth - 1) + " | 1L)" : expr(Type.LONG, depth - 1)) + ")";
      case 4:
        return "(" + expr(Type.LONG, depth - 1) + " " + pick(new String[] {"<<", ">>", ">>>"}) + " "
            + expr(Type.INT, depth - 1) + ")";
      case 5:
        return "(long) " + (rnd.nextBoolean() ? expr(Type.INT, depth - 1) : "(" + expr(Type.DOUBLE, depth - 1) + ")");
      case 6: {
        Var a = variable(Type.LONG, true);
        if (a != null) {
          return a.name + "[" + index(a) + "]";
        }
        return "Long.rotateLeft(" + expr(Type.LONG, depth - 1) + ", " + expr(Type.INT, depth - 1) + ")";
      }
      case 7: {
        Var f = variable(Type.FN, false);
        if (f != null && canSuspend()) {
          return f.name + (rnd.nextInt(3) == 0 ? ".twice(" : ".apply(") + expr(Type.LONG, depth - 1) + ")";
        }
        return "-(" + expr(Type.LONG, depth - 1) + ")";
      }
      default:
        return "Long.max(" + expr(Type.LONG, depth - 1) + ", " + expr(Type.LONG, depth - 1) + ")";
    }
  }

  private String doubleExpr(int depth) {
    int r = rnd.nextInt(8);
    switch (r) {
      case 0:
      case 1:
      case 2:
        return "(" + expr(Type.DOUBLE, depth - 1) + " " + pick(new String[] {"+", "-", "*", "/"}) + " "
            + expr(pick(new Type[] {Type.DOUBLE, Type.DOUBLE, Type.INT, Type.LONG}), depth - 1) + ")";
      case 3:
        return "(double) " + expr(Type.LONG, depth - 1);
      case 4: {
        Var a = variable(Type.DOUBLE, true);
        if (a != null) {
          return a.name + "[" + index(a) + "]";
        }
        return "Double.sum(" + expr(Type.DOUBLE, depth - 1) + ", " + leaf(Type.DOUBLE) + ")";
      }
      case 5:
        if (rnd.nextBoolean()) {
          return "((float) " + expr(Type.DOUBLE, depth - 1) + " * (float) " + expr(Type.DOUBLE, depth - 1) + ")";
        }
        return "-(" + expr(Type.DOUBLE, depth - 1) + ")";
      case 6:
        return "Double.min(" + expr(Type.DOUBLE, depth - 1) + ", " + expr(Type.DOUBLE, depth - 1) + ")";
      default:
        return "(" + expr(Type.DOUBLE, depth - 1) + " % " + expr(Type.DOUBLE, depth - 1) + ")";
    }
  }

  private String stringExpr(int depth) {
    int r = rnd.nextInt(8);
    switch (r) {
      case 0:
      case 1:
      case 2: {
        // indy string concatenation with mixed operand types
        int n = 2 + rnd.nextInt(3);
        StringBuilder s = new StringBuilder("(").append(expr(Type.STRING, depth - 1));
        for (int i = 1; i < n; i++) {
          s.append(" + ").append(expr(rnd.nextBoolean() ? Type.STRING : pick(SCALAR_TYPES), depth - 1));
        }
        return s.append(")").toString();
      }
      case 3:
        switch (rnd.nextInt(3)) {
          case 0:
            return "Long.toString(" + expr(Type.LONG, depth - 1) + ")";
          case 1:
            return "Double.toString(" + expr(Type.DOUBLE, depth - 1) + ")";
          default:
            return "Boolean.toString(" + expr(Type.BOOLEAN, depth - 1) + ")";
        }
      case 4: {
        Var g = variable(Type.GEN, false);
        if (g != null && canSuspend()) {
          return g.name + ".get(" + expr(Type.STRING, depth - 1) + ")";
        }
        return "cut(" + expr(Type.STRING, depth - 1) + ")";
      }
      case 5: {
        Var a = variable(Type.STRING, true);
        if (a != null) {
          return a.name + "[" + index(a) + "]";
        }
        return "Integer.toString(" + expr(Type.INT, depth - 1) + ", 7)";
      }
      case 6:
        if (rnd.nextInt(4) == 0) {
          return expr(Type.STRING, depth - 1) + ".substring(1)"; // throws on ""
        }
        return "new Boom(" + expr(Type.STRING, depth - 1) + ").getMessage()";
      default:
        if (rnd.nextBoolean()) {
          Var o = variable(Type.OBJECT, false);
          if (o != null) {
            return "java.util.Objects.toString(" + o.name + ")";
          }
        }
        return "Long.toHexString(" + expr(Type.LONG, depth - 1) + ")";
    }
  }

  private String boolExpr(int depth) {
    int r = rnd.nextInt(8);
    switch (r) {
      case 0:
      case 1:
      case 2: {
        Type t = pick(new Type[] {Type.INT, Type.INT, Type.LONG, Type.DOUBLE});
        return "(" + expr(t, depth - 1) + " " + pick(new String[] {"<", "<=", ">", ">=", "==", "!="}) + " "
            + expr(t, depth - 1) + ")";
      }
      case 3:
        return "(" + expr(Type.BOOLEAN, depth - 1) + " && " + expr(Type.BOOLEAN, depth - 1) + ")";
      case 4:
        return "(" + expr(Type.BOOLEAN, depth - 1) + " || " + expr(Type.BOOLEAN, depth - 1) + ")";
      case 5:
        return "!" + expr(Type.BOOLEAN, depth - 1);
      case 6:
        return expr(Type.STRING, depth - 1) + ".equals(" + expr(Type.STRING, depth - 1) + ")";
      default:
        Var o = variable(Type.OBJECT, false);
        if (o != null && rnd.nextBoolean()) {
          return "(" + o.name + " == null)";
        }
        return "((" + expr(Type.INT, depth - 1) + " & 1) == 0)";
    }
  }

  private String switchExpression(Type t, int depth) {
    StringBuilder s = new StringBuilder("(switch ((").append(expr(Type.INT, depth - 1)).append(") & 3) { ");
    int cases = 1 + rnd.nextInt(3);
    for (int c = 0; c < cases; c++) {
      s.append("case ").append(c).append(" -> ").append(expr(t, depth - 1)).append("; ");
    }
    if (rnd.nextBoolean()) {
      String q = fresh("q");
      Type qt = pick(VALUE_TYPES);
      String init = expr(qt, depth - 1);
      scopes.push(new ArrayList<>());
      scopes.peek().add(new Var(q, qt, false, true));
      s.append("default -> { ").append(qt.java).append(' ').append(q).append(" = ").append(init).append("; ");
      if (rnd.nextBoolean() && canSuspend()) {
        s.append("sp(").append(nextPoint++).append("); ");
      }
      s.append("yield ").append(expr(t, depth - 1)).append("; } })");
      scopes.pop();
    } else {
      s.append("default -> ").append(expr(t, depth - 1)).append("; })");
    }
    return s.toString();
  }

  private String leaf(Type t) {
    if (rnd.nextInt(3) != 0) {
      Var v = variable(t, false);
      if (v != null) {
        return v.name;
      }
    }
    switch (t) {
      case INT:
        return rnd.nextInt(8) == 0 ? pick(new String[] {"Integer.MAX_VALUE", "Integer.MIN_VALUE", "si", "other.fi"})
            : Integer.toString(rnd.nextInt(13) - 3);
      case LONG:
        return rnd.nextInt(8) == 0 ? pick(new String[] {"Long.MIN_VALUE", "0x7fffffffffffL", "sl", "other.fl"})
            : (rnd.nextInt(13) - 3) + "L";
      case DOUBLE:
        return rnd.nextInt(8) == 0 ? pick(new String[] {"sd", "Double.NaN", "1e300", "-0.0"})
            : pick(new String[] {"0.5", "1.25", "-3.0", "2.0", "0.1", "7.75"});
      case STRING:
        return rnd.nextInt(8) == 0 ? pick(new String[] {"ss", "other.fs"})
            : "\"" + pick(new String[] {"", "a", "bc", "x1", "0", "1", "2", "hello"}) + "\"";
      default:
        return rnd.nextBoolean() ? "true" : "false";
    }
  }

  // ---------------------------------------------------------------- calls

  private String call(Type t, int depth) {
    List<Method> callees = callees(t, false);
    if (callees.isEmpty()) {
      return null;
    }
    Method m = pick(callees);
    String call = callExpression(m, depth - 1);
    if (m == current) {
      return "(depth > 0 ? " + call + " : " + leaf(t) + ")";
    }
    if (m.ret != t) {
      return "(" + t.java + ") " + call; // only int/long widen into long/double below
    }
    return call;
  }

  private List<Method> callees(Type t, boolean statement) {
    List<Method> out = new ArrayList<>();
    for (Method m : methods) {
      boolean reachable = m.index > current.index || (m == current && m.recursive);
      if (!reachable || (m.suspendable && !canSuspend())) {
        continue;
      }
      if (statement || m.ret == t || (t != null && m.ret != null && widens(m.ret, t) && m.ret != Type.STRING)) {
        out.add(m);
      }
    }
    return out;
  }

  private String callExpression(Method m, int depth) {
    StringBuilder args = new StringBuilder();
    for (int p = 0; p < m.params.size(); p++) {
      if (p > 0) {
        args.append(", ");
      }
      Type t = m.params.get(p);
      if (m.recursive && p == 0) {
        args.append(m == current ? "depth - 1" : Integer.toString(rnd.nextInt(4)));
      } else if (m.arrayParams.get(p)) {
        Var a = variable(t, true);
        args.append(a != null && rnd.nextBoolean() ? a.name : "new " + t.java + "[] {" + expr(t, 1) + ", " + leaf(t) + ", " + leaf(t) + "}");
      } else {
        args.append(expr(t, rnd.nextInt(Math.min(2, depth) + 1)));
      }
    }
    String receiver = "";
    if (!m.isStatic) {
      if (canSuspend() && rnd.nextInt(5) == 0) {
        receiver = "self(" + expr(Type.INT, 1) + ").";
      } else {
        receiver = current.isStatic || rnd.nextBoolean() ? "other." : rnd.nextBoolean() ? "this." : "";
      }
    } else if (rnd.nextInt(4) == 0) {
      receiver = className + ".";
    }
    return receiver + m.name + "(" + args + ")";
  }

  // ---------------------------------------------------------------- scope

  private Var variable(Type t, boolean array) {
    List<Var> found = new ArrayList<>();
    for (List<Var> scope : scopes) {
      for (Var v : scope) {
        if (v.array == array && (t == null || v.type == t)) {
          found.add(v);
        }
      }
    }
    return found.isEmpty() ? null : pick(found);
  }

  private Var assignable(Type t) {
    List<Var> found = new ArrayList<>();
    for (List<Var> scope : scopes) {
      for (Var v : scope) {
        if (!v.array && v.assignable && (t == null || v.type == t)) {
          found.add(v);
        }
      }
    }
    return found.isEmpty() ? null : pick(found);
  }

  /** @return whether code generated here may suspend: a marked method, outside synchronized */
  private boolean canSuspend() {
    return current.suspendable && synchronizedDepth == 0;
  }

  private String fresh(String prefix) {
    return prefix + (nextName++);
  }

  // ---------------------------------------------------------------- output

  private void line(String s) {
    for (int i = 0; i < indent; i++) {
      out.append("  ");
    }
    out.append(s).append('\n');
  }

  private void indented(Runnable body) {
    indent++;
    body.run();
    indent--;
  }

  private <T> T pick(T[] options) {
    return options[rnd.nextInt(options.length)];
  }

  private <T> T pick(List<T> options) {
    return options.get(rnd.nextInt(options.size()));
  }
}
