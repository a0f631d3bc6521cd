/**
 * A single-node Apache Kafka broker (KRaft: broker and controller in one) on loopback, for a
 * local crawl cluster, tests and demos. {@link io.krill.broker.KafkaBroker} runs it in this
 * JVM, {@link io.krill.broker.BrokerProcess} in a child JVM (which a test may kill -9), and
 * {@link io.krill.broker.BrokerCommand} is {@code krill broker}.
 *
 * <p>Threading: start and close block the calling thread; the broker runs on Kafka's own threads.
 */
package io.krill.broker;
