package io.jobmon.sim.scenario;

import java.util.function.Function;

/**
 * A job's behaviour on the sim, asked for with the label {@code jobmon.io/sim-scenario} (or
 * {@code sim.jobmon.io/scenario}) on its pod template.
 *
 * @param plays what it plays, one line (the README's table)
 * @param script the container's script for one start
 */
public record Scenario(String name, String plays, Function<Run, Script> script) {
}
