package io.krill.testweb;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WebHandlerTest {
  @ParameterizedTest(name = "Host \"{0}\" -> \"{1}\"")
  @CsvSource(delimiter = '|', nullValues = "null", ignoreLeadingAndTrailingWhitespace = false, textBlock = """
      H3.Krill.TEST:8080|h3.krill.test
      h3.krill.test.|h3.krill.test
       h3.krill.test |h3.krill.test
      [::1]:80|[::1]
      [::1]|[::1]
      null|''
      """)
  void hostName_portCaseAndTrailingDot_areRemoved(String header, String host) {
    assertThat(WebHandler.hostName(header)).isEqualTo(host);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', textBlock = """
      http://h3.krill.test:8080/page/1.html?x=1 | /page/1.html?x=1
      http://h3.krill.test:8080                 | /
      /page/1.html                              | /page/1.html
      """)
  void originForm_absoluteFormTargets_loseSchemeAndAuthority(String target, String originForm) {
    assertThat(WebHandler.originForm(target)).isEqualTo(originForm);
  }
}
