package io.krill.fibers.corpus.hidden;

import io.krill.fibers.Suspendable;
import io.krill.fibers.corpus.Points;

/**
 * Public classes whose common superclass is package-private: a merge of the two types in
 * another package yields a type that code there may not name in a checkcast.
 */
public final class Animals {
  private Animals() {}

  /** Something that speaks. */
  public interface Speaker {
    /**
     * Names the animal {@code times} times. May suspend.
     *
     * @param times how often
     * @return the sound
     * @throws Suspendable never; marks that this method may suspend
     */
    String speak(int times) throws Suspendable;
  }

  abstract static class Hidden implements Speaker {
    final String name;

    Hidden(String name) {
      this.name = name;
    }

    @Override
    public String speak(int times) throws Suspendable {
      Points.point();
      return name.repeat(times);
    }
  }

  /** A public subclass of a package-private class. */
  public static final class Dog extends Hidden {
    public Dog() {
      super("woof");
    }
  }

  /** Another. */
  public static final class Cat extends Hidden {
    public Cat() {
      super("meow");
    }
  }
}
