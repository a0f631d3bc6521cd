package io.krill.netio.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConnectionHandlerTest {
  /** The core with recording hooks; the embedded channel runs the loop side on the test thread. */
  static final class Recording extends ConnectionHandler {
    final List<Object> queued = new ArrayList<>();
    final List<Object> dequeued = new ArrayList<>();
    int readable;

    Recording(EmbeddedChannel ch) {
      super(ch);
    }

    @Override
    public String peer() {
      return "peer";
    }

    @Override
    protected IOException writeRefused(Throwable failure) {
      return new IOException("refused");
    }

    @Override
    protected void queued(Object msg) {
      queued.add(msg);
    }

    @Override
    protected void dequeued(Object msg) {
      dequeued.add(msg);
    }

    @Override
    protected void readable(Object reader) {
      readable++;
    }
  }

  private static Recording attach(EmbeddedChannel ch) {
    Recording r = new Recording(ch);
    ch.pipeline().addLast(r);
    return r;
  }

  @Test
  void poll_severalMessages_comeInOrderAndWakeOncePerEmptyToNonEmpty() {
    EmbeddedChannel ch = new EmbeddedChannel();
    Recording r = attach(ch);
    ch.writeInbound("a", "b", "c");
    assertThat(r.readable).isEqualTo(1);
    assertThat(r.hasQueued()).isTrue();
    assertThat(List.of(r.poll(), r.poll(), r.poll())).containsExactly("a", "b", "c");
    assertThat(r.poll()).isNull();
    assertThat(r.queued).containsExactly("a", "b", "c");
    assertThat(r.dequeued).containsExactly("a", "b", "c");
    ch.writeInbound("d");
    assertThat(r.readable).isEqualTo(2);
    assertThat(r.poll()).isEqualTo("d");
    ch.finishAndReleaseAll();
  }

  @Test
  void pollOrEnd_inputShutDown_endsOnceTheQueueIsEmpty() {
    EmbeddedChannel ch = new EmbeddedChannel();
    Recording r = attach(ch);
    ch.writeInbound("last");
    ch.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
    assertThat(r.pollOrEnd()).isEqualTo("last");
    assertThat(r.pollOrEnd()).isSameAs(ConnectionHandler.END);
    assertThat(r.pollOrPublish(Thread.currentThread())).isSameAs(ConnectionHandler.END);
    assertThat(r.reader()).isNull();
    ch.finishAndReleaseAll();
  }

  @Test
  void pollOrPublish_emptyAndOpen_publishesTheReader() {
    EmbeddedChannel ch = new EmbeddedChannel();
    Recording r = attach(ch);
    assertThat(r.pollOrPublish(Thread.currentThread())).isNull();
    assertThat(r.reader()).isSameAs(Thread.currentThread());
    r.publishReader(null);
    ch.finishAndReleaseAll();
  }

  @Test
  void closeQueue_releasesWhatIsQueuedAndWhatArrivesLater() {
    EmbeddedChannel ch = new EmbeddedChannel();
    Recording r = attach(ch);
    ByteBuf queued = Unpooled.buffer(4).writeInt(1);
    ch.writeInbound(queued);
    assertThat(r.closeQueue()).isTrue();
    assertThat(r.closeQueue()).isFalse();
    assertThat(queued.refCnt()).isZero();
    assertThat(r.isClosed()).isTrue();
    ByteBuf late = Unpooled.buffer(4).writeInt(2);
    ch.writeInbound(late);
    assertThat(late.refCnt()).isZero();
    assertThat(r.pollOrEnd()).isSameAs(ConnectionHandler.END);
    ch.finishAndReleaseAll();
  }

  @Test
  void exceptionCaught_firstFailureWins() {
    EmbeddedChannel ch = new EmbeddedChannel();
    Recording r = attach(ch);
    IllegalStateException first = new IllegalStateException("first");
    ch.pipeline().fireExceptionCaught(first);
    ch.pipeline().fireExceptionCaught(new IllegalStateException("second"));
    assertThat(r.failure()).isSameAs(first);
    assertThat(r.isEmptyAndOpen()).isFalse();
    ch.finishAndReleaseAll();
  }
}
