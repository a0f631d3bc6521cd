package io.krill.loadtest.fibers;

/** The explanations the report prints beside each goal, from profiling the runs. */
final class Why {
  static final String COMMS_TIME = "TODO";
  static final String RING = "TODO";
  static final String SPAWN = "TODO";
  static final String CROSS_LOOP = "TODO";
  static final String FINDINGS = "TODO";

  private Why() {}

  static String heap(Double tracked, Double untracked, Double vt) {
    return "TODO";
  }
}
