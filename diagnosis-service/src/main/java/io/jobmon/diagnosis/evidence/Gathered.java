package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * An evidence bundle as gathered, the sections that could not be, and what was read.
 *
 * @param missingSources sections no source gave ({@code job}, {@code pods}, {@code events}, {@code logs},
 *        {@code metrics}); {@code job}, {@code pods} and {@code events} may still hold what the service knew locally
 * @param sourceErrors per missing section, why; {@code logs.partial} / {@code metrics.partial} name reads of a
 *        section that was gathered without them
 * @param read per section, how much was read (lines per read, events and pages, series and points)
 */
public record Gathered(ObjectNode bundle, List<String> missingSources, Map<String, String> sourceErrors,
        Map<String, Object> read) {
}
