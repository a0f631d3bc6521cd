package io.krill.loadtest.harness;

import io.krill.loadtest.internal.Reports;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The cells of one variant at one connection count, over the rounds: medians and spreads,
 * and ratios against a reference variant computed round by round (so both sides of a ratio
 * come from the same round of the same run).
 */
final class Summary {
  final String variant;
  final int connections;
  final List<Cell> cells = new ArrayList<>();

  Summary(String variant, int connections) {
    this.variant = variant;
    this.connections = connections;
  }

  /** @return the summaries of {@code cells} keyed by variant then connections, in run order */
  static Map<String, Summary> of(List<Cell> cells) {
    Map<String, Summary> m = new LinkedHashMap<>();
    for (Cell c : cells) {
      m.computeIfAbsent(key(c.variant, c.connections), k -> new Summary(c.variant, c.connections)).cells.add(c);
    }
    return m;
  }

  static String key(String variant, int connections) {
    return variant + "@" + connections;
  }

  /** @return the cells that measured something */
  List<Cell> ok() {
    List<Cell> l = new ArrayList<>();
    for (Cell c : cells) {
      if (c.ok()) {
        l.add(c);
      }
    }
    return l;
  }

  /** @return the first skip reason or error, or null if some cell measured */
  String why() {
    if (!ok().isEmpty()) {
      return null;
    }
    for (Cell c : cells) {
      if (c.skipped != null) {
        return c.skipped;
      }
    }
    for (Cell c : cells) {
      if (c.error != null) {
        return "failed: " + c.error;
      }
    }
    return "no cell";
  }

  /** @return {median, min, max} of {@code f} over the cells that measured, NaNs left out; NaN when none */
  double[] stats(ToDoubleFunction<Cell> f) {
    List<Double> v = new ArrayList<>();
    for (Cell c : ok()) {
      double x = f.applyAsDouble(c);
      if (!Double.isNaN(x)) {
        v.add(x);
      }
    }
    if (v.isEmpty()) {
      return new double[] {Double.NaN, Double.NaN, Double.NaN};
    }
    return new double[] {Reports.median(v), v.stream().min(Double::compare).get(), v.stream().max(Double::compare).get()};
  }

  /** @return the latency percentile in microseconds, median over the rounds */
  double latencyMicros(double percentile) {
    return stats(c -> c.result == null ? Double.NaN : c.result.latencyMicros(percentile))[0];
  }

  /**
   * Ratios {@code f(this) / f(reference)} round by round.
   *
   * @return {median, min, max}, NaN when no round has both
   */
  double[] ratio(Summary reference, ToDoubleFunction<Cell> f) {
    List<Double> v = new ArrayList<>();
    if (reference != null) {
      for (Cell c : ok()) {
        for (Cell r : reference.ok()) {
          double a = f.applyAsDouble(c);
          double b = f.applyAsDouble(r);
          if (r.round == c.round && !Double.isNaN(a) && !Double.isNaN(b) && b != 0) {
            v.add(a / b);
          }
        }
      }
    }
    if (v.isEmpty()) {
      return new double[] {Double.NaN, Double.NaN, Double.NaN};
    }
    return new double[] {Reports.median(v), v.stream().min(Double::compare).get(), v.stream().max(Double::compare).get()};
  }

  /** @return "median (min–max)" or "median" for one round, "—" for none */
  static String spread(double[] s, boolean ratio) {
    if (Double.isNaN(s[0])) {
      return "—";
    }
    String m = ratio ? Reports.fmtRatio(s[0]) : Reports.fmt(s[0]);
    if (s[1] == s[2]) {
      return m;
    }
    return m + " (" + (ratio ? Reports.fmtRatio(s[1]) : Reports.fmt(s[1])) + "–"
        + (ratio ? Reports.fmtRatio(s[2]) : Reports.fmt(s[2])) + ")";
  }
}
