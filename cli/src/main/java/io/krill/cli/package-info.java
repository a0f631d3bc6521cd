/**
 * The {@code bin/krill} launcher: one picocli command line over every module.
 *
 * <p>The entry class is {@link io.krill.cli.Krill}. Each subcommand runs on the calling
 * thread; bad usage prints one line and exits with status 2.
 */
package io.krill.cli;
