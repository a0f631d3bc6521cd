package io.krill.transform.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LoopsTest {
  private static int[] e(int from, int to) {
    return new int[] {from, to};
  }

  private static List<Integer> headers(Loops loops, int insn) {
    return loops.chain(insn).stream().map(l -> l.header).toList();
  }

  @Test
  void find_nestedLoops_chainIsOutermostFirst() {
    // 0 -> 1 (outer header) -> 2 (inner header) -> 3 -> 2; 2 -> 4 -> 1; 1 -> 5 (exit)
    Loops loops = Loops.find(6, List.of(e(0, 1), e(1, 2), e(2, 3), e(3, 2), e(2, 4), e(4, 1), e(1, 5)), List.of());

    assertThat(loops).isNotNull();
    assertThat(headers(loops, 3)).containsExactly(1, 2);
    assertThat(headers(loops, 4)).containsExactly(1);
    assertThat(headers(loops, 0)).isEmpty();
    assertThat(headers(loops, 5)).isEmpty();
  }

  @Test
  void find_loopThroughAnExceptionHandler_handlerIsInTheLoop() {
    // 0 -> 1 (header) -> 2 -(exception)-> 3 -> 1; 2 -> 4 (exit)
    Loops loops = Loops.find(5, List.of(e(0, 1), e(1, 2), e(3, 1), e(2, 4)), List.of(e(2, 3)));

    assertThat(headers(loops, 3)).containsExactly(1);
    assertThat(headers(loops, 4)).isEmpty();
  }

  @Test
  void find_twoEntriesIntoOneCycle_irreducibleSoNull() {
    // 0 -> 1, 0 -> 2, 1 -> 2, 2 -> 1: neither 1 nor 2 dominates the other
    assertThat(Loops.find(3, List.of(e(0, 1), e(0, 2), e(1, 2), e(2, 1)), List.of())).isNull();
  }
}
