package io.krill.loadtest.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;

/**
 * The PNG charts of a scenario, drawn with XChart (headless): {@code throughput.png}
 * (median requests or pages per second per variant at each connection count),
 * {@code latency.png} (p50/p90/p99/p99.9 per variant at the largest connection count, log
 * scale) and, for the idle scenario, {@code memory.png} (heap and RSS per idle connection).
 * A variant that measured nothing has no series; the report's table says why.
 */
final class Charts {
  static final int WIDTH = 900;
  static final int HEIGHT = 500;

  private final Scenario scenario;
  private final List<Cell> cells;
  private final Map<String, Summary> summaries;

  Charts(Scenario scenario, List<Cell> cells, Map<String, Summary> summaries) {
    this.scenario = scenario;
    this.cells = cells;
    this.summaries = summaries;
  }

  /** Writes the charts; one with no data says so in the image. @return their file names */
  List<String> write(Path dir) throws IOException {
    System.setProperty("java.awt.headless", "true");
    List<String> written = new ArrayList<>();
    save(throughput(), dir, "throughput.png", written);
    // Latency percentiles come from the built-in generator's histograms; wrk, h2load and the echo client have none here.
    if (scenario.kind != Scenario.Kind.CRAWL && scenario.kind != Scenario.Kind.STATIC && scenario.kind != Scenario.Kind.H2
        && scenario.kind != Scenario.Kind.WEBSOCKET) {
      save(latency(), dir, "latency.png", written);
    }
    if (scenario.kind == Scenario.Kind.IDLE) {
      save(memory(), dir, "memory.png", written);
    }
    return written;
  }

  private static void save(CategoryChart chart, Path dir, String name, List<String> written) throws IOException {
    if (chart.getSeriesMap().isEmpty()) {
      placeholder(chart.getTitle(), dir.resolve(name));
    } else {
      BitmapEncoder.saveBitmap(chart, dir.resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
    }
    written.add(name);
  }

  /* XChart cannot draw a chart without series (nor zeros on a log axis): an image that says why instead. */
  private static void placeholder(String title, Path file) throws IOException {
    java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(WIDTH, HEIGHT,
        java.awt.image.BufferedImage.TYPE_INT_RGB);
    java.awt.Graphics2D g = img.createGraphics();
    try {
      g.setColor(java.awt.Color.WHITE);
      g.fillRect(0, 0, WIDTH, HEIGHT);
      g.setColor(java.awt.Color.DARK_GRAY);
      g.drawString(title, 20, 40);
      g.drawString("nothing measured: no variant has data for this chart (see the table in report.md)", 20, 70);
    } finally {
      g.dispose();
    }
    javax.imageio.ImageIO.write(img, "png", file.toFile());
  }

  private List<Integer> counts() {
    List<Integer> l = new ArrayList<>();
    for (Cell c : cells) {
      if (!l.contains(c.connections)) {
        l.add(c.connections);
      }
    }
    return l;
  }

  private static String label(int connections) {
    return connections == 0 ? "demo" : String.format(Locale.ROOT, "%,d", connections);
  }

  private CategoryChart throughput() {
    String y = scenario.kind == Scenario.Kind.CRAWL ? "pages/s" : "requests/s";
    String title = scenario.kind == Scenario.Kind.IDLE
        ? scenario.name + ": " + Scenario.IDLE_ACTIVE_CLIENTS + " active clients beside the idle connections"
        : scenario.name + ": throughput (median over rounds)";
    CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
        .xAxisTitle(scenario.kind == Scenario.Kind.CRAWL ? "" : "connections").yAxisTitle(y).build();
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
    List<String> x = new ArrayList<>();
    for (int n : counts()) {
      x.add(label(n));
    }
    for (String variant : Report.variants(summaries)) {
      List<Double> v = new ArrayList<>();
      boolean any = false;
      for (int n : counts()) {
        Summary s = summaries.get(Summary.key(variant, n));
        double m = s == null ? Double.NaN : s.stats(Cell::rps)[0];
        any |= !Double.isNaN(m);
        v.add(Double.isNaN(m) ? 0.0 : m);
      }
      if (any) {
        chart.addSeries(variant, x, v);
      }
    }
    return chart;
  }

  private CategoryChart latency() {
    List<Integer> counts = counts();
    int n = counts.get(counts.size() - 1);
    CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
        .title(scenario.name + ": latency at " + label(n) + " connections (median over rounds)")
        .xAxisTitle("percentile").yAxisTitle("µs (log scale)").build();
    chart.getStyler().setYAxisLogarithmic(true);
    // Bars start at zero, which a log axis cannot show: percentiles are drawn as lines.
    chart.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
    chart.getStyler().setOverlapped(true);
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
    List<String> x = new ArrayList<>();
    for (double p : Report.PERCENTILES) {
      x.add("p" + (p == Math.rint(p) ? String.valueOf((int) p) : String.valueOf(p)));
    }
    for (String variant : Report.variants(summaries)) {
      Summary s = summaries.get(Summary.key(variant, n));
      if (s == null || s.why() != null) {
        continue;
      }
      List<Double> v = new ArrayList<>();
      boolean ok = true;
      for (double p : Report.PERCENTILES) {
        double m = s.latencyMicros(p);
        ok &= !Double.isNaN(m) && m > 0;
        v.add(m);
      }
      if (ok) {
        chart.addSeries(variant, x, v);
      }
    }
    return chart;
  }

  private CategoryChart memory() {
    List<Integer> counts = counts();
    int n = counts.get(counts.size() - 1);
    CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
        .title(scenario.name + ": memory per idle connection at " + label(n) + " connections")
        .xAxisTitle("server").yAxisTitle("bytes per connection").build();
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
    List<String> x = new ArrayList<>();
    List<Double> heap = new ArrayList<>();
    List<Double> rss = new ArrayList<>();
    for (String variant : Report.variants(summaries)) {
      Summary s = summaries.get(Summary.key(variant, n));
      if (s == null || s.why() != null) {
        continue;
      }
      x.add(variant);
      heap.add(Math.max(0, nanToZero(s.stats(c -> c.heapPerConnection)[0])));
      rss.add(Math.max(0, nanToZero(s.stats(c -> c.rssPerConnection)[0])));
    }
    if (x.isEmpty()) {
      return chart;
    }
    chart.addSeries("heap (after GC)", x, heap);
    chart.addSeries("RSS", x, rss);
    return chart;
  }

  private static double nanToZero(double v) {
    return Double.isNaN(v) ? 0 : v;
  }
}
