package io.krill.fibers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class GeneratorTest {
  /** A binary tree node. */
  record Node(int value, Node left, Node right) {}

  static void walk(Node n, Generator.Sink<Integer> out) throws Suspendable {
    if (n == null) {
      return;
    }
    walk(n.left(), out);
    out.yield(n.value());
    walk(n.right(), out);
  }

  static Node build(int lo, int hi) {
    if (lo > hi) {
      return null;
    }
    int mid = (lo + hi) >>> 1;
    return new Node(mid, build(lo, mid - 1), build(mid + 1, hi));
  }

  static <T> List<T> drain(Iterable<T> it) {
    List<T> out = new ArrayList<>();
    it.forEach(out::add);
    return out;
  }

  @Test
  void iterator_recursiveTreeWalk_yieldsInOrder() {
    Node root = build(1, 1000);
    List<Integer> got = drain(new Generator<Integer>(out -> walk(root, out)));
    assertThat(got).hasSize(1000);
    for (int i = 0; i < 1000; i++) {
      assertThat(got.get(i)).isEqualTo(i + 1);
    }
  }

  @Test
  void iterator_calledTwice_runsProducerAfresh() {
    Generator<String> g = new Generator<>(out -> {
      out.yield("a");
      out.yield(null);
      out.yield("c");
    });
    assertThat(drain(g)).containsExactly("a", null, "c");
    assertThat(drain(g)).containsExactly("a", null, "c");
  }

  @Test
  void hasNext_producerThrows_propagatesAfterEarlierElements() {
    Iterator<Integer> it = new Generator<Integer>(out -> {
      out.yield(1);
      throw new IllegalArgumentException("boom at 2");
    }).iterator();
    assertThat(it.next()).isEqualTo(1);
    assertThatThrownBy(it::hasNext).isInstanceOf(IllegalArgumentException.class).hasMessage("boom at 2");
  }

  @Test
  void next_exhausted_throwsNoSuchElement() {
    Iterator<Integer> it = new Generator<Integer>(out -> out.yield(7)).iterator();
    assertThat(it.next()).isEqualTo(7);
    assertThat(it.hasNext()).isFalse();
    assertThatThrownBy(it::next).isInstanceOf(NoSuchElementException.class);
  }

  @Test
  void yield_fromAnotherGeneratorsProducer_isRefused() {
    List<Generator.Sink<Integer>> outer = new ArrayList<>();
    Iterator<Integer> first = new Generator<Integer>(out -> {
      outer.add(out);
      out.yield(1);
    }).iterator();
    first.next();
    Iterator<Integer> second = new Generator<Integer>(out -> outer.get(0).yield(2)).iterator();
    assertThatThrownBy(second::hasNext).isInstanceOf(IllegalStateException.class).hasMessageContaining("outside");
  }

  @Test
  void iterator_nestedGenerators_interleaveOnOneThread() {
    Generator<Integer> evens = new Generator<>(out -> {
      for (int i = 0; i < 10; i += 2) {
        out.yield(i);
      }
    });
    Generator<String> pairs = new Generator<>(out -> {
      for (int e : evens) {
        out.yield(e + ":" + (e + 1));
      }
    });
    assertThat(drain(pairs)).containsExactly("0:1", "2:3", "4:5", "6:7", "8:9");
  }

  // ------------------------------------------------------------------ push-to-pull inversion

  /** The callbacks of a push (SAX-style) parser; suspendable so a generator can invert it. */
  interface Handler {
    void start(String name) throws Suspendable;

    void text(String text) throws Suspendable;

    void end(String name) throws Suspendable;
  }

  /** A tiny push parser for element-only XML: calls the handler as it scans. */
  static void parse(String xml, Handler h) throws Suspendable {
    int i = 0;
    while (i < xml.length()) {
      if (xml.charAt(i) == '<') {
        int close = xml.indexOf('>', i);
        if (close < 0) {
          throw new IllegalArgumentException("unclosed tag at " + i);
        }
        String tag = xml.substring(i + 1, close);
        if (tag.startsWith("/")) {
          h.end(tag.substring(1));
        } else {
          h.start(tag);
        }
        i = close + 1;
      } else {
        int next = xml.indexOf('<', i);
        int stop = next < 0 ? xml.length() : next;
        h.text(xml.substring(i, stop));
        i = stop;
      }
    }
  }

  @Test
  void iterator_invertsPushParser_intoPullEvents() {
    String xml = "<a><b>x</b><c>yz</c></a>";
    Generator<String> events = new Generator<>(out -> parse(xml, new Handler() {
      @Override
      public void start(String name) throws Suspendable {
        out.yield("start " + name);
      }

      @Override
      public void text(String text) throws Suspendable {
        out.yield("text " + text);
      }

      @Override
      public void end(String name) throws Suspendable {
        out.yield("end " + name);
      }
    }));
    Iterator<String> it = events.iterator();
    assertThat(it.next()).isEqualTo("start a");
    assertThat(it.next()).isEqualTo("start b");
    List<String> rest = new ArrayList<>();
    it.forEachRemaining(rest::add);
    assertThat(rest).containsExactly("text x", "end b", "start c", "text yz", "end c", "end a");
  }
}
