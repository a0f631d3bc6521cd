/**
 * Layered, typed, validated configuration: defaults, then a HOCON file, then environment
 * variables, then flags.
 *
 * <p>Declare {@link io.krill.config.Setting} constants, collect them in a
 * {@link io.krill.config.ConfigSchema}, and load {@link io.krill.config.Settings} with
 * {@link io.krill.config.ConfigSchema#loader()}; every bad value, unknown key or malformed file
 * becomes one {@link io.krill.config.ConfigException} that names the key, the value, what was
 * expected and where the value came from.
 *
 * <p>{@link io.krill.config.CommandOptions} turns a schema into picocli options (one flag per
 * setting, its help line and default) and the flags given into the loader's flag layer;
 * {@link io.krill.config.ConfigBinding} binds each setting to the builder setter that checks it, so
 * a command's options, help, environment variables and docs table come from one declaration.
 * {@link io.krill.config.Units} is the one duration and byte-size grammar, and
 * {@link io.krill.config.HostPort} the one {@code HOST:PORT} reader.
 *
 * <p>Schemas, settings, bindings and loaded settings are immutable and thread-safe; a loader is
 * used by one thread. Nothing here suspends.
 */
package io.krill.config;
