package io.krill.netio;

import static org.assertj.core.api.Assertions.assertThat;

import io.krill.testkit.LeakRecordingDetector;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;

/** The leak check that every test relies on does see a leak. */
class LeakDetectionTest {
  @Test
  void leaks_bufferNeverReleased_isReportedWithItsRecords() throws Exception {
    leak();
    assertThat(LeakRecordingDetector.leaks()).anySatisfy(l -> assertThat(l).startsWith("LEAK: ByteBuf.release()"));
  }

  private static void leak() {
    ByteBuf b = PooledByteBufAllocator.DEFAULT.buffer(16);
    b.writeInt(42);
  }
}
