package io.krill.fibers.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** How the carriers' I/O handler is read from {@code krill.fibers.io}, and what {@code auto} picks. */
class CarrierIoTest {
  @Test
  void best_everythingLoads_picksEpollNotIoUring() {
    // The CI machine is this machine (Linux 6.x, io_uring enabled); io_uring loads here but stays
    // opt-in until Netty fixes netty/netty#17237 (see CarrierIo's notes).
    assertThat(CarrierIo.best()).isEqualTo(CarrierIo.EPOLL);
    assertThat(CarrierIo.parse("p", "AUTO")).isEqualTo(CarrierIo.EPOLL);
  }

  @Test
  void fromSystemProperty_unknownValue_namesTheProperty() {
    String old = System.setProperty(CarrierIo.PROPERTY, "kqueue");
    try {
      assertThatThrownBy(CarrierIo::fromSystemProperty)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("krill.fibers.io: kqueue (expected: nio, epoll, io_uring or auto)");
    } finally {
      restore(old);
    }
  }

  @Test
  void fromSystemProperty_unset_isTheDefault() {
    String old = System.clearProperty(CarrierIo.PROPERTY);
    try {
      assertThat(CarrierIo.fromSystemProperty()).isEqualTo(CarrierIo.parse("default", CarrierIo.DEFAULT));
    } finally {
      restore(old);
    }
  }

  @Test
  void parse_eachValue_parsedCaseInsensitively() {
    assertThat(CarrierIo.parse("krill.fibers.io", " IO_URING ")).isEqualTo(CarrierIo.IO_URING);
    assertThat(CarrierIo.parse("krill.fibers.io", "epoll")).isEqualTo(CarrierIo.EPOLL);
    assertThat(CarrierIo.parse("krill.fibers.io", "nio")).isEqualTo(CarrierIo.NIO);
  }

  @Test
  void requireAvailable_handlerLoads_returnsIt() {
    assertThat(CarrierIo.IO_URING.requireAvailable("krill.fibers.io")).isSameAs(CarrierIo.IO_URING);
    assertThat(CarrierIo.EPOLL.requireAvailable("krill.fibers.io")).isSameAs(CarrierIo.EPOLL);
  }

  private static void restore(String old) {
    if (old == null) {
      System.clearProperty(CarrierIo.PROPERTY);
    } else {
      System.setProperty(CarrierIo.PROPERTY, old);
    }
  }
}
