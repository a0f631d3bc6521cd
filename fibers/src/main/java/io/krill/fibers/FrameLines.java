package io.krill.fibers;

import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.Map;

/**
 * The stack-trace element of a frame read from a frame store rather than the thread's stack: its
 * class, method, source file and the line of the call it waits in, from the table the weaver
 * writes into each woven class ({@code $krill$lines}: "SourceFile|name(desc)ret:l0,l1,...|...",
 * a line per resume index).
 */
final class FrameLines {
  private static final String FIELD = "$krill$lines";

  /* Per woven class: its source file (key "") and each method's lines; empty when it has no table. */
  private static final ClassValue<Map<String, Object>> TABLES = new ClassValue<Map<String, Object>>() {
    @Override
    protected Map<String, Object> computeValue(Class<?> type) {
      return parse(read(type));
    }
  };

  private FrameLines() {}

  /**
   * @param id the frame's id, "owner.name(desc)ret#version"
   * @param index the frame's resume index
   * @param self what the frame saved below its id (a lazily woven frame's receiver or class), or null
   * @param loader where to look the owner up when self does not name it
   * @return the element; no file and line -1 when the class or its table cannot be read
   */
  static StackTraceElement element(String id, int index, Object self, ClassLoader loader) {
    int paren = id.indexOf('(');
    int dot = paren < 0 ? -1 : id.lastIndexOf('.', paren);
    int hash = id.lastIndexOf('#');
    if (dot < 0 || hash < paren) {
      return new StackTraceElement("", id, null, -1);
    }
    String owner = id.substring(0, dot).replace('/', '.');
    String method = id.substring(dot + 1, paren);
    Class<?> c = owner(owner, self, loader);
    if (c == null) {
      return new StackTraceElement(owner, method, null, -1);
    }
    Map<String, Object> table = TABLES.get(c);
    int[] lines = (int[]) table.get(id.substring(dot + 1, hash));
    int line = lines != null && index >= 0 && index < lines.length ? lines[index] : -1;
    return new StackTraceElement(owner, method, (String) table.get(""), line);
  }

  private static Class<?> owner(String name, Object self, ClassLoader loader) {
    if (self instanceof Class && ((Class<?>) self).getName().equals(name)) {
      return (Class<?>) self;
    }
    if (self != null) {
      Class<?> c = LazyResume.declaring(self.getClass(), name);
      if (c != null) {
        return c;
      }
    }
    try {
      return Class.forName(name, false, loader);
    } catch (ClassNotFoundException | LinkageError | SecurityException e) {
      return null;
    }
  }

  private static String read(Class<?> c) {
    try {
      Field f = c.getDeclaredField(FIELD);
      f.setAccessible(true);
      Object v = f.get(null);
      return v instanceof String ? (String) v : null;
    } catch (ReflectiveOperationException | RuntimeException e) { // no table, or a module that does not open it
      return null;
    }
  }

  static Map<String, Object> parse(String table) {
    Map<String, Object> out = new HashMap<>();
    if (table == null) {
      return out;
    }
    String[] parts = table.split("\\|", -1);
    if (!parts[0].isEmpty()) {
      out.put("", parts[0]);
    }
    for (int i = 1; i < parts.length; i++) {
      int colon = parts[i].lastIndexOf(':');
      if (colon < 0) {
        continue;
      }
      String[] nums = colon + 1 == parts[i].length() ? new String[0] : parts[i].substring(colon + 1).split(",");
      int[] lines = new int[nums.length];
      try {
        for (int k = 0; k < nums.length; k++) {
          lines[k] = Integer.parseInt(nums[k]);
        }
      } catch (NumberFormatException e) {
        continue;
      }
      out.put(parts[i].substring(0, colon), lines);
    }
    return out;
  }
}
