package io.krill.fibers;

import java.util.function.Supplier;

/**
 * A variable with one value per fiber (and, off-fiber, per thread): the fiber counterpart of
 * {@link ThreadLocal}.
 *
 * @param <T> the value type
 */
public final class FiberLocal<T> {
  private final Supplier<? extends T> initial;
  private final ThreadLocal<T> offFiber;

  /** Creates a fiber-local whose initial value is null. */
  public FiberLocal() {
    this(() -> null);
  }

  /** @param initial supplies the initial value on first access in each fiber or thread */
  public FiberLocal(Supplier<? extends T> initial) {
    this.initial = initial;
    this.offFiber = ThreadLocal.withInitial(initial);
  }

  /** @return the current fiber's (or thread's) value */
  @SuppressWarnings("unchecked")
  public T get() {
    Fiber f = Fiber.current();
    if (f == null) {
      return offFiber.get();
    }
    java.util.Map<FiberLocal<?>, Object> m = f.localMap();
    if (!m.containsKey(this)) {
      T v = initial.get();
      m.put(this, v);
      return v;
    }
    return (T) m.get(this);
  }

  /** @param value the current fiber's (or thread's) new value */
  public void set(T value) {
    Fiber f = Fiber.current();
    if (f == null) {
      offFiber.set(value);
    } else {
      f.localMap().put(this, value);
    }
  }

  /** Removes the current fiber's (or thread's) value; the next get() sees the initial value. */
  public void remove() {
    Fiber f = Fiber.current();
    if (f == null) {
      offFiber.remove();
    } else {
      f.localMap().remove(this);
    }
  }
}
