package io.krill.transform;

import io.krill.transform.internal.ClassHierarchy;
import io.krill.transform.internal.ClassWeaver;
import io.krill.transform.internal.WeaveFailure;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.function.Function;

/**
 * Makes the methods of a class that are declared {@code throws Suspendable} resumable.
 *
 * <pre>{@code
 * Weaver weaver = Weaver.forClassLoader(loader);
 * byte[] woven = weaver.weave(classFile);   // same array back when there is nothing to weave
 * }</pre>
 *
 * <p>The weaver reads the headers of other classes (supertypes, called methods) through a
 * lookup function and never loads or runs them. Weaving is idempotent: a woven class carries
 * a marker field and comes back unchanged; a class woven by a weaver of another woven ABI
 * (another krill version) fails with a {@link TransformException} that says to rebuild clean.
 * Thread-safe: one weaver may serve many threads.
 */
public final class Weaver {
  private final ClassWeaver classWeaver;
  private final ClassHierarchy hierarchy;

  private Weaver(Function<String, byte[]> lookup) {
    this.hierarchy = new ClassHierarchy(lookup);
    this.classWeaver = new ClassWeaver(hierarchy);
  }

  /**
   * Creates a weaver that reads other classes' headers from {@code loader}'s resources.
   *
   * @param loader where referenced classes are found; null means the system class loader
   * @return the weaver
   */
  public static Weaver forClassLoader(ClassLoader loader) {
    ClassLoader l = loader != null ? loader : ClassLoader.getSystemClassLoader();
    return new Weaver(name -> readResource(l, name));
  }

  /**
   * Creates a weaver with a custom lookup.
   *
   * @param lookup returns the class file for an internal name such as {@code java/lang/Object},
   *     or null when there is none
   * @return the weaver
   */
  public static Weaver forLookup(Function<String, byte[]> lookup) {
    return new Weaver(Objects.requireNonNull(lookup, "lookup"));
  }

  /**
   * Weaves one class file.
   *
   * @param classFile the class file
   * @return the woven class file, or {@code classFile} itself when there is nothing to weave
   * @throws TransformException when the class breaks a rule of suspendable code, or was woven
   *     by a weaver of another woven ABI
   */
  public byte[] weave(byte[] classFile) {
    Objects.requireNonNull(classFile, "classFile");
    byte[] out;
    try {
      out = classWeaver.weave(classFile);
    } catch (WeaveFailure f) {
      TransformException e = new TransformException(f.site());
      e.setStackTrace(f.getStackTrace());
      throw e;
    }
    return out == null ? classFile : out;
  }

  /**
   * Makes a class known to this weaver before it is woven, so that classes woven in the same
   * batch see each other's declarations.
   *
   * @param classFile the class file
   */
  public void register(byte[] classFile) {
    hierarchy.add(classFile);
  }

  static byte[] readResource(ClassLoader loader, String internalName) {
    try (InputStream in = loader.getResourceAsStream(internalName + ".class")) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      return null;
    }
  }
}
