/**
 * Fixture of {@code LayersTest}: classes laid out as modules under this package, each rule of
 * {@code Layers} broken once on purpose. Never used by code.
 */
package io.krill.cli.layers;
