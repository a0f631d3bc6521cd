package io.krill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import java.net.URL;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The launcher's own logback.xml (not the tests' one), loaded into a context of its own. */
class LoggingConfigTest {
  private static LoggerContext launcherContext() throws Exception {
    URL config = Path.of("src/main/resources/logback.xml").toUri().toURL();
    LoggerContext ctx = new LoggerContext();
    JoranConfigurator j = new JoranConfigurator();
    j.setContext(ctx);
    j.doConfigure(config);
    return ctx;
  }

  @Test
  void launcherConfig_publicSuffixListLoad_notLoggedAtInfo() throws Exception {
    LoggerContext ctx = launcherContext();
    try {
      assertThat(ctx.getLogger("crawlercommons.domains.EffectiveTldFinder").isInfoEnabled()).isFalse();
      assertThat(ctx.getLogger("crawlercommons.domains.EffectiveTldFinder").isWarnEnabled()).isTrue();
      assertThat(ctx.getLogger("io.krill.crawler.Crawler").isInfoEnabled()).as("the crawler's own lines stay").isTrue();
    } finally {
      ctx.stop();
    }
  }
}
