package io.krill.testweb;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WebHandlerTest {
  @Test
  void hostName_portCaseAndTrailingDot_areRemoved() {
    assertThat(WebHandler.hostName("H3.Krill.TEST:8080")).isEqualTo("h3.krill.test");
    assertThat(WebHandler.hostName("h3.krill.test.")).isEqualTo("h3.krill.test");
    assertThat(WebHandler.hostName(" h3.krill.test ")).isEqualTo("h3.krill.test");
    assertThat(WebHandler.hostName("[::1]:80")).isEqualTo("[::1]");
    assertThat(WebHandler.hostName("[::1]")).isEqualTo("[::1]");
    assertThat(WebHandler.hostName(null)).isEmpty();
  }

  @Test
  void originForm_absoluteFormTargets_loseSchemeAndAuthority() {
    assertThat(WebHandler.originForm("http://h3.krill.test:8080/page/1.html?x=1")).isEqualTo("/page/1.html?x=1");
    assertThat(WebHandler.originForm("http://h3.krill.test:8080")).isEqualTo("/");
    assertThat(WebHandler.originForm("/page/1.html")).isEqualTo("/page/1.html");
  }
}
