/**
 * The broker's configuration and storage formatting: the Kafka properties of a one-node KRaft
 * cluster on loopback, and the saved ports that let a restart keep its address. Not API.
 */
package io.krill.broker.internal;
