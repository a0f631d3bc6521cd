package io.krill.transform;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.transform.internal.Names;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.util.CheckClassAdapter;

/** Class files compiled by {@link TestCompiler}, by internal name, and what tests do with them. */
public final class CompiledClasses {
  private final Map<String, byte[]> classes;

  CompiledClasses(Map<String, byte[]> classes) {
    this.classes = Collections.unmodifiableMap(new LinkedHashMap<>(classes));
  }

  /** @return every class file by internal name */
  public Map<String, byte[]> all() {
    return classes;
  }

  /** @return the class file of {@code internalName} */
  public byte[] bytes(String internalName) {
    byte[] b = classes.get(internalName);
    if (b == null) {
      throw new IllegalArgumentException(internalName + " was not compiled; have " + classes.keySet());
    }
    return b;
  }

  /** @return a lookup that answers compiled classes first, then the JDK's class files */
  public Function<String, byte[]> lookup() {
    return name -> {
      byte[] b = classes.get(name);
      return b != null ? b : jdkClassFile(name);
    };
  }

  /** @return a weaver that sees these classes and the JDK */
  public Weaver weaver() {
    return Weaver.forLookup(lookup());
  }

  /**
   * Returns a loader that defines these classes, with {@code replacements} taking precedence,
   * and serves their class files as resources. JDK classes come from the platform loader.
   */
  public ClassLoader loader(Map<String, byte[]> replacements) {
    Map<String, byte[]> view = new LinkedHashMap<>(classes);
    view.putAll(replacements);
    return new MemoryClassLoader(ClassLoader.getPlatformClassLoader(), view);
  }

  /**
   * Loads {@code woven} in place of the class compiled as {@code internalName}, after checking
   * that it verifies, and checks that it carries the woven marker.
   *
   * @return the loaded class
   */
  public Class<?> loadWoven(String internalName, byte[] woven) throws ReflectiveOperationException {
    ClassLoader loader = loader(Map.of(internalName, woven));
    assertThat(verify(woven, loader)).isEmpty();
    Class<?> c = loader.loadClass(internalName.replace('/', '.'));
    assertThat(c.getDeclaredField(Names.WOVEN_FIELD)).isNotNull();
    return c;
  }

  /** Writes every class file under {@code dir}, in the package layout. */
  public void writeTo(Path dir) {
    classes.forEach((name, bytes) -> {
      try {
        Path file = dir.resolve(name + ".class");
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /**
   * Runs ASM's {@link CheckClassAdapter} verification (structure, then data flow with a
   * {@code SimpleVerifier} that loads types from {@code loader}).
   *
   * @return the verifier's report; empty when the class verifies
   */
  public static String verify(byte[] classFile, ClassLoader loader) {
    StringWriter out = new StringWriter();
    try (PrintWriter pw = new PrintWriter(out)) {
      CheckClassAdapter.verify(new ClassReader(classFile), loader, false, pw);
    }
    return out.toString();
  }

  /**
   * Rewrites the woven marker of a woven class file, as an older weaver would have written it;
   * the code is left as it is.
   *
   * @param woven a woven class file
   * @param stamp maps the marker's value to the one to write
   * @return the class file with the new marker value
   */
  public static byte[] restamp(byte[] woven, java.util.function.UnaryOperator<String> stamp) {
    ClassNode cn = new ClassNode();
    new ClassReader(woven).accept(cn, 0);
    FieldNode marker = cn.fields.stream().filter(f -> Names.WOVEN_FIELD.equals(f.name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException(cn.name + " carries no " + Names.WOVEN_FIELD));
    marker.value = stamp.apply((String) marker.value);
    ClassWriter cw = new ClassWriter(0);
    cn.accept(cw);
    return cw.toByteArray();
  }

  static byte[] jdkClassFile(String internalName) {
    try (InputStream in = ClassLoader.getPlatformClassLoader().getResourceAsStream(internalName + ".class")) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
