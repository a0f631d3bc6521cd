package io.krill.transform;

import io.krill.transform.internal.ClassWeaver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Weaves a directory of class files in place: {@code WeaverMain <classes-dir> [classpath-entry...]}.
 *
 * <p>Classes referenced from the directory are looked up in the directory, then in the extra
 * classpath entries, then in the thread's context class loader (under Maven's exec plugin,
 * the project's classpath). Exits with status 1 and one message per failing class when a
 * rule is broken; with status 2 on bad arguments.
 */
public final class WeaverMain {
  private WeaverMain() {}

  /**
   * Runs the weaver.
   *
   * @param args the classes directory, then optional classpath entries
   * @throws Exception on I/O failure or when a class breaks a rule (so the build fails)
   */
  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: WeaverMain <classes-dir> [classpath-entry...]");
      System.exit(2);
    }
    Path dir = Paths.get(args[0]);
    if (!Files.isDirectory(dir)) {
      System.out.println("krill weaver: " + dir + " does not exist, nothing to weave");
      return;
    }
    List<URL> urls = new ArrayList<>();
    urls.add(dir.toUri().toURL());
    for (int i = 1; i < args.length; i++) {
      urls.add(toUrl(args[i]));
    }
    ClassLoader parent = Thread.currentThread().getContextClassLoader();
    try (URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), parent)) {
      Result r = weaveDirectory(dir, Weaver.forClassLoader(loader));
      System.out.println("krill weaver: " + dir + ": " + r.woven + " of " + r.total + " classes woven");
      if (r.olderEntries > 0) {
        System.out.println("krill weaver: " + dir + ": " + r.olderEntries + " class(es) woven by an earlier krill weaver"
            + " resume through a method handle, which is slower; rebuild clean (mvn clean) to weave them again");
      }
      if (!r.errors.isEmpty()) {
        for (String e : r.errors) {
          System.err.println("krill weaver: " + e);
        }
        throw new IllegalStateException(r.errors.size() + " class(es) break the rules of suspendable code:\n  "
            + String.join("\n  ", r.errors));
      }
    }
  }

  private static URL toUrl(String entry) {
    try {
      return Paths.get(entry).toUri().toURL();
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException("classpath entry: " + entry, e);
    }
  }

  /** What a directory weave did. */
  static final class Result {
    int total;
    int woven;
    /** Classes left as an earlier weaver wove them, with resume entries of an older shape. */
    int olderEntries;
    final List<String> errors = new ArrayList<>();
  }

  /**
   * Weaves every class file under {@code dir} in place.
   *
   * @return counts and the message of each class that broke a rule
   */
  static Result weaveDirectory(Path dir, Weaver weaver) throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.walk(dir)) {
      files = s.filter(p -> p.toString().endsWith(".class")).sorted().collect(java.util.stream.Collectors.toList());
    }
    for (Path p : files) {
      weaver.register(Files.readAllBytes(p));
    }
    Result r = new Result();
    for (Path p : files) {
      r.total++;
      byte[] in = Files.readAllBytes(p);
      try {
        byte[] out = weaver.weave(in);
        if (out != in) {
          Files.write(p, out);
          r.woven++;
        } else if (ClassWeaver.hasOlderResumeEntries(in)) {
          r.olderEntries++;
        }
      } catch (TransformException e) {
        r.errors.add(e.getMessage());
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
    }
    return r;
  }
}
