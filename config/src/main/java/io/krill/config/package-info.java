/**
 * Layered, typed, validated configuration: defaults, then a HOCON file, then environment
 * variables, then flags.
 *
 * <p>Declare {@link io.krill.config.Setting} constants, collect them in a
 * {@link io.krill.config.ConfigSchema}, and load {@link io.krill.config.Settings} with
 * {@link io.krill.config.ConfigSchema#loader()}; every bad value, unknown key or malformed file
 * becomes one {@link io.krill.config.ConfigException} that names the key, the value, what was
 * expected and where the value came from. Schemas, settings and loaded settings are immutable and
 * thread-safe; a loader is used by one thread. Nothing here suspends.
 */
package io.krill.config;
