package io.krill.transform;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Weaves classes as they load: {@code java -javaagent:krill-transform-agent.jar ...}.
 *
 * <p>JDK classes and krill's own pre-woven modules are skipped. A class that breaks a rule of
 * suspendable code is reported on standard error and loaded unwoven, so the first suspension
 * through it fails with a clear message when runtime verification is on.
 */
public final class WeavingAgent implements ClassFileTransformer {
  private final Map<ClassLoader, Weaver> weavers = new WeakHashMap<>();

  private WeavingAgent() {}

  /**
   * Installs the agent.
   *
   * @param args ignored
   * @param inst the instrumentation service
   */
  public static void premain(String args, Instrumentation inst) {
    inst.addTransformer(new WeavingAgent());
  }

  /**
   * Installs the agent when the jar is launched with {@code java -jar} and declares it.
   *
   * @param args ignored
   * @param inst the instrumentation service
   */
  public static void agentmain(String args, Instrumentation inst) {
    premain(args, inst);
  }

  @Override
  public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain, byte[] bytes) {
    if (className == null || loader == null || skip(className)) {
      return null;
    }
    try {
      byte[] out = weaver(loader).weave(bytes);
      return out == bytes ? null : out;
    } catch (TransformException e) {
      System.err.println("krill agent: " + e.getMessage());
      return null;
    } catch (RuntimeException e) {
      System.err.println("krill agent: cannot weave " + className + ": " + e);
      return null;
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
