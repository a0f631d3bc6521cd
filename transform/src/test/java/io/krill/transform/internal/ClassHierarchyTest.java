package io.krill.transform.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.transform.CompiledClasses;
import io.krill.transform.TestCompiler;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClassHierarchyTest {
  private static CompiledClasses classes;

  private ClassHierarchy hierarchy;

  @BeforeAll
  static void compile() {
    classes = TestCompiler.compile(String.join("\n",
        "package h;",
        "import io.krill.fibers.Suspendable;",
        "public interface Root {",
        "  void root() throws Suspendable;",
        "  default int plain() { return 0; }",
        "  static void helper() {}",
        "}"), String.join("\n",
        "package h;",
        "public interface Mid extends Root { void mid(); }"), String.join("\n",
        "package h;",
        "import io.krill.fibers.Suspendable;",
        "public abstract class Animal implements Mid {",
        "  public void speak() throws Suspendable {}",
        "  public String name() { return \"animal\"; }",
        "  private void secret() {}",
        "}"), String.join("\n",
        "package h;",
        "public abstract class Dog extends Animal {",
        "  @Override public String name() { return \"dog\"; }",
        "}"), String.join("\n",
        "package h;",
        "public abstract class Puppy extends Dog implements Comparable<Puppy> {}"), String.join("\n",
        "package h;",
        "public abstract class Cat extends Animal {}"), String.join("\n",
        "package h;",
        "public abstract class Stranger implements Root {}"));
  }

  @BeforeEach
  void newHierarchy() {
    hierarchy = new ClassHierarchy(classes.lookup());
  }

  /*
   * Each row: where resolution of type.name(desc) ends, and whether that declaration is marked
   * (suspendable) or not (plain); an empty result when nothing is found.
   */
  @ParameterizedTest(name = "{0}.{1}{2} -> {3}")
  @CsvSource(delimiter = '|', value = {
      "h/Puppy | speak | ()V | h/Animal suspendable", // declared in a superclass
      "h/Puppy | name | ()Ljava/lang/String; | h/Dog plain", // overridden: the most specific class
      "h/Cat | name | ()Ljava/lang/String; | h/Animal plain",
      "h/Puppy | root | ()V | h/Root suspendable", // a superinterface of a superclass
      "h/Puppy | mid | ()V | h/Mid plain",
      "h/Puppy | compareTo | (Ljava/lang/Object;)I | java/lang/Comparable plain",
      "h/Mid | hashCode | ()I | java/lang/Object plain", // Object's methods through an interface
      "h/Dog | hashCode | ()I | java/lang/Object plain",
      "h/Stranger | helper | ()V | ", // a static interface method is not inherited
      "h/Root | helper | ()V | h/Root plain",
      "h/Dog | fly | ()V | ", // missing method, class, or an array type
      "h/Nowhere | fly | ()V | ",
      "[Lh/Dog; | clone | ()Ljava/lang/Object; | "})
  void resolve_findsTheDeclaration(String type, String name, String desc, String declaration) {
    ClassHierarchy.MethodInfo m = hierarchy.resolve(type, name, desc);
    assertThat(m == null ? null : m.owner() + (m.suspendable() ? " suspendable" : " plain")).isEqualTo(declaration);
  }
  @Test
  void isSuspendable_markedAndUnmarkedMethods_answersFromThrowsClause() {
    assertThat(hierarchy.isSuspendable("h/Cat", "speak", "()V")).isTrue();
    assertThat(hierarchy.isSuspendable("h/Cat", "root", "()V")).isTrue();
    assertThat(hierarchy.isSuspendable("h/Cat", "name", "()Ljava/lang/String;")).isFalse();
    assertThat(hierarchy.isSuspendable("h/Cat", "plain", "()I")).isFalse();
    assertThat(hierarchy.isSuspendable("h/Nowhere", "speak", "()V")).isFalse();
  }

  @Test
  void overridden_methodOfClassAndInterfaces_listsEveryNonPrivateDeclaration() {
    List<String> owners = owners(hierarchy.overridden("h/Puppy", "name", "()Ljava/lang/String;"));
    List<String> root = owners(hierarchy.overridden("h/Puppy", "root", "()V"));

    assertThat(owners).containsExactly("h/Dog", "h/Animal");
    assertThat(root).containsExactly("h/Root");
    assertThat(hierarchy.overridden("h/Dog", "secret", "()V")).isEmpty();
    assertThat(hierarchy.overridden("h/Dog", "helper", "()V")).isEmpty();
  }

  @Test
  void isSubtype_classesAndInterfaces_followsSuperclassesAndInterfaces() {
    assertThat(hierarchy.isSubtype("h/Puppy", "h/Animal")).isTrue();
    assertThat(hierarchy.isSubtype("h/Puppy", "h/Root")).isTrue();
    assertThat(hierarchy.isSubtype("h/Puppy", "java/lang/Comparable")).isTrue();
    assertThat(hierarchy.isSubtype("h/Puppy", "java/lang/Object")).isTrue();
    assertThat(hierarchy.isSubtype("h/Cat", "h/Dog")).isFalse();
    assertThat(hierarchy.isSubtype("h/Animal", "h/Dog")).isFalse();
    assertThat(hierarchy.isSubtype("h/Nowhere", "h/Root")).isFalse();
  }

  @Test
  void commonSuperClass_siblings_returnsNearestSharedSuperclass() {
    assertThat(hierarchy.commonSuperClass("h/Puppy", "h/Cat")).isEqualTo("h/Animal");
    assertThat(hierarchy.commonSuperClass("h/Cat", "h/Puppy")).isEqualTo("h/Animal");
    assertThat(hierarchy.commonSuperClass("java/lang/Integer", "java/lang/Long")).isEqualTo("java/lang/Number");
  }

  @Test
  void commonSuperClass_subclassAndSuperclass_returnsSuperclass() {
    assertThat(hierarchy.commonSuperClass("h/Puppy", "h/Dog")).isEqualTo("h/Dog");
    assertThat(hierarchy.commonSuperClass("h/Animal", "h/Puppy")).isEqualTo("h/Animal");
    assertThat(hierarchy.commonSuperClass("h/Dog", "h/Dog")).isEqualTo("h/Dog");
  }

  @Test
  void commonSuperClass_unrelatedInterfacesOrUnknownTypes_returnsObject() {
    assertThat(hierarchy.commonSuperClass("h/Mid", "java/lang/Comparable")).isEqualTo("java/lang/Object");
    assertThat(hierarchy.commonSuperClass("h/Stranger", "h/Dog")).isEqualTo("java/lang/Object");
    assertThat(hierarchy.commonSuperClass("h/Nowhere", "h/Dog")).isEqualTo("java/lang/Object");
    assertThat(hierarchy.commonSuperClass("h/Cat", "java/lang/String")).isEqualTo("java/lang/Object");
  }

  @Test
  void isInterfaceAndSuperName_knownAndUnknownTypes_answerFromHeaders() {
    assertThat(hierarchy.isInterface("h/Mid")).isTrue();
    assertThat(hierarchy.isInterface("h/Dog")).isFalse();
    assertThat(hierarchy.isInterface("h/Nowhere")).isFalse();
    assertThat(hierarchy.superName("h/Dog")).isEqualTo("h/Animal");
    assertThat(hierarchy.superName("h/Nowhere")).isEqualTo("java/lang/Object");
    assertThat(hierarchy.superName("java/lang/Object")).isNull();
  }

  @Test
  void find_sameTypeTwice_readsClassFileOnce() {
    AtomicInteger reads = new AtomicInteger();
    ClassHierarchy counting = new ClassHierarchy(name -> {
      reads.incrementAndGet();
      return classes.lookup().apply(name);
    });

    counting.find("h/Dog");
    counting.find("h/Dog");
    counting.find("h/Nowhere");
    counting.find("h/Nowhere");

    assertThat(reads).hasValue(2);
  }

  @Test
  void add_classUnknownToLookup_becomesVisible() {
    ClassHierarchy empty = new ClassHierarchy(name -> null);
    assertThat(empty.find("h/Dog")).isNull();

    ClassHierarchy withAdded = new ClassHierarchy(name -> null);
    withAdded.add(classes.bytes("h/Dog"));

    assertThat(withAdded.superName("h/Dog")).isEqualTo("h/Animal");
    assertThat(withAdded.resolve("h/Dog", "name", "()Ljava/lang/String;").owner()).isEqualTo("h/Dog");
  }

  @Test
  void find_lookupThrows_treatsTypeAsMissing() {
    ClassHierarchy failing = new ClassHierarchy(name -> {
      throw new IllegalStateException("boom");
    });

    assertThat(failing.find("h/Dog")).isNull();
    assertThat(failing.isSuspendable("h/Dog", "speak", "()V")).isFalse();
  }

  private static List<String> owners(List<ClassHierarchy.MethodInfo> methods) {
    return methods.stream().map(ClassHierarchy.MethodInfo::owner).collect(Collectors.toList());
  }
}
