package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * An evidence bundle as gathered, and the sections that could not be.
 *
 * @param missingSources sections no source gave ({@code job}, {@code pods}, {@code events}, {@code logs},
 *        {@code metrics}); {@code job}, {@code pods} and {@code events} may still hold what the service knew locally
 * @param sourceErrors per missing section, why
 */
public record Gathered(ObjectNode bundle, List<String> missingSources, Map<String, String> sourceErrors) {
}
