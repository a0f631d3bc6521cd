package io.krill.fibers;

/** A node of a fiber's stack of joiners: the strands waiting for it to finish. Immutable. */
final class Joiner {
  final Object strand;
  final Object next;

  Joiner(Object strand, Object next) {
    this.strand = strand;
    this.next = next;
  }

  /** @return the stack from {@code node} without {@code strand}'s node, sharing what follows it */
  static Object without(Joiner node, Object strand) {
    if (node.strand == strand) {
      return node.next;
    }
    if (!(node.next instanceof Joiner)) {
      return node;
    }
    Object rest = without((Joiner) node.next, strand);
    return rest == node.next ? node : new Joiner(node.strand, rest);
  }
}
