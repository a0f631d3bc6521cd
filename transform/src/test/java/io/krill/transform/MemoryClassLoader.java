package io.krill.transform;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.Map;

/**
 * Defines classes from class files held in memory, keyed by internal name, and serves those
 * class files as resources; every other class and resource comes from the parent.
 */
public final class MemoryClassLoader extends ClassLoader {
  private final Map<String, byte[]> classes;

  /**
   * @param parent where every other class comes from
   * @param classes class files by internal name
   */
  public MemoryClassLoader(ClassLoader parent, Map<String, byte[]> classes) {
    super("krill-test", parent);
    this.classes = classes;
  }

  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    byte[] b = classes.get(name.replace('.', '/'));
    if (b == null) {
      throw new ClassNotFoundException(name);
    }
    return defineClass(name, b, 0, b.length);
  }

  @Override
  public InputStream getResourceAsStream(String name) {
    if (name.endsWith(".class")) {
      byte[] b = classes.get(name.substring(0, name.length() - ".class".length()));
      if (b != null) {
        return new ByteArrayInputStream(b);
      }
    }
    return super.getResourceAsStream(name);
  }
}
