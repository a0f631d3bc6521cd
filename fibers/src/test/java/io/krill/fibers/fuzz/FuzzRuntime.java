package io.krill.fibers.fuzz;

import io.krill.fibers.Continuation;
import io.krill.fibers.Suspendable;

/**
 * The suspension points, trace and fuel that generated programs call; public because the
 * programs live in another package and class loader.
 *
 * <p>Each type has its own point method ({@code spI}, {@code spL}, ...) rather than overloads:
 * javac resolves overloads with poly-expression arguments (conditionals, switch expressions)
 * speculatively per candidate, which made compiling deeply nested points several times slower.
 *
 * <p>A point records its id and value in the trace, then suspends the current continuation
 * when there is one; plain runs (no continuation) only record. Every point and every loop
 * iteration spends one unit of fuel, so a program's work is bounded even when its loops nest
 * deeply; an exhausted program ends with {@link FuelExhausted}, the same way in every run.
 *
 * <p>Threading: static state, one program run at a time (the fuzz test runs them in turn on
 * one worker thread).
 */
public final class FuzzRuntime {
  /** Fuel of one program run: points plus loop iterations. */
  static final int FUEL = 10_000;

  private static final int MAX_STRING = 24;

  private static StringBuilder trace = new StringBuilder();
  private static int fuel;
  private static int suspensions;
  /* 0: every point suspends; otherwise the seed that chooses which points suspend. */
  private static long some;
  private static long visits;

  private FuzzRuntime() {}

  /** Thrown when a program has used up its fuel; an Error so that programs do not catch it. */
  public static final class FuelExhausted extends Error {
    private static final long serialVersionUID = 1L;

    FuelExhausted() {
      super("fuel exhausted", null, false, false);
    }
  }

  /** A resource for try-with-resources whose close is traced. */
  public static final class Res implements AutoCloseable {
    private final int id;

    /** @param id the point id that open and close record */
    public Res(int id) {
      this.id = id;
      trace.append('o').append(id).append(';');
    }

    /** @return a value that depends on the id */
    public int value() {
      return id % 7;
    }

    @Override
    public void close() {
      trace.append('c').append(id).append(';');
    }
  }

  static void reset() {
    trace = new StringBuilder();
    fuel = FUEL;
    suspensions = 0;
    some = 0;
    visits = 0;
  }

  /**
   * From now until the next reset, only about half of the points suspend, chosen by {@code seed}
   * (the same seed chooses the same points): frames then re-suspend shallower and deeper than
   * they last did, and saved frames wait while their callees run on through points that do not
   * suspend.
   *
   * @param seed not 0
   */
  static void suspendSome(long seed) {
    some = seed;
  }

  /* Whether the point just recorded suspends: in a continuation, every one or the chosen ones. */
  private static boolean suspendsHere() {
    if (!Continuation.isInContinuation()) {
      return false;
    }
    if (some == 0) {
      return true;
    }
    long x = (some + visits++) * 0x9E3779B97F4A7C15L;
    x ^= x >>> 31;
    return (x & 2) == 0;
  }

  static String trace() {
    return trace.toString();
  }

  static int suspensions() {
    return suspensions;
  }

  private static void point(int id, String value) throws Suspendable {
    spend();
    trace.append(id).append('=').append(value).append(';');
    if (suspendsHere()) {
      suspensions++;
      Continuation.suspend();
    }
  }

  private static void spend() {
    if (--fuel < 0) {
      throw new FuelExhausted();
    }
  }

  /** A suspension point as a statement. @param id the point id @throws Suspendable marker */
  public static void sp(int id) throws Suspendable {
    point(id, "");
  }

  /** A suspension point in an int expression. @param id point id @param v value @return v @throws Suspendable marker */
  public static int spI(int id, int v) throws Suspendable {
    point(id, Integer.toString(v));
    return v;
  }

  /** A suspension point in a long expression. @param id point id @param v value @return v @throws Suspendable marker */
  public static long spL(int id, long v) throws Suspendable {
    point(id, Long.toString(v));
    return v;
  }

  /** A suspension point in a double expression. @param id point id @param v value @return v @throws Suspendable marker */
  public static double spD(int id, double v) throws Suspendable {
    point(id, Double.toString(v));
    return v;
  }

  /** A suspension point in a boolean expression. @param id point id @param v value @return v @throws Suspendable marker */
  public static boolean spZ(int id, boolean v) throws Suspendable {
    point(id, Boolean.toString(v));
    return v;
  }

  /** A suspension point in a String expression. @param id point id @param v value @return v @throws Suspendable marker */
  public static String spS(int id, String v) throws Suspendable {
    point(id, v);
    return v;
  }

  /**
   * Records a point whose suspension the program performs itself, by calling
   * {@code Continuation.suspend()} directly when this returns true.
   *
   * @param id the point id
   * @return true when a continuation runs on this thread and the point suspends
   */
  public static boolean here(int id) {
    spend();
    trace.append(id).append("!;");
    boolean in = suspendsHere();
    if (in) {
      suspensions++;
    }
    return in;
  }

  /** Records a value without suspending. @param id the site id @param v the value */
  public static void log(int id, Object v) {
    trace.append(id).append(':').append(v).append(';');
  }

  /** Spends one unit of fuel; the first statement of every generated loop body. */
  public static void tick() {
    spend();
  }

  /** Bounds the length of strings that loops grow. @param s a string @return its head */
  public static String cut(String s) {
    return s.length() <= MAX_STRING ? s : s.substring(s.length() - MAX_STRING);
  }
}
