package io.krill.netio;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Runs a test once per transport: NIO, EPOLL and IO_URING, each on carriers that run it
 * ({@link TestLoops#on(Transport)}). None is skipped: a transport that does not load fails the
 * test, since the CI machine is this machine and all three load here (see
 * {@code TransportTest#transports_onThisMachine_allThreeLoad}).
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "{0}")
@EnumSource(value = Transport.class, names = {"NIO", "EPOLL", "IO_URING"})
@interface EveryTransport {}
