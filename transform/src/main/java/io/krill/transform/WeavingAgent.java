package io.krill.transform;

import io.krill.transform.internal.ClassWeaver;

import java.io.PrintStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Locale;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.BiFunction;
import java.util.function.IntConsumer;

/**
 * Weaves classes as they load: {@code java -javaagent:krill-transform-agent.jar[=onError=warn|halt] ...}.
 *
 * <p>JDK classes and krill's own pre-woven modules are skipped. A class that cannot be woven
 * gets one line on standard error naming the class and the cause: a rule of suspendable code
 * it breaks, or any {@link Throwable} the weaver threw on it ({@link StackOverflowError} on a
 * very deep method, a {@link LinkageError} while resolving its hierarchy, an
 * {@link AssertionError} from ASM). Nothing escapes into the class loader. What follows is the
 * error policy, set by the agent argument {@code onError=...} or the system property
 * {@value #ON_ERROR_PROPERTY} (the argument wins):
 *
 * <ul>
 *   <li>{@code warn} (the default): the class loads unwoven, so the first suspension through it
 *       fails with a clear message when runtime verification ({@code -Dkrill.verify=true}) is on;
 *   <li>{@code halt}: the JVM stops at once with exit status {@value #HALT_STATUS}, for
 *       deployments that would rather not run with a class that cannot suspend.
 * </ul>
 */
public final class WeavingAgent implements ClassFileTransformer {
  /** The system property that sets the error policy: {@code warn} or {@code halt}. */
  public static final String ON_ERROR_PROPERTY = "krill.agent.onError";
  /** The exit status of the {@code halt} policy (EX_SOFTWARE). */
  public static final int HALT_STATUS = 70;

  /** What the agent does after a class failed to weave. */
  public enum OnError {
    /** Report the class and load it unwoven. */
    WARN,
    /** Report the class and halt the JVM with {@value WeavingAgent#HALT_STATUS}. */
    HALT;

    /**
     * Parses a policy name.
     *
     * @param value {@code warn} or {@code halt} (any case), or null for the default
     * @return the policy
     * @throws IllegalArgumentException naming {@code onError} for any other value
     */
    public static OnError parse(String value) {
      if (value == null || value.isBlank()) {
        return WARN;
      }
      switch (value.trim().toLowerCase(Locale.ROOT)) {
        case "warn":
          return WARN;
        case "halt":
          return HALT;
        default:
          throw new IllegalArgumentException("onError: " + value + " (expected: warn or halt)");
      }
    }
  }

  private final Map<ClassLoader, Weaver> weavers = new WeakHashMap<>();
  private final OnError onError;
  private final BiFunction<ClassLoader, byte[], byte[]> weave;
  private final PrintStream err;
  private final IntConsumer halt;
  private volatile boolean warnedOlderEntries; // a class woven with resume entries of an older shape was seen

  WeavingAgent(OnError onError, BiFunction<ClassLoader, byte[], byte[]> weave, PrintStream err, IntConsumer halt) {
    this.onError = onError;
    this.weave = weave != null ? weave : (loader, bytes) -> weaver(loader).weave(bytes);
    this.err = err;
    this.halt = halt;
  }

  /**
   * Installs the agent.
   *
   * @param args {@code onError=warn|halt}, or null
   * @param inst the instrumentation service
   * @throws IllegalArgumentException for an unknown argument or policy
   */
  public static void premain(String args, Instrumentation inst) {
    inst.addTransformer(new WeavingAgent(policy(args, System.getProperty(ON_ERROR_PROPERTY)), null, null,
        status -> Runtime.getRuntime().halt(status)));
  }

  /**
   * Installs the agent when the jar is launched with {@code java -jar} and declares it.
   *
   * @param args as for {@link #premain}
   * @param inst the instrumentation service
   */
  public static void agentmain(String args, Instrumentation inst) {
    premain(args, inst);
  }

  /* The agent argument, then the property; "onError=halt" is the only argument there is. */
  static OnError policy(String args, String property) {
    if (args == null || args.isBlank()) {
      return OnError.parse(property);
    }
    String a = args.trim();
    if (!a.startsWith("onError=")) {
      throw new IllegalArgumentException("krill agent argument: " + a + " (expected: onError=warn or onError=halt)");
    }
    return OnError.parse(a.substring("onError=".length()));
  }

  @Override
  public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain, byte[] bytes) {
    if (className == null || loader == null || skip(className)) {
      return null;
    }
    try {
      byte[] out = weave.apply(loader, bytes);
      if (out == bytes) {
        if (!warnedOlderEntries && ClassWeaver.hasOlderResumeEntries(bytes)) {
          warnedOlderEntries = true;
          warn(className.replace('/', '.') + " (and any other class so woven; this is said once) was woven by an"
              + " earlier krill weaver: it resumes through a method handle, which is slower; weave it again with"
              + " this weaver");
        }
        return null;
      }
      return out;
    } catch (TransformException e) {
      failed(e.getMessage());
    } catch (Throwable e) { // an Error must not escape into the class loader: that class would fail to load
      failed("cannot weave " + className.replace('/', '.') + ": " + e
          + (onError == OnError.WARN ? " (loaded unwoven)" : ""));
    }
    return null;
  }

  private void warn(String line) {
    (err != null ? err : System.err).println("krill agent: " + line);
  }

  private void failed(String line) {
    warn(line);
    if (onError == OnError.HALT) {
      (err != null ? err : System.err).println("krill agent: halting (" + ON_ERROR_PROPERTY + "=halt)");
      halt.accept(HALT_STATUS);
    }
  }

  private synchronized Weaver weaver(ClassLoader loader) {
    return weavers.computeIfAbsent(loader, Weaver::forClassLoader);
  }

  private static boolean skip(String name) {
    return name.startsWith("java/") || name.startsWith("javax/") || name.startsWith("jdk/") || name.startsWith("sun/")
        || name.startsWith("com/sun/") || name.startsWith("io/krill/transform/") || name.startsWith("org/objectweb/asm/");
  }
}
