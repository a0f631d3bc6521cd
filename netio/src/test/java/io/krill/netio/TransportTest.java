package io.krill.netio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.krill.fibers.FiberScheduler;
import io.krill.fibers.spi.Carriers;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import org.junit.jupiter.api.Test;

/** Which transports load, what AUTO picks, and how the two system properties are read. */
class TransportTest {
  @Test
  void transports_onThisMachine_allThreeLoad() {
    // The CI machine is this machine (Linux 6.x, io_uring enabled): a transport that stops
    // loading is a failure here, never a skip.
    for (Transport t : new Transport[] {Transport.NIO, Transport.EPOLL, Transport.IO_URING}) {
      assertThat(t.unavailabilityCause()).as(t + " unavailability cause").isNull();
      assertThat(t.isAvailable()).as(t.name()).isTrue();
      assertThat(t.resolve()).isEqualTo(t);
    }
  }

  @Test
  void auto_everythingLoads_picksEpollNotIoUring() {
    // io_uring loads here but stays opt-in until Netty fixes netty/netty#17237 (see fibers' CarrierIo).
    assertThat(Transport.AUTO.resolve()).isEqualTo(Transport.EPOLL);
    assertThat(Carriers.bestIo()).isEqualTo("epoll");
  }

  @Test
  void channelClasses_ioUring_areNettysIoUringChannels() {
    assertThat(Transport.IO_URING.socketChannel()).isEqualTo(IoUringSocketChannel.class);
    assertThat(Transport.IO_URING.serverChannel()).isEqualTo(IoUringServerSocketChannel.class);
    assertThat(Transport.EPOLL.socketChannel()).isEqualTo(EpollSocketChannel.class);
    assertThat(Transport.NIO.socketChannel()).isEqualTo(NioSocketChannel.class);
  }

  @Test
  void carrierTransport_eachCarrierIo_isTheMatchingTransport() {
    for (Transport t : new Transport[] {Transport.NIO, Transport.EPOLL, Transport.IO_URING}) {
      FiberScheduler s = TestLoops.on(t).scheduler();
      assertThat(Transport.ofCarriers(s)).isEqualTo(t);
      assertThat(t.group(s)).isSameAs(Carriers.group(s)).isNotNull();
    }
  }

  @Test
  void netioTransport_unknownValue_namesTheProperty() {
    withProperty("krill.netio.transport", "kqueue", () -> assertThatThrownBy(Transport::fromSystemProperty)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("krill.netio.transport: kqueue (expected: nio, epoll, io_uring or auto)"));
  }

  @Test
  void netioTransport_unset_followsFibersIoSoChannelsLiveOnTheCarriers() {
    withProperty("krill.netio.transport", null, () -> withProperty("krill.fibers.io", "io_uring",
        () -> assertThat(Transport.fromSystemProperty()).isEqualTo(Transport.IO_URING)));
    withProperty("krill.netio.transport", "epoll", () -> withProperty("krill.fibers.io", "io_uring",
        () -> assertThat(Transport.fromSystemProperty()).isEqualTo(Transport.EPOLL)));
    withProperty("krill.netio.transport", "auto", () -> assertThat(Transport.fromSystemProperty()).isEqualTo(Transport.AUTO));
    withProperty("krill.netio.transport", "io_uring", () -> assertThat(SocketOptions.builder().build().transport())
        .isEqualTo(Transport.IO_URING));
  }

  @Test
  void socketChannel_auto_isNotAResolvedTransport() {
    assertThatThrownBy(() -> Transport.AUTO.socketChannel())
        .hasMessage("transport: AUTO (expected: resolved with Transport.resolve())");
  }

  private static void withProperty(String name, String value, Runnable body) {
    String old = System.getProperty(name);
    set(name, value);
    try {
      body.run();
    } finally {
      set(name, old);
    }
  }

  private static void set(String name, String value) {
    if (value == null) {
      System.clearProperty(name);
    } else {
      System.setProperty(name, value);
    }
  }
}
