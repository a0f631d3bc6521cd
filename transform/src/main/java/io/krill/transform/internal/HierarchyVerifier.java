package io.krill.transform.internal;

import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.analysis.SimpleVerifier;

/**
 * ASM's {@link SimpleVerifier} with class relations answered by a {@link ClassHierarchy}
 * instead of by loading classes, so analysis never runs or loads user code.
 */
final class HierarchyVerifier extends SimpleVerifier {
  private final ClassHierarchy hierarchy;

  HierarchyVerifier(ClassHierarchy hierarchy, Type self, Type superType, List<Type> interfaces, boolean isInterface) {
    super(Opcodes.ASM9, self, superType, interfaces, isInterface);
    this.hierarchy = hierarchy;
  }

  @Override
  protected boolean isInterface(Type type) {
    return type.getSort() == Type.OBJECT && hierarchy.isInterface(type.getInternalName());
  }

  @Override
  protected Type getSuperClass(Type type) {
    if (type.getSort() != Type.OBJECT) {
      return Type.getObjectType("java/lang/Object");
    }
    String s = hierarchy.superName(type.getInternalName());
    return s == null ? null : Type.getObjectType(s);
  }

  @Override
  protected boolean isAssignableFrom(Type to, Type from) {
    if (to.equals(from)) {
      return true;
    }
    if (to.getSort() == Type.OBJECT && from.getSort() == Type.OBJECT) {
      return isInterface(to) || hierarchy.isSubtype(from.getInternalName(), to.getInternalName());
    }
    if (to.getSort() == Type.OBJECT) {
      String n = to.getInternalName();
      return from.getSort() == Type.ARRAY
          && (n.equals("java/lang/Object") || n.equals("java/lang/Cloneable") || n.equals("java/io/Serializable"));
    }
    if (to.getSort() == Type.ARRAY && from.getSort() == Type.ARRAY) {
      Type te = Type.getType(to.getDescriptor().substring(1));
      Type fe = Type.getType(from.getDescriptor().substring(1));
      if (te.getSort() < Type.ARRAY || fe.getSort() < Type.ARRAY) {
        return te.equals(fe);
      }
      return isAssignableFrom(te, fe);
    }
    return false;
  }

  @Override
  protected Class<?> getClass(Type type) {
    throw new UnsupportedOperationException("the weaver never loads classes: " + type);
  }
}
